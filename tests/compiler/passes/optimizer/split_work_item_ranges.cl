// Kernels that branch on the work-item's id against a bound vectorize with
// plain loads and stores on every CPU family: the everyday `if (gid < n)`
// guard (size_t or int) and a tree reduction's `if (lid < step)`. Without
// weft-split-work-item-ranges, LLVM if-converts the branch into masked
// loads and stores on every iteration: vmaskmov on AVX2, which Zen 3 runs
// several times slower than plain moves (the reduction at 0.66x PoCL, a
// guarded saxpy level with PoCL's own masked code; bench/RESULTS.md,
// session 16).
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefixes=CHECK,AVX2
// RUN: %weft-cl %s --target-cpu=haswell -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefixes=CHECK,AVX2
// RUN: %weft-cl %s --target-cpu=znver4 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=CHECK

// The kernel with barriers comes first in the module.
// CHECK-LABEL: define void @__weft_group_tree(
// CHECK-NOT: llvm.masked
// AVX2: load <8 x float>
// AVX512: load <16 x float>
// CHECK-NOT: llvm.masked
// CHECK: ret void
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

// CHECK-LABEL: define void @__weft_group_guarded(
// CHECK-NOT: llvm.masked
// AVX2: load <8 x float>
// AVX512: load <16 x float>
// CHECK-NOT: llvm.masked
// AVX2: store <8 x float>
// AVX512: store <16 x float>
// CHECK-NOT: llvm.masked
// CHECK: ret void
kernel void guarded(global float *y, global const float *x, float a,
                    uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// `if (gid == n)` splits twice: the ids below n (the store gone), n alone
// (the store kept), the ids past it (gone). Before, the vectorized loop
// compared every id with n, a vector of compares and a branch per lane.
// CHECK-LABEL: define void @__weft_group_only_one(
// CHECK-NOT: icmp eq <{{[0-9]+}} x i64>
// CHECK: ret void
kernel void only_one(global float *y, ulong n) {
  size_t i = get_global_id(0);
  if (i == n)
    y[i] = 1.0f;
}

// An int id may wrap for ids past INT_MAX: a check in 128 bits picks the
// split loops or a scalar copy that keeps the branch.
// CHECK-LABEL: define void @__weft_group_guarded_int(
// CHECK-NOT: llvm.masked
// CHECK: icmp slt i128
// CHECK-NOT: llvm.masked
// AVX2: store <8 x float>
// AVX512: store <16 x float>
// CHECK-NOT: llvm.masked
// CHECK: ret void
kernel void guarded_int(global float *y, global const float *x, float a,
                        int n) {
  int i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// A long body keeps its branch: the copies a split makes are bounded per
// function (kMaxCopiedInstructions), so that one kernel cannot make the
// optimizer and code generation run several times as long. 4096 chained
// multiply-adds do not fold (no fast math).
#define R4(x) x x x x
#define R4096(x) R4(R4(R4(R4(R4(R4(x))))))
// CHECK-LABEL: define void @__weft_group_long_body(
// AVX2: llvm.masked
// CHECK: ret void
kernel void long_body(global float *y, uint n) {
  size_t i = get_global_id(0);
  if (i < n) {
    float v = y[i];
    R4096(v = v * 1.0001f + 0.5f;)
    y[i] = v;
  }
}
