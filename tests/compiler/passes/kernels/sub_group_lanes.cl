// A sub-group is a run of work-items along dimension 0 (builtins/
// subgroups.cl): as many as a vector register holds 32-bit lanes (8 with
// AVX2, 16 with AVX-512) or the size the kernel requires. A kernel whose
// sub-groups exchange values without a barrier is widened a sub-group at a
// time, its exchanges lane operations (Widener::emitExchange); with
// barriers, each region that exchanges values is widened so; a shape the
// widener declines runs on fibers, whose scheduler settles the exchanges
// (device/fiber_group.cpp).
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN-AVX2
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN-AVX512
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 --target-cpu=znver3 -passes='weft-kernel-pipeline' -o - | FileCheck %s --check-prefix=YIELD
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX2

// PLAN-AVX2: kernel reduce: widened, 8 work-items at once (a sub-group)
// PLAN-AVX512: kernel reduce: widened, 16 work-items at once (a sub-group)
// A whole sub-group reduces in log2(8) steps, each a permutation of the
// lanes and an add (a butterfly: every lane ends with the total); no call
// and no gather is left.
// AVX2-LABEL: define void @__weft_group_reduce(
// AVX2-NOT: call {{.*}}sub_group
// AVX2: full_chunk:
// AVX2-NEXT: load i64
// AVX2: load <8 x float>
// AVX2-NEXT: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> poison, <8 x i32> <i32 1, i32 0, i32 3, i32 2, i32 5, i32 4, i32 7, i32 6>
// AVX2-NEXT: fadd <8 x float>
// AVX2-NEXT: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> poison, <8 x i32> <i32 2, i32 3, i32 0, i32 1, i32 6, i32 7, i32 4, i32 5>
// AVX2-NEXT: fadd <8 x float>
// AVX2-NEXT: shufflevector <8 x float> %{{[0-9]+}}, <8 x float> poison, <8 x i32> <i32 4, i32 5, i32 6, i32 7, i32 0, i32 1, i32 2, i32 3>
// AVX2-NEXT: fadd <8 x float>
// AVX2-NOT: masked.gather
// AVX2: partial_chunk:
kernel void reduce(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = sub_group_reduce_add(in[i]);
}

// A required size wider than the registers is several registers a value.
// PLAN-AVX2: kernel wide: widened, 32 work-items at once (a sub-group)
// PLAN-AVX512: kernel wide: widened, 32 work-items at once (a sub-group)
kernel __attribute__((intel_reqd_sub_group_size(32))) void
wide(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] = sub_group_shuffle_xor(in[i], 3) + sub_group_scan_inclusive_max(in[i]);
}

// Work-items that part ways: the masks of the widened lanes are the
// active sets.
// PLAN-AVX2: kernel parted: widened, 8 work-items at once (a sub-group)
kernel void parted(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int v = in[i], sum = 0;
  for (int k = 0; k < (v & 3); ++k)
    sum += sub_group_non_uniform_reduce_add(k);
  if (v & 1)
    sum += sub_group_ballot(1).x;
  out[i] = sum;
}

// With a barrier: regions, the one that exchanges values widened a
// sub-group at a time (every such region must be, or the kernel runs on
// fibers).
// PLAN-AVX2: kernel staged: regions, region 1 widened, 8 work-items at once (a sub-group), work-item entry
// PLAN-AVX512: kernel staged: regions, region 1 widened, 16 work-items at once (a sub-group), work-item entry
kernel void staged(global const int *in, global int *out, local int *tile) {
  size_t l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = sub_group_reduce_max(tile[get_local_size(0) - 1 - l]);
}

// Only where it is, not what others hold: no exchange, any path.
// PLAN-AVX2: kernel position: work-item loop
kernel void position(global int *out) {
  size_t i = get_global_id(0);
  out[i] = get_sub_group_id() * 100 + get_sub_group_local_id();
}

// A work-item that waits in a loop for another (cl_khr_subgroups'
// independent forward progress) runs on fibers, yielding at the back edge.
// PLAN-AVX2: kernel waits: fibers (a loop waits for another work-item), work-item entry
// PLAN-AVX512: kernel waits: fibers (a loop waits for another work-item), work-item entry
// YIELD-LABEL: define internal void @__weft_body_waits(
// YIELD: call void %{{[0-9]+}}(ptr %context)
// YIELD: br label %while.cond
kernel void waits(global atomic_int *flag, global int *out) {
  if (get_local_id(0) == 0)
    while (atomic_load(flag) == 0)
      ;
  else if (get_local_id(0) == get_local_size(0) - 1)
    atomic_store(flag, 1);
  out[get_global_id(0)] = 1;
}

// A loop of read-modify-writes finishes on its own: not a wait, so not
// fibers.
// PLAN-AVX2: kernel counts: work-item loop
kernel void counts(global const int *in, global atomic_int *bins, int n) {
  for (int k = 0; k < n; ++k)
    atomic_fetch_add(&bins[in[get_global_id(0) * n + k] & 255], 1);
}

// A region that exchanges values in sub-groups and also holds a work-group
// collective cannot be widened (the collective needs its last work-item
// alone): the whole kernel runs on fibers, and the plan names the region.
// PLAN-AVX2: kernel mixed: fibers (not split at its barriers: region 0 exchanges values in sub-groups and was not widened (async copies or a work-group collective)), work-item entry
kernel void mixed(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = work_group_reduce_add(sub_group_reduce_add(in[i]));
}
