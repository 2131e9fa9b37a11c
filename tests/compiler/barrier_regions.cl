// weft-barrier-regions: a kernel with barriers gets a group entry that runs
// it region by region, each region a loop over the work-items.
// RUN: %weft-cl %s -passes='weft-kernel-bodies,weft-drop-redundant-barriers,weft-choose-plan,weft-barrier-regions,print<weft-kernels>' -o %t.ll > %t.plan
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan

// IR-LABEL: define void @__weft_group_reduce(ptr %0, ptr %1)
// IR: setup:
// IR: switch i32 %region
// IR: done:
// IR-NEXT: ret void
// IR: run_region0:
// IR: run_region1:
// PLAN: kernel reduce: regions, work-item entry

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
