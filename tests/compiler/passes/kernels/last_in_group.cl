// The work-group collectives ask whether their work-item is the group's
// last (__weft_last_in_group: the last to arrive combines the values).
// weft-kernel-bodies answers with a marked compare; weft-barrier-regions
// runs the group in boxes that know the answer: every work-item but the
// last in loops where it is false, so the loop that leaves each value in
// its slot has no branch and vectorizes, then the last alone. Only the run
// of one work-item after a divergent barrier still compares. On fibers
// (the body, the work-item entry) the work-item asks the scheduler whether
// everybody else waits at a barrier: once sub-groups exchange values the
// fibers no longer arrive in local id order.
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 -passes='weft-kernel-pipeline' | FileCheck %s
// RUN: %weft-cl %s --target-cpu=znver4 --cl-options=-cl-std=CL3.0 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize | FileCheck %s --check-prefix=VECTOR

// CHECK-LABEL: define internal void @__weft_body_scan(
// CHECK-NOT: !weft.last_in_group
// CHECK: [[LAST:%[0-9]+]] = call i32 %{{[0-9]+}}(ptr %context)
// CHECK-NEXT: icmp ne i32 [[LAST]], 0
// One compare left in the group entry (the one-work-item run's), and a run
// for the last work-item alone.
// CHECK-LABEL: define void @__weft_group_scan(
// CHECK: one_item0:
// CHECK: boxes0:
// CHECK: icmp eq i64 {{.*}}, !weft.last_in_group
// CHECK-NOT: !weft.last_in_group
// CHECK: run_box3_0:
// CHECK-NOT: !weft.last_in_group
// CHECK-LABEL: define void @__weft_item_scan(

// The boxes of the last row: each value loaded and left in its slot 16 at
// a time. The region has one way out (the collective's barrier), so no
// work-item stores where it resumes.
// VECTOR-LABEL: define void @__weft_group_scan(
// VECTOR: box2_0:
// VECTOR: load <16 x float>
// VECTOR: store <16 x float>
// VECTOR-NOT: store <16 x i32>
// VECTOR: box3_0:

kernel void scan(global const float *in, global float *out) {
  out[get_global_id(0)] = work_group_scan_inclusive_add(in[get_global_id(0)]);
}
