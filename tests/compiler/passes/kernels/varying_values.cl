// weft-widen-work-items' varying values (varying_values.cpp): what every
// work-item computes alike stays one scalar for all, what may differ is a
// vector of 16 lanes; an access whose lanes touch neighbouring elements is
// one whole-vector load or store, any other a gather or scatter.
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -weft-lanes=16 -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.ll | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --check-prefix=UNIFORM < %t.ll
// RUN: FileCheck %s --check-prefix=COUNTER < %t.ll
// RUN: FileCheck %s --check-prefix=GRIDSTRIDE < %t.ll
// RUN: FileCheck %s --check-prefix=COUNTERSTORE < %t.ll
// RUN: FileCheck %s --check-prefix=STRIDES < %t.ll
// RUN: FileCheck %s --check-prefix=DIVISION < %t.ll
// RUN: FileCheck %s --check-prefix=SHUFFLED < %t.ll

// PLAN: kernel uniform_parts: widened
// PLAN: kernel per_lane_counter: widened
// PLAN: kernel per_lane_counter_store: widened
// PLAN: kernel grid_stride: widened
// PLAN: kernel strides: widened
// PLAN: kernel uniform_division: widened
// PLAN: kernel shuffled_groups: widened

// Every work-item goes round the k loop n times: its counter, the row's
// element it reads and alpha * beta are one scalar for all (the load made
// only when some work-item is on); the column's elements, neighbours, are
// one vector load.
// UNIFORM-LABEL: define internal void @__weft_body_uniform_parts.simd(
// UNIFORM: wi.loop:
// UNIFORM: %k.0 = phi i32 [ 0, %entry ]
// UNIFORM: wi.exit:
// UNIFORM: %mul = fmul float %{{[0-9]+}}, %{{[0-9]+}}
// UNIFORM: wi.uniform_load:
// UNIFORM-NEXT: load float, ptr addrspace(1) %arrayidx
// UNIFORM: wi.loaded:
// UNIFORM-NOT: masked.gather
// UNIFORM: call <16 x float> @llvm.masked.load.v16f32.p1(
// UNIFORM-NOT: masked.gather
// UNIFORM-LABEL: define
kernel void uniform_parts(global const float *a, global const float *b,
                          global float *c, int n, float alpha, float beta) {
  int col = get_global_id(0), row = get_global_id(1);
  float scale = alpha * beta;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc * scale;
}

// Each work-item goes round its own number of times: the counter is one per
// lane, but every lane steps it alike from the same start (lanes that left
// go on stepping, masked off), so what it addresses is one address for all:
// one load when some work-item is on, not a gather.
// COUNTER-LABEL: define internal void @__weft_body_per_lane_counter.simd(
// COUNTER: %k.0 = phi <16 x i64>
// COUNTER: %[[ADDRESSES:[0-9]+]] = getelementptr inbounds float, ptr addrspace(1) %0, <16 x i64> %k.0
// COUNTER-NEXT: %[[FIRST:[0-9]+]] = extractelement <16 x ptr addrspace(1)> %[[ADDRESSES]], i64 0
// COUNTER-NOT: masked.gather
// COUNTER: wi.uniform_load:
// COUNTER-NEXT: load float, ptr addrspace(1) %[[FIRST]]
// COUNTER-NOT: masked.gather
// COUNTER: call void @llvm.masked.store.v16f32.p1(
kernel void per_lane_counter(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  float sum = 0.0f;
  for (size_t k = 0; k < i; ++k)
    sum += in[k];
  out[i] = sum;
}

// The same counter addressing a store: one address for all, written once
// per round by the last work-item still on (as a store to a uniform
// address), not a scatter.
// COUNTERSTORE-LABEL: define internal void @__weft_body_per_lane_counter_store.simd(
// COUNTERSTORE-NOT: masked.scatter
// COUNTERSTORE: wi.uniform_store:
// COUNTERSTORE-NEXT: call i16 @llvm.ctlz.i16
// COUNTERSTORE-NOT: masked.scatter
// COUNTERSTORE: ret void
kernel void per_lane_counter_store(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  for (size_t k = 0; k < i; ++k)
    out[k] = in[i];
}

// A grid-stride loop (PyOpenCL's elementwise kernels, CUDA-style code):
// each work-item leaves when its own index passes n, but every lane steps
// its index by the same global size, so the lanes stay neighbours and each
// round reads and writes whole vectors under the mask. The round after the
// index test is skipped when no work-item passed it (the last round would
// otherwise run with every lane off, its masked accesses pointing past the
// buffers' ends).
// GRIDSTRIDE-LABEL: define internal void @__weft_body_grid_stride.simd(
// GRIDSTRIDE: wi.loop:
// GRIDSTRIDE: br i1 {{%[0-9]+}}, label %wi.some, label %wi.joined
// GRIDSTRIDE: wi.some:
// GRIDSTRIDE-NOT: masked.gather
// GRIDSTRIDE-NOT: masked.scatter
// GRIDSTRIDE: call <16 x float> @llvm.masked.load.v16f32.p1(
// GRIDSTRIDE-NOT: masked.gather
// GRIDSTRIDE-NOT: masked.scatter
// GRIDSTRIDE: call void @llvm.masked.store.v16f32.p1(
// GRIDSTRIDE-NOT: masked.gather
// GRIDSTRIDE-NOT: masked.scatter
// GRIDSTRIDE: ret void
kernel void grid_stride(int n, global const float *in, global float *out) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    out[i] = 2.0f * in[i];
}

// Lane strides: in[i + 1] and out[i] are 4 bytes apart, whole vectors at
// the first lane's address; in[2 * i] (8 bytes) and out[3 * i] (12) are
// runs of 2 and 3 elements per work-item: one masked access of the whole
// span, on at each work-item's own element, and a shuffle. The loop's exit
// test compares values that differ, so its counter, though it depends on n
// alone, is one per lane too.
// STRIDES-LABEL: define internal void @__weft_body_strides.simd(
// STRIDES: %[[NEXT:[0-9]+]] = getelementptr i8, <16 x ptr addrspace(1)> %{{[0-9]+}}, i64 4
// STRIDES-NEXT: %[[FIRST:[0-9]+]] = extractelement <16 x ptr addrspace(1)> %[[NEXT]], i64 0
// STRIDES-NEXT: call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %[[FIRST]],
// STRIDES-NEXT: shl <16 x i64> %{{[0-9]+}}, <i64 3,
// STRIDES-NEXT: %[[EVEN:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(1) %0, <16 x i64>
// STRIDES-NEXT: %[[SPREAD:[0-9]+]] = shufflevector <16 x i1> %active, <16 x i1> zeroinitializer, <32 x i32> <i32 0, i32 16, i32 1, i32 16,
// STRIDES-NEXT: %[[START:[0-9]+]] = extractelement <16 x ptr addrspace(1)> %[[EVEN]], i64 0
// STRIDES-NEXT: %[[SPAN:[0-9]+]] = call <32 x float> @llvm.masked.load.v32f32.p1(ptr addrspace(1) %[[START]], i32 4, <32 x i1> %[[SPREAD]], <32 x float> poison)
// STRIDES-NEXT: shufflevector <32 x float> %[[SPAN]], <32 x float> poison, <16 x i32> <i32 0, i32 2, i32 4,
// STRIDES-NOT: gather
// STRIDES: %k.0 = phi <16 x i32>
// STRIDES: call void @llvm.masked.store.v16f32.p1(
// STRIDES-NEXT: mul <16 x i64> %{{[0-9]+}}, <i64 12,
// STRIDES-NEXT: getelementptr inbounds i8, ptr addrspace(1) %1, <16 x i64>
// STRIDES-NEXT: shufflevector <16 x i1> %{{.*}}, <16 x i1> zeroinitializer, <48 x i32> <i32 0, i32 16, i32 16, i32 1,
// STRIDES: shufflevector <16 x float> %{{.*}}, <16 x float> poison, <48 x i32> <i32 0, i32 poison, i32 poison, i32 1,
// STRIDES: call void @llvm.masked.store.v48f32.p1(
// STRIDES-NOT: scatter
kernel void strides(global const float *in, global float *out, int n) {
  size_t i = get_global_id(0);
  float x = in[i + 1], y = in[2 * i];
  int k = 0;
  while (k < n && x < y) {
    x = x * x;
    ++k;
  }
  out[i] = x;
  out[3 * i] = y;
}

// A division of values every work-item shares stays one division for all,
// which divides 0 by 1 when no work-item is on its path (here, once every
// work-item has left the loop): it never traps where no work-item would.
// DIVISION-LABEL: define internal void @__weft_body_uniform_division.simd(
// DIVISION: %[[ANY:[0-9]+]] = icmp ne i16
// DIVISION-NEXT: %[[DIVISOR:[0-9]+]] = select i1 %[[ANY]], i32 %2, i32 1
// DIVISION-NEXT: %[[DIVIDEND:[0-9]+]] = select i1 %[[ANY]], i32 %1, i32 0
// DIVISION-NEXT: %div = sdiv i32 %[[DIVIDEND]], %[[DIVISOR]]
// DIVISION-NOT: sdiv <16 x i32>
// DIVISION-LABEL: define
kernel void uniform_division(global int *out, int n, int m) {
  int i = get_global_id(0);
  int k = 0;
  while (k < i)
    k += n / m;
  out[i] = k;
}

// Groups shuffled by a remainder of values all work-items share (CLBlast's
// transposes: `(get_group_id(0) + get_group_id(1)) % get_num_groups(0)`):
// the remainder is one scalar, so the rows it picks are still neighbouring
// elements, one whole-vector load and store, not a gather and scatter.
// SHUFFLED-LABEL: define internal void @__weft_body_shuffled_groups.simd(
// SHUFFLED-DAG: urem i64
// SHUFFLED-DAG: call void @llvm.masked.store.v16f32
// SHUFFLED-DAG: call <16 x float> @llvm.masked.load.v16f32
// SHUFFLED-NOT: masked.gather
// SHUFFLED: ret void
kernel void shuffled_groups(global const float *in, global float *out,
                            int n) {
  int row = (get_group_id(0) + get_group_id(1)) % get_num_groups(0);
  int i = get_local_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += in[(row * n + k) * 16 + i];
  out[row * 16 + i] = sum;
}
