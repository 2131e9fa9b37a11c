// Kernels whose work-items compute in vector types are widened with each
// work-item's vectors kept whole, side by side, when they mostly compute on
// them element by element (widening_checks.cpp, keepsVectorsWhole), and
// split into one value per element when they mostly take them apart. The
// number of work-items widened at once fills the vector registers with the
// values the loops carry (widening_width.cpp), and kernels widened past 16
// work-items get a 16-wide function for what is left of a row.
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN-AVX2
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN-AVX512
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX2
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX512

// PLAN-AVX2: kernel chain16: widened, 4 work-items at once (128 bytes carried per work-item), vectors kept whole
// PLAN-AVX2: kernel sum4: widened, 4 work-items at once (24 bytes carried per work-item, 64 bytes of each streamed load at once), vectors kept whole
// PLAN-AVX2: kernel sum16: widened, 1 work-item at once (72 bytes carried per work-item, 64 bytes of each streamed load at once), vectors kept whole
// PLAN-AVX2: kernel forces: widened, 32 work-items at once (12 bytes carried per work-item), vectors split into elements (its vectors are taken apart more than computed on whole); 16 for a row's last 31 or fewer
// PLAN-AVX2: kernel escape8: widened, 8 work-items at once (36 bytes carried per work-item), vectors kept whole
// PLAN-AVX512: kernel chain16: widened, 16 work-items at once (128 bytes carried per work-item), vectors kept whole
// PLAN-AVX512: kernel sum4: widened, 4 work-items at once (24 bytes carried per work-item, 64 bytes of each streamed load at once), vectors kept whole
// PLAN-AVX512: kernel sum16: widened, 1 work-item at once (72 bytes carried per work-item, 64 bytes of each streamed load at once), vectors kept whole
// PLAN-AVX512: kernel forces: widened, 128 work-items at once
// PLAN-AVX512: kernel escape8: widened, 16 work-items at once (36 bytes carried per work-item), vectors kept whole

// clpeak's compute_sp_v16: two float16 chains per work-item. Split into
// elements, 16 work-items would need 64 AVX2 registers; whole, 4 work-items
// need 16, and each FMA is 8 independent register-wide FMAs.
// AVX2-LABEL: define void @__weft_group_chain16(
// AVX2: call <64 x float> @llvm.fma.v64f32
// AVX2-NOT: call <16 x float> @llvm.fma.v16f32
// AVX2-NOT: call float @llvm.fma.f32
// AVX2: ret void
// AVX512-LABEL: define void @__weft_group_chain16(
// AVX512: call <256 x float> @llvm.fma.v256f32
// AVX512: ret void
kernel void chain16(global float *out, float a) {
  float16 x = (float16)(a);
  float16 y = (float16)get_local_id(0);
  for (int i = 0; i < 32; i++) {
    x = mad(y, x, y);
    y = mad(x, y, x);
  }
  out[get_global_id(0)] = y.s0 + y.sf;
}

// clpeak's global_bandwidth_v4: neighbouring work-items read neighbouring
// float4s, stepping together round the loop: one load of 4 work-items'
// float4s, never a gather. A loop that streams memory (an add per element
// loaded) reads 64 bytes of each place at once, not more
// (widening_width.cpp: longer bursts from 16 places ran slower).
// AVX2-LABEL: define void @__weft_group_sum4(
// AVX2-NOT: gather
// AVX2: load <16 x float>
// AVX2-NOT: gather
// AVX2: ret void
kernel void sum4(global const float4 *in, global float *out) {
  int id = get_group_id(0) * get_local_size(0) * 16 + get_local_id(0);
  float4 sum = 0;
  for (int i = 0; i < 16; i++) {
    sum += in[id];
    id += get_local_size(0);
  }
  out[get_global_id(0)] = sum.s0 + sum.s1 + sum.s2 + sum.s3;
}

// The same in float16 (clpeak's global_bandwidth_v16): 64 bytes of each
// place at once is one work-item's float16 (the plan lines above).
kernel void sum16(global const float16 *in, global float *out) {
  int id = get_group_id(0) * get_local_size(0) * 16 + get_local_id(0);
  float16 sum = 0;
  for (int i = 0; i < 16; i++) {
    sum += in[id];
    id += get_local_size(0);
  }
  out[get_global_id(0)] = sum.s0 + sum.sf;
}

// An n-body step takes its float4s apart (.x, .y, .z): split into elements.
// Widened past 16 work-items, the rest of a row runs 16 at a time.
// AVX2-LABEL: define void @__weft_group_forces(
// AVX2: full_chunk:
// AVX2: narrow_chunk:
// AVX2: ret void
kernel void forces(global const float4 *pos, global float4 *acc, int n) {
  float4 p = pos[get_global_id(0)];
  float3 a = 0;
  for (int j = 0; j < n; ++j) {
    float4 q = pos[j];
    float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    float inv = rsqrt(dx * dx + dy * dy + dz * dz + 0.01f);
    float s = q.w * inv * inv * inv;
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
  }
  acc[get_global_id(0)] = (float4)(a, 0);
}

// A loop work-items leave at different times stays at 16 work-items or
// fewer: wider, more lanes would idle.
// AVX2-LABEL: define void @__weft_group_escape8(
// AVX2: fmul <64 x float>
// AVX2: ret void
kernel void escape8(global const float8 *in, global float8 *out) {
  float8 z = in[get_global_id(0)];
  int i = 0;
  while (i < 100 && z.s0 < 4.0f) {
    z = z * z * 0.5f + (float8)(0.25f);
    ++i;
  }
  out[get_global_id(0)] = z;
}

// A loop every work-item goes round alike whose widened form would gather
// whole vectors (a float4 box filter with clamped coordinates) keeps the
// work-item loop even where AVX-512 makes gathers cheap: each work-item's
// float4 is gathered element by element (on the Xeon, 730 Mpix/s widened
// against 1,404 on the work-item loop).
// PLAN-AVX512: kernel box_filter: work-item loop (every loop runs as many times for all work-items and, widened, would gather (without AVX-512, or for whole vectors, gathers cost more; its innermost loops left to LLVM's loop vectorizer))
kernel void box_filter(global const float4 *in, global float4 *out,
                       int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  float4 sum = (float4)(0.0f);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = clamp(x + dx, 0, width - 1), sy = clamp(y + dy, 0, height - 1);
      sum += in[sy * width + sx];
    }
  out[y * width + x] = sum * 0.125f;
}

// CLBlast's Xgemm as it tunes it for the Xeon: B's float4 is the same for
// every work-item of a row (indexed by the group alone), and each of its
// elements is taken out to scale A's float4, one component at a time. The
// elements of a vector every work-item holds alike are scalars either way:
// they do not count as taking vectors apart, and the accumulators stay
// whole. A's float4, loaded each round and used four times, is held beside
// the accumulators: counted with them, AVX2's 16 registers hold 4
// work-items' (8 for the accumulators, 2 for A), AVX-512's 32 hold 16.
// PLAN-AVX2: kernel uniform_b: widened, 4 work-items at once (64 bytes carried per work-item, 16 loaded and reused each round), vectors kept whole
// PLAN-AVX512: kernel uniform_b: widened, 16 work-items at once (64 bytes carried per work-item, 16 loaded and reused each round), vectors kept whole
kernel void uniform_b(global const float4 *a, global const float4 *b,
                      global float4 *c, int k_size) {
  float4 acc0 = (float4)(0.0f), acc1 = (float4)(0.0f);
  float4 acc2 = (float4)(0.0f), acc3 = (float4)(0.0f);
  for (int k = 0; k < k_size; ++k) {
    float4 av = a[k * get_global_size(0) + get_global_id(0)];
    float4 bv = b[k * 4 + get_group_id(1)];
#define MAD4(acc, s)                                                           \
  acc.x = mad(av.x, s, acc.x);                                                 \
  acc.y = mad(av.y, s, acc.y);                                                 \
  acc.z = mad(av.z, s, acc.z);                                                 \
  acc.w = mad(av.w, s, acc.w);
    MAD4(acc0, bv.x)
    MAD4(acc1, bv.y)
    MAD4(acc2, bv.z)
    MAD4(acc3, bv.w)
  }
  c[get_global_id(0)] = acc0 + acc1 + acc2 + acc3;
}

// Packed 8-bit dot products summed over rows (cl_khr_integer_dot_product):
// each is bytes widened, multiplied and summed across the four; the sum's
// steps (an element shuffled to the front, added) count as taking the
// vector apart, so the work-items' bytes are split into elements: a
// register of one byte of each work-item, no shuffles (1.2-1.4x on Zen 3).
// PLAN-AVX2: kernel packed_dots: widened, 128 work-items at once (4 bytes carried per work-item), vectors split into elements (its vectors are taken apart more than computed on whole)
// PLAN-AVX512: kernel packed_dots: widened, 128 work-items at once (4 bytes carried per work-item), vectors split into elements
kernel void packed_dots(global const uint *a, global const uint *b,
                        global int *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  int acc = 0;
  for (int k = 0; k < 64; ++k)
    acc += dot_4x8packed_us_int(a[k * n + i], b[k * n + i]);
  out[i] = acc;
}
