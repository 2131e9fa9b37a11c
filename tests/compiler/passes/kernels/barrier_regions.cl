// weft-barrier-regions: a kernel with barriers gets a group entry that runs
// it region by region, each region a loop over the work-items.
// RUN: %weft-cl %s -passes='weft-kernel-bodies,weft-drop-redundant-barriers,weft-choose-plan,weft-barrier-regions,print<weft-kernels>' -o %t.ll > %t.plan
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=VECTOR

// Region 0 has one way out (the first barrier): the whole group goes on
// to region 1 with no resume state stored or compared, and the states
// need no start value. The loop's regions can leave at a barrier or
// return: each work-item stores where it resumes.
// IR-LABEL: define void @__weft_group_reduce(ptr %0, ptr %1)
// IR: setup:
// IR-NOT: llvm.memset
// IR: %region = phi i32 [ 0, %storage ], [ 1, %agreed_exit0 ]
// IR: switch i32 %region
// IR: done:
// IR-NEXT: ret void
// IR: run_region0:
// IR-NOT: resume_state
// IR: run_region1:
// IR: %resume_state = phi i32
// PLAN: kernel reduce: regions, work-item entry

// Every region has one way out: nothing stores a resume state.
// IR-LABEL: define void @__weft_group_copy_across(ptr %0, ptr %1)
// IR: %region = phi i32 [ 0, %storage ], [ 1, %agreed_exit0 ], [ 2, %agreed_exit1 ]
// IR-NOT: resume_state
// IR: {{^}$}}
// PLAN: kernel copy_across: regions, work-item entry

kernel void reduce(global const float *in, global float *out,
                   local float *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (l < s)
      tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = tmp[0];
}

kernel void copy_across(global const float *in, global float *out) {
  float value = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = value;
}

// A value that lives across a barrier is saved right before it and loaded
// right after it; within a region it stays a register. The accumulator of
// a tiled product, updated 16 times between two barriers, is loaded once
// and stored once per region run, so the work-item loop around the k loop
// vectorizes (vector fmuladd). Demoted everywhere, it was stored and loaded
// at each k, and the region ran one work-item at a time.
// VECTOR-LABEL: define void @__weft_group_tiled_product(
// VECTOR: call <8 x float> @llvm.fmuladd.v8f32
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
