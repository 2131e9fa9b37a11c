; weft-plain-private-volatiles: volatile loads and stores of a private
; variable no one else can see (CLBlast's `volatile int tid`) become plain;
; a variable whose address escapes (into a call, stored to memory) keeps
; them, and so do volatile accesses of global memory.
; RUN: %weft-opt %s -passes=weft-plain-private-volatiles | FileCheck %s

; CHECK-LABEL: define spir_kernel void @own(
; CHECK: store i32 %tid, ptr %v, align 4
; CHECK: %elem = getelementptr inbounds i32, ptr %arr, i64 1
; CHECK: store i32 %tid, ptr %elem, align 4
; CHECK: %again = load i32, ptr %v, align 4
; CHECK: %from_arr = load i32, ptr %elem, align 4
; CHECK: store volatile i32 %again, ptr addrspace(1) %out
define spir_kernel void @own(ptr addrspace(1) %out, i32 %tid) {
entry:
  %v = alloca i32, align 4
  %arr = alloca [2 x i32], align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %v)
  store volatile i32 %tid, ptr %v, align 4
  %elem = getelementptr inbounds i32, ptr %arr, i64 1
  store volatile i32 %tid, ptr %elem, align 4
  %again = load volatile i32, ptr %v, align 4
  %from_arr = load volatile i32, ptr %elem, align 4
  store volatile i32 %again, ptr addrspace(1) %out
  %sum = add i32 %again, %from_arr
  store i32 %sum, ptr addrspace(1) %out
  call void @llvm.lifetime.end.p0(i64 4, ptr %v)
  ret void
}

; CHECK-LABEL: define spir_kernel void @escapes(
; CHECK: store volatile i32 %tid, ptr %passed
; CHECK: store volatile i32 %tid, ptr %stored
define spir_kernel void @escapes(ptr addrspace(1) %out, ptr %slot, i32 %tid) {
entry:
  %passed = alloca i32, align 4
  %stored = alloca i32, align 4
  store volatile i32 %tid, ptr %passed, align 4
  call void @use(ptr %passed)
  store volatile i32 %tid, ptr %stored, align 4
  store ptr %stored, ptr %slot
  ret void
}

declare void @use(ptr)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
