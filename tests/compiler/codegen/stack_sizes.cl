// Stack sizes: a whole build reads each entry's frame from the shared
// object's .stack_sizes section; a work-item's private array shows in its
// private memory (and a kernel with barriers gets its work-item frame).
// RUN: %weft-opt --build %s | FileCheck %s

// A program of three kernels is compiled one part per kernel, on first use.
// CHECK: ; deferred parts: 3
// CHECK-LABEL: kernel small: widened
// CHECK: private_memory: [[SMALL:[0-9]+]]
// CHECK-LABEL: kernel big_private: work-item loop (a private array{{.*}})
// CHECK: private_memory: {{[1-9][0-9][0-9][0-9]+}}
// CHECK-LABEL: kernel barrier_private: regions, region 0 one work-item at a time (a private variable larger than 1024 bytes), work-item entry
// CHECK: private_memory: {{[1-9][0-9][0-9][0-9]+}}

kernel void small(global int *out, int n) {
  int x = get_global_id(0), k = 0;
  while (x > 1 && k < n) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++k;
  }
  out[get_global_id(0)] = k;
}

kernel void big_private(global int *out, global const int *index) {
  int scratch[1024];
  for (int i = 0; i < 1024; ++i)
    scratch[i] = i * get_global_id(0);
  out[get_global_id(0)] = scratch[index[get_global_id(0)] & 1023];
}

kernel void barrier_private(global int *out, global const int *index,
                            local int *shared) {
  int scratch[1024];
  for (int i = 0; i < 1024; ++i)
    scratch[i] = i * get_global_id(0);
  shared[get_local_id(0)] = scratch[index[get_global_id(0)] & 1023];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = shared[0];
}
