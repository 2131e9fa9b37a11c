// A loop with barriers (a tiled GEMM's k loop) runs in regions: each load of
// its tiles walks across the work-items, then jumps to the next tile, which
// the hardware's stride prefetchers do not follow. Each such load of global
// memory prefetches what it reads one round later (next_tile_prefetches.h):
// widened, one prefetch per cache line the lanes span. Regions left to
// LLVM's loop vectorizer get none.
// An inner loop without barriers (each work-item walks on its own) gets a
// prefetch 4 rounds ahead for each load that steps by a distance known only
// at run time (down a matrix's columns, prefetchStridedStreams), none for a
// load stepping along a row or stepping by the grid's size.
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=NAIVE < %t.ll
// RUN: FileCheck %s --check-prefix=LOGGED < %t.ll
// RUN: FileCheck %s --check-prefix=COLUMNS < %t.ll
// RUN: FileCheck %s --check-prefix=REGS < %t.ll
// RUN: FileCheck %s --check-prefix=STREAMS < %t.ll
// RUN: FileCheck %s --check-prefix=GRID < %t.ll

// PLAN: kernel tiled: regions, region 0 widened, 8 work-items at once
// PLAN: kernel naive: widened
// PLAN: kernel logged: regions, work-item entry
// PLAN: kernel columns: regions, region 0 widened, 8 work-items at once
// PLAN: kernel rows_of_vectors: widened, 8 work-items at once {{.*}}vectors kept whole
// PLAN: kernel grid_stride: widened

// The prefetches go right after the barrier that follows the loads, into
// the region that computes on the tiles, so they spread over its chunks of
// work-items instead of waiting in a burst for the cache's miss buffers.
// The next round's address is the counter's step added again, without the
// poison flags (past the last round it need not lie in the buffer); eight
// lanes of floats span 28 bytes: one prefetch.
// CHECK-LABEL: define void @__weft_group_tiled(
// CHECK-NOT: llvm.prefetch
// CHECK: load <8 x float>, ptr addrspace(1)
// CHECK-NOT: llvm.prefetch
// CHECK: run_region1:
// CHECK: [[NEXT:%[0-9]+]] = getelementptr float, ptr addrspace(1) %{{[0-9]+}}, i64 %{{[0-9]+}}
// CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) [[NEXT]], i32 0, i32 3, i32 1)
// CHECK-NOT: getelementptr i8, ptr addrspace(1) [[NEXT]]
// CHECK: call void @llvm.prefetch.p1(
// CHECK: call <8 x float> @llvm.fmuladd.v8f32(
// LOGGED-LABEL: define void @__weft_group_logged(
// LOGGED-NOT: llvm.prefetch
// LOGGED: {{^}}}
// b's row of lanes steps n floats a round: widened 128 at once it spans 8
// cache lines, more than the widener hints (widener.cpp's emitPrefetch);
// the 16 lanes of a row's end, one line, take one, 4 rounds ahead and kept
// in the L2 (locality 2). a's, a float a round, is the hardware's to follow.
// NAIVE-LABEL: define void @__weft_group_naive(
// NAIVE-NOT: i32 3, i32 1)
// NAIVE: call void @llvm.prefetch.p1({{.*}}, i32 0, i32 2, i32 1)
// NAIVE-NEXT: getelementptr
// NAIVE-NEXT: load <16 x float>
// NAIVE-NOT: i32 3, i32 1)
// NAIVE: {{^}}}

__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void tiled(__global const float *a, __global const float *b, __global float *c,
           int n) {
  __local float ta[8][8], tb[8][8];
  int x = get_local_id(0), y = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (int k = 0; k < n; k += 8) {
    ta[y][x] = a[row * n + k + x];
    tb[y][x] = b[(k + y) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 8; ++i)
      sum += ta[y][i] * tb[i][x];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = sum;
}

__kernel void naive(__global const float *a, __global const float *b,
                    __global float *c, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

// printf keeps the region off the widener: its loop over the work-items is
// LLVM's, which a prefetch call would keep scalar.
__kernel void logged(__global const float *a, __global float *c, int n) {
  __local float t[64];
  int x = get_local_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; k += 64) {
    t[x] = a[k + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    sum += t[63 - x];
    if (sum > 1e30f)
      printf("%f\n", sum);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[get_global_id(0)] = sum;
}

// Lanes that walk down a column (`n` floats apart, known only at run time)
// gather their tile and take no prefetch: one per lane, each address taken
// out of a vector, cost more than the misses it saved (CLBlast's direct
// DGEMM 256 ran several times slower on the Xeon with them).
// COLUMNS-LABEL: define void @__weft_group_columns(
// COLUMNS-NOT: llvm.prefetch
// COLUMNS: masked.gather
// COLUMNS-NOT: llvm.prefetch
// COLUMNS: {{^}}}
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void columns(__global const float *a, __global float *c, int n) {
  __local float t[8][8];
  int x = get_local_id(0), y = get_local_id(1);
  int row = get_global_id(1);
  float sum = 0.0f;
  for (int k = 0; k < n; k += 8) {
    t[y][x] = a[(k + x) * n + row];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 8; ++i)
      sum += t[y][i] * t[i][x];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + get_global_id(0)] = sum;
}

// A register tile (a private array) is unrolled before the regions are
// cut; the tile loads' prefetches still go to the region that computes.
// REGS-LABEL: define void @__weft_group_register_tile(
// REGS-NOT: llvm.prefetch
// REGS: run_region1:
// REGS: call void @llvm.prefetch.p1(
// REGS: {{^}}}
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void register_tile(__global const float *a, __global const float *b,
                   __global float *c, int n) {
  __local float ta[8][16], tb[8][8];
  int x = get_local_id(0), y = get_local_id(1);
  int row = get_global_id(1), col = get_global_id(0);
  float acc[2] = {0.0f, 0.0f};
  for (int k = 0; k < n; k += 8) {
    // As CLBlast writes its tile loads: loops over the parts each
    // work-item loads, one of them of a single round.
    for (int m = 0; m < 1; ++m)
      for (int j = 0; j < 2; ++j)
        ta[y + m][x * 2 + j] = a[(row * 2 + j) * n + k + x];
    for (int m = 0; m < 1; ++m)
      tb[y + m][x] = b[(k + y + m) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 2; ++j)
        acc[j] += ta[y][i * 2 + j] * tb[i][x];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int j = 0; j < 2; ++j)
    c[(row * 2 + j) * n + col] = acc[j];
}

// CLBlast's Xgemm without local tiles: a float4 of A and of B per k, rows
// n / 4 float4s apart. Widened 8 at once, A's 8 float4s (128 bytes) take
// two prefetches, B's (the same for all lanes) one, 4 rounds ahead. (B's
// row is the group's: with a row per y local id, the group would share A's
// rows across its rows and go round in lockstep, lockstep_rounds.cl.)
// STREAMS-LABEL: define void @__weft_group_rows_of_vectors(
// STREAMS-NOT: llvm.prefetch
// STREAMS: call void @llvm.prefetch.p1(ptr addrspace(1) [[A:%[0-9]+]], i32 0, i32 2, i32 1)
// STREAMS-NEXT: [[A64:%[0-9]+]] = getelementptr i8, ptr addrspace(1) [[A]], i64 64
// STREAMS-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) [[A64]], i32 0, i32 2, i32 1)
// STREAMS: load <32 x float>
// STREAMS: call void @llvm.prefetch.p1({{.*}}, i32 0, i32 2, i32 1)
// STREAMS-NEXT: getelementptr
// STREAMS-NEXT: load <4 x float>
// STREAMS: call <32 x float> @llvm.fmuladd.v32f32(
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void rows_of_vectors(__global const float4 *a, __global const float4 *b,
                     __global float4 *c, int n) {
  int m = get_global_id(0), j = get_group_id(1);
  float4 acc0 = 0.0f, acc1 = 0.0f;
  for (int k = 0; k < n; k += 2) {
    for (int p = 0; p < 2; ++p) {
      float4 av = a[(k + p) * (n / 4) + m];
      float4 bv = b[(k + p) * (n / 4) + j];
      acc0 += av * bv.x;
      acc1 += av * bv.y;
    }
  }
  c[j * (n / 4) + m] = acc0 + acc1;
}

// A grid-stride loop steps by the grid's size: the chunks after this one
// read the lines between, and the hardware follows them.
// GRID-LABEL: define void @__weft_group_grid_stride(
// GRID-NOT: llvm.prefetch
// GRID: {{^}}}
__kernel void grid_stride(__global const float *x, __global float *y, int n,
                          int inc) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    y[i] += x[i * inc];
}
