// weft-group-entries: each plan gets the entries it calls for, under the
// names the runtime looks up (compiler_interface.h).
// RUN: %weft-cl %s -passes=weft-kernel-pipeline | FileCheck %s

// A barrier-free kernel: only the loop over the group's work-items, z { y {
// x } }.
// CHECK-LABEL: define void @__weft_group_plain(ptr %0, ptr %1)
// CHECK: loop2:
// CHECK: loop1:
// CHECK: loop0:
// CHECK: call void @__weft_body_plain(
// CHECK-NOT: define void @__weft_item_plain(
// A kernel with copies also gets a work-item entry (the checking mode).
// CHECK-LABEL: define void @__weft_group_copies(
// CHECK-LABEL: define void @__weft_item_copies(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4)
// CHECK: call void @__weft_body_copies({{.*}}, ptr %1, i64 %2, i64 %3, i64 %4)
// The records no longer point at bodies.
// CHECK: !weft.kernels = !{![[A:[0-9]+]], ![[B:[0-9]+]]}
// CHECK: ![[A]] = !{null,
// CHECK: ![[B]] = !{null,

kernel void plain(global float *y) { y[get_global_id(0)] *= 2.0f; }

kernel void copies(global const float *in, global float *out,
                   local float *tile) {
  out[get_global_id(0)] = 1.0f;
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] += tile[get_local_id(0)];
}
