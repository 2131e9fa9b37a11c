; weft-split-work-item-ranges: a loop over work-items (marked
; weft.work_item_loop) whose body branches on `id < bound` runs as two
; loops: the first over the ids below the bound with the branch gone its
; true way, the second from there on with it gone the other way; each part
; runs only when it has ids. A branch on `id == bound` splits twice: the
; ids below the bound (store gone), the bound alone (store kept), the ids
; past it (gone). Loops Weft did not build stay as they are. A compared
; value that may wrap (an int taken from a
; size_t id) is checked first: if it would wrap, an unsplit copy runs,
; kept scalar.
; RUN: %weft-opt %s -passes=weft-split-work-item-ranges | FileCheck %s

; CHECK-LABEL: define void @below(
; CHECK: entry:
; CHECK: %[[ABOVE:[^ ]+]] = call i64 @llvm.umax.i64(i64 %bound, i64 %first)
; CHECK: %[[BELOW:[^ ]+]] = sub i64 %[[ABOVE]], %first
; CHECK: %[[FIRST_ROUNDS:[^ ]+]] = call i64 @llvm.umin.i64(i64 %[[BELOW]], i64 %{{.*}})
; CHECK: %[[AT:[^ ]+]] = add nuw i64 %first, %[[FIRST_ROUNDS]]
; CHECK: %[[HAS_FIRST:[^ ]+]] = icmp ne i64 %[[FIRST_ROUNDS]], 0
; CHECK: br i1 %[[HAS_FIRST]], label %second.preheader.first, label %second.guard
; The first part: the store, no compare, up to the split.
; CHECK: loop.first:
; CHECK-NEXT: %[[ID1:[^ ]+]] = phi i64 [ %first, %second.preheader.first ]
; CHECK-NOT: icmp ult i64 %[[ID1]], %bound
; CHECK: store float 1.000000e+00
; CHECK: %[[NEXT1:[^ ]+]] = add nuw nsw i64 %[[ID1]], 1
; CHECK: %[[MORE1:[^ ]+]] = icmp ne i64 %[[NEXT1]], %[[AT]]
; CHECK-NEXT: br i1 %[[MORE1]], label %loop.first, label %first.exit, !llvm.loop ![[ID:[0-9]+]]
; The second part starts at the split, without the store.
; CHECK: loop:
; CHECK-NEXT: %{{.*}} = phi i64 [ %[[AT]], %second.preheader ]
; CHECK-NOT: store
; CHECK: br i1 %{{.*}}, label %loop, label %second.exit, !llvm.loop ![[ID]]
; CHECK: ret void
define void @below(ptr %out, i64 %first, i64 %last, i64 %bound) {
entry:
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  %in = icmp ult i64 %id, %bound
  br i1 %in, label %then, label %latch

then:
  %slot = getelementptr inbounds float, ptr %out, i64 %id
  store float 1.0, ptr %slot
  br label %latch

latch:
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done, !llvm.loop !0

done:
  ret void
}

; `id >= bound` as a suffix: the first part (ids below) has no store.
; CHECK-LABEL: define void @at_least(
; CHECK: loop.first:
; CHECK-NOT: store
; CHECK: first.exit:
; CHECK: loop:
; CHECK: store float 2.000000e+00
; CHECK: ret void
define void @at_least(ptr %out, i64 %first, i64 %last, i64 %bound) {
entry:
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  %in = icmp uge i64 %id, %bound
  br i1 %in, label %then, label %latch

then:
  %slot = getelementptr inbounds float, ptr %out, i64 %id
  store float 2.0, ptr %slot
  br label %latch

latch:
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done, !llvm.loop !0

done:
  ret void
}

; An int compared with a signed bound may wrap: checked in 128 bits, and
; the unsplit copy is kept from being vectorized.
; CHECK-LABEL: define void @int_below(
; CHECK: %[[NO_WRAP:[^ ]+]] = icmp sle i128 %{{.*}}, 2147483647
; CHECK: br i1 %[[NO_WRAP]], label %split.decide, label %second.preheader.unsplit
; CHECK: loop.unsplit:
; CHECK: icmp slt i32
; CHECK: br i1 %{{.*}}, label %loop.unsplit, label %unsplit.exit, !llvm.loop ![[SCALAR:[0-9]+]]
; CHECK: ret void
define void @int_below(ptr %out, i64 %first, i64 %last, i64 %base, i32 %bound) {
entry:
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  %global = add i64 %base, %id
  %int = trunc i64 %global to i32
  %in = icmp slt i32 %int, %bound
  br i1 %in, label %then, label %latch

then:
  %slot = getelementptr inbounds float, ptr %out, i64 %id
  store float 3.0, ptr %slot
  br label %latch

latch:
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done, !llvm.loop !0

done:
  ret void
}

; == : below the bound, then from it: the first round where the part starts
; at the bound (1 - umin(start - bound, 1) rounds), then the rest.
; CHECK-LABEL: define void @equal(
; CHECK: loop.first:
; CHECK-NOT: store
; CHECK: second.guard:
; CHECK: %[[PAST:[0-9]+]] = sub i64 %{{.*}}, %bound
; CHECK: %[[ONE:[^ ]+]] = call i64 @llvm.umin.i64(i64 %[[PAST]], i64 1)
; CHECK: sub i64 1, %[[ONE]]
; CHECK: then.first{{[0-9]+}}:
; CHECK: store float 4.0
; CHECK: loop:
; CHECK-NOT: store
; CHECK-NOT: icmp eq
; CHECK: ret void
define void @equal(ptr %out, i64 %first, i64 %last, i64 %bound) {
entry:
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  %in = icmp eq i64 %id, %bound
  br i1 %in, label %then, label %latch

then:
  %slot = getelementptr inbounds float, ptr %out, i64 %id
  store float 4.0, ptr %slot
  br label %latch

latch:
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done, !llvm.loop !0

done:
  ret void
}

; A compare LLVM froze when it moved the branch splits as the compare.
; CHECK-LABEL: define void @frozen(
; CHECK: loop.first:
; CHECK-NOT: freeze
; CHECK: store float 1.000000e+00
; CHECK: br i1 %{{.*}}, label %loop.first, label %first.exit
; CHECK: loop:
; CHECK-NOT: store float
; CHECK: br i1 %{{.*}}, label %loop, label %second.exit
; CHECK: ret void
define void @frozen(ptr %out, i64 %first, i64 %last, i64 %bound) {
entry:
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  %in = icmp ult i64 %id, %bound
  %in.fr = freeze i1 %in
  br i1 %in.fr, label %then, label %latch

then:
  %slot = getelementptr inbounds float, ptr %out, i64 %id
  store float 1.0, ptr %slot
  br label %latch

latch:
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done, !llvm.loop !0

done:
  ret void
}

; The same check written twice (a load under `id < bound`, then a store
; under it again, as CLBlast's Xger does): one split settles both.
; CHECK-LABEL: define void @twice(
; CHECK: loop.first:
; CHECK-NOT: icmp ult i64 %id.first, %bound
; CHECK: load float
; CHECK-NOT: icmp ult i64 %id.first, %bound
; CHECK: store float
; CHECK: br i1 %{{.*}}, label %loop.first, label %first.exit
; CHECK: loop:
; CHECK-NOT: load float
; CHECK-NOT: store float
; CHECK: br i1 %{{.*}}, label %loop, label %second.exit
; CHECK: ret void
define void @twice(ptr %in, ptr %out, i64 %first, i64 %last, i64 %bound) {
entry:
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  %below = icmp ult i64 %id, %bound
  br i1 %below, label %read, label %merge

read:
  %from = getelementptr inbounds float, ptr %in, i64 %id
  %value = load float, ptr %from
  br label %merge

merge:
  %got = phi float [ %value, %read ], [ 0.0, %loop ]
  %below.again = icmp ult i64 %id, %bound
  br i1 %below.again, label %write, label %latch

write:
  %to = getelementptr inbounds float, ptr %out, i64 %id
  store float %got, ptr %to
  br label %latch

latch:
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done, !llvm.loop !0

done:
  ret void
}

; Left alone: a loop not marked as one over work-items.
; CHECK-LABEL: define void @not_work_items(
; CHECK-NOT: .first
; CHECK: ret void
define void @not_work_items(ptr %out, i64 %first, i64 %last, i64 %bound) {
entry:
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  %in = icmp ult i64 %id, %bound
  br i1 %in, label %then, label %latch

then:
  %slot = getelementptr inbounds float, ptr %out, i64 %id
  store float 5.0, ptr %slot
  br label %latch

latch:
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done

done:
  ret void
}

; CHECK: ![[ID]] = distinct !{![[ID]], ![[MARK:[0-9]+]]}
; CHECK: ![[MARK]] = !{!"weft.work_item_loop"}
; CHECK: ![[SCALAR]] = distinct !{![[SCALAR]], ![[MARK]], ![[OFF:[0-9]+]]}
; CHECK: ![[OFF]] = !{!"llvm.loop.vectorize.enable", i1 false}
!0 = distinct !{!0, !1}
!1 = !{!"weft.work_item_loop"}
