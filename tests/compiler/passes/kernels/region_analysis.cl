// The regions weft-barrier-regions cuts a kernel into (region_analysis.cpp):
// a region with one way out needs no resume state, one that can take several
// (a barrier in a loop) stores one per work-item; a private variable lives
// once for the group only when one run of one region holds it.
// RUN: %weft-cl %s -passes='weft-kernel-bodies,weft-drop-redundant-barriers,weft-choose-plan,weft-barrier-regions,print<weft-kernels>' -o %t.ll > %t.plan
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan

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

// `window` lives within one run of region 0: the group keeps one copy of it
// in its frame, and the storage holds the resume states alone.
// IR-LABEL: define void @__weft_group_one_region_array(
// IR: %window = alloca [8 x i32], align 16
// IR: %items = mul i64
// IR-NEXT: %[[STATES:[0-9]+]] = mul i64 %items, 4
// IR-NEXT: getelementptr inbounds i8, ptr %1
// IR-NEXT: %[[ALLOCATE:[0-9]+]] = load ptr
// IR-NEXT: call noalias align 64 ptr %[[ALLOCATE]](ptr %1, i64 %[[STATES]])
kernel void one_region_array(global const int *in, global int *out,
                             local int *tile, int k) {
  size_t lid = get_local_id(0);
  int window[8];
  for (int i = 0; i < 8; ++i)
    window[i] = in[get_global_id(0) + i];
  tile[lid] = window[k & 7];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(lid + 1) % get_local_size(0)];
}

// `window` is used on both sides of the barrier: each work-item keeps its
// own, an array of 32 bytes per work-item in the storage.
// IR-LABEL: define void @__weft_group_crossing_array(
// IR-NOT: %window = alloca
// IR: %items = mul i64
// IR: mul i64 %items, 32
// IR: call noalias align 64 ptr
kernel void crossing_array(global const int *in, global int *out,
                           local int *tile, int k) {
  size_t lid = get_local_id(0);
  int window[8];
  for (int i = 0; i < 8; ++i)
    window[i] = in[get_global_id(0) + i];
  tile[lid] = window[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(lid + 1) % get_local_size(0)] + window[k & 7];
}

// `window` is used only in the region after the barrier, but that region
// can run again after the same barrier (it repeats), and a variable there
// may carry a value from one run to the next: each work-item keeps its own.
// IR-LABEL: define void @__weft_group_repeated_array(
// IR-NOT: %window = alloca
// IR: %items = mul i64
// IR: mul i64 %items, 32
// IR: call noalias align 64 ptr
kernel void repeated_array(global const int *in, global int *out,
                           local int *tile, int k, int n) {
  size_t lid = get_local_id(0);
  for (int t = 0; t < n; ++t) {
    barrier(CLK_LOCAL_MEM_FENCE);
    int window[8];
    for (int i = 0; i < 8; ++i)
      window[i] = in[get_global_id(0) + i + t] + tile[i];
    tile[lid] = window[k & 7];
  }
  out[get_global_id(0)] = tile[(lid + 1) % get_local_size(0)];
}
