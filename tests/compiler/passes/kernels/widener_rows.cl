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
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.avx2.ll | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --check-prefix=AVX2 < %t.avx2.ll
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline' -o - | FileCheck %s --check-prefix=AVX512
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 --target-cpu=sapphirerapids -passes='weft-kernel-pipeline' -o - | FileCheck %s --check-prefix=HALF

// PLAN: kernel transposed_tile: regions, region 0 widened, 8 work-items at once {{.*}}; region 1 widened, 8 work-items at once

// AVX2-LABEL: define internal void @__weft_body_transposed_tile.{{[0-9]+}}.region1.simd(
// AVX2-NOT: masked.gather
// AVX2: [[FIRST:%[0-9]+]] = extractelement <8 x ptr addrspace(3)> {{%[0-9]+}}, i64 0
// AVX2-NEXT: [[LANE0:%[0-9]+]] = getelementptr i8, ptr addrspace(3) [[FIRST]], i64 0
// AVX2: [[PAIR0:%[0-9]+]] = call <2 x float> @llvm.masked.load.v2f32.p3(ptr addrspace(3) [[LANE0]], i32 4,
// AVX2: getelementptr i8, ptr addrspace(3) [[FIRST]], i64 68
// AVX2: [[PAIR1:%[0-9]+]] = call <2 x float> @llvm.masked.load.v2f32.p3(
// AVX2: shufflevector <2 x float> [[PAIR0]], <2 x float> [[PAIR1]], <4 x i32> <i32 0, i32 1, i32 2, i32 3>
// AVX2: [[ALL:%[0-9]+]] = shufflevector <8 x float> {{%[0-9]+}}, <8 x float> {{%[0-9]+}}, <16 x i32>
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
