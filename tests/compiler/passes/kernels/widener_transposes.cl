// Each work-item's vector taken apart whole, where the work-items' vectors
// span several AVX2 registers: element k of every work-item comes out of a
// transpose of their vectors (widener_transposes.cpp), shuffles of two
// registers at a time that each element shares, not one pick of an element
// out of all of them per element (about twenty instructions each on AVX2).
// AVX-512 code too (its two-register permutes lost to the transpose on the
// Xeon).
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.avx2.ll > %t.plan
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: FileCheck %s --check-prefix=AVX2 < %t.avx2.ll
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline' -o - | FileCheck %s --check-prefix=AVX512

// A float8 per work-item, computed on whole round a loop, then every
// element taken apart: squares of eight work-items transposed in three
// stages (block halves, pairs, then the even and the odd elements of each
// pair of rows: one shufps each), each element's two squares side by side.
// PLAN: kernel dealt_out: widened, 16 work-items at once (32 bytes carried per work-item), vectors kept whole
// AVX2-LABEL: define internal void @__weft_body_dealt_out{{(\.[0-9]+)?}}.simd(
// AVX2-NOT: shufflevector <128 x float> %v.0, <128 x float> poison, <16 x i32>
// AVX2: [[LANE0:%[0-9]+]] = shufflevector <128 x float> %v.0, <128 x float> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
// AVX2: [[LANE4:%[0-9]+]] = shufflevector <128 x float> %v.0, <128 x float> poison, <8 x i32> <i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39>
// AVX2: shufflevector <8 x float> [[LANE0]], <8 x float> [[LANE4]], <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
// AVX2-NEXT: shufflevector <8 x float> [[LANE0]], <8 x float> [[LANE4]], <8 x i32> <i32 4, i32 5, i32 6, i32 7, i32 12, i32 13, i32 14, i32 15>
// AVX2: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <8 x i32> <i32 0, i32 1, i32 8, i32 9, i32 4, i32 5, i32 12, i32 13>
// AVX2: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <8 x i32> <i32 0, i32 2, i32 8, i32 10, i32 4, i32 6, i32 12, i32 14>
// AVX2-NEXT: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <8 x i32> <i32 1, i32 3, i32 9, i32 11, i32 5, i32 7, i32 13, i32 15>
// AVX2-NOT: <i32 0, i32 8, i32 2, i32 10, i32 4, i32 12, i32 6, i32 14>
// AVX2: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
// AVX2-NOT: shufflevector <128 x float> %v.0, <128 x float> poison, <16 x i32>
// AVX2: ret void
// AVX512-LABEL: define internal void @__weft_body_dealt_out{{(\.[0-9]+)?}}.simd(
// AVX512-NOT: shufflevector <512 x float> %v.0, <512 x float> poison, <64 x i32>
// AVX512: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <8 x i32> <i32 0, i32 2, i32 8, i32 10, i32 4, i32 6, i32 12, i32 14>
// AVX512-NOT: shufflevector <512 x float> %v.0, <512 x float> poison, <64 x i32>
// AVX512: ret void
kernel void dealt_out(global const float8 *a, global float *out, int n) {
  int i = get_global_id(0);
  float8 v = (float8)(i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7);
  for (int k = 0; k < n; ++k)
    v = v * a[k] + v;
  out[i] = v.s0 * v.s1 + v.s2 * v.s3 + v.s4 * v.s5 + v.s6 * v.s7;
}

// Two elements of four taken apart: picked, a transpose would cost more.
// AVX2-LABEL: define internal void @__weft_body_two_of_four{{(\.[0-9]+)?}}.simd(
// AVX2: shufflevector <{{[0-9]+}} x double> %v.0, <{{[0-9]+}} x double> poison, <{{[0-9]+}} x i32> <i32 0, i32 4,
// AVX2: ret void
kernel void two_of_four(global const double4 *a, global double *out, int n) {
  int i = get_global_id(0);
  double4 v = (double4)(i, i + 1, i + 2, i + 3);
  for (int k = 0; k < n; ++k)
    v = v * a[k] + v;
  out[i] = v.s0 * v.s3;
}
