// CLBlast's XgemmDirectNN shape through the whole pipeline: 8 x 8 groups,
// 32 x 32 tiles of A and B in local memory, each work-item a 4 x 4 tile of
// C in registers (`cpd[ni * 4 + mi]`, m = mi + lid(0) * 4: a run of four
// neighbouring elements), the k loop unrolled by two. Widened across a
// row's work-items, each accumulator is one part of the rows of A it reads;
// weft-whole-runs-in-loops carries the four of a column of the tile as one
// vector in memory order, so the k loop is FMAs on A's row as it lies in
// local memory and B's element broadcast, with no shuffles; and
// weft-wide-indices keeps B's index 64-bit, so each broadcast is a load at
// a constant offset from one pointer stepped by the loop.
// With AVX2 code the k loop runs 4 work-items at once (its runs fill the
// registers: 16 floats a column of the tile, 8 registers in all; at 8 it
// spilled accumulators every step), with AVX-512 code 8 (the group's row).
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN-AVX2
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN-AVX512
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX2
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX512

// PLAN-AVX2: kernel direct_nn: regions, {{.*}}region 1 widened, 4 work-items at once (64 bytes carried per work-item
// PLAN-AVX512: kernel direct_nn: regions, {{.*}}region 1 widened, 8 work-items at once (64 bytes carried per work-item

// AVX2-LABEL: define void @__weft_group_direct_nn(
// AVX2: [[ACC:%runs[0-9]*]] = phi <16 x float>
// AVX2-NOT: shufflevector
// AVX2: load <16 x float>, ptr addrspace(3)
// AVX2-NOT: shufflevector <{{[0-9]+}} x float> %{{.*}}, <{{[0-9]+}} x float> %{{.*}}, <4 x i32>
// AVX2: call <16 x float> @llvm.fma.v16f32(<16 x float> %{{.*}}, <16 x float> %{{.*}}, <16 x float> [[ACC]])
// AVX512-LABEL: define void @__weft_group_direct_nn(
// AVX512: [[ACC:%runs[0-9]*]] = phi <32 x float>
// AVX512: load <32 x float>, ptr addrspace(3)
// AVX512-NOT: shufflevector <32 x float> %{{.*}}, <32 x float> poison, <8 x i32>
// AVX512: call <32 x float> @llvm.fma.v32f32(<32 x float> %{{.*}}, <32 x float> %{{.*}}, <32 x float> [[ACC]])
#define WGD 32
#define LDS (WGD + 1)
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void direct_nn(const int n, const __global float4 *restrict a,
               const __global float4 *restrict b, __global float *c) {
  __local float alm[WGD * LDS];
  __local float blm[WGD * LDS];
  float cpd[16];
  for (int i = 0; i < 16; ++i)
    cpd[i] = 0.0f;
  const int lid0 = get_local_id(0), lid1 = get_local_id(1);
  const int idm = lid0 * 4 + get_group_id(0) * WGD;
  const int idn = lid1 * 4 + get_group_id(1) * WGD;
  for (int kwg = 0; kwg < n; kwg += WGD) {
    // Each work-item stages four float4 of A and of B.
    for (int k = 0; k < 4; ++k) {
      const int kg = k + lid1 * 4;
      const float4 av = a[(kwg + kg) * (n / 4) + lid0 + get_group_id(0) * 8];
      const float4 bv = b[(kwg + kg) * (n / 4) + lid0 + get_group_id(1) * 8];
      alm[kg * LDS + lid0 * 4 + 0] = av.x;
      alm[kg * LDS + lid0 * 4 + 1] = av.y;
      alm[kg * LDS + lid0 * 4 + 2] = av.z;
      alm[kg * LDS + lid0 * 4 + 3] = av.w;
      blm[kg * LDS + lid0 * 4 + 0] = bv.x;
      blm[kg * LDS + lid0 * 4 + 1] = bv.y;
      blm[kg * LDS + lid0 * 4 + 2] = bv.z;
      blm[kg * LDS + lid0 * 4 + 3] = bv.w;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int pwi = 0; pwi < WGD; pwi += 2) {
      #pragma unroll
      for (int pit = 0; pit < 2; ++pit) {
        const int kg = pwi + pit;
        float apd[4], bpd[4];
        #pragma unroll
        for (int mi = 0; mi < 4; ++mi)
          apd[mi] = alm[kg * LDS + mi + lid0 * 4];
        #pragma unroll
        for (int ni = 0; ni < 4; ++ni)
          bpd[ni] = blm[kg * LDS + ni + lid1 * 4];
        #pragma unroll
        for (int ni = 0; ni < 4; ++ni)
          #pragma unroll
          for (int mi = 0; mi < 4; ++mi)
            cpd[ni * 4 + mi] = fma(apd[mi], bpd[ni], cpd[ni * 4 + mi]);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int ni = 0; ni < 4; ++ni)
    for (int mi = 0; mi < 4; ++mi)
      c[(idn + ni) * n + idm + mi] = cpd[ni * 4 + mi];
}
