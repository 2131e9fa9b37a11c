; weft-parallel-work-item-loops: a loop over work-items (marked
; weft.work_item_loop) whose accesses to memory are plain loads and stores
; is marked parallel: each access joins one access group, which the loop id
; names as llvm.loop.parallel_accesses. A loop whose work-items may rightly
; see each other stays as it is: an atomic, a fence, a call that touches
; memory, private memory (an alloca the work-items share once inlined), a
; region loop marked weft.work_items_in_turn; and loops Weft did not build.
; RUN: %weft-opt %s -passes=weft-parallel-work-item-loops | FileCheck %s

; CHECK-LABEL: define void @plain(
; CHECK: load float, ptr addrspace(1) %in.at, align 4, !llvm.access.group ![[GROUP:[0-9]+]]
; CHECK: load float, ptr addrspace(1) %out.at, align 4, !llvm.access.group ![[GROUP]]
; CHECK: store float %sum, ptr addrspace(1) %out.at, align 4, !llvm.access.group ![[GROUP]]
; CHECK: br i1 %more, label %loop, label %exit, !llvm.loop ![[PLAIN:[0-9]+]]
define void @plain(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %n) {
entry:
  br label %loop
loop:
  %id = phi i64 [ 0, %entry ], [ %next, %loop ]
  %in.at = getelementptr float, ptr addrspace(1) %in, i64 %id
  %x = load float, ptr addrspace(1) %in.at, align 4
  %out.at = getelementptr float, ptr addrspace(1) %out, i64 %id
  %y = load float, ptr addrspace(1) %out.at, align 4
  %sum = fadd float %x, %y
  store float %sum, ptr addrspace(1) %out.at, align 4
  %next = add nuw i64 %id, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}

; CHECK-LABEL: define void @atomic(
; CHECK-NOT: llvm.access.group
; CHECK: ret void
define void @atomic(ptr addrspace(1) %out, ptr addrspace(1) %count, i64 %n) {
entry:
  br label %loop
loop:
  %id = phi i64 [ 0, %entry ], [ %next, %loop ]
  %old = atomicrmw add ptr addrspace(1) %count, i32 1 seq_cst, align 4
  %out.at = getelementptr i32, ptr addrspace(1) %out, i64 %id
  store i32 %old, ptr addrspace(1) %out.at, align 4
  %next = add nuw i64 %id, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !2
exit:
  ret void
}

; CHECK-LABEL: define void @fence(
; CHECK-NOT: llvm.access.group
; CHECK: ret void
define void @fence(ptr addrspace(1) %out, i64 %n) {
entry:
  br label %loop
loop:
  %id = phi i64 [ 0, %entry ], [ %next, %loop ]
  %out.at = getelementptr float, ptr addrspace(1) %out, i64 %id
  store float 1.0, ptr addrspace(1) %out.at, align 4
  fence syncscope("workgroup") release
  %next = add nuw i64 %id, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !3
exit:
  ret void
}

declare void @opaque(ptr addrspace(1))

; CHECK-LABEL: define void @call(
; CHECK-NOT: llvm.access.group
; CHECK: ret void
define void @call(ptr addrspace(1) %out, i64 %n) {
entry:
  br label %loop
loop:
  %id = phi i64 [ 0, %entry ], [ %next, %loop ]
  %out.at = getelementptr float, ptr addrspace(1) %out, i64 %id
  store float 1.0, ptr addrspace(1) %out.at, align 4
  call void @opaque(ptr addrspace(1) %out.at)
  %next = add nuw i64 %id, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !4
exit:
  ret void
}

; A private array indexed by data: once inlined, every work-item writes
; and reads the same alloca in turn.
; CHECK-LABEL: define void @private_array(
; CHECK-NOT: llvm.access.group
; CHECK: ret void
define void @private_array(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %n) {
entry:
  %array = alloca [8 x float], align 4
  br label %loop
loop:
  %id = phi i64 [ 0, %entry ], [ %next, %loop ]
  %in.at = getelementptr i32, ptr addrspace(1) %in, i64 %id
  %index = load i32, ptr addrspace(1) %in.at, align 4
  %slot = getelementptr [8 x float], ptr %array, i64 0, i32 %index
  store float 1.0, ptr %slot, align 4
  %first = load float, ptr %array, align 4
  %out.at = getelementptr float, ptr addrspace(1) %out, i64 %id
  store float %first, ptr addrspace(1) %out.at, align 4
  %next = add nuw i64 %id, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !5
exit:
  ret void
}

; A loop the kernel wrote.
; CHECK-LABEL: define void @kernel_loop(
; CHECK-NOT: llvm.access.group
; CHECK: ret void
define void @kernel_loop(ptr addrspace(1) %out, i64 %n) {
entry:
  br label %loop
loop:
  %id = phi i64 [ 0, %entry ], [ %next, %loop ]
  %out.at = getelementptr float, ptr addrspace(1) %out, i64 %id
  store float 1.0, ptr addrspace(1) %out.at, align 4
  %next = add nuw i64 %id, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; A region loop whose work-items share a variable, left to run them in turn.
; CHECK-LABEL: define void @in_turn(
; CHECK-NOT: llvm.access.group
; CHECK: ret void
define void @in_turn(ptr addrspace(1) %out, i64 %n) {
entry:
  br label %loop
loop:
  %id = phi i64 [ 0, %entry ], [ %next, %loop ]
  %out.at = getelementptr float, ptr addrspace(1) %out, i64 %id
  store float 1.0, ptr addrspace(1) %out.at, align 4
  %next = add nuw i64 %id, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !6
exit:
  ret void
}

; CHECK: ![[PLAIN]] = distinct !{![[PLAIN]], !{{[0-9]+}}, ![[PARALLEL:[0-9]+]]}
; CHECK: ![[PARALLEL]] = !{!"llvm.loop.parallel_accesses", ![[GROUP]]}
!0 = distinct !{!0, !1}
!1 = !{!"weft.work_item_loop"}
!2 = distinct !{!2, !1}
!3 = distinct !{!3, !1}
!4 = distinct !{!4, !1}
!5 = distinct !{!5, !1}
!6 = distinct !{!6, !1, !7}
!7 = !{!"weft.work_items_in_turn"}
