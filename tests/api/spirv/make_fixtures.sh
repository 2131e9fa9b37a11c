#!/bin/sh
# Regenerates the SPIR-V test fixtures (checked in, so building Weft needs
# neither clang-15 nor spirv-tools): kernels.spv and float_atomics.spv from
# their OpenCL C with Debian's clang-15 and llvm-spirv-15; sycl_style.spv
# from LLVM 15 IR in DPC++'s shape, with llvm-spirv-15; spec_constant.spv,
# uniform_group.spv and the sub-group modules from their assembly with
# spirv-as (spirv-tools).
set -e
cd "$(dirname "$0")"
clang15() {
  /usr/lib/llvm-15/bin/clang -cc1 -triple spir64-unknown-unknown \
    -finclude-default-header -no-opaque-pointers -emit-llvm-bc -O1 "$@" \
    -o /tmp/weft-fixture.bc
}
clang15 -cl-std=CL1.2 kernels.cl
llvm-spirv-15 /tmp/weft-fixture.bc -o kernels.spv
# cl_ext_float_atomics' features, which Clang 15 does not assume for SPIR.
clang15 -cl-std=CL3.0 -cl-ext=+cl_ext_float_atomics,+__opencl_c_fp64,+cl_khr_fp64,+__opencl_c_ext_fp32_global_atomic_add,+__opencl_c_ext_fp32_local_atomic_add,+__opencl_c_ext_fp32_global_atomic_min_max,+__opencl_c_ext_fp64_global_atomic_add,+__opencl_c_ext_fp64_global_atomic_min_max,+__opencl_c_atomic_order_seq_cst,+__opencl_c_atomic_scope_device,+__opencl_c_generic_address_space \
  float_atomics.cl
llvm-spirv-15 \
  --spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max \
  /tmp/weft-fixture.bc -o float_atomics.spv
/usr/lib/llvm-15/bin/llvm-as -opaque-pointers=0 sycl_style.ll \
  -o /tmp/weft-fixture.bc
llvm-spirv-15 --spirv-ext=+SPV_EXT_shader_atomic_float_add \
  /tmp/weft-fixture.bc -o sycl_style.spv
rm -f /tmp/weft-fixture.bc
spirv-as --target-env opencl1.2 spec_constant.spvasm -o spec_constant.spv
spirv-as --target-env opencl2.0 uniform_group.spvasm -o uniform_group.spv
spirv-as --target-env spv1.2 sub_group_dispatch.spvasm -o sub_group_dispatch.spv
spirv-as --target-env spv1.2 sub_group_size_two.spvasm -o sub_group_size_two.spv
spirv-as --target-env spv1.6 new_instructions.spvasm -o new_instructions.spv
spirv-as --target-env spv1.4 sub_group_rotate.spvasm -o sub_group_rotate.spv
spirv-as --target-env spv1.2 mipmap_reads.spvasm -o mipmap_reads.spv
# The sub-group extensions' functions, from OpenCL C with clang-15.
clang15 -cl-std=CL3.0 -cl-ext=+cl_khr_subgroup_ballot,+cl_khr_subgroup_non_uniform_arithmetic,+cl_khr_subgroup_shuffle,+cl_khr_subgroup_shuffle_relative,+cl_khr_subgroup_clustered_reduce,+cl_khr_subgroup_non_uniform_vote,+__opencl_c_subgroups \
  sub_group_extensions.cl
llvm-spirv-15 /tmp/weft-fixture.bc -o sub_group_extensions.spv
rm -f /tmp/weft-fixture.bc
# cl_intel_subgroups' functions, from OpenCL C with clang-15.
clang15 -cl-std=CL2.0 -cl-ext=+cl_intel_subgroups intel_subgroups.cl
llvm-spirv-15 --spirv-ext=+SPV_INTEL_subgroups /tmp/weft-fixture.bc \
  -o intel_subgroups.spv
rm -f /tmp/weft-fixture.bc
