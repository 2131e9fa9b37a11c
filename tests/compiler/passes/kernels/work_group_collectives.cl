// Work-group collectives (builtins/work_group_collectives.cl) inlined into a
// kernel: one barrier each, so the kernel runs split into regions; the
// slots come from an invariant load of the group context (kernel_bodies
// answers __weft_collective_slots), hoisted out of the loops over the
// work-items, and no count of arrivals is loaded and stored per work-item.
// The last work-item's combine works on vectors; the region after the
// barrier reads the answers back as vectors too.
// RUN: %weft-cl %s --target-cpu=znver4 --cl-options=-cl-std=CL3.0 -passes='weft-kernel-pipeline,print<weft-kernels>,weft-separate-local-memory,weft-internalize-entries' --optimize -o %t.ll > %t.plan
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// The scan's in-vector shifts fill from a volatile value: with a constant
// zero fill LLVM picks AVX-512 expand instructions, which Zen 4/5 run
// slowly (the 16Mi-float scan took 10 ms instead of 4.4 on a Zen 5).
// RUN: llc -O3 -mcpu=znver4 %t.ll -o - | FileCheck %s --check-prefix=ASM

// PLAN-LABEL: kernel scan: regions, region 0 one work-item at a time (async copies or a work-group collective), work-item entry
// PLAN-LABEL: kernel reduce: regions, region 0 one work-item at a time (async copies or a work-group collective), work-item entry

// IR-NOT: __weft_collective_slots
// IR-LABEL: define void @__weft_group_scan(
// The context's collective_slots field (offset 880), loaded once.
// IR: getelementptr inbounds i8, ptr %1, i64 880
// IR-NOT: getelementptr inbounds i8, ptr %1, i64 880
// IR: fadd <8 x float>
// IR: store <16 x float>
// IR-LABEL: define void @__weft_group_reduce(
// IR: getelementptr inbounds i8, ptr %1, i64 880
// IR-NOT: getelementptr inbounds i8, ptr %1, i64 880
// IR: add <8 x i64>
// IR: ret void

// ASM-LABEL: __weft_group_scan:
// ASM-NOT: vexpandp
// ASM: vpermt2ps
// ASM-NOT: vexpandp
// ASM-LABEL: __weft_group_reduce:

kernel void scan(global const float *in, global float *out) {
  out[get_global_id(0)] = work_group_scan_inclusive_add(in[get_global_id(0)]);
}

kernel void reduce(global const int *in, global long *out) {
  long sum = work_group_reduce_add((long)in[get_global_id(0)]);
  if (get_local_id(0) == 0)
    out[get_group_id(0)] = sum;
}
