// CLBlast's Xger shape (a 4 x 4 block of A a work-item, each update under
// `i < m && j < n`) vectorizes with plain loads and stores, also for Zen,
// whose cost model keeps masked moves scalar: weft-split-work-item-ranges
// takes the four checks of i (each written twice, for x and for A) out in
// four splits, and weft-invariant-branch-versions runs the loop whose
// checks of j (the same for the whole loop) all hold without them.
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX512

// CHECK-LABEL: define void @__weft_group_rank_one(
// CHECK-NOT: masked
// CHECK: load <8 x float>
// CHECK-NOT: masked
// CHECK: call <8 x float> @llvm.fmuladd.v8f32(
// CHECK-NOT: masked
// CHECK: store <8 x float>
// CHECK-NOT: masked
// CHECK: ret void

// With AVX-512 the usual loop is plain too (masks stay for the edges).
// AVX512-LABEL: define void @__weft_group_rank_one(
// AVX512: usual
// AVX512: load <{{8|16}} x float>
// AVX512: call <{{8|16}} x float> @llvm.fmuladd.v{{8|16}}f32(
// AVX512: store <{{8|16}} x float>
// AVX512: ret void
kernel void rank_one(int m, int n, float alpha, global const float *x,
                     global const float *y, global float *restrict a,
                     int lda) {
  float xs[4], ys[4];
  for (int w = 0; w < 4; ++w) {
    int i = w * get_global_size(0) + get_global_id(0);
    xs[w] = i < m ? x[i] : 0.0f;
    int j = w * get_global_size(1) + get_global_id(1);
    ys[w] = j < n ? y[j] : 0.0f;
  }
  for (int w1 = 0; w1 < 4; ++w1)
    for (int w2 = 0; w2 < 4; ++w2) {
      int i = w1 * get_global_size(0) + get_global_id(0);
      int j = w2 * get_global_size(1) + get_global_id(1);
      if (i < m && j < n)
        a[j * lda + i] += alpha * xs[w1] * ys[w2];
    }
}
