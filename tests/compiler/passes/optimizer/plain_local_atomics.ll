; weft-plain-local-atomics: atomics on __local memory (addrspace 3), which
; only the thread running the group touches, become a plain load, the
; operation and a store; those on global, generic and private pointers stay
; atomic.
; RUN: %weft-opt %s -passes=weft-plain-local-atomics | FileCheck %s

; CHECK-LABEL: define i32 @count(
; CHECK-NOT: atomicrmw
; CHECK: %[[OLD:[^ ]+]] = load i32, ptr addrspace(3) %bin
; CHECK-NEXT: %[[NEW:[^ ]+]] = add i32 %[[OLD]], 1
; CHECK-NEXT: store i32 %[[NEW]], ptr addrspace(3) %bin
; CHECK: ret i32 %[[OLD]]
define i32 @count(ptr addrspace(3) %bin) {
  %old = atomicrmw volatile add ptr addrspace(3) %bin, i32 1 seq_cst
  ret i32 %old
}

; CHECK-LABEL: define i32 @minimum(
; CHECK: %[[OLD:[^ ]+]] = load i32, ptr addrspace(3) %slot
; CHECK: %[[LESS:[^ ]+]] = icmp sle i32 %[[OLD]], %v
; CHECK: %[[NEW:[^ ]+]] = select i1 %[[LESS]], i32 %[[OLD]], i32 %v
; CHECK: store i32 %[[NEW]], ptr addrspace(3) %slot
define i32 @minimum(ptr addrspace(3) %slot, i32 %v) {
  %old = atomicrmw min ptr addrspace(3) %slot, i32 %v acq_rel
  ret i32 %old
}

; CHECK-LABEL: define { i32, i1 } @exchange(
; CHECK-NOT: cmpxchg
; CHECK: %[[OLD:[^ ]+]] = load i32, ptr addrspace(3) %slot
; CHECK: %[[SAME:[^ ]+]] = icmp eq i32 %[[OLD]], %expected
; CHECK: %[[NEW:[^ ]+]] = select i1 %[[SAME]], i32 %desired, i32 %[[OLD]]
; CHECK: store i32 %[[NEW]], ptr addrspace(3) %slot
define { i32, i1 } @exchange(ptr addrspace(3) %slot, i32 %expected, i32 %desired) {
  %pair = cmpxchg ptr addrspace(3) %slot, i32 %expected, i32 %desired seq_cst seq_cst
  ret { i32, i1 } %pair
}

; CHECK-LABEL: define float @others(
; CHECK: atomicrmw fadd ptr addrspace(1) %global, float %v seq_cst
; CHECK: atomicrmw add ptr %generic, i32 1 seq_cst
; CHECK: cmpxchg ptr addrspace(1) %global
define float @others(ptr addrspace(1) %global, ptr %generic, float %v) {
  %a = atomicrmw fadd ptr addrspace(1) %global, float %v seq_cst
  %b = atomicrmw add ptr %generic, i32 1 seq_cst
  %c = cmpxchg ptr addrspace(1) %global, i32 0, i32 1 seq_cst seq_cst
  ret float %a
}
