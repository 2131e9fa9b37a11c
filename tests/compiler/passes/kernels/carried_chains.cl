// Loops every work-item goes round as often are left to LLVM's loop
// vectorizer only when it can widen them itself: every access walks memory
// element by element and every value carried round the loop is its counter
// or a reduction it may reorder (compiler/passes/kernels/widening_checks.cpp,
// innermostLoopLeftScalar). A chain of dependent FMAs (clpeak's compute
// kernels) or a float sum is not: such kernels are widened across
// work-items, and the optimized code is vector FMAs on both CPU families,
// across as many work-items as the carried values fill the registers with
// (widening_width.cpp): 64 for two floats on AVX2 (8 of its 16 registers
// each), 128 on AVX-512.
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null > %t.plan
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN512
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX2
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX512

// PLAN: kernel fma_chain: widened, 64 work-items at once (8 bytes carried per work-item); 16 for a row's last 63 or fewer
// PLAN: kernel fma_chain4: widened, 16 work-items at once (32 bytes carried per work-item), vectors kept whole
// PLAN: kernel float_sum: widened, 128 work-items at once (4 bytes carried per work-item); 16 for a row's last 127 or fewer
// PLAN: kernel int_sum: work-item loop (every loop runs as many times for all work-items, walks memory element by element and carries only counters and reductions (its innermost loops left to LLVM's loop vectorizer))
// Without fast gathers a loop that gathers keeps to a register of floats:
// each gather is an access per lane, its code as long (CLBlast's SYMV at 64
// work-items: a megabyte of unrolled gathers, three times slower than at 8).
// AVX-512 gathers at the width the carried values pay.
// PLAN: kernel row_sums: widened, 8 work-items at once (8 bytes carried per work-item, gathers in its loops)
// PLAN512: kernel row_sums: widened, 16 work-items at once (8 bytes carried per work-item)

// clpeak's compute_sp_v1: x and y carried round the loop, each step
// depending on the one before.
// AVX2-LABEL: define void @__weft_group_fma_chain(
// AVX2: call <64 x float> @llvm.fma.v64f32
// AVX2-NOT: call float @llvm.fma.f32
// AVX2: ret void
// AVX512-LABEL: define void @__weft_group_fma_chain(
// AVX512: call <128 x float> @llvm.fma.v128f32
// AVX512-NOT: call float @llvm.fma.f32
// AVX512: ret void
kernel void fma_chain(global float *out, float a) {
  float x = a;
  float y = (float)get_local_id(0);
  for (int i = 0; i < 128; i++) {
    x = mad(y, x, y);
    y = mad(x, y, x);
    x = mad(y, x, y);
    y = mad(x, y, x);
  }
  out[get_global_id(0)] = y;
}

// The same on float4 values, kept whole: 16 work-items' float4s side by
// side.
// AVX2-LABEL: define void @__weft_group_fma_chain4(
// AVX2: call <64 x float> @llvm.fma.v64f32
// AVX2-NOT: call <4 x float> @llvm.fma.v4f32
// AVX2: ret void
kernel void fma_chain4(global float *out, float a) {
  float4 x = (float4)(a, a + 1, a + 2, a + 3);
  float4 y = (float4)get_local_id(0);
  for (int i = 0; i < 32; i++) {
    x = mad(y, x, y);
    y = mad(x, y, x);
  }
  out[get_global_id(0)] = y.s0 + y.s1 + y.s2 + y.s3;
}

// A float sum over a row: ordered, so widened across work-items.
// AVX2-LABEL: define void @__weft_group_float_sum(
// AVX2: fadd <128 x float>
// AVX2: ret void
kernel void float_sum(global const float *in, global float *out, int n) {
  int row = get_global_id(0);
  float sum = 0;
  for (int k = 0; k < n; ++k)
    sum += in[row + k * 4096];
  out[row] = sum;
}

// An integer sum LLVM's loop vectorizer widens itself.
// AVX2-LABEL: define void @__weft_group_int_sum(
// AVX2: add <8 x i32>
// AVX2: ret void
kernel void int_sum(global const int *in, global int *out, int n) {
  int sum = 0;
  for (int k = 0; k < n; ++k)
    sum += in[k];
  out[get_global_id(0)] = sum;
}

kernel void row_sums(global const float *a, int ld, global float *y, int n) {
  int gid = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < n + (gid & 3); ++k)
    acc += a[ld * gid + k];
  y[gid] = acc;
}

// clpeak's compute_hp_v16: two half16 carried, each step converted to float
// and back where the CPU has no AVX-512 FP16 (F16C). AVX-512 code counts a
// half as 8 bytes, room for the conversions beside the carried values (at
// a float's 4 they filled the 32 registers and spilled); AVX2 code as a
// float's 4 bytes; AVX-512 FP16 code holds halves as they are.
// PLAN: kernel half_chain16: widened, 4 work-items at once (128 bytes carried per work-item), vectors kept whole
// PLAN512: kernel half_chain16: widened, 8 work-items at once (256 bytes carried per work-item), vectors kept whole
// FP16: kernel half_chain16: widened, 32 work-items at once (64 bytes carried per work-item), vectors kept whole
// RUN: %weft-cl %s --target-cpu=sapphirerapids -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=FP16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_chain16(global half *out, float a) {
  half16 x = (half16)((half)a);
  half16 y = (half16)((half)get_local_id(0));
  for (int i = 0; i < 64; ++i) {
    x = mad(y, x, y);
    y = mad(x, y, x);
  }
  out[get_global_id(0)] = y.s0 + y.s7 + y.sf;
}
