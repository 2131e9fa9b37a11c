#!/usr/bin/env bash
# Runs the benchmarks with Weft (build tree) and PoCL (if installed) side by
# side: launch latency, rebuild from cache and vector add in one process, the
# work-group, async-copy, collective, command-buffer, out-of-order, SVM,
# transfers, half, image and pipe kernels, cold builds of large kernels and of SPIR-V,
# then what each driver adds to `clinfo -l` and `clinfo` (time and peak RSS).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/both" "$dir/none" "$dir/weft" "$dir/pocl"
cp build/icd/weft.icd "$dir/both/"
cp build/icd/weft.icd "$dir/weft/"
drivers=("no-driver=$dir/none" "Weft=$dir/weft")
if [ -f /etc/OpenCL/vendors/pocl.icd ]; then
  cp /etc/OpenCL/vendors/pocl.icd "$dir/both/"
  cp /etc/OpenCL/vendors/pocl.icd "$dir/pocl/"
  drivers+=("PoCL=$dir/pocl")
fi
OCL_ICD_VENDORS="$dir/both" build/bin/launch_bench "$@"
# A kernel benchmark whose results are wrong exits nonzero: the rest still
# runs, and this script's exit status reports the failure at the end.
status=0
echo
OCL_ICD_VENDORS="$dir/both" build/bin/workgroup_bench "$@" || status=1
echo
OCL_ICD_VENDORS="$dir/both" build/bin/async_copy_bench "$@" || status=1
echo
OCL_ICD_VENDORS="$dir/both" build/bin/collectives_bench "$@" || status=1
OCL_ICD_VENDORS="$dir/both" build/bin/subgroup_bench "$@" || status=1
echo
OCL_ICD_VENDORS="$dir/both" build/bin/command_buffer_bench "$@" || status=1
echo
OCL_ICD_VENDORS="$dir/both" build/bin/out_of_order_bench "$@" || status=1
echo
OCL_ICD_VENDORS="$dir/both" build/bin/svm_bench "$@" || status=1
echo
OCL_ICD_VENDORS="$dir/both" build/bin/transfer_bench || status=1
echo
OCL_ICD_VENDORS="$dir/both" build/bin/half_bench "$@" || status=1
echo
OCL_ICD_VENDORS="$dir/both" build/bin/image_bench "$@" || status=1
echo
OCL_ICD_VENDORS="$dir/both" WEFT_CACHE_DIR=off POCL_KERNEL_CACHE=0 \
  build/bin/build_bench "$@" || status=1
echo
# Pipes: Weft only (PoCL has none), against memcpy of the same bytes.
OCL_ICD_VENDORS="$dir/weft" build/bin/pipe_bench || status=1
echo
echo "clinfo -l (median of 41 runs):"
build/bin/loader_cost 41 "${drivers[@]}" -- clinfo -l
echo "clinfo, full listing (median of 41 runs):"
build/bin/loader_cost 41 "${drivers[@]}" -- clinfo
exit $status
