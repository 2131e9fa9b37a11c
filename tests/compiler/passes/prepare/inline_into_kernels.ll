; weft-inline-into-kernels: helpers are inlined into the kernels and drop
; out; kernels stay.
; RUN: %weft-opt %s -passes=weft-inline-into-kernels | FileCheck %s

; CHECK-NOT: @helper
; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %[[TWICE:.*]] = fmul float %x, 2.0
; CHECK-NEXT: store float %[[TWICE]], ptr addrspace(1) %out
; CHECK-NEXT: ret void

define float @helper(float %x) noinline optnone {
entry:
  %twice = fmul float %x, 2.0
  ret float %twice
}

define spir_kernel void @k(ptr addrspace(1) %out, float %x) {
entry:
  %v = call float @helper(float %x)
  store float %v, ptr addrspace(1) %out
  ret void
}
