// weft-drop-redundant-barriers: a barrier that follows only the group's
// copies, waits and private work orders nothing and goes; one after a
// shared write stays.
// RUN: %weft-cl %s -passes=weft-kernel-bodies,weft-drop-redundant-barriers | FileCheck %s

// CHECK-LABEL: define internal void @__weft_body_after_copies(
// CHECK: call {{.*}}@__weft_async_copy_for(
// CHECK-NOT: call void @__weft_barrier
// CHECK: ret void
kernel void after_copies(global const float *in, global float *out,
                         local float *tile) {
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[get_local_id(0)];
}

// CHECK-LABEL: define internal void @__weft_body_after_shared_write(
// CHECK: store float
// CHECK: call void @__weft_barrier(ptr %context)
kernel void after_shared_write(global float *out, local float *tile) {
  tile[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[0];
}
