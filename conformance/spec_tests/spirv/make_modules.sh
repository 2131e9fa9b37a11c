#!/bin/sh
# Regenerates programs_O0.spv and programs_O2.spv from programs.cl with
# Debian's clang-15 and llvm-spirv-15 (checked in, so building and testing
# Weft needs only the translator, not clang-15).
set -e
cd "$(dirname "$0")"
for level in 0 2; do
  /usr/lib/llvm-15/bin/clang -cc1 -triple spir64-unknown-unknown \
    -cl-std=CL2.0 -finclude-default-header -no-opaque-pointers \
    -emit-llvm-bc -O$level programs.cl -o /tmp/weft-programs.bc
  llvm-spirv-15 /tmp/weft-programs.bc -o programs_O$level.spv
done
rm -f /tmp/weft-programs.bc
