// weft-fiber-barriers: in the body (which the work-item entry runs on a
// fiber) each barrier marker becomes a call through the context's barrier
// callback (WorkGroupContext::barrier, offset 208).
// RUN: %weft-cl %s -passes=weft-kernel-bodies,weft-fiber-barriers | FileCheck %s

// CHECK-LABEL: define internal void @__weft_body_swap(
// CHECK: store float
// CHECK: %[[SLOT:[0-9]+]] = getelementptr inbounds i8, ptr %context, i64 208
// CHECK-NEXT: %[[CALLBACK:[0-9]+]] = load ptr, ptr %[[SLOT]]
// CHECK-NEXT: call void %[[CALLBACK]](ptr %context)
// CHECK-NOT: @__weft_barrier(
// CHECK: ret void

kernel void swap(global float *y, local float *t) {
  t[get_local_id(0)] = y[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  y[get_global_id(0)] = t[get_local_size(0) - 1 - get_local_id(0)];
}
