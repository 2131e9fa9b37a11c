// Values that live across a barrier (barrier_crossings.cpp): one computed
// from ids and the context is computed again after the barrier; any other
// is stored right before the barrier into its own slot and reloaded right
// after it, and stays a register within a region.
// Regions with loops stay unwidened here (region_widening.cl has them).
// RUN: %weft-cl %s -weft-widen-regions=false -passes='weft-kernel-bodies,weft-drop-redundant-barriers,weft-choose-plan,weft-barrier-regions,print<weft-kernels>' -o %t.ll > %t.plan
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=VECTOR

// `v` is saved across the barrier: the storage holds one array of floats
// besides the resume states. `g` (the global id) is not: region 1 computes
// it again from the context and the local id.
// IR-LABEL: define void @__weft_group_ids_again(
// IR: %items = mul i64
// IR-NEXT: %[[STATES:[0-9]+]] = mul i64 %items, 4
// IR-NEXT: %[[ROUNDED:[0-9]+]] = add i64 %[[STATES]], 63
// IR-NEXT: %[[V_AT:[0-9]+]] = and i64 %[[ROUNDED]], -64
// IR-NEXT: %[[V_BYTES:[0-9]+]] = mul i64 %items, 4
// IR-NEXT: %[[END:[0-9]+]] = add i64 %[[V_AT]], %[[V_BYTES]]
// IR-NEXT: getelementptr inbounds i8, ptr %1
// IR-NEXT: %[[ALLOCATE:[0-9]+]] = load ptr
// IR-NEXT: call noalias align 64 ptr %[[ALLOCATE]](ptr %1, i64 %[[END]])
// Before the barrier: the work-item's slot, and the store into it at the
// end of the region.
// IR: run_region0:
// IR: %[[OFFSET:[0-9]+]] = mul i64 %linear, 4
// IR-NEXT: %[[SLOT:[0-9]+]] = getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 %[[OFFSET]]
// IR: %[[V:[0-9]+]] = load float, ptr addrspace(1)
// IR-NEXT: store float %[[V]], ptr %[[SLOT]], align 4, !llvm.access.group
// IR-NEXT: br label %to_region1
// After it: the reload first, then the global id again.
// IR: resume.r1:
// IR-NEXT: %.reload.r1 = load float, ptr %{{[0-9]+}}, align 4, !llvm.access.group
// IR: %global_id.again.r1 = add nuw i64 %.again{{[0-9]*}}.r1, %lid0{{[0-9]+}}
// IR-NEXT: %[[OUT:[a-z0-9.]+]] = getelementptr inbounds float, ptr addrspace(1) %{{[0-9]+}}, i64 %global_id.again.r1
// IR-NEXT: store float %.reload.r1, ptr addrspace(1) %[[OUT]]
// PLAN: kernel ids_again: regions, work-item entry
kernel void ids_again(global const float *in, global float *out) {
  size_t g = get_global_id(0);
  float v = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = v;
}

// Between the two barriers `acc` is loaded once when the region starts,
// stays a register (a phi) through the k loop, and is stored once when the
// region leaves; the loop counter `t`, saved the same way, is one value for
// the group (`.across`, then `.uniform`).
// IR-LABEL: define void @__weft_group_accumulate(
// IR: %t.0.across.uniform = alloca i32
// IR: resume.r1:
// IR-NEXT: %t.0.reload{{[0-9]*}}.r1 = load i32, ptr %t.0.across.uniform
// IR-NEXT: %acc.0.reload.r1 = load float, ptr %{{[0-9]+}}
// IR-NEXT: br label %for.cond3.r1
// IR: for.cond3.r1:
// IR-NEXT: %acc.1.r1 = phi float [ %acc.0.reload.r1, %resume.r1 ], [ %[[SUM:[0-9]+]], %for.inc.r1 ]
// IR: for.end.r1:
// IR: store float %acc.1.r1, ptr %{{[0-9]+}}, align 4
// IR-NEXT: br label %to_region2
// IR: for.body7.r1:
// IR-NOT: store
// IR: %[[SUM]] = call float @llvm.fmuladd.f32(float %{{[0-9]+}}, float %{{[0-9]+}}, float %acc.1.r1)
// IR-NEXT: br label %for.inc.r1
// PLAN: kernel accumulate: regions, work-item entry
kernel void accumulate(global const float *in, global float *out,
                       local float *tmp, int n) {
  size_t l = get_local_id(0);
  float acc = 0.0f;
  for (int t = 0; t < n; ++t) {
    tmp[l] = in[t * get_local_size(0) + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; ++k)
      acc += tmp[k] * tmp[l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}

// A value that lives across a barrier is saved right before it and loaded
// right after it; within a region it stays a register. The accumulator of
// a tiled product, updated 16 times between two barriers, is loaded once
// and stored once per region run, so the region widens across the row's 16
// work-items (vector fmuladd). Demoted everywhere, it was stored and loaded
// at each k, and the region ran one work-item at a time.
// VECTOR-LABEL: define void @__weft_group_tiled_product(
// VECTOR: call <16 x float> @llvm.fmuladd.v16f32
// VECTOR-LABEL: define void @__weft_item_tiled_product(
#define TS 16
kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void tiled_product(global const float *a, global const float *b,
                   global float *c, int n) {
  local float as[TS][TS], bs[TS][TS];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TS) {
    as[ly][lx] = a[row * n + t + lx];
    bs[ly][lx] = b[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k)
      acc += as[ly][k] * bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}
