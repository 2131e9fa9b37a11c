// The widener's row loads (widener_rows.cpp): in a barrier region, where
// each work-item reads neighbouring elements of its own row of a local tile
// (k and k + 1 of a transposed tile, as CLBlast's GEMM does) and the rows
// are a known distance apart, AVX2 code loads each work-item's pair at once
// and deals the elements out with shuffles instead of gathering each
// element (a load, an insert and an address per lane); AVX-512 code too
// (since session 30: its gathers of floats and doubles lost to the rows on
// the Xeon), but for halves. The pairs are laid side by side so that each element's
// lanes are dealt out within the registers' 16-byte blocks (lanes 0, 1, 4,
// 5, then 2, 3, 6, 7: one shufps each, where lane order took a vpermpd
// beside it).
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.avx2.ll > %t.plan
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: FileCheck %s --check-prefix=AVX2 < %t.avx2.ll
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline' -o - | FileCheck %s --check-prefix=AVX512
// RUN: FileCheck %s --check-prefix=ROT-PLAN < %t.plan
// RUN: FileCheck %s --check-prefix=ROT < %t.avx2.ll
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 --target-cpu=sapphirerapids -passes='weft-kernel-pipeline' -o - | FileCheck %s --check-prefix=HALF

// PLAN: kernel transposed_tile: regions, region 0 widened, 8 work-items at once {{.*}}; region 1 widened, 8 work-items at once

// AVX2-LABEL: define internal void @__weft_body_transposed_tile.{{[0-9]+}}.region1.simd(
// AVX2-NOT: masked.gather
// With every work-item on, plain loads (AVX2's masked loads are slow);
// masked ones otherwise.
// AVX2: wi.row_load_whole:
// AVX2-NEXT: [[FIRST:%[0-9]+]] = extractelement <8 x ptr addrspace(3)> {{%[0-9]+}}, i64 0
// AVX2-NEXT: [[LANE0:%[0-9]+]] = getelementptr i8, ptr addrspace(3) [[FIRST]], i64 0
// AVX2-NEXT: [[PAIR0:%[0-9]+]] = load <2 x float>, ptr addrspace(3) [[LANE0]], align 4
// AVX2-NEXT: getelementptr i8, ptr addrspace(3) [[FIRST]], i64 68
// AVX2-NEXT: [[PAIR1:%[0-9]+]] = load <2 x float>
// AVX2: shufflevector <2 x float> [[PAIR0]], <2 x float> [[PAIR1]], <4 x i32> <i32 0, i32 1, i32 2, i32 3>
// AVX2: [[WHOLE:%[0-9]+]] = shufflevector <8 x float> {{%[0-9]+}}, <8 x float> {{%[0-9]+}}, <16 x i32>
// AVX2: wi.row_load_masked:
// AVX2: call <2 x float> @llvm.masked.load.v2f32.p3(
// AVX2: [[SOME:%[0-9]+]] = shufflevector <8 x float> {{%[0-9]+}}, <8 x float> {{%[0-9]+}}, <16 x i32>
// AVX2: wi.row_load_joined:
// AVX2-NEXT: [[ALL:%[0-9]+]] = phi <16 x float> [ [[WHOLE]], %wi.row_load_whole ], [ [[SOME]], %wi.row_load_masked ]
// AVX2-NEXT: [[K:%[0-9]+]] = shufflevector <16 x float> [[ALL]], <16 x float> poison, <8 x i32> <i32 0, i32 2, i32 8, i32 10, i32 4, i32 6, i32 12, i32 14>
// AVX2-NEXT: [[K1:%[0-9]+]] = shufflevector <16 x float> [[ALL]], <16 x float> poison, <8 x i32> <i32 1, i32 3, i32 9, i32 11, i32 5, i32 7, i32 13, i32 15>
// AVX2-NOT: masked.gather
// AVX2: call <8 x float> @llvm.fmuladd.v8f32(<8 x float> [[K]], <8 x float> [[K1]],
// AVX2-NOT: masked.gather
// AVX2: ret void

// AVX512-LABEL: define internal void @__weft_body_transposed_tile.{{[0-9]+}}.region1.simd(
// AVX512-NOT: masked.gather
// AVX512: call <2 x float> @llvm.masked.load.v2f32.p3(
// AVX512-NOT: masked.gather
// AVX512: ret void
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// Each work-item reads k and k + 1 of its own row of the tile.
#define TRANSPOSED_TILE(NAME, T)                                            \
  __attribute__((reqd_work_group_size(8, 1, 1)))                            \
  kernel void NAME(global const T *a, global T *out) {                      \
    local T tile[8 * 17];                                                   \
    int lid = get_local_id(0);                                              \
    for (int k = 0; k < 16; ++k)                                            \
      tile[lid * 17 + k] = a[get_group_id(0) * 128 + k * 8 + lid];          \
    barrier(CLK_LOCAL_MEM_FENCE);                                           \
    T sum = 0;                                                              \
    for (int k = 0; k < 16; k += 2)                                         \
      sum += tile[lid * 17 + k] * tile[lid * 17 + k + 1];                   \
    out[get_global_id(0)] = sum;                                            \
  }
TRANSPOSED_TILE(transposed_tile, float)

// Halves keep AVX-512's gathers (their rows lost to them: CLBlast's HGEMM
// on the Xeon).
// HALF-LABEL: define internal void @__weft_body_transposed_tile_half.{{[0-9]+}}.region1.simd(
// HALF-NOT: masked.load.v2f16
// HALF: call <8 x half> @llvm.masked.gather.v8f16.v8p3(
TRANSPOSED_TILE(transposed_tile_half, half)

// Work-items four to a row, each with its own float8 of the row (CLBlast's
// XgemvFastRot staging its tile): their addresses have no stride, so each
// run starts at the work-item's own pointer, one 32-byte load per
// work-item and a transpose instead of eight gathers. The loops the source
// asks to unroll are unrolled before widening (widening_checks.cpp): the
// staging's four rounds are one straight line, and so is the sum's region
// (widened for its required row of 32, not left to the work-item loop).
// ROT-PLAN: kernel rotated_rows: regions, region 0 widened, 16 work-items at once ({{[0-9]+}} bytes held at once per work-item), vectors split into elements {{.*}}; region 1 widened, 8 work-items at once ({{[0-9]+}} bytes held at once per work-item), work-item entry
// ROT-LABEL: define internal void @__weft_body_rotated_rows.{{[0-9]+}}.region0.simd(
// ROT-NOT: masked.gather
// ROT: [[P0:%[0-9]+]] = extractelement <16 x ptr addrspace(1)> [[POINTERS:%[0-9]+]], i64 0
// ROT-NEXT: [[P1:%[0-9]+]] = extractelement <16 x ptr addrspace(1)> [[POINTERS]], i64 1
// ROT: wi.row_load_whole:
// ROT-NEXT: load <8 x float>, ptr addrspace(1) [[P0]], align 32
// ROT-NEXT: load <8 x float>, ptr addrspace(1) [[P1]], align 32
// ROT: wi.row_load_masked:
// ROT: call <8 x float> @llvm.masked.load.v8f32.p1(
// The eight runs, longer than a 16-byte block, are dealt out by a
// transpose (widener_transposes.cpp): block halves, pairs, then the even
// and the odd elements of two runs at a time.
// ROT: wi.row_load_joined:
// ROT-COUNT-16: phi <8 x float>
// ROT-NEXT: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
// ROT: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <8 x i32> <i32 0, i32 2, i32 8, i32 10, i32 4, i32 6, i32 12, i32 14>
// ROT-NEXT: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <8 x i32> <i32 1, i32 3, i32 9, i32 11, i32 5, i32 7, i32 13, i32 15>
// Rows kl = 1, 2, 3 start from row 0's pointers, `ld8` float8s on each
// (Widener::uniformDistance), not from pointers of their own.
// ROT: [[STEP1:%[0-9]+]] = mul i64 32, [[LD:%[a-z0-9.]+]]
// ROT-NEXT: getelementptr i8, ptr addrspace(1) [[P0]], i64 [[STEP1]]
// ROT: [[STEP3:%[0-9]+]] = mul i64 96, [[LD]]
// ROT-NEXT: getelementptr i8, ptr addrspace(1) [[P0]], i64 [[STEP3]]
// ROT-NOT: shufflevector <128 x float>
// ROT-NOT: masked.gather
// ROT: ret void
// The sum reads a row's columns `lid & 28`, `(lid & 28) | 1`, `| 2` and,
// as InstCombine leaves it, `lid | 3`: bit fields of one value whose
// masks agree on the bits lid can have (lid < 32), four neighbours
// (Widener::bitFieldDistance), where ScalarEvolution saw the last as a
// value of its own: one load of four per work-item, no gathers.
// Eight work-items at once (88 bytes held at once: up to twice the
// registers), the runs of four two to a register, work-items j and j + 4,
// transposed in both halves at once.
// ROT-LABEL: define internal void @__weft_body_rotated_rows.{{[0-9]+}}.region1.simd(
// ROT-NOT: masked.gather
// The work-items' pointers are taken out of the vector once: the other
// runs, rows of the tile a constant 128 bytes on, start from them.
// ROT: [[Q0:%[0-9]+]] = extractelement <8 x ptr addrspace(3)> [[ROWS:%[0-9]+]], i64 0
// ROT-COUNT-7: extractelement <8 x ptr addrspace(3)> [[ROWS]]
// ROT: load <4 x float>, ptr addrspace(3) [[Q0]]
// ROT: wi.row_load_joined:
// ROT: getelementptr i8, ptr addrspace(3) [[Q0]], i64 128
// ROT-NOT: extractelement <8 x ptr addrspace(3)>
// ROT: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <8 x i32> <i32 0, i32 1, i32 8, i32 9, i32 4, i32 5, i32 12, i32 13>
// ROT: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <8 x i32> <i32 0, i32 2, i32 8, i32 10, i32 4, i32 6, i32 12, i32 14>
// ROT-NEXT: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <8 x i32> <i32 1, i32 3, i32 9, i32 11, i32 5, i32 7, i32 13, i32 15>
// ROT-NOT: masked.gather
// ROT: ret void
__attribute__((reqd_work_group_size(32, 1, 1)))
kernel void rotated_rows(global const float8 *a, int ld8, global float *y) {
  local float tile[32][32];
  int lid = get_local_id(0);
  int lid_mod = lid % 4, lid_div = lid / 4;
#pragma unroll
  for (int kl = 0; kl < 4; ++kl) {
    float8 v = a[(get_group_id(0) * 32 + lid_div * 4 + kl) * ld8 + lid_mod];
    tile[kl * 8 + 0][lid] = v.s0;
    tile[kl * 8 + 1][lid] = v.s1;
    tile[kl * 8 + 2][lid] = v.s2;
    tile[kl * 8 + 3][lid] = v.s3;
    tile[kl * 8 + 4][lid] = v.s4;
    tile[kl * 8 + 5][lid] = v.s5;
    tile[kl * 8 + 6][lid] = v.s6;
    tile[kl * 8 + 7][lid] = v.s7;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  float acc = 0.0f;
#pragma unroll
  for (int kl = 0; kl < 4; ++kl)
#pragma unroll
    for (int v = 0; v < 8; ++v)
      acc += tile[lid_mod * 8 + v][lid_div * 4 + kl];
  y[get_global_id(0)] = acc;
}
