// The loops over the work-items of a region are marked parallel
// (llvm.loop.parallel_accesses, every access to memory in one access
// group): between barriers work-items do not depend on each other, so LLVM
// may vectorize a loop whose independence it cannot prove, as
// `scratch[lid] += scratch[lid + step]` with `step` kept per work-item. A
// region that uses a variable all work-items share in turn is not marked.
// RUN: %weft-cl %s -passes='weft-kernel-pipeline' | FileCheck %s
// RUN: %weft-cl %s --target-cpu=znver4 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize | FileCheck %s --check-prefix=VECTOR

// CHECK-LABEL: define void @__weft_group_tree(
// CHECK: br i1 {{.*}}, label %items0{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// CHECK: store float {{.*}}, !llvm.access.group ![[GROUP:[0-9]+]]
// Two regions, one loop marked: the second region's.
// CHECK-LABEL: define void @__weft_group_private_array(
// CHECK: !llvm.loop
// CHECK-NOT: !llvm.loop
// CHECK-LABEL: define void @__weft_item_private_array(
// CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[PARALLEL:[0-9]+]]}
// CHECK: ![[PARALLEL]] = !{!"llvm.loop.parallel_accesses", ![[GROUP]]}

// The halving step vectorized: its loads and stores under the mask
// (lid < step), several work-items at a time.
// VECTOR-LABEL: define void @__weft_group_tree(
// VECTOR: @llvm.masked.load.v{{[0-9]+}}f32
// VECTOR: @llvm.masked.store.v{{[0-9]+}}f32

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

// `window` lives within the first region only: one copy for the group,
// which each work-item uses in turn.
kernel void private_array(global const int *in, global int *out,
                          local int *tile, int k) {
  size_t lid = get_local_id(0);
  int window[8];
  for (int i = 0; i < 8; ++i)
    window[i] = in[get_global_id(0) + i];
  tile[lid] = window[k & 7];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(lid + 1) % get_local_size(0)];
}
