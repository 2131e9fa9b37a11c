// Variables that live across a barrier and hold one value for the whole
// group (compiler/analysis/group_uniform_variables.cpp): the halving step of a tree
// reduction is computed once per region run, in the region's uniform slice
// (copied from the region, on the path every work-item takes), and kept in
// the group's current/next slots; the work-items' loop only reads it, so
// it stores nothing but the resume state and LLVM vectorizes it. A counter
// a branch on the local id decides stays per work-item.
// RUN: %weft-cl %s -passes='weft-kernel-pipeline' | FileCheck %s
// RUN: %weft-cl %s --target-cpu=znver4 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize | FileCheck %s --check-prefix=VECTOR

// The slice of the loop's region: the step halved, stored as the next
// value, no access to the scratch memory.
// CHECK-LABEL: define void @__weft_group_tree(
// CHECK: run_region2:
// CHECK-NOT: addrspace(3)
// CHECK: uniform_slice_end.u2:
// CHECK-NEXT: [[NEXT:%[0-9]+]] = load i64, ptr %step{{.*}}.uniform
// CHECK-NEXT: store i64 [[NEXT]], ptr
// CHECK-NOT: addrspace(3)
// CHECK: udiv i64 %step{{.*}}.u2, 2

// A step that depends on the work-item: no slice.
// CHECK-LABEL: define void @__weft_group_per_item(
// CHECK-NOT: uniform_slice_end
// CHECK-LABEL: define void @__weft_item_tree(

// The region's loop over the work-items has no store of the step, and is
// vectorized: plain loads and stores of the scratch memory, over the ids
// below the step alone (weft-split-work-item-ranges).
// VECTOR-LABEL: define void @__weft_group_tree(
// VECTOR: run_region2:
// VECTOR-NOT: @llvm.masked
// VECTOR: load <{{[0-9]+}} x float>
// VECTOR-NOT: @llvm.masked
// VECTOR: store <{{[0-9]+}} x float>
// VECTOR-LABEL: define void @__weft_group_per_item(

kernel void tree(global const float *in, global float *out,
                 local float *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t step = get_local_size(0) / 2; step > 0; step /= 2) {
    if (lid < step)
      scratch[lid] += scratch[lid + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = scratch[0];
}

kernel void per_item(global const float *in, global float *out,
                     local float *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  float sum = 0;
  for (size_t step = lid + 1; step < 64; step *= 2) {
    sum += scratch[step % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = sum;
}
