#!/bin/sh
# Regenerates the SPIR-V test fixtures (checked in, so building Weft needs
# neither clang-15 nor spirv-tools): kernels.spv from kernels.cl with
# Debian's clang-15 and llvm-spirv-15, spec_constant.spv from its assembly
# with spirv-as (spirv-tools).
set -e
cd "$(dirname "$0")"
/usr/lib/llvm-15/bin/clang -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 \
  -finclude-default-header -no-opaque-pointers -emit-llvm-bc -O1 kernels.cl \
  -o /tmp/weft-kernels.bc
llvm-spirv-15 /tmp/weft-kernels.bc -o kernels.spv
rm -f /tmp/weft-kernels.bc
spirv-as --target-env opencl1.2 spec_constant.spvasm -o spec_constant.spv
