// In the whole pipeline, cl_khr_integer_dot_product's builtins come out as
// vpdpbusd(s) on CPUs with VNNI: the widened work-items' packed words are
// the instruction's operands as they stand, with no byte taken apart.
// Packed or as char4/uchar4, summed over a loop or one per work-item.
// RUN: %weft-cl %s --target-cpu=icelake-server -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: %weft-cl %s --target-cpu=alderlake -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefixes=CHECK,AVXVNNI
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s --check-prefix=NONE

// NONE-NOT: vpdpbusd

// CHECK-LABEL: define void @__weft_group_rows(
// CHECK-NOT: mul {{.*}}<{{[0-9]+}} x i32>
// AVX512: call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(
// AVXVNNI: call <8 x i32> @llvm.x86.avx512.vpdpbusd.256(
// CHECK-NOT: mul {{.*}}<{{[0-9]+}} x i32>
// CHECK: {{^}}}
kernel void rows(global const uint *a, global const uint *b, global int *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  int acc = 0;
  for (int k = 0; k < 64; ++k)
    acc += dot_4x8packed_su_int(a[k * n + i], b[k * n + i]);
  out[i] = acc;
}

// CHECK-LABEL: define void @__weft_group_signed_pairs(
// CHECK-NOT: mul {{.*}}<{{[0-9]+}} x i32>
// CHECK: vpdpbusd
// CHECK-NOT: mul {{.*}}<{{[0-9]+}} x i32>
// CHECK: {{^}}}
kernel void signed_pairs(global const char4 *a, global const char4 *b,
                         global int *out) {
  size_t i = get_global_id(0);
  out[i] = dot(a[i], b[i]);
}

// CHECK-LABEL: define void @__weft_group_unsigned_pairs(
// CHECK-NOT: mul {{.*}}<{{[0-9]+}} x i32>
// CHECK: vpdpbusd
// CHECK-NOT: mul {{.*}}<{{[0-9]+}} x i32>
// CHECK: {{^}}}
kernel void unsigned_pairs(global const uint *a, global const uint *b,
                           global uint *out) {
  size_t i = get_global_id(0);
  out[i] = dot_4x8packed_uu_uint(a[i], b[i]);
}

// CHECK-LABEL: define void @__weft_group_saturated(
// CHECK: vpdpbusds
// CHECK-NOT: sadd.sat
// CHECK: {{^}}}
kernel void saturated(global const uint *a, global const uint *b,
                      global int *acc) {
  size_t i = get_global_id(0);
  acc[i] = dot_acc_sat_4x8packed_us_int(a[i], b[i], acc[i]);
}
