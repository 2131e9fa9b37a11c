// Regions with loops of their own, widened across work-items
// (region_widening.cpp): each is written out as a work-item function and
// widened like a body without barriers; the group entry's loop over x steps
// a chunk of work-items at a time through it.
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.ll > %t.plan
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o %t.opt.ll
// RUN: FileCheck %s --check-prefix=VECTOR < %t.opt.ll
// RUN: FileCheck %s --check-prefix=XGEMM < %t.opt.ll
// RUN: %weft-cl %s --target-cpu=alderlake -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=INTEL

// CLBlast's XgemmDirect shape: a 2x2 register tile per work-item kept across
// the barriers (registers once its loops unroll: no private memory), the k
// steps between them widened 8 work-items at once (the required group's
// rows), each work-item's two neighbouring A elements one load of the
// whole span and a shuffle rather than gathers, B's elements one value
// for the row, the FMAs vectors of 8. The regions without a loop (the tile
// loads, the stores of C) are widened too: the group's rows are a required
// 8 wide, which LLVM's loop vectorizer leaves scalar.
// PLAN-LABEL: kernel tile2x2: regions, region 0 widened, 8 work-items at once (56 bytes held at once per work-item, as wide as the group); region 1 widened, 8 work-items at once (16 bytes carried per work-item, 8 loaded and reused each round, as wide as the group); region 2 widened, 8 work-items at once (72 bytes held at once per work-item), work-item entry
// PLAN: private_memory: 0
// Each work-item's pair of neighbouring elements, loaded and stored in
// turns with its next row's (and the other tile's), is one load of the
// whole stretch of the chunk's pairs and one store of it: the accesses of
// the other address space and the stores a whole stretch away are passed
// over (widener_interleaved.cpp). Stored one element at a time, the spans
// read back what the previous store had just written, which store
// forwarding cannot serve (CLBlast's direct SGEMM 256 on Zen 3: 21 ->
// 35 GFLOP/s). The k steps read the pairs back the same way, a 16-byte
// block at a time in the order that deals each element out within blocks
// (the staging, only copying, keeps memory's order).
// Intel's AVX2 cores run masked accesses well (the spans lost 10-30% on the
// lent Xeon): there the pairs stay one masked access of the span each.
// INTEL-LABEL: define void @__weft_group_tile2x2(
// INTEL-NOT: load <15 x float>
// INTEL: call <16 x float> @llvm.masked.load.v16f32.p3(
// INTEL-NOT: load <15 x float>
// INTEL: {{^}}}
// VECTOR-LABEL: define void @__weft_group_tile2x2(
// VECTOR-NOT: masked.gather
// VECTOR-NOT: <15 x float>
// VECTOR: %[[A:[0-9]+]] = load <16 x float>, ptr addrspace(1)
// VECTOR: %[[B:[0-9]+]] = load <16 x float>, ptr addrspace(1)
// VECTOR: store <16 x float> %[[A]], ptr addrspace(3)
// VECTOR: store <16 x float> %[[B]], ptr addrspace(3)
// VECTOR-NOT: masked.gather
// VECTOR-NOT: <15 x float>
// VECTOR: load <4 x float>, ptr addrspace(3)
// VECTOR: %[[LOW:[0-9]+]] = shufflevector <4 x float> %{{[0-9]+}}, <4 x float> %{{[0-9]+}}, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
// VECTOR-NEXT: %[[HIGH:[0-9]+]] = shufflevector <4 x float> %{{[0-9]+}}, <4 x float> %{{[0-9]+}}, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
// VECTOR-NEXT: shufflevector <8 x float> %[[LOW]], <8 x float> %[[HIGH]], <8 x i32> <i32 0, i32 2, i32 8, i32 10, i32 4, i32 6, i32 12, i32 14>
// VECTOR-NOT: masked.gather
// VECTOR: call <8 x float> @llvm.fmuladd.v8f32
// VECTOR-NOT: masked.gather
// VECTOR-LABEL: define void @__weft_group_guarded(
#define TS 16
kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void tile2x2(global const float *a, global const float *b, global float *c,
             int n) {
  local float as[TS][TS + 1], bs[TS][TS + 1];
  int lx = get_local_id(0), ly = get_local_id(1);
  float acc[2][2] = {{0, 0}, {0, 0}};
  for (int t = 0; t < n; t += TS) {
    for (int m = 0; m < 2; ++m)
      for (int j = 0; j < 2; ++j) {
        as[ly * 2 + j][lx * 2 + m] =
            a[(t + ly * 2 + j) * n + get_group_id(0) * TS + lx * 2 + m];
        bs[ly * 2 + j][lx * 2 + m] =
            b[(t + ly * 2 + j) * n + get_group_id(1) * TS + lx * 2 + m];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) {
      float pa[2], pb[2];
      for (int m = 0; m < 2; ++m)
        pa[m] = as[k][lx * 2 + m];
      for (int j = 0; j < 2; ++j)
        pb[j] = bs[k][ly * 2 + j];
      for (int m = 0; m < 2; ++m)
        for (int j = 0; j < 2; ++j)
          acc[m][j] += pa[m] * pb[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int m = 0; m < 2; ++m)
    for (int j = 0; j < 2; ++j)
      c[(get_group_id(1) * TS + ly * 2 + j) * n + get_group_id(0) * TS +
        lx * 2 + m] = acc[m][j];
}

// CLBlast's Xgemm shape (its default tuning): a volatile `tid` numbering
// the group's work-items, tiles loaded by `tid / 8` and `tid % 8`, float4
// accumulators updated one component at a time. The volatile goes (nothing
// else can see a private variable), the tile loads read x and y out of tid
// (contiguous rows, no gathers) and are widened though they have no loop,
// and the components' FMAs become whole float4 FMAs, eight work-items side
// by side in one <32 x float>.
// PLAN-LABEL: kernel xgemm_shape: regions, region 0 widened, 8 work-items at once (as wide as the group), vectors kept whole; region 1 widened, 8 work-items at once (32 bytes carried per work-item, 16 loaded and reused each round), vectors kept whole; region 2 widened, 8 work-items at once (as wide as the group), vectors kept whole, work-item entry
// PLAN: private_memory: 0
// XGEMM-LABEL: define void @__weft_group_xgemm_shape(
// XGEMM-NOT: masked.{{gather|scatter}}
// XGEMM: load <32 x float>, ptr addrspace(1)
// XGEMM-NOT: masked.{{gather|scatter}}
// XGEMM: call <32 x float> @llvm.fma.v32f32
// XGEMM-NOT: masked.{{gather|scatter}}
// XGEMM: {{^}}}
#define MWG 32
#define NWG 32
#define KWG 32
#define MDIMC 8
#define NDIMC 16
kernel __attribute__((reqd_work_group_size(MDIMC, NDIMC, 1)))
void xgemm_shape(int m, int k_size, const global float4 *a,
                 const global float2 *b, global float4 *c) {
  local float4 as[KWG * MWG / 4];
  local float2 bs[KWG * NWG / 2];
  volatile int tid = get_local_id(0) + MDIMC * get_local_id(1);
  float4 acc0 = (float4)(0.0f), acc1 = (float4)(0.0f);
  for (int kwg = 0; kwg < k_size; kwg += KWG) {
    // Tile loads: work-item tid takes row tid / 8 (2 rows each), column
    // tid % 8 of A, and row tid / 16, column tid % 16 of B.
    for (int r = 0; r < 2; ++r) {
      int row = (tid / 8) * 2 + r;
      as[row * (MWG / 4) + tid % 8] =
          a[(kwg + row) * (m / 4) + get_group_id(0) * (MWG / 4) + tid % 8];
    }
    for (int r = 0; r < 4; ++r) {
      int row = (tid / 16) * 4 + r;
      bs[row * (NWG / 2) + tid % 16] =
          b[(kwg + row) * (m / 2) + get_group_id(1) * (NWG / 2) + tid % 16];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < KWG; ++k) {
      float4 av = as[k * (MWG / 4) + get_local_id(0)];
      float2 bv = bs[k * (NWG / 2) + get_local_id(1)];
      // Per component, as CLBlast writes it (USE_VECTOR_MAD 0).
      acc0.x = mad(av.x, bv.x, acc0.x);
      acc0.y = mad(av.y, bv.x, acc0.y);
      acc0.z = mad(av.z, bv.x, acc0.z);
      acc0.w = mad(av.w, bv.x, acc0.w);
      acc1.x = mad(av.x, bv.y, acc1.x);
      acc1.y = mad(av.y, bv.y, acc1.y);
      acc1.z = mad(av.z, bv.y, acc1.z);
      acc1.w = mad(av.w, bv.y, acc1.w);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  int col = get_group_id(1) * NWG + get_local_id(1) * 2;
  c[col * (m / 4) + get_group_id(0) * (MWG / 4) + get_local_id(0)] = acc0;
  c[(col + 1) * (m / 4) + get_group_id(0) * (MWG / 4) + get_local_id(0)] = acc1;
}

// A guard on an index computed from the local id that every work-item of a
// group passes alike (CLBlast's "is this tile inside the matrix"): the loop
// counter `t` kept across the barriers under it is per work-item to the
// uniformity analysis. A second widened version reads it once, from the
// chunk's first work-item, and runs when the chunk's work-items all hold
// the same value; there the loads indexed by it gather less.
// PLAN-LABEL: kernel guarded: regions, region 1 widened, 128 work-items at once (4 bytes carried per work-item); 16 for a row's last 127 or fewer, a version for chunks whose work-items hold the same 1 integer variable(s), work-item entry
// IR-LABEL: define void @__weft_group_guarded(
// IR: alike_compare:
// IR: icmp eq i32
// IR: br i1 %{{[0-9]+}}, label %alike_compare, label %alike_compared
// IR: alike_chunk:
// IR-NEXT: call void @__weft_body_guarded{{.*}}.region1.alike.simd(
// IR: unalike_chunk:
// IR-NEXT: call void @__weft_body_guarded{{.*}}.region1.simd(
// IR-LABEL: define internal void @__weft_body_guarded{{.*}}.region1.alike.simd(
// IR: %chunk_linear = add i64
// IR: load i32, ptr %{{[0-9]+}}
kernel void guarded(global const float *in, global float *out,
                    local float *scratch, int n) {
  int lid = get_local_id(0);
  int group = (int)((get_group_id(0) * get_local_size(0) + lid) /
                    get_local_size(0));
  float acc = 0.0f;
  if (group < n) {
    for (int t = 0; t < 4; ++t) {
      scratch[lid] = in[t * 512 + lid];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int k = 0; k < 8; ++k)
        acc += scratch[(lid + k) & 63] * in[t * 256 + lid * 2 + k];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  out[get_global_id(0)] = acc;
}

// A region without loops once its `#pragma unroll` loop is unrolled
// (CLBlast's XgemvFast): 64 loads, each used at once by the next step of a
// chain of multiply-adds. Its live values are counted where a scheduler
// working for registers would place them (widening_width.cpp), one load
// before each step, not in the front end's order, all 64 loads first: 16
// work-items at once (a 64-byte line of each row), not 4 (16 bytes of each
// row a pass; CLBlast's column-major SGEMV 4096 on a Zen 3 read 5.4-5.6
// GB/s that way and 9.8-12.8 at 16).
// PLAN: kernel unrolled_column: regions, region 0 widened, 16 work-items at once {{.*}}; region 1 widened, 16 work-items at once ({{[0-9]+}} bytes held at once per work-item);
__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void unrolled_column(global const float *a, int ld,
                            global const float *x, global float *y) {
  local float xl[64];
  float acc[1];
  acc[0] = 0.0f;
  for (int kwg = 0; kwg < ld; kwg += 64) {
    int lid = get_local_id(0);
    xl[lid] = x[kwg + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int kl = 0; kl < 64; ++kl)
      acc[0] = mad(xl[kl], a[(kwg + kl) * ld + get_global_id(0)], acc[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  y[get_global_id(0)] = acc[0];
}
