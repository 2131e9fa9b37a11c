// Kernels without loops whose work-items compute in vector types are
// widened by Weft: LLVM's loop vectorizer leaves a work-item loop holding
// vector-typed values scalar, one work-item's float4 at a time, with a
// horizontal sum for each dot(). The number of work-items at once fits
// the values a work-item holds at one point in the registers
// (widening_width.cpp), up to twice over (what does not fit spills). Where
// widening would gather and gathers cost more
// (AVX2, or whole vectors), they stay on the work-item loop, and the plan
// says why.
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN-AVX2
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN-AVX512
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX2

// A pixel's luminance: each work-item's float4 taken apart, so split into
// elements, one register per channel for 8 work-items; no shuffles.
// PLAN-AVX2: kernel luminance: widened, 8 work-items at once ({{[0-9]+}} bytes held at once per work-item), vectors split into elements
// PLAN-AVX512: kernel luminance: widened, 16 work-items at once ({{[0-9]+}} bytes held at once per work-item), vectors split into elements
// AVX2-LABEL: define void @__weft_group_luminance(
// AVX2-NOT: shufflevector <4 x float>
// AVX2: fmul <8 x {{float|double}}>
// AVX2: {{^}}}
kernel void luminance(global const uchar4 *rgba, global float *luma) {
  int i = get_global_id(0);
  luma[i] = dot(convert_float4(rgba[i]), (float4)(0.25f, 0.5f, 0.125f, 0.0f));
}

// Computed on whole vectors: kept whole, 16 work-items' float4 side by
// side (56 bytes held at once, twice AVX2's registers at 16).
// PLAN-AVX2: kernel blend: widened, 16 work-items at once ({{[0-9]+}} bytes held at once per work-item), vectors kept whole
// PLAN-AVX512: kernel blend: widened, 16 work-items at once ({{[0-9]+}} bytes held at once per work-item), vectors kept whole
// AVX2-LABEL: define void @__weft_group_blend(
// AVX2: <64 x float>
// AVX2: {{^}}}
kernel void blend(global const uchar4 *a, global const uchar4 *b,
                  global uchar4 *out, float alpha) {
  int i = get_global_id(0);
  out[i] = convert_uchar4_sat_rte(convert_float4(a[i]) * alpha +
                                  convert_float4(b[i]) * (1.0f - alpha));
}

// Four neighbours at computed places: gathers, which on AVX2 cost more
// than a work-item's float4 at a time (a bilinear resize, 181 against 281
// Mpix/s on a Zen 3).
// PLAN-AVX2: kernel bilinear: work-item loop (no loop in the work-item, and widened it would gather
// PLAN-AVX512: kernel bilinear: work-item loop (no loop in the work-item, and widened it would gather
kernel void bilinear(global const uchar4 *src, int sw, global uchar4 *dst,
                     float scale) {
  int x = get_global_id(0);
  float u = x * scale;
  int x0 = (int)u;
  float a = u - x0;
  float4 t = (1.0f - a) * convert_float4(src[x0]) +
             a * convert_float4(src[min(x0 + 1, sw - 1)]);
  dst[x] = convert_uchar4_sat_rte(t);
}

// No vector types: the work-item loop, which LLVM's loop vectorizer widens.
// PLAN-AVX2: kernel scalar: work-item loop (no loop in the work-item (the loop over work-items left to LLVM's loop vectorizer))
kernel void scalar(global const float *a, global float *b) {
  int i = get_global_id(0);
  b[i] = a[i] * 2.0f;
}

// Barrier regions without loops are judged alike: widened when they
// compute in vector types on neighbouring elements, left one work-item at
// a time when widened they would gather without AVX-512.
// The tile's neighbour at (l + 1) % size is a gather: whole vectors, so on
// AVX-512 too.
// PLAN-AVX2: kernel staged_blend: regions, region 0 widened, 16 work-items at once (32 bytes held at once per work-item), vectors kept whole; region 1 one work-item at a time (no loop in the work-item, and widened it would gather
// PLAN-AVX512: kernel staged_blend: regions, region 0 widened, 16 work-items at once (32 bytes held at once per work-item), vectors kept whole; region 1 one work-item at a time (no loop in the work-item, and widened it would gather
kernel void staged_blend(global const uchar4 *a, global uchar4 *out,
                         local float4 *tile) {
  int l = get_local_id(0), i = get_global_id(0);
  tile[l] = convert_float4(a[i]) * 0.5f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = convert_uchar4_sat_rte(tile[l] + tile[(l + 1) % get_local_size(0)]);
}
// Whole vectors gathered: one work-item at a time on AVX-512 too; its
// store region is widened.
// PLAN-AVX2: kernel staged_bilinear: regions, region 0 one work-item at a time (no loop in the work-item, and widened it would gather
// PLAN-AVX512: kernel staged_bilinear: regions, region 0 one work-item at a time (no loop in the work-item, and widened it would gather
kernel void staged_bilinear(global const uchar4 *src, global uchar4 *dst,
                            float scale, local float4 *tile) {
  int x = get_global_id(0), l = get_local_id(0);
  float u = x * scale;
  int x0 = (int)u;
  tile[l] = (u - x0) * convert_float4(src[x0]) +
            (1.0f - (u - x0)) * convert_float4(src[x0 + 1]);
  barrier(CLK_LOCAL_MEM_FENCE);
  dst[x] = convert_uchar4_sat_rte(tile[l]);
}
