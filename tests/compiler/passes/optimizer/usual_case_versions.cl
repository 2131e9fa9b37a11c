// CLBlast's Xger shape (a 4 x 4 block of A a work-item, each update under
// `i < m && j < n`) vectorizes with plain loads and stores, also for Zen,
// whose cost model keeps masked moves scalar: weft-usual-case-versions
// runs a copy of the loop without its checks when the four bounds of i
// (each written twice, for x and for A) hold for all of the loop's ids and
// the four of j (the same for the whole loop) hold too. So does the shape
// of CLBlast's CopyPadMatrix (4 x 2 elements a work-item, two bounds on
// each, LLVM's unswitching having frozen the checks).
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

// CHECK-LABEL: define void @__weft_group_copy_pad(
// CHECK-NOT: masked
// CHECK: load <8 x float>
// CHECK-NOT: masked
// CHECK: store <8 x float>
// CHECK-NOT: masked
// CHECK: ret void
inline void copy_pad_tile(const int src_one, const int src_two,
                          const int src_ld, const int src_offset,
                          global const float *restrict src,
                          const int dest_one, const int dest_two,
                          const int dest_ld, const int dest_offset,
                          global float *dest, const float alpha) {
  #pragma unroll
  for (int w_one = 0; w_one < 4; w_one += 1) {
    const int id_one = (get_group_id(0) * 4 + w_one) * 32 + get_local_id(0);
    #pragma unroll
    for (int w_two = 0; w_two < 2; w_two += 1) {
      const int id_two = (get_group_id(1) * 2 + w_two) * 8 + get_local_id(1);
      if (id_two < dest_two && id_one < dest_one) {
        float value = 0.0f;
        if (id_two < src_two && id_one < src_one)
          value = src[id_two * src_ld + id_one + src_offset];
        dest[id_two * dest_ld + id_one + dest_offset] = alpha * value;
      }
    }
  }
}

kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void copy_pad(const int src_one, const int src_two, const int src_ld,
              const int src_offset, global const float *restrict src,
              const int dest_one, const int dest_two, const int dest_ld,
              const int dest_offset, global float *dest, const float alpha) {
  copy_pad_tile(src_one, src_two, src_ld, src_offset, src, dest_one, dest_two,
                dest_ld, dest_offset, dest, alpha);
}
