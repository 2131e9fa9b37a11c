// A loop every work-item runs as often that walks a row of each
// work-item's own (a dot product of 64 floats a work-item: one element
// further each round, neighbouring work-items 256 bytes apart) is not
// widened even where gathers are fast: each round would gather one
// element from as many rows as lanes, and the lanes would stream as many
// rows at once (23 ms against 8-9.5 a work-item at a time for 16 Mi
// elements on Ice Lake, at any width from 8 to 128 lanes). The loop over
// work-items is marked for LLVM's loop vectorizer to leave, which would
// otherwise gather the same rows once it unrolls the body's loop. A
// stride known only at run time (a row of n) keeps the widening
// (widen_work_items.cl, strided_rows).
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s

// PLAN: kernel dot_rows: work-item loop (every loop runs as many times for all work-items and, widened, would gather along each work-item's own row
// PLAN: kernel dot_columns: widened

// CHECK-LABEL: define void @__weft_group_dot_rows(
// CHECK-NOT: masked.gather
// CHECK: br i1 %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// CHECK-NOT: masked.gather
// CHECK: ret void
// CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[MARK:[0-9]+]], ![[OFF:[0-9]+]]
// CHECK-DAG: ![[MARK]] = !{!"weft.work_item_loop"}
// CHECK-DAG: ![[OFF]] = !{!"llvm.loop.vectorize.enable", i1 false}
kernel void dot_rows(global const float *x, global const float *y,
                     global float *partial) {
  size_t g = get_global_id(0);
  const global float *a = x + g * 64, *b = y + g * 64;
  float sum = 0.0f;
  for (int i = 0; i < 64; ++i)
    sum += a[i] * b[i];
  partial[g] = sum;
}

// The same sums down columns: neighbouring work-items read neighbouring
// elements, widened without gathers.
kernel void dot_columns(global const float *x, global const float *y,
                        global float *partial) {
  size_t g = get_global_id(0), n = get_global_size(0);
  float sum = 0.0f;
  for (int i = 0; i < 64; ++i)
    sum += x[i * n + g] * y[i * n + g];
  partial[g] = sum;
}
