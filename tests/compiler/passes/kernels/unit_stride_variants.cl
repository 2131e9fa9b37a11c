// weft-unit-stride-variants: a kernel whose accesses gather because a
// stride argument multiplies the work-item's index gets a variant with
// those arguments 1, in which the same accesses are whole vectors; an
// argument that scales a value every lane shares (a row of the y id), or
// none at all, gets no variant.
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.ll | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s < %t.ll

// PLAN: kernel axpy_inc: widened
// PLAN: variant_unit_arguments: []
// PLAN: kernel rows:
// PLAN: kernel bounds:
// PLAN: kernel axpy_inc.unit_stride: widened
// PLAN-NEXT: name: "axpy_inc.unit_stride"
// PLAN: variant_of: "axpy_inc"
// PLAN: variant_unit_arguments: [4, 7]
// PLAN-NOT: kernel rows.unit_stride
// PLAN-NOT: kernel bounds.unit_stride

// The kernel as written gathers and scatters through its strides.
// CHECK-LABEL: define internal void @__weft_body_axpy_inc.simd(
// CHECK: @llvm.masked.gather.v16f32
// CHECK: @llvm.masked.scatter.v16f32
// With both strides 1, whole vectors under the mask.
// CHECK-LABEL: define internal void @__weft_body_axpy_inc.unit_stride.simd(
// CHECK-NOT: masked.gather
// CHECK-NOT: masked.scatter
// CHECK: call <16 x float> @llvm.masked.load.v16f32.p1(
// CHECK-NOT: masked.gather
// CHECK: call <16 x float> @llvm.masked.load.v16f32.p1(
// CHECK-NOT: masked.gather
// CHECK-NOT: masked.scatter
// CHECK: call void @llvm.masked.store.v16f32.p1(
// CHECK: ret void
kernel void axpy_inc(int n, float a, global const float *x, int x_offset,
                     int x_inc, global float *y, int y_offset, int y_inc) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    y[i * y_inc + y_offset] += a * x[i * x_inc + x_offset];
}

kernel void rows(global float *out, global const float *in, int ld) {
  size_t col = get_global_id(0), row = get_global_id(1);
  out[row * ld + col] = 2.0f * in[row * ld + col];
}

kernel void bounds(global float *out, global const float *in, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    out[i] = in[i] + 1.0f;
}
