// In the whole pipeline (O3 included), a histogram's atomics on __local
// memory come out as plain loads and stores, its atomics on global memory
// stay atomic: weft-plain-local-atomics runs last in the optimizer (a
// histogram with local atomics went from 0.63x to 3.14x PoCL on Zen 3,
// bench/RESULTS.md, session 21).
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s

// CHECK-LABEL: define void @__weft_group_histogram(
// CHECK-NOT: atomicrmw {{.*}}ptr addrspace(3)
// CHECK: atomicrmw {{.*}}add ptr addrspace(1)
// CHECK-NOT: atomicrmw {{.*}}ptr addrspace(3)
// CHECK: {{^}}}
kernel void histogram(global const uchar *data, global uint *bins) {
  local uint counts[256];
  int lid = get_local_id(0), size = get_local_size(0);
  for (int i = lid; i < 256; i += size)
    counts[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&counts[data[get_global_id(0)]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < 256; i += size)
    atomic_add(&bins[i], counts[i]);
}
