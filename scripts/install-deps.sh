#!/usr/bin/env bash
# Installs the Debian 12 packages Weft builds and runs with (as root).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  build-essential cmake ninja-build pkg-config ccache \
  llvm-19-dev clang-19 libclang-19-dev libclang-cpp19-dev lld-19 liblld-19-dev llvm-19-tools \
  libboost-context-dev catch2 libsleef-dev \
  opencl-headers ocl-icd-opencl-dev clinfo llvm-spirv-15 spirv-tools \
  python3-simtk libopenmm-plugins libclang-rt-19-dev >/dev/null
# python3-simtk and libopenmm-plugins: OpenMM, the real application the test
# suite runs on Weft's OpenCL platform (tests/apps/check_openmm.sh).
# libclang-rt-19-dev: clang's sanitizer and libFuzzer runtimes, for
# scripts/fuzz.sh.
# spirv-tools: the SPIR-V validator the compiler links (its static library)
# and checks modules with before translating them.
# llvm-spirv-15: the SPIR-V/LLVM translator that SPIR-V programs
# (clCreateProgramWithIL) are read with (compiler/frontend/spirv_translator.h); it
# brings only libllvmspirvlib15 and libllvm15.
