// A private array indexed only by the counters of loops with constant trip
// counts (a register tile) becomes registers before widening: the widener's
// copy of the body has those loops unrolled and the array promoted
// (widening_checks.cpp, prepareForWidening), so the kernel is widened and
// its accumulators are vectors of lanes. An array indexed by data stays
// memory, and its kernel keeps the work-item loop.
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN-AVX2
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN-AVX512
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX2

// PLAN-AVX2: kernel tile: widened, 4 work-items at once (72 bytes carried per work-item, 32 loaded and reused each round), vectors split into elements (its vectors are taken apart more than computed on whole)
// PLAN-AVX2: kernel lookup: work-item loop (a private array{{.*}})
// PLAN-AVX2: kernel gemm_tile4: widened, 4 work-items at once (64 bytes carried per work-item, 16 loaded and reused each round)
// PLAN-AVX512: kernel tile: widened, 16 work-items at once (72 bytes carried per work-item, 32 loaded and reused each round), vectors split into elements (its vectors are taken apart more than computed on whole)
// PLAN-AVX512: kernel lookup: work-item loop (a private array{{.*}})
// PLAN-AVX512: kernel gemm_tile4: widened

// The tile's accumulators are FMAs across 4 work-items, with no
// private array left in the widened code.
// AVX2-LABEL: define void @__weft_group_tile(
// AVX2-NOT: alloca
// AVX2: call <4 x float> @llvm.fmuladd.v4f32
// AVX2: ret void
kernel void tile(global const float *in, global float *out, int n) {
  int gid = get_global_id(0);
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k = 0; k < 8 + gid % 5; ++k) {
    float4 b = vload4(k, in + (gid % 64) * 4);
    for (int i = 0; i < 4; ++i) {
      float a = in[(gid + i * 7 + k) % n];
      acc[i][0] += a * b.x;
      acc[i][1] += a * b.y;
      acc[i][2] += a * b.z;
      acc[i][3] += a * b.w;
    }
  }
  for (int i = 0; i < 4; ++i)
    vstore4((float4)(acc[i][0], acc[i][1], acc[i][2], acc[i][3]), gid * 4 + i, out);
}
kernel void lookup(global const int *in, global int *out) {
  int gid = get_global_id(0);
  int table[8];
  for (int i = 0; i < 8; ++i)
    table[i] = in[(gid + i) % 64];
  int picked = 0;
  for (int k = 0; k < gid % 6; ++k)
    picked += table[(picked + k) & 7] & 255;
  out[gid] = picked;
}

// A 4x4 register tile per work-item over float4 rows of B (a register-tiled
// GEMM as public code writes it, bench/kernel_shapes_bench's): each
// work-item's float4, taken apart, is four loads next to its neighbours',
// one access of the whole stretch for all (on AVX2 a 16-byte block at a
// time), A's element one scalar for the row, and the tile's rows stored
// whole: no gathers, so AVX2 code widens it too (it kept the work-item
// loop before session 30: 36.5 -> 55.3 GFLOP/s on Zen 3, 7.4x PoCL). Each
// tile row's four accumulators read the four elements of the work-item's
// float4, a run: they are carried as one vector in memory order
// (weft-whole-runs-in-loops), so 4 work-items at once fill AVX2's
// registers (16 floats a row of the tile, 8 registers for the tile).
// AVX2-LABEL: define void @__weft_group_gemm_tile4(
// AVX2-NOT: masked.gather
// AVX2-NOT: masked.scatter
// AVX2: %runs{{[0-9]*}} = phi <16 x float>
// AVX2: call <16 x float> @llvm.fmuladd.v16f32
// AVX2-NOT: masked.gather
// AVX2-NOT: masked.scatter
// AVX2: {{^}}}
kernel void gemm_tile4(global const float *a, global const float *b,
                       global float *c, int n) {
  int col = get_global_id(0) * 4, row = get_global_id(1) * 4;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k = 0; k < n; ++k) {
    float4 bk = vload4(0, b + k * n + col);
    for (int i = 0; i < 4; ++i) {
      float aik = a[(row + i) * n + k];
      acc[i][0] += aik * bk.x;
      acc[i][1] += aik * bk.y;
      acc[i][2] += aik * bk.z;
      acc[i][3] += aik * bk.w;
    }
  }
  for (int i = 0; i < 4; ++i)
    vstore4((float4)(acc[i][0], acc[i][1], acc[i][2], acc[i][3]), 0,
            c + (row + i) * n + col);
}
