// weft-image-format-variants: a kernel with image arguments gets variants
// for 8-bit and float RGBA images, in which the image builtins are inlined
// and the format fields of the images' descriptions (device/image_abi.h)
// are constants; in every body the descriptions' loads are invariant. A
// kernel with a depth image gets no variant (a depth image is never RGBA).
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 -passes='weft-kernel-bodies,weft-choose-plan,weft-image-format-variants' -o - | FileCheck %s
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 -passes='weft-kernel-pipeline,print<weft-kernels>' -disable-output | FileCheck %s --check-prefix=PLAN
// Image arguments point at descriptions that stay put for the launch: the
// bodies say so in their parameters and the group entries on the loads
// from the argument block, so LLVM reads the descriptions once per group.
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 -passes='weft-kernel-pipeline' -o - | FileCheck %s --check-prefix=ENTRY
// ENTRY: define internal void @__weft_body_copy(ptr addrspace(1) nonnull align 8 dereferenceable(72) %src, ptr addrspace(1) nonnull align 8 dereferenceable(72) %dst,
// ENTRY-LABEL: define void @__weft_group_copy(
// ENTRY: load ptr addrspace(1), ptr {{%.*}}, align 8, !invariant.load {{![0-9]+}}, !nonnull {{![0-9]+}}, !dereferenceable [[BYTES:![0-9]+]]
// ENTRY-LABEL: define void @__weft_group_copy.rgba_unorm8(
// ENTRY: load ptr addrspace(1), ptr {{%.*}}, align 8, !invariant.load {{![0-9]+}}, !nonnull {{![0-9]+}}, !dereferenceable [[BYTES]]
// ENTRY: [[BYTES]] = !{i64 72}

constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE |
                             CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void copy(read_only image2d_t src, write_only image2d_t dst) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, at, read_imagef(src, nearest, at));
}

kernel void depth(read_only image2d_depth_t src, global float *out) {
  out[get_global_id(0)] =
      read_imagef(src, nearest, (int2)(get_global_id(0), 0));
}

// The generic body reads the format, and every load of a description is
// invariant.
// CHECK-LABEL: define internal void @__weft_body_copy(
// CHECK-NOT: call {{.*}}read_imagef
// CHECK: load i32, ptr addrspace(1) %channel_order{{.*}}, !invariant.load
// CHECK: load i64, ptr addrspace(1) %row_pitch{{.*}}, !invariant.load
// CHECK: load i32, ptr addrspace(1) %channel_type{{.*}}, !invariant.load
// CHECK-NOT: call {{.*}}write_imagef
// CHECK: ret void

// CHECK-LABEL: define internal void @__weft_body_depth(
// CHECK-NOT: define {{.*}} @__weft_body_depth.rgba

// The variants know the format: no load of a format field is left.
// CHECK-LABEL: define internal void @__weft_body_copy.rgba_unorm8(
// CHECK-NOT: load i32, ptr addrspace(1) %channel_order
// CHECK-NOT: load i32, ptr addrspace(1) %channel_type
// CHECK-NOT: load i32, ptr addrspace(1) %element_size
// CHECK-NOT: load i32, ptr addrspace(1) %channel_count
// CHECK: load i64, ptr addrspace(1) %row_pitch{{.*}}, !invariant.load
// CHECK-NOT: load i32, ptr addrspace(1) %channel_order
// CHECK-NOT: load i32, ptr addrspace(1) %channel_type
// CHECK: ret void
// CHECK-LABEL: define internal void @__weft_body_copy.rgba_float(
// CHECK-NOT: load i32, ptr addrspace(1) %channel_type
// CHECK: ret void

// Each variant is a kernel record of its own, planned like its kernel.
// PLAN: kernel copy:
// PLAN: kernel depth:
// PLAN: kernel copy.rgba_unorm8:
// PLAN: variant_of: "copy"
// PLAN-NEXT: variant_channel_order: 4277
// PLAN-NEXT: variant_channel_type: 4306
// PLAN: kernel copy.rgba_float:
// PLAN: variant_channel_type: 4318
// PLAN-NOT: kernel depth.
