// The loop over a group's work-items keeps a scalar tail: its vector body
// has plain loads and stores on every CPU family. Folding the tail into
// masks made every vector iteration masked (vmaskmov on AVX2, masked
// stores on AVX-512), and saxpy measured 0.35x PoCL that way on Zen 5 and
// 1.25x against 1.4x without on an Emerald Rapids Xeon (bench/RESULTS.md,
// session 9). --target-cpu compiles for a named CPU, as WEFT_TARGET_CPU
// does.
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX2
// RUN: %weft-cl %s --target-cpu=haswell -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX2
// RUN: %weft-cl %s --target-cpu=znver4 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=ZEN4
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=AVX512
// RUN: not %weft-cl %s --target-cpu=no-such-cpu -disable-output 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// AVX2-LABEL: define void @__weft_group_saxpy(
// AVX2-NOT: llvm.masked
// AVX2: load <8 x float>
// AVX2-NOT: llvm.masked
// AVX2: store <8 x float>
// AVX2-NOT: llvm.masked
// AVX2: ret void

// ZEN4-LABEL: define void @__weft_group_saxpy(
// ZEN4-NOT: llvm.masked
// ZEN4: store <16 x float>
// ZEN4-NOT: llvm.masked
// ZEN4: ret void

// (LLVM keeps Skylake-SP to 256-bit vectors.)
// AVX512-LABEL: define void @__weft_group_saxpy(
// AVX512-NOT: llvm.masked
// AVX512: store <{{8|16}} x float>
// AVX512-NOT: llvm.masked
// AVX512: ret void

// UNKNOWN: WEFT_TARGET_CPU names a CPU LLVM does not know: 'no-such-cpu'

kernel void saxpy(global float *y, global const float *x, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
