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
// Two regions, one loop marked parallel: the second region's; the first
// says its work-items run in turn, so weft-parallel-work-item-loops leaves
// it too. Both are marked as loops over work-items
// (compiler/analysis/work_item_loops.h).
// CHECK-LABEL: define void @__weft_group_private_array(
// CHECK: !llvm.loop ![[FIRST:[0-9]+]]
// CHECK: !llvm.loop ![[SECOND:[0-9]+]]
// CHECK-LABEL: define void @__weft_item_private_array(
// CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[PARALLEL:[0-9]+]], ![[ITEMS:[0-9]+]]}
// CHECK: ![[PARALLEL]] = !{!"llvm.loop.parallel_accesses", ![[GROUP]]}
// CHECK: ![[ITEMS]] = !{!"weft.work_item_loop"}
// CHECK: ![[FIRST]] = distinct !{![[FIRST]], ![[IN_TURN:[0-9]+]], ![[ITEMS]]}
// CHECK: ![[IN_TURN]] = !{!"weft.work_items_in_turn"}
// CHECK: ![[SECOND]] = distinct !{![[SECOND]], ![[PARALLEL2:[0-9]+]], ![[ITEMS]]}
// CHECK: ![[PARALLEL2]] = !{!"llvm.loop.parallel_accesses"

// The halving step vectorized, several work-items at a time: the ids below
// `step` as a loop of their own, with plain loads and stores
// (weft-split-work-item-ranges, tests/compiler/passes/optimizer/split_work_item_ranges.cl).
// VECTOR-LABEL: define void @__weft_group_tree(
// VECTOR-NOT: @llvm.masked
// VECTOR: load <{{[0-9]+}} x float>
// VECTOR-NOT: @llvm.masked
// VECTOR: store <{{[0-9]+}} x float>
// VECTOR-NOT: @llvm.masked
// VECTOR: ret void

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
