// weft-async-copy-leaders: the followers' body has no copies left (each
// copy only yields an event), and when the copies come first work-item 0
// gets a prologue of just the copies.
// RUN: %weft-cl %s -passes=weft-kernel-pipeline -o %t.ll
// RUN: FileCheck %s < %t.ll

// CHECK-LABEL: define internal void @__weft_body_stage.follower(
// CHECK-NOT: @__weft_async_copy_for
// CHECK-NOT: @__weft_wait_group_events_for
// CHECK: ret void
// CHECK-LABEL: define internal void @__weft_body_stage.copies(
// CHECK: call {{.*}}@__weft_async_copy_for(
// CHECK-NOT: store float
// CHECK: ret void
// The prologue for (0,0,0), then one loop of followers from x = 0.
// CHECK-LABEL: define void @__weft_group_stage(
// CHECK: call void @__weft_body_stage.copies({{.*}}, i64 0, i64 0, i64 0)
// CHECK: call void @__weft_body_stage.follower(

kernel void stage(global const float *in, global float *out,
                  local float *tile) {
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)] * 2.0f;
}
