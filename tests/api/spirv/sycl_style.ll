; Device code in the shape DPC++ (SYCL) gives llvm-spirv: C++-mangled
; kernel names, accessors passed as a pointer with its range and offset
; structs by value, built-ins read from __spirv_BuiltIn* variables,
; generic pointers, and the __spirv_* builtins for group operations,
; barriers and atomics. Translated by make_fixtures.sh to sycl_style.spv.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

%"class.sycl::_V1::detail::array" = type { [1 x i64] }
%"class.sycl::_V1::range" = type { %"class.sycl::_V1::detail::array" }
%"class.sycl::_V1::id" = type { %"class.sycl::_V1::detail::array" }

@__spirv_BuiltInGlobalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32
@__spirv_BuiltInLocalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32
@__spirv_BuiltInWorkgroupId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32

; sum += x through a generic pointer, as SYCL code compiles by default.
define linkonce_odr dso_local spir_func void @_Z10accumulatePU3AS4ff(float addrspace(4)* noundef %sum, float noundef %x) {
entry:
  %old = load float, float addrspace(4)* %sum, align 4
  %new = fadd float %old, %x
  store float %new, float addrspace(4)* %sum, align 4
  ret void
}

; Each work-group sums in[offset + i] over its work-items with
; reduce_over_group, stores the sum through a local accessor, and the
; group's leader adds it to out[0] with an atomic_ref (seq_cst, device
; scope) and counts the group in out_count.
define weak_odr dso_local spir_kernel void @_ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E9GroupSums(
    float addrspace(1)* noundef align 4 %_arg_in,
    %"class.sycl::_V1::range"* noundef byval(%"class.sycl::_V1::range") align 8 %_arg_in_access_range,
    %"class.sycl::_V1::range"* noundef byval(%"class.sycl::_V1::range") align 8 %_arg_in_mem_range,
    %"class.sycl::_V1::id"* noundef byval(%"class.sycl::_V1::id") align 8 %_arg_in_offset,
    float addrspace(3)* noundef align 4 %_arg_scratch,
    float addrspace(1)* noundef align 4 %_arg_out,
    i32 addrspace(1)* noundef align 4 %_arg_count) {
entry:
  %offset.p = getelementptr inbounds %"class.sycl::_V1::id", %"class.sycl::_V1::id"* %_arg_in_offset, i64 0, i32 0, i32 0, i64 0
  %offset = load i64, i64* %offset.p, align 8
  %in.base = getelementptr inbounds float, float addrspace(1)* %_arg_in, i64 %offset
  %gids = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %gid = extractelement <3 x i64> %gids, i64 0
  %lids = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInLocalInvocationId, align 32
  %lid = extractelement <3 x i64> %lids, i64 0
  %in.p = getelementptr inbounds float, float addrspace(1)* %in.base, i64 %gid
  %in.g = addrspacecast float addrspace(1)* %in.p to float addrspace(4)*
  %x = load float, float addrspace(4)* %in.g, align 4
  %sum = tail call spir_func float @_Z17__spirv_GroupFAddiif(i32 2, i32 0, float %x)
  %leader = icmp eq i64 %lid, 0
  br i1 %leader, label %store, label %wait

store:
  store float 0.0, float addrspace(3)* %_arg_scratch, align 4
  %scratch.g = addrspacecast float addrspace(3)* %_arg_scratch to float addrspace(4)*
  call spir_func void @_Z10accumulatePU3AS4ff(float addrspace(4)* %scratch.g, float %sum)
  br label %wait

wait:
  ; group_barrier: workgroup scope, acquire-release on workgroup memory.
  tail call spir_func void @_Z22__spirv_ControlBarrierjjj(i32 2, i32 2, i32 264)
  br i1 %leader, label %publish, label %done

publish:
  %local = load float, float addrspace(3)* %_arg_scratch, align 4
  %out.g = addrspacecast float addrspace(1)* %_arg_out to float addrspace(4)*
  %prev = tail call spir_func float @_Z21__spirv_AtomicFAddEXTPU3AS4fiif(float addrspace(4)* %out.g, i32 1, i32 912, float %local)
  %count.g = addrspacecast i32 addrspace(1)* %_arg_count to i32 addrspace(4)*
  %n = tail call spir_func i32 @_Z18__spirv_AtomicIAddPU3AS4iiii(i32 addrspace(4)* %count.g, i32 1, i32 912, i32 1)
  br label %done

done:
  ret void
}

declare dso_local spir_func float @_Z17__spirv_GroupFAddiif(i32, i32, float)
declare dso_local spir_func void @_Z22__spirv_ControlBarrierjjj(i32, i32, i32)
declare dso_local spir_func float @_Z21__spirv_AtomicFAddEXTPU3AS4fiif(float addrspace(4)*, i32, i32, float)
declare dso_local spir_func i32 @_Z18__spirv_AtomicIAddPU3AS4iiii(i32 addrspace(4)*, i32, i32, i32)

!opencl.spir.version = !{!0}
!spirv.Source = !{!1}
!0 = !{i32 1, i32 2}
!1 = !{i32 4, i32 100000}
