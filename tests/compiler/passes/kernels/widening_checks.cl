// weft-widen-work-items' checks (widening_checks.cpp): a body with an
// instruction or a loop the widener has no widened form of keeps the loop
// over single work-items, and the plan says why. A loop left by a return
// from inside a nested loop still qualifies.
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.ll | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR < %t.ll

// CHECK: kernel private_array: work-item loop (a private array{{.*}})
// CHECK: kernel atomic_counter: work-item loop (an instruction it does not widen (atomicrmw))
// A loop that waits on a volatile load waits for another work-item: fibers
// (analysis/waiting_loops.h), before any widening check.
// CHECK: kernel volatile_reads: fibers (a loop waits for another work-item), work-item entry
// CHECK: kernel volatile_writes: work-item loop (an atomic or volatile store)
// CHECK: kernel prints: work-item loop (printf, whose records are written one work-item at a time)
// CHECK: kernel library_call: work-item loop (an instruction it does not widen (call))
// CHECK: kernel leaves_two_loops: work-item loop (a loop with several latches, or one left out of two loops)
// CHECK: kernel irreducible: work-item loop (irreducible control flow)
// CHECK: kernel returns_inside: widened
// A switch (on a kernel argument here, as SimplifyCFG makes of CLBlast's
// SYMV triangle test) becomes branches the widener masks or keeps.
// CHECK: kernel modes: widened
// IR-NOT: define internal void @__weft_body_{{[a-z_]+}}.simd(
// IR: define internal void @__weft_body_returns_inside.simd(
// IR: define internal void @__weft_body_modes.simd(
// IR-NOT: define internal void @__weft_body_{{[a-z_]+}}.simd(

// Indexed by a value that differs, the array stays in memory.
kernel void private_array(global float *out, int n) {
  float t[8];
  int i = get_global_id(0);
  for (int k = 0; k < 8; ++k)
    t[k] = out[i + k * n];
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += t[(i + k) & 7];
  out[i] = s;
}

kernel void atomic_counter(global int *out, volatile global int *count) {
  int i = get_global_id(0);
  int k = 0;
  while (k < out[i])
    k += atomic_inc(count);
  out[i] = k;
}

kernel void volatile_reads(global int *out, volatile global int *flag) {
  int i = get_global_id(0);
  int k = 0;
  while (*flag != i)
    ++k;
  out[i] = k;
}

kernel void volatile_writes(volatile global int *out) {
  int i = get_global_id(0);
  for (int k = 0; k < i; ++k)
    out[i] = k;
}

kernel void prints(global int *out) {
  int i = get_global_id(0);
  for (int k = 0; k < out[i]; ++k)
    printf("%d\n", k);
}

// sin stays a call into the math library.
kernel void library_call(global float *out) {
  int i = get_global_id(0);
  float s = 0;
  for (int k = 0; k < i; ++k)
    s += sin(out[k]);
  out[i] = s;
}

// The inner loop is left straight out of the outer one.
kernel void leaves_two_loops(global int *out, int n) {
  int i = get_global_id(0);
  int a, b;
  for (a = 0; a < n; ++a)
    for (b = 0; b < n; ++b)
      if (out[a * n + b] == i)
        goto found;
  out[i] = -1;
  return;
found:
  out[i] = a * n + b;
}

// The second loop is entered in its middle too.
kernel void irreducible(global int *out, int n) {
  int i = get_global_id(0);
  int k = 0;
  for (int j = 0; j < out[i]; ++j)
    k += j;
  if (k & 1)
    goto inside;
  while (k < n) {
    k += 2;
  inside:
    k += out[k];
  }
  out[i] = k;
}

kernel void returns_inside(global int *out, int n) {
  int i = get_global_id(0);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (out[a * n + b] == i) {
        out[i] = a;
        return;
      }
}

kernel void modes(global const float *x, global float *y, int mode, int n) {
  int i = get_global_id(0);
  float acc = i;
  for (int k = 0; k < n + (i & 1); ++k) {
    switch (mode) {
    case 0:
      acc += x[k];
      break;
    case 1:
      acc -= x[k];
      break;
    case 2:
      acc *= x[k];
      break;
    default:
      acc = 0.0f;
    }
  }
  y[i] = acc;
}
