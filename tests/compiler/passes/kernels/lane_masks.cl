// weft-widen-work-items' lane masks (lane_masks.cpp): each block of the
// widened body runs under the mask of the work-items on it, a branch splits
// its block's mask between its edges, loads and stores are masked, and an
// access of one address for all is made only when some work-item is on its
// path. A loop its work-items leave at different times keeps a mask of
// those still going round; one they leave together keeps the mask it was
// entered with.
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -weft-lanes=16 -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.ll | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --check-prefix=LOOP < %t.ll
// RUN: FileCheck %s --check-prefix=BRANCH < %t.ll
// RUN: FileCheck %s --check-prefix=JOIN < %t.ll
// RUN: FileCheck %s --check-prefix=TOGETHER < %t.ll
// RUN: FileCheck %s --check-prefix=ONE < %t.ll
// RUN: FileCheck %s --check-prefix=SKIP < %t.ll
// RUN: FileCheck %s --check-prefix=SKIPGATHER < %t.ll
// RUN: FileCheck %s --check-prefix=NESTED < %t.ll
// RUN: FileCheck %s --check-prefix=DIVIDE < %t.ll
// RUN: FileCheck %s --check-prefix=STRIDED < %t.ll
// RUN: FileCheck %s --check-prefix=INTERLEAVED < %t.ll
// RUN: FileCheck %s --check-prefix=STAGED < %t.ll
// RUN: %weft-cl %s --target-cpu=znver3 -weft-lanes=16 -passes=weft-kernel-pipeline -o %t.znver3.ll
// RUN: FileCheck %s --check-prefix=WHOLE < %t.znver3.ll
// RUN: FileCheck %s --check-prefix=INTERLEAVED_AVX2 < %t.znver3.ll
// RUN: FileCheck %s --check-prefix=AVX512WHOLE < %t.ll
// RUN: FileCheck %s --check-prefix=LANEVECTORS < %t.znver3.ll
// RUN: FileCheck %s --check-prefix=LANEVECTORS < %t.ll
// RUN: FileCheck %s --check-prefix=EIGHTS < %t.ll
// RUN: FileCheck %s --check-prefix=EIGHTS < %t.znver3.ll

// PLAN: kernel branch_on_id: widened
// PLAN: kernel join: widened
// PLAN: kernel together: widened
// PLAN: kernel one_address: widened
// PLAN: kernel skipped_side: widened
// PLAN: kernel nested_sides: widened
// PLAN: kernel interleaved_pairs: widened
// PLAN: kernel staged_tiles: widened
// PLAN: kernel constant_divisor: widened
// PLAN: kernel strided_rows: widened
// PLAN: kernel vector_rows: regions, region 0 widened
// PLAN: kernel gathered_side: widened
// PLAN: kernel eight_by_eight: widened, 16 work-items at once (forced by -weft-lanes), vectors split into elements

// The loop goes round while any lane of its mask is on; the work-items that
// left are gathered in wi.left, and the code after the loop runs for them.
// LOOP-LABEL: define internal void @__weft_body_branch_on_id.simd(
// LOOP: wi.loop:
// LOOP-NEXT: %wi.mask = phi <16 x i1> [ %active, %entry ], [ [[AGAIN:%[0-9]+]], %wi.loop ]
// LOOP-NEXT: %wi.left = phi <16 x i1> [ zeroinitializer, %entry ], [ [[LEFT:%[0-9]+]], %wi.loop ]
// LOOP: [[TEST:%[0-9]+]] = icmp slt <16 x i32> %k.0,
// LOOP-NEXT: [[AGAIN]] = and <16 x i1> %wi.mask, [[TEST]]
// LOOP-NEXT: [[NOT:%[0-9]+]] = xor <16 x i1> [[TEST]], <i1 true,
// LOOP-NEXT: [[LEAVING:%[0-9]+]] = and <16 x i1> %wi.mask, [[NOT]]
// LOOP: [[LEFT]] = or <16 x i1> %wi.left, [[LEAVING]]
// LOOP-NEXT: select <16 x i1> [[LEAVING]], <16 x i32> %k.0, <16 x i32> %k.0.lcssa
// LOOP-NEXT: [[BITS:%[0-9]+]] = bitcast <16 x i1> [[AGAIN]] to i16
// LOOP-NEXT: [[ANY:%[0-9]+]] = icmp ne i16 [[BITS]], 0
// LOOP-NEXT: br i1 [[ANY]], label %wi.loop, label %wi.exit
// The store under a branch on the id: a masked store for the work-items
// that left the loop and take the odd side.
// BRANCH-LABEL: define internal void @__weft_body_branch_on_id.simd(
// BRANCH: [[LEFT:%[0-9]+]] = or <16 x i1> %wi.left,
// BRANCH: wi.exit:
// BRANCH: [[EVEN:%[0-9]+]] = icmp eq <16 x i32> {{%[0-9]+}}, zeroinitializer
// BRANCH-NEXT: and <16 x i1> [[LEFT]], [[EVEN]]
// BRANCH-NEXT: [[ODD:%[0-9]+]] = xor <16 x i1> [[EVEN]], <i1 true,
// BRANCH-NEXT: [[ODD_LANES:%[0-9]+]] = and <16 x i1> [[LEFT]], [[ODD]]
// BRANCH-NOT: masked.scatter
// BRANCH: call void @llvm.masked.store.v16i32.p1(<16 x i32> {{%[0-9]+}}, ptr addrspace(1) {{%[0-9]+}}, i32 4, <16 x i1> [[ODD_LANES]])
kernel void branch_on_id(global int *out, int n) {
  int i = get_global_id(0);
  int k = 0;
  while (k < i)
    k += n;
  if (i & 1)
    out[i] = k;
}

// Where the two sides join, each lane takes the value of the side it came
// by; the division's lanes off its side divide 0 by 1.
// JOIN-LABEL: define internal void @__weft_body_join.simd(
// JOIN: wi.exit:
// JOIN-NEXT: [[GREATER:%[0-9]+]] = icmp sgt <16 x i32>
// JOIN-NEXT: [[THEN:%[0-9]+]] = and <16 x i1> [[LEFT:%[0-9]+]], [[GREATER]]
// JOIN-NEXT: [[NOT:%[0-9]+]] = xor <16 x i1> [[GREATER]], <i1 true,
// JOIN-NEXT: [[ELSE:%[0-9]+]] = and <16 x i1> [[LEFT]], [[NOT]]
// JOIN-NEXT: [[DIVISOR:%[0-9]+]] = select <16 x i1> [[ELSE]], <16 x i32> %{{.*}}, <16 x i32> <i32 1,
// JOIN-NEXT: [[DIVIDEND:%[0-9]+]] = select <16 x i1> [[ELSE]], <16 x i32> %{{[0-9]+}}, <16 x i32> zeroinitializer
// JOIN-NEXT: [[QUOTIENT:%[0-9]+]] = sdiv <16 x i32> [[DIVIDEND]], [[DIVISOR]]
// JOIN-NEXT: [[TRIPLE:%[0-9]+]] = mul nsw <16 x i32> %{{[0-9]+}}, <i32 3,
// JOIN-NEXT: [[BOTH:%[0-9]+]] = or <16 x i1> [[ELSE]], [[THEN]]
// JOIN-NEXT: [[V:%[0-9]+]] = select <16 x i1> [[ELSE]], <16 x i32> [[QUOTIENT]], <16 x i32> [[TRIPLE]]
// JOIN: call void @llvm.masked.store.v16i32.p1(<16 x i32> [[V]], ptr addrspace(1) {{%[0-9]+}}, i32 4, <16 x i1> [[BOTH]])
kernel void join(global int *out, int n) {
  int i = get_global_id(0);
  int k = 0, v;
  while (k < i)
    k += n;
  if (k > n)
    v = k * 3;
  else
    v = k / n;
  out[i] = v;
}

// Every work-item goes round n times: a scalar test, made only when some
// work-item entered, decides each round, the loop keeps the mask it was
// entered with (%active), and so does the store after it. a[k], one
// address for all, is loaded only when some lane of the mask is on.
// TOGETHER-LABEL: define internal void @__weft_body_together.simd(
// TOGETHER: [[BITS:%[0-9]+]] = bitcast <16 x i1> %active to i16
// TOGETHER-NEXT: [[ENTERED:%[0-9]+]] = icmp ne i16 [[BITS]], 0
// TOGETHER: wi.loop:
// TOGETHER-NEXT: %wi.mask = phi <16 x i1> [ %active, %entry ], [ %wi.mask, %wi.loaded ]
// TOGETHER-NOT: wi.left
// TOGETHER: %cmp = icmp slt i32 %k.0,
// TOGETHER-NEXT: [[ROUND:%[0-9]+]] = and i1 %cmp, [[ENTERED]]
// TOGETHER-NEXT: br i1 [[ROUND]], label %wi.round, label %wi.exit
// TOGETHER: wi.exit:
// TOGETHER: call void @llvm.masked.store.v16f32.p1(<16 x float> %sum.0, ptr addrspace(1) {{%[0-9]+}}, i32 4, <16 x i1> %active)
// TOGETHER: wi.round:
// TOGETHER: call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) {{%[0-9]+}}, i32 4, <16 x i1> %wi.mask,
// TOGETHER: [[MASK_BITS:%[0-9]+]] = bitcast <16 x i1> %wi.mask to i16
// TOGETHER-NEXT: [[ANY:%[0-9]+]] = icmp ne i16 [[MASK_BITS]], 0
// TOGETHER-NEXT: br i1 [[ANY]], label %wi.uniform_load, label %wi.loaded
// TOGETHER: wi.uniform_load:
// TOGETHER-NEXT: [[A_K:%[0-9]+]] = load float, ptr addrspace(1) %arrayidx
// TOGETHER: wi.loaded:
// TOGETHER-NEXT: phi float [ [[A_K]], %wi.uniform_load ], [ poison, %wi.round ]
kernel void together(global const float *a, global float *out, int n) {
  int i = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += a[k * n + i] * a[k];
  out[i] = sum;
}

// Stores to one address for all, under branches on loaded values: made
// once when some work-item takes the branch, n as it is, and the id of the
// last work-item that takes it (its lane: 15 - ctlz of the mask).
// ONE-LABEL: define internal void @__weft_body_one_address.simd(
// ONE: [[FLAG_LANES:%[0-9]+]] = and <16 x i1> %active,
// ONE: [[FLAG_BITS:%[0-9]+]] = bitcast <16 x i1> [[FLAG_LANES]] to i16
// ONE-NEXT: [[ANY:%[0-9]+]] = icmp ne i16 [[FLAG_BITS]], 0
// ONE-NEXT: br i1 [[ANY]], label %wi.uniform_store, label %wi.stored
// ONE: wi.uniform_store:
// ONE-NEXT: store i32 %{{[0-9]+}}, ptr addrspace(1) %1
// ONE-NEXT: br label %wi.stored
// ONE: [[LAST_LANES:%[0-9]+]] = and <16 x i1> {{%[0-9]+}}, {{%[0-9]+}}
// ONE: [[LAST_BITS:%[0-9]+]] = bitcast <16 x i1> [[LAST_LANES]] to i16
// ONE-NEXT: [[ANY2:%[0-9]+]] = icmp ne i16 [[LAST_BITS]], 0
// ONE-NEXT: br i1 [[ANY2]], label %wi.uniform_store{{[0-9]+}}, label %wi.stored{{[0-9]+}}
// ONE: wi.uniform_store{{[0-9]+}}:
// ONE-NEXT: [[LEADING:%[0-9]+]] = call i16 @llvm.ctlz.i16(i16 [[LAST_BITS]], i1 true)
// ONE-NEXT: [[LANE:%[0-9]+]] = sub i16 15, [[LEADING]]
// ONE-NEXT: [[ID:%[0-9]+]] = extractelement <16 x i32> %{{[0-9]+}}, i16 [[LANE]]
// ONE-NEXT: store i32 [[ID]], ptr addrspace(1) %2
kernel void one_address(global const int *in, global int *flag,
                        global int *last, int n) {
  int i = get_global_id(0);
  if (in[i] > n)
    *flag = n;
  if (in[i] < 0)
    *last = i;
}

// A side of a branch with enough work (four masked loads) is jumped over
// when none of the work-items takes it; where the sides join, the edge out
// of it carries no work-item and its value is poison when it was skipped
// (no lane reads it then).
// SKIP-LABEL: define internal void @__weft_body_skipped_side.simd(
// SKIP: [[TAKEN:%[0-9]+]] = and <16 x i1> %active, {{%[0-9]+}}
// SKIP: [[BITS:%[0-9]+]] = bitcast <16 x i1> [[TAKEN]] to i16
// SKIP-NEXT: [[ANY:%[0-9]+]] = icmp ne i16 [[BITS]], 0
// SKIP-NEXT: br i1 [[ANY]], label %wi.some, label %wi.joined
// SKIP: wi.some:
// SKIP-COUNT-4: call <16 x float> @llvm.masked.load.v16f32.p1({{.*}}, <16 x i1> [[TAKEN]],
// SKIP: [[SUM:%[0-9]+]] = call <16 x float> @llvm.fmuladd.v16f32(
// SKIP-NEXT: br label %wi.joined
// SKIP: wi.joined:
// SKIP-NEXT: %wi.edge = phi <16 x i1> [ [[TAKEN]], %wi.some ], [ zeroinitializer, %wi.exit ]
// SKIP-NEXT: [[V:%[0-9]+]] = phi <16 x float> [ [[SUM]], %wi.some ], [ poison, %wi.exit ]
// SKIP: call void @llvm.masked.store.v16f32.p1(
kernel void skipped_side(global const float *a, global float *out, int n) {
  int i = get_global_id(0);
  float v = 0.0f;
  for (int k = 0; k < n; ++k)
    v += a[k * n + i];
  if (v > 0.0f)
    v = a[i + n] * a[i + 2 * n] + a[i + 3 * n] * a[i + 4 * n];
  out[i] = v;
}

// Sides nest: inside a side that is jumped over, each side of an inner
// branch is jumped over in turn, the `else` of `a && b` too, which two
// branches enter (its mask the join of both edges). CLBlast's direct GEMM
// ran its element-wise tile loads (the `else` of `a_ld % 2 == 0 &&
// a_offset % 2 == 0`, inside its full-tile side) masked off at every k tile.
// NESTED-LABEL: define internal void @__weft_body_nested_sides.simd(
// NESTED: br i1 %{{[0-9]+}}, label %wi.some, label %wi.joined
// NESTED: wi.some:
// NESTED: wi.loaded:
// NESTED: [[ELSE:%[0-9]+]] = or <16 x i1> %{{[0-9]+}}, %{{[0-9]+}}
// NESTED-NEXT: [[ELSE_BITS:%[0-9]+]] = bitcast <16 x i1> [[ELSE]] to i16
// NESTED-NEXT: [[ELSE_ANY:%[0-9]+]] = icmp ne i16 [[ELSE_BITS]], 0
// NESTED-NEXT: br i1 [[ELSE_ANY]], label %[[ELSE_SIDE:wi.some[0-9]+]], label %[[ELSE_JOIN:wi.joined[0-9]+]]
// NESTED: [[ELSE_SIDE]]:
// NESTED-COUNT-4: call <16 x float> @llvm.masked.load.v16f32.p1({{.*}}, <16 x i1> [[ELSE]],
// NESTED: [[ELSE_JOIN]]:
// NESTED: br i1 %{{[0-9]+}}, label %[[THEN_SIDE:wi.some[0-9]+]], label %wi.joined{{[0-9]+}}
// NESTED: [[THEN_SIDE]]:
// NESTED-COUNT-4: call <16 x float> @llvm.masked.load.v16f32.p1(
kernel void nested_sides(global const float *a, global float *out, int n,
                         int ld) {
  int i = get_global_id(0);
  float v = 0.0f;
  for (int k = 0; k < n; ++k)
    v += a[k * n + i];
  if (v > 0.0f) {
    if (ld % 2 == 0 && a[ld] > 0.0f)
      v = a[i + n] * a[i + 2 * n] + a[i + 3 * n] * a[i + 4 * n];
    else
      v = a[i + 5 * n] * a[i + 6 * n] + a[i + 7 * n] * a[i + 8 * n];
  }
  out[i] = v;
}

// A work-item's two neighbouring elements, read (or written) one at a
// time, next to its neighbours' (a float2 taken apart: CLBlast's tiles
// staged as .x and .y): one load of all 32 elements and shuffles that deal
// them out, and one store of both values woven together (in either order
// of the stores), not two accesses of every second element (masked with
// holes, or on AMD's cores a span merged with what memory holds).
// INTERLEAVED-LABEL: define internal void @__weft_body_interleaved_pairs.simd(
// INTERLEAVED: wi.exit:
// INTERLEAVED: [[BOTH:%[0-9]+]] = shufflevector <16 x float> %b.0, <16 x float> %a.0, <32 x i32> <i32 0, i32 1,
// INTERLEAVED-NEXT: [[WOVEN:%[0-9]+]] = shufflevector <32 x float> [[BOTH]], <32 x float> poison, <32 x i32> <i32 0, i32 16, i32 1, i32 17,
// INTERLEAVED: call void @llvm.masked.store.v32f32.p1(<32 x float> [[WOVEN]],
// INTERLEAVED-NEXT: ret void
// INTERLEAVED: wi.round:
// INTERLEAVED: [[PAIRS:%[0-9]+]] = shufflevector <16 x i1> %wi.mask, <16 x i1> poison, <32 x i32> <i32 0, i32 0, i32 1, i32 1,
// INTERLEAVED-NEXT: [[ALL:%[0-9]+]] = call <32 x float> @llvm.masked.load.v32f32.p1(ptr addrspace(1) %{{[0-9]+}}, i32 4, <32 x i1> [[PAIRS]],
// INTERLEAVED-NEXT: shufflevector <32 x float> [[ALL]], <32 x float> poison, <16 x i32> <i32 0, i32 2, i32 4,
// INTERLEAVED-NEXT: shufflevector <32 x float> [[ALL]], <32 x float> poison, <16 x i32> <i32 1, i32 3, i32 5,
// INTERLEAVED-NOT: masked.load
// INTERLEAVED: br label %wi.loop
// With AVX2, whole when every work-item is on, a 16-byte block at a time:
// the blocks of lanes 0-1, 4-5, 8-9, 12-13 first, then those of 2-3, 6-7,
// ..., so each element's vector comes out of blocks (one shufps, not a
// vpermpd beside it).
// INTERLEAVED_AVX2-LABEL: define internal void @__weft_body_interleaved_pairs.simd(
// INTERLEAVED_AVX2: wi.load_whole:
// INTERLEAVED_AVX2-NEXT: getelementptr float, ptr addrspace(1) [[BASE:%[0-9]+]], i64 0
// INTERLEAVED_AVX2-NEXT: load <4 x float>
// INTERLEAVED_AVX2-NEXT: getelementptr float, ptr addrspace(1) [[BASE]], i64 8
// INTERLEAVED_AVX2-NEXT: load <4 x float>
// INTERLEAVED_AVX2: getelementptr float, ptr addrspace(1) [[BASE]], i64 4
// INTERLEAVED_AVX2-NEXT: load <4 x float>
// INTERLEAVED_AVX2: shufflevector <32 x float> %{{[0-9]+}}, <32 x float> poison, <16 x i32> <i32 0, i32 2, i32 16, i32 18, i32 4, i32 6, i32 20, i32 22,
// INTERLEAVED_AVX2: wi.store_whole:
// INTERLEAVED_AVX2-NEXT: store <32 x float> %{{[0-9]+}}, ptr addrspace(1) %{{[0-9]+}}, align 4
kernel void interleaved_pairs(global const float *in, global float *out,
                              int n) {
  int i = get_global_id(0);
  float a = 0.0f, b = 0.0f;
  for (int k = 0; k < n; ++k) {
    a += in[2 * i + 64 * k];
    b += in[2 * i + 64 * k + 1];
  }
  out[2 * i + 1] = a;
  out[2 * i] = b;
}

// Pairs staged from global into two local tiles in turns (CLBlast's
// direct GEMM: A's element, B's element, A's next, B's next, with reads of
// the context between): each tile's pairs are still one load and one store
// of the whole stretch. A load passes the stores into local memory, a
// store passes the loads of global memory and the other tile's store,
// which lies a whole stretch away (the two tiles are the group's local
// memory plus their offsets: castBeforeOffsets in widening_checks.cpp
// lets ScalarEvolution see that distance).
// STAGED-LABEL: define internal void @__weft_body_staged_tiles.simd(
// STAGED-NOT: masked.store.v16f32.p3
// STAGED: call <32 x float> @llvm.masked.load.v32f32.p1(
// STAGED: call <32 x float> @llvm.masked.load.v32f32.p1(
// STAGED: call void @llvm.masked.store.v32f32.p3(
// STAGED: call void @llvm.masked.store.v32f32.p3(
// STAGED-NOT: masked.store.v16f32.p3
// STAGED-NOT: masked.scatter
// STAGED: {{^}}}
kernel void staged_tiles(global const float *in, global float *out, int n) {
  local float as[64 * 2], bs[64 * 2];
  int i = get_local_id(0);
  for (int k = 0; k < n; ++k) {
    int row = (int)get_group_id(0) * 8 + k;
    float a0 = in[row * 256 + 2 * i];
    as[2 * i] = a0;
    float b0 = in[row * 256 + 128 + 2 * i];
    bs[2 * i] = b0;
    float a1 = in[row * 256 + 2 * i + 1];
    as[2 * i + 1] = a1;
    float b1 = in[row * 256 + 128 + 2 * i + 1];
    bs[2 * i + 1] = b1;
    out[row * 64 + i] = as[2 * i] * bs[2 * i + 1];
  }
}

// A division by a constant that cannot trap (not 0, not -1) needs no
// divisor of one for the lanes off its path: LLVM keeps its shifts and
// multiplies (CLBlast's kSizeK / WGD was a division per lane on AVX2), and
// one of uniform values stays one scalar division.
// DIVIDE-LABEL: define internal void @__weft_body_constant_divisor.simd(
// DIVIDE-NOT: select <16 x i1> {{.*}}<i32 1, i32 1
// DIVIDE: sdiv <16 x i32> {{%[0-9]+}}, <i32 16, i32 16,
// DIVIDE-NEXT: %{{.*}} = sdiv i32 %1, 3
kernel void constant_divisor(global int *out, int n) {
  int i = get_global_id(0);
  int k = 0;
  while (k < i)
    k += n;
  if (k > n)
    k = k / 16 + n / 3;
  out[i] = k;
}

// Work-items a row of 17 floats apart gather through the first one's
// pointer and constant offsets, not pointers computed lane by lane (64-bit
// vector arithmetic on AVX2, where each lane's load then takes its pointer
// out of a vector).
// STRIDED-LABEL: define internal void @__weft_body_strided_rows.simd(
// STRIDED: wi.round:
// STRIDED: [[FIRST:%[0-9]+]] = extractelement <16 x ptr addrspace(1)> {{%[0-9]+}}, i64 0
// STRIDED-NEXT: [[ROWS:%[0-9]+]] = getelementptr i8, ptr addrspace(1) [[FIRST]], <16 x i64> <i64 0, i64 68, i64 136, i64 204,
// STRIDED-NEXT: call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> [[ROWS]], i32 4, <16 x i1> %wi.mask,
kernel void strided_rows(global const float *a, global float *out, int n) {
  int i = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += a[i * 17 + k];
  out[i] = sum;
}

// Without AVX-512 a masked store is microcoded (AMD) or slow (Intel): when
// every work-item of the chunk is on it stores whole, masked otherwise. On
// AVX-512, where masked stores are cheap, one masked store.
// WHOLE-LABEL: define {{.*}} @__weft_body_guarded_store.simd(
// WHOLE: [[ALL:%[0-9]+]] = icmp eq i16 {{%[0-9]+}}, -1
// WHOLE-NEXT: br i1 [[ALL]], label %wi.store_whole, label %wi.store_masked
// WHOLE: wi.store_whole:
// WHOLE-NEXT: store <16 x float>
// WHOLE: wi.store_masked:
// WHOLE-NEXT: call void @llvm.masked.store.v16f32
// AVX512WHOLE-LABEL: define {{.*}} @__weft_body_guarded_store.simd(
// AVX512WHOLE-NOT: wi.store_whole
// AVX512WHOLE: call void @llvm.masked.store.v16f32
// AVX512WHOLE-NOT: wi.store_whole
// AVX512WHOLE: ret void
kernel void guarded_store(global const float *in, global float *out, int n) {
  size_t i = get_global_id(0);
  float s = i;
  for (int j = 0; j < n; ++j)
    s = s * in[j] + 1.0f;
  if (s > 0.0f)
    out[i] = s;
}

// Each work-item's float4 in rows of a local tile 128 bytes apart (as
// CLBlast's transposes stage theirs): one store and one load of the whole
// vector per work-item when all are on, a scatter or gather of its
// elements otherwise, on AVX2 and AVX-512 alike (AVX-512's scatters ran
// CLBlast's SOMATCOPY on the Xeon at 20 GB/s, AVX2's stores at 31.5).
// LANEVECTORS-LABEL: define {{.*}} @__weft_body_vector_rows.{{[0-9]+}}.region0.simd(
// LANEVECTORS: wi.store_whole:
// LANEVECTORS-COUNT-16: store <4 x float> {{%[0-9]+}}, ptr addrspace(3) {{%[0-9]+}}, align 16
// LANEVECTORS: wi.store_masked:
// LANEVECTORS: call void @llvm.masked.scatter.v64f32
// LANEVECTORS-LABEL: define {{.*}} @__weft_body_vector_rows.{{[0-9]+}}.region1.simd(
// LANEVECTORS: wi.load_whole:
// LANEVECTORS-COUNT-16: load <4 x float>, ptr addrspace(3) {{%[0-9]+}}, align 16
// LANEVECTORS: wi.load_masked:
// LANEVECTORS: call <64 x float> @llvm.masked.gather.v64f32
kernel __attribute__((reqd_work_group_size(16, 1, 1))) void
vector_rows(global const float4 *in, global float4 *out) {
  local float4 tile[64][8];
  int i = get_local_id(0);
  tile[i][0] = in[get_global_id(0)] * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[63 - i][0];
}

// A side of one gather (CLBlast's SYMV reading the other triangle, a row
// apart per work-item) is jumped over when no work-item takes it, however
// short: a gather is an access per lane, with every lane off too on AVX2.
// SKIPGATHER-LABEL: define internal void @__weft_body_gathered_side.simd(
// SKIPGATHER: br i1 {{%[0-9]+}}, label %wi.some, label %wi.joined
// SKIPGATHER: wi.some:
// SKIPGATHER: call <16 x float> @llvm.masked.gather.v16f32
// SKIPGATHER: br label %wi.joined
kernel void gathered_side(global const float *a, global float *out, int ld,
                          int n) {
  int i = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    if (k <= i)
      acc += a[ld * k + i];
    else
      acc = acc * a[ld * i + k] - 1.0f;
  out[i] = acc;
}

// Runs of 8 (a float8 a work-item, taken apart into elements: CLBlast's
// TransposeMatrixFast transposing 8 x 8 in registers) are one load and one
// store of the whole span too, as runs of 2 to 4 are: with only the
// single-access limit (every 4th element at most), each element was a
// gather and a scatter of 16 lanes (SOMATCOPY 2048 on Ice Lake: 8.1-9.3 ms
// -> 5.2-6.1).
// EIGHTS-LABEL: define internal void @__weft_body_eight_by_eight.simd(
// EIGHTS-NOT: @llvm.masked.gather
// EIGHTS-NOT: @llvm.masked.scatter
// EIGHTS: {{load <128 x float>|@llvm.masked.load.v128f32}}
// EIGHTS-NOT: @llvm.masked.gather
// EIGHTS-NOT: @llvm.masked.scatter
// EIGHTS: {{store <128 x float>|@llvm.masked.store.v128f32}}
// EIGHTS-NOT: @llvm.masked.gather
// EIGHTS-NOT: @llvm.masked.scatter
// EIGHTS: ret void
kernel void eight_by_eight(int ld, global const float8 *src,
                           global float8 *dest, float alpha) {
  float8 v[8];
#pragma unroll
  for (int w = 0; w < 8; ++w)
    v[w] = src[(get_global_id(1) * 8 + w) * ld + get_global_id(0)];
  float8 r[8];
#define COLUMN(e) (float8)(v[0].e, v[1].e, v[2].e, v[3].e, v[4].e, v[5].e, v[6].e, v[7].e)
  r[0] = COLUMN(s0); r[1] = COLUMN(s1); r[2] = COLUMN(s2); r[3] = COLUMN(s3);
  r[4] = COLUMN(s4); r[5] = COLUMN(s5); r[6] = COLUMN(s6); r[7] = COLUMN(s7);
#pragma unroll
  for (int w = 0; w < 8; ++w)
    dest[(get_global_id(1) * 8 + w) * ld + get_global_id(0)] = alpha * r[w];
}
