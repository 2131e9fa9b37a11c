// A kernel without loops whose work-items each update many elements of one
// buffer (CLBlast's Xger: a 4 x 4 block of A a work-item, 512 and 512 x lda
// elements apart) vectorizes over its work-items: marked parallel
// (weft-parallel-work-item-loops), the loop vectorizer needs no run-time
// checks between its 16 pointers into A, which it gave up on, leaving the
// loop scalar where the plan said it covers it. With AVX-512 and on Intel's
// AVX2 the bounds check is masked loads and stores; Zen's cost model finds
// masked moves too slow and keeps it scalar (bench/RESULTS.md, session 38).
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s
// RUN: %weft-cl %s --target-cpu=alderlake -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN

// PLAN: kernel rank_one: work-item loop (no loop in the work-item (the loop over work-items left to LLVM's loop vectorizer))

// CHECK-LABEL: define void @__weft_group_rank_one(
// CHECK: call <8 x float> @llvm.masked.load.v8f32.p1(
// CHECK: call <8 x float> @llvm.fmuladd.v8f32(
// CHECK: call void @llvm.masked.store.v8f32.p1(
// CHECK: ret void
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
