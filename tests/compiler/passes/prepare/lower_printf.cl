// weft-lower-printf: each printf call becomes one reservation in the
// launch's printf buffer and the stores of its record (device/printf_abi.h):
// a 16-byte header (bytes, argument count, format), then each argument as an
// 8-byte size and its bytes padded to 8. printf returns 0, or -1 when the
// record did not fit. Formats the host could not print fail the build.
// RUN: %weft-cl %s --cl-options="-cl-std=CL3.0 -DGOOD_ONLY" -passes=weft-kernel-bodies -o - | FileCheck %s
// A kernel whose work-items run loops of their own would be widened; with
// printf it keeps the work-item loop, and the plan says why.
// RUN: %weft-cl %s --cl-options="-cl-std=CL3.0 -DGOOD_ONLY" -passes='weft-kernel-pipeline,print<weft-kernels>' -disable-output | FileCheck %s --check-prefix=PLAN
// PLAN: kernel looping: work-item loop (printf, whose records are written one work-item at a time)
// RUN: not %weft-cl %s --cl-options=-cl-std=CL3.0 -passes=weft-kernel-bodies -disable-output 2>&1 | FileCheck %s --check-prefix=BAD

// The record of "%d %v4hlf %s": 16 + (8 + 8) + (8 + 16) + (8 + 8) = 72.
// CHECK-LABEL: define {{.*}} @__weft_body_good(
// The buffer is a field of the group context, answered in the kernel body.
// CHECK-NOT: __weft_printf_buffer
// CHECK: [[RECORD:%.*]] = call ptr @__weft_printf_reserve(ptr {{%.*}}, i64 72)
// CHECK: icmp ne ptr [[RECORD]], null
// CHECK: store i32 72, ptr [[RECORD]], align 8
// CHECK: store i32 3,
// CHECK: store ptr addrspace(2) @.str,
// CHECK: store i64 4,
// CHECK: store i64 16,
// CHECK: store <4 x float>
// CHECK: store i64 8,
// CHECK: store ptr addrspace(2) @.str.1,
// CHECK: phi i32 [ 0, {{.*}} ], [ -1, {{.*}} ]
// CHECK-NOT: @printf(
// A vector passed in memory is copied into the record.
// CHECK-LABEL: define {{.*}} @__weft_body_wide(
// CHECK: call ptr @__weft_printf_reserve(ptr {{%.*}}, i64 152)
// CHECK: call void @llvm.memcpy.{{.*}}i64 128, i1 false)
// A kernel without printf reserves nothing.
// CHECK-LABEL: define {{.*}} @__weft_body_quiet(
// CHECK-NOT: __weft_printf_reserve
// CHECK: ret void

// BAD-DAG: error: printf in kernel 'percent_n': %n, which OpenCL C does not have in "%n"
// BAD-DAG: error: printf in kernel 'not_literal': argument 1 for "%s", which is not a string literal
// BAD-DAG: error: printf in kernel 'too_few': more conversions than arguments (at "%f")
// BAD-DAG: error: printf in kernel 'wrong_size': argument 1 for "%v4hlf", which takes a vector of 16 bytes, has 8 bytes
// BAD-DAG: error: printf in kernel 'scalar_vector': argument 1 for "%d", a vector: a vector needs a vector specifier
// BAD-DAG: error: printf in kernel 'no_length': a vector specifier without a length modifier
// BAD-DAG: error: printf in kernel 'bad_lanes': a vector specifier whose n is not 2, 3, 4, 8 or 16

kernel void good(global float *x, global int *result) {
  float4 v = vload4(0, x);
  *result = printf("%d %v4hlf %s\n", (int)get_global_id(0), v, "literal");
}

kernel void wide(global double *x) {
  printf("%v16lf\n", vload16(0, x));
}

kernel void quiet(global int *x) { x[get_global_id(0)] = 1; }

kernel void looping(global const int *n, global float *out) {
  size_t i = get_global_id(0);
  float sum = 0;
  for (int k = 0; k < n[i]; ++k) {
    sum += k;
    if (sum > 1000.0f)
      printf("big %f\n", sum);
  }
  out[i] = sum;
}

#ifndef GOOD_ONLY
kernel void percent_n(global int *x) {
  int n;
  printf("%n", &n);
}
kernel void not_literal(global char *s) { printf("%s", s); }
kernel void too_few(global int *x) { printf("%d %f", 1); }
kernel void wrong_size(global float *x) { printf("%v4hlf", vload2(0, x)); }
kernel void scalar_vector(global int *x) { printf("%d", vload8(0, x)); }
kernel void no_length(global int *x) { printf("%v4d", vload4(0, x)); }
kernel void bad_lanes(global int *x) { printf("%v5hld", 1); }
#endif
