#!/usr/bin/env bash
# README command (1): install, build, then run the real clinfo and the
# examples through the system ICD loader against the build tree's Weft.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
export OCL_ICD_VENDORS="$PWD/build/icd/weft.icd"
clinfo
for example in vector_add matrix_transpose_2d image_resize; do
  "build/bin/$example"
done
