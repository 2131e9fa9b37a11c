// weft-widen-work-items: a work-item with a loop of its own is widened 16
// work-items at a time; a body LLVM's loop vectorizer covers keeps the
// plain loop, and the plan says why. A loop every work-item runs as many
// times is widened too when it walks memory other than element by element
// (a matrix column, the elements of float4 values), which LLVM's loop
// vectorizer leaves scalar. This file pins the widened code as a whole
// (widener.cpp, widener_loops.cpp); varying_values.cl, lane_masks.cl and
// widening_checks.cl pin the parts.
// On an AVX-512 target: 16 lanes.
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -weft-lanes=16 -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.ll > %t.plan
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=HALF < %t.ll
// RUN: FileCheck %s --check-prefix=COLUMN < %t.ll
// RUN: FileCheck %s --check-prefix=BODIES < %t.ll
// RUN: FileCheck %s --check-prefix=INTID < %t.ll
// RUN: FileCheck %s --check-prefix=FIND < %t.ll
// RUN: FileCheck %s --check-prefix=NESTED < %t.ll
// On an AVX2 CPU, where gathers cost more than the scalar loop, a loop
// every work-item runs as often is widened only when it needs no gathers:
// the loop's counter and the loads it alone addresses are one value for
// all work-items, so a[row * n + k] is one load and b[k * n + col] a vector
// of neighbours. A loop that would gather stays with LLVM's vectorizer.
// RUN: %weft-cl %s --target-cpu=znver3 -weft-lanes=16 -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.avx2.ll | FileCheck %s --check-prefix=AVX2
// RUN: FileCheck %s --check-prefix=AVX2-COLUMN < %t.avx2.ll
// The column loop's exit test is one for all work-items, in its header:
// they leave together, so a scalar branch decides each round and the loop
// keeps the mask it was entered with. A row's full chunks of 16 pass a
// constant count, that mask is all true, and the k loop's loads are plain
// vector loads (vmaskmov, slow on AMD's AVX2 cores, in every step before).
// RUN: %weft-cl %s --target-cpu=znver3 -weft-lanes=16 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=FULL
// FULL-LABEL: define void @__weft_group_column_walk(
// FULL: full_chunk:
// FULL-NOT: masked.load
// FULL: load <16 x float>, ptr addrspace(1)
// FULL-NOT: masked.load
// FULL: partial_chunk
// AVX2: kernel column_walk: widened
// AVX2: kernel float4_bodies: widened
// AVX2: kernel strided_rows: work-item loop (every loop runs as many times for all work-items and, widened, would gather (without AVX-512, or for whole vectors, gathers cost more; its innermost loops left to LLVM's loop vectorizer))
// AVX2: kernel mandel_half: widened
// AVX2-COLUMN-LABEL: define internal void @__weft_body_column_walk.simd(
// AVX2-COLUMN-NOT: masked.gather
// AVX2-COLUMN: %k{{.*}} = phi i32
// AVX2-COLUMN: wi.round:
// AVX2-COLUMN: wi.uniform_load:
// AVX2-COLUMN-NEXT: load float
// AVX2-COLUMN: call <16 x float> @llvm.masked.load.v16f32
// AVX2-COLUMN-NOT: masked.gather
// AVX2-COLUMN-LABEL: define

// PLAN: kernel mandel: widened
// PLAN: kernel saxpy: work-item loop (no loop in the work-item (the loop over work-items left to LLVM's loop vectorizer))
// A float sum keeps its order in OpenCL C, which LLVM's loop vectorizer
// does not vectorize on x86: widened (carried_chains.cl has more).
// PLAN: kernel uniform_loop: widened
// PLAN: kernel column_walk: widened
// PLAN: kernel float4_bodies: widened
// PLAN: kernel strided_rows: widened
// PLAN: kernel find_key: widened
// Half values widen too (as <16 x half>).
// PLAN: kernel mandel_half: widened
// HALF-LABEL: define internal void @__weft_body_mandel_half.simd(
// HALF: <16 x half>

// The widened body takes (args, context, first x, y, z, count) and works on
// <16 x ...> values under a mask.
// IR-LABEL: define internal void @__weft_body_mandel.simd(ptr addrspace(1) %{{.*}}, i32 %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}})
// IR: <16 x float>
// IR: <16 x i1>
// The group entry steps 16 work-items at a time through it.
// IR-LABEL: define void @__weft_group_mandel(
// IR: call void @__weft_body_mandel.simd(
// IR: add nuw nsw i64 %lid0, 16
// IR-LABEL: define void @__weft_group_saxpy(
// IR-NOT: .simd
// IR: call void @__weft_body_saxpy(
// Sixteen work-items' elements of the column per k, neighbours: one
// vector load; the row's element, the same for all, one scalar load.
// COLUMN-LABEL: define internal void @__weft_body_column_walk.simd(
// COLUMN-NOT: masked.gather
// COLUMN: wi.uniform_load:
// COLUMN: <16 x float> @llvm.masked.load.v16f32
// COLUMN-NOT: masked.gather
// COLUMN-LABEL: define
// The float4 positions, split into their elements, 16 work-items at once.
// BODIES-LABEL: define internal void @__weft_body_float4_bodies.simd(
// BODIES: <16 x float>

kernel void mandel(global int *out, int max_iter) {
  size_t i = get_global_id(0);
  float cr = i * 0.001f, zr = 0, zi = 0;
  int n = 0;
  while (n < max_iter && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2 * zr * zi;
    zr = t;
    n++;
  }
  out[i] = n;
}

kernel void saxpy(global float *y, global const float *x, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}

kernel void uniform_loop(global float *y, int n) {
  float sum = 0;
  for (int k = 0; k < n; ++k)
    sum += y[k];
  y[get_global_id(0)] = sum;
}

// An id narrowed to int indexes neighbours: the store is one masked vector
// store, not a scatter (InstCombine writes the index as ashr (shl id, 32),
// 30, which the lane strides see through).
// INTID-LABEL: define internal void @__weft_body_int_ids.simd(
// INTID-NOT: masked.scatter
// INTID: call void @llvm.masked.store.v16i32
// INTID-NOT: masked.scatter
// INTID: ret void
kernel void int_ids(global int *out, int max_iter) {
  int i = get_global_id(0);
  float cr = i * 0.001f, zr = 0;
  int n = 0;
  while (n < max_iter && zr < 4.0f) {
    zr = zr * zr + cr;
    n++;
  }
  out[i] = n;
}

// The naive matrix product: every work-item runs the k loop n times, walking
// a column of b (n elements apart).
kernel void column_walk(global const float *a, global const float *b,
                        global float *c, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}

// An n-body step: float4 values, which the widener takes element by
// element.
kernel void float4_bodies(global const float4 *pos, global float4 *acc,
                          int n) {
  float4 p = pos[get_global_id(0)];
  float3 a = (float3)(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 q = pos[j];
    float3 d = q.xyz - p.xyz;
    float inv = rsqrt(dot(d, d) + 0.01f);
    a += d * (q.w * inv * inv * inv);
  }
  acc[get_global_id(0)] = (float4)(a, 0.0f);
}

// Each work-item walks its own row: neighbours' elements are n apart, a
// gather per k.
kernel void strided_rows(global const float *a, global float *out, int n) {
  int row = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += a[row * n + k] * a[k];
  out[row] = sum;
}

// No loop, but a store to one address under a condition, which LLVM's loop
// vectorizer cannot vectorize: widened, it stores once, the value of the
// last work-item that takes the path (its lane: 15 - ctlz of the mask).
// FIND-LABEL: define internal void @__weft_body_find_key.simd(
// FIND: wi.uniform_store:
// FIND-NEXT: call i16 @llvm.ctlz.i16
// FIND: extractelement <16 x i32>
// FIND: store i32
kernel void find_key(global const int *in, int key, global int *found) {
  int i = get_global_id(0);
  if (in[i] == key)
    *found = i;
}

// A loop in a loop: the inner one, which every work-item goes round n
// times, is written inside the outer one's body and entered with the mask
// of the work-items still going round the outer one; it keeps that mask,
// and its scalar counter decides each round. The rest of an outer round
// (the inner loop, the latch) is skipped when no work-item goes on round
// the outer loop: the mask going round is then none and the loop ends,
// rather than running a last round with every lane off. The outer counter
// a starts at 0 in every lane and steps alike, so in[a * n + b] is one
// address for all: one load.
// NESTED-LABEL: define internal void @__weft_body_nested.simd(
// NESTED: wi.loop:
// NESTED: %a.0 = phi <16 x i32>
// NESTED: [[OUTER_ON:%[0-9]+]] = and <16 x i1> %wi.mask,
// NESTED: [[ON_BITS:%[0-9]+]] = bitcast <16 x i1> [[OUTER_ON]] to i16
// NESTED-NEXT: [[SOME:%[0-9]+]] = icmp ne i16 [[ON_BITS]], 0
// NESTED-NEXT: br i1 [[SOME]], label %wi.some, label %wi.joined
// NESTED: wi.some:
// NESTED: br label %[[INNER:wi.loop[0-9]+]]
// NESTED: wi.joined:
// NESTED-NEXT: %wi.edge = phi <16 x i1> [ [[OUTER_ON]], %[[INNER_EXIT:wi.exit[0-9]+]] ], [ zeroinitializer, %wi.loop ]
// NESTED: [[BITS:%[0-9]+]] = bitcast <16 x i1> %wi.edge to i16
// NESTED-NEXT: [[ANY:%[0-9]+]] = icmp ne i16 [[BITS]], 0
// NESTED-NEXT: br i1 [[ANY]], label %wi.loop, label %wi.exit
// NESTED: [[INNER]]:
// NESTED-NEXT: %[[INNER_MASK:wi.mask[0-9]+]] = phi <16 x i1> [ [[OUTER_ON]], %wi.some ], [ %[[INNER_MASK]], %wi.loaded ]
// NESTED: %b.0 = phi i32 [ 0, %wi.some ]
// NESTED: br i1 {{%[0-9]+}}, label %wi.round, label %[[INNER_EXIT]]
// NESTED: wi.round:
// NESTED-NOT: masked.gather
// NESTED: wi.uniform_load:
// NESTED-NEXT: load float
// NESTED: br label %[[INNER]]
kernel void nested(global const float *in, global float *out, int n) {
  int i = get_global_id(0);
  float sum = 0.0f;
  for (int a = 0; a < i; ++a)
    for (int b = 0; b < n; ++b)
      sum += in[a * n + b];
  out[i] = sum;
}

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void mandel_half(global int *out, global const half *scale,
                        int max_iter) {
  size_t i = get_global_id(0);
  half cr = scale[i], zr = 0, zi = 0;
  int n = 0;
  while (n < max_iter && zr * zr + zi * zi < (half)4.0h) {
    half t = zr * zr - zi * zi + cr;
    zi = (half)2.0h * zr * zi;
    zr = t;
    ++n;
  }
  out[i] = n;
}
