// weft-internalize-entries: only the entry points stay external.
// RUN: %weft-cl %s -passes=weft-kernel-pipeline,weft-internalize-entries | FileCheck %s

// CHECK-DAG: define internal void @__weft_body_k(
// CHECK-DAG: define void @__weft_group_k(
// CHECK-DAG: define internal {{.*}}@__weft_async_copy_for(
// CHECK-DAG: define void @__weft_item_k(

kernel void k(global const float *in, global float *out, local float *tile) {
  out[get_global_id(0)] = 0.0f;
  event_t e = async_work_group_copy(tile, in, 16, 0);
  wait_group_events(1, &e);
}
