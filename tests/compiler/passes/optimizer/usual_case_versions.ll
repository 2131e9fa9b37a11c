; weft-usual-case-versions: a loop over work-items (marked
; weft.work_item_loop) whose only branches are bounds checks (on values the
; loop does not change, or on the id against a bound) gets a copy for the
; usual case, every check gone the way that does the work; the preheader
; checks that they all go that way for every id (conditions frozen) and
; runs the original, checks kept, otherwise. A loop with another branch
; that varies, one check of the id alone (weft-split-work-item-ranges'
; case), a branch that only picks a value, and loops Weft did not build
; stay as they are.
; RUN: %weft-opt %s -passes=weft-usual-case-versions | FileCheck %s

; `if (j < n) out[id] = 1` with j the same for the loop: the copy stores
; unconditionally.
; CHECK-LABEL: define void @guarded_store(
; CHECK: entry:
; CHECK: %[[USUAL:[^ ]+]] = freeze i1 %in
; CHECK: br i1 %[[USUAL]], label %{{[a-z.]+}}.usual, label %{{[a-z.]+}}
; CHECK: loop.usual:
; CHECK-NOT: br i1 %in
; CHECK: store float 1.000000e+00
; CHECK: br i1 %{{.*}}, label %loop.usual, label %done, !llvm.loop ![[ID:[0-9]+]]
; The original keeps its branch.
; CHECK: loop:
; CHECK: br i1 %in, label %then, label %latch
; CHECK: br i1 %{{.*}}, label %loop, label %done, !llvm.loop ![[ID]]
; CHECK: ret void
define void @guarded_store(ptr %out, i64 %first, i64 %last, i64 %j, i64 %n) {
entry:
  %in = icmp ult i64 %j, %n
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
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

; `if (j >= n) return;` then the work: the usual case is the branch not
; taken, and two such checks are one condition.
; CHECK-LABEL: define void @early_returns(
; CHECK: entry:
; CHECK-DAG: %[[PAST_J:[^ ]+]] = freeze i1 %past.j
; CHECK-DAG: %[[IN_J:[^ ]+]] = xor i1 %[[PAST_J]], true
; CHECK-DAG: %[[PAST_K:[^ ]+]] = freeze i1 %past.k
; CHECK-DAG: %[[IN_K:[^ ]+]] = xor i1 %[[PAST_K]], true
; CHECK: %usual = and i1
; CHECK: br i1 %usual, label %{{[a-z.]+}}.usual, label %{{[a-z.]+}}
; CHECK: loop.usual:
; CHECK-NOT: br i1 %past
; CHECK: store float 2.000000e+00
; CHECK: store float 3.000000e+00
; CHECK: loop:
; CHECK: br i1 %past.j, label %latch, label %work
; CHECK: ret void
define void @early_returns(ptr %out, i64 %first, i64 %last, i64 %j, i64 %k, i64 %n) {
entry:
  %past.j = icmp uge i64 %j, %n
  %past.k = icmp uge i64 %k, %n
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  br i1 %past.j, label %latch, label %work

work:
  %slot = getelementptr inbounds float, ptr %out, i64 %id
  store float 2.0, ptr %slot
  br i1 %past.k, label %latch, label %more.work

more.work:
  %slot2 = getelementptr inbounds float, ptr %slot, i64 1
  store float 3.0, ptr %slot2
  br label %latch

latch:
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done, !llvm.loop !0

done:
  ret void
}

; `if (j < n && id < n)`: the copy runs when j is below n and the loop's
; last id is too.
; CHECK-LABEL: define void @both_kinds(
; CHECK: entry:
; CHECK-DAG: %[[IN:[^ ]+]] = freeze i1 %in
; CHECK-DAG: %[[WHOLE:[^ ]+]] = icmp uge i64 %{{.*}}, %{{.*}}
; CHECK: %usual = and i1 %[[IN]], %[[WHOLE]]
; CHECK: br i1 %usual, label %{{[a-z.]+}}.usual, label %{{[a-z.]+}}
; CHECK: loop.usual:
; CHECK-NOT: br i1 %below
; CHECK: store float 1.000000e+00
; CHECK: loop:
; CHECK: br i1 %in, label %check, label %latch
; CHECK: br i1 %below, label %then, label %latch
; CHECK: ret void
define void @both_kinds(ptr %out, i64 %first, i64 %last, i64 %j, i64 %n) {
entry:
  %in = icmp ult i64 %j, %n
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  br i1 %in, label %check, label %latch

check:
  %below = icmp ult i64 %id, %n
  br i1 %below, label %then, label %latch

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

; Two checks of the id at different bounds (x[id] and x[id + 32], as
; CLBlast's CopyPadMatrix reads four columns apart): one copy where all
; ids pass both, rather than a split at each.
; CHECK-LABEL: define void @two_bounds(
; CHECK: entry:
; CHECK: icmp uge i64
; CHECK: icmp uge i64
; The id + 32 of the last round does not wrap.
; CHECK: icmp sle i128
; CHECK: %usual = and i1
; CHECK: br i1 %usual, label %{{[a-z.]+}}.usual, label %{{[a-z.]+}}
; CHECK: loop.usual:
; CHECK-NOT: br i1 %below
; CHECK: store float 1.000000e+00
; CHECK: store float 2.000000e+00
; CHECK: loop:
; CHECK: br i1 %below, label %then, label %next.column
; CHECK: ret void
define void @two_bounds(ptr %out, i64 %first, i64 %last, i64 %n) {
entry:
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  %below = icmp ult i64 %id, %n
  br i1 %below, label %then, label %next.column

then:
  %slot = getelementptr inbounds float, ptr %out, i64 %id
  store float 1.0, ptr %slot
  br label %next.column

next.column:
  %id2 = add nuw nsw i64 %id, 32
  %below2 = icmp ult i64 %id2, %n
  br i1 %below2, label %then2, label %latch

then2:
  %slot2 = getelementptr inbounds float, ptr %out, i64 %id2
  store float 2.0, ptr %slot2
  br label %latch

latch:
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done, !llvm.loop !0

done:
  ret void
}

; One check of the id alone is weft-split-work-item-ranges' to split.
; CHECK-LABEL: define void @one_bound(
; CHECK-NOT: usual
; CHECK: ret void
define void @one_bound(ptr %out, i64 %first, i64 %last, i64 %n) {
entry:
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  %below = icmp ult i64 %id, %n
  br i1 %below, label %then, label %latch

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

; A branch on data (a value loaded per work-item) is no bounds check: the
; loop stays masked either way, and no copy is made.
; CHECK-LABEL: define void @data_branch(
; CHECK-NOT: usual
; CHECK: ret void
define void @data_branch(ptr %out, i64 %first, i64 %last, i64 %j, i64 %n) {
entry:
  %in = icmp ult i64 %j, %n
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  br i1 %in, label %check, label %latch

check:
  %slot = getelementptr inbounds float, ptr %out, i64 %id
  %value = load float, ptr %slot
  %positive = fcmp ogt float %value, 0.0
  br i1 %positive, label %then, label %latch

then:
  store float 1.0, ptr %slot
  br label %latch

latch:
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done, !llvm.loop !0

done:
  ret void
}

; A branch whose sides differ only in the value they pick does no work
; of its own on either side: nothing to gain, no copy.
; CHECK-LABEL: define void @picks_a_value(
; CHECK-NOT: usual
; CHECK: ret void
define void @picks_a_value(ptr %out, i64 %first, i64 %last, i1 %flag) {
entry:
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  br i1 %flag, label %one, label %two

one:
  br label %latch

two:
  br label %latch

latch:
  %value = phi float [ 1.0, %one ], [ 2.0, %two ]
  %slot = getelementptr inbounds float, ptr %out, i64 %id
  store float %value, ptr %slot
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done, !llvm.loop !0

done:
  ret void
}

; A kernel's own loop (no mark) is LLVM's to unswitch.
; CHECK-LABEL: define void @kernel_loop(
; CHECK-NOT: usual
; CHECK: ret void
define void @kernel_loop(ptr %out, i64 %first, i64 %last, i64 %j, i64 %n) {
entry:
  %in = icmp ult i64 %j, %n
  br label %loop

loop:
  %id = phi i64 [ %first, %entry ], [ %next, %latch ]
  br i1 %in, label %then, label %latch

then:
  %slot = getelementptr inbounds float, ptr %out, i64 %id
  store float 1.0, ptr %slot
  br label %latch

latch:
  %next = add nuw nsw i64 %id, 1
  %more = icmp ult i64 %next, %last
  br i1 %more, label %loop, label %done

done:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"weft.work_item_loop"}
