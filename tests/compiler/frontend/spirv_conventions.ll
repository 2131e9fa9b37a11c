; What llvm-spirv-15 writes for a SPIR-V kernel, given the frontend's
; conventions (compiler/frontend/spirv_translator.cpp, adoptFrontendConventions)
; before the usual pipeline: the host triple and data layout; the C calling
; convention for functions and calls but kernels; builtin names mangled as
; Clang mangles them for x86 (address spaces as CLglobal, CLlocal, ...,
; not AS<n>), so they resolve to Weft's builtin library instead of failing
; to link; the uniform group instructions' bitwise operations under their
; OpenCL C names (work_group_reduce_and, not ..._bitwise_and); variables of
; the constant address space marked constant (printf needs its format to be
; one).
; RUN: %weft-opt --spirv-conventions %s | FileCheck %s

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; CHECK: target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
; CHECK: target triple = "x86_64-unknown-linux-gnu"

; CHECK: @format = internal addrspace(2) constant [4 x i8]
@format = internal addrspace(2) global [4 x i8] c"%d\0A\00"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: call i32 @_Z25atomic_fetch_add_explicitPU9CLgenericVU7_Atomicii12memory_order12memory_scope(
; CHECK: call void @_Z8prefetchPU8CLglobalKcm(
; CHECK: call i32 @_Z20work_group_reduce_andi(
; CHECK: call i64 @_Z29work_group_scan_exclusive_xorm(
; CHECK: call i32 @_Z29work_group_reduce_logical_andi(
; CHECK: call i32 @helper(
define spir_kernel void @k(ptr addrspace(1) %p, ptr addrspace(4) %g) {
  %old = call spir_func i32 @_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope(ptr addrspace(4) %g, i32 1, i32 0, i32 1)
  call spir_func void @_Z8prefetchPU3AS1Kcm(ptr addrspace(1) %p, i64 4)
  %and = call spir_func i32 @_Z28work_group_reduce_bitwise_andi(i32 %old)
  %xor = call spir_func i64 @_Z37work_group_scan_exclusive_bitwise_xorm(i64 4)
  %logical = call spir_func i32 @_Z29work_group_reduce_logical_andi(i32 %and)
  %h = call spir_func i32 @helper(i32 %old)
  ret void
}

; CHECK: define i32 @helper(
define spir_func i32 @helper(i32 %x) {
  ret i32 %x
}

; CHECK-NOT: U3AS
; CHECK-NOT: bitwise
; CHECK-NOT: spir_func
declare spir_func i32 @_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope(ptr addrspace(4), i32, i32, i32)
declare spir_func void @_Z8prefetchPU3AS1Kcm(ptr addrspace(1), i64)
declare spir_func i32 @_Z28work_group_reduce_bitwise_andi(i32)
declare spir_func i64 @_Z37work_group_scan_exclusive_bitwise_xorm(i64)
declare spir_func i32 @_Z29work_group_reduce_logical_andi(i32)
