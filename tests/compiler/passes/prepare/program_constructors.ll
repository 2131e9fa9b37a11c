; weft-program-constructors: the function C++ for OpenCL emits to construct
; program-scope objects is a spir_kernel listed in llvm.global_ctors; it
; becomes a plain function (C calling convention, no kernel metadata) that
; stays in the list, so the shared object's loading runs it. Real kernels,
; and a spir_kernel no list names, are left alone.
; RUN: %weft-opt %s -passes=weft-program-constructors | FileCheck %s

; CHECK: @llvm.global_ctors = appending global {{.*}} ptr @_GLOBAL__sub_I_program
; CHECK-LABEL: define internal void @_GLOBAL__sub_I_program() section ".text.startup" {
; CHECK-LABEL: define spir_kernel void @read_table(ptr addrspace(1) %out) !kernel_arg_addr_space
; CHECK-LABEL: define spir_kernel void @not_listed() !kernel_arg_addr_space

%struct.Table = type { [4 x i32] }

@table = addrspace(1) global %struct.Table zeroinitializer, align 4
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @_GLOBAL__sub_I_program, ptr null }]

define internal spir_kernel void @_GLOBAL__sub_I_program() section ".text.startup" !kernel_arg_addr_space !0 !kernel_arg_access_qual !0 !kernel_arg_type !0 !kernel_arg_base_type !0 !kernel_arg_type_qual !0 {
  store i32 7, ptr addrspace(1) @table, align 4
  ret void
}

define spir_kernel void @read_table(ptr addrspace(1) %out) !kernel_arg_addr_space !1 {
  %v = load i32, ptr addrspace(1) @table, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

define spir_kernel void @not_listed() !kernel_arg_addr_space !0 {
  ret void
}

!0 = !{}
!1 = !{i32 1}
