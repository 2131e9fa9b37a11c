#!/usr/bin/env bash
# Runs the benchmarks with Weft (build tree) and PoCL (if installed) side by
# side in one process.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
cp build/icd/weft.icd "$dir/"
[ -f /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd "$dir/"
OCL_ICD_VENDORS="$dir" build/bin/launch_bench "$@"
rm -rf "$dir"
