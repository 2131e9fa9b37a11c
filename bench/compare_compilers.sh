#!/usr/bin/env bash
# Two builds of Weft's compiler side by side in one process: CLBlast's rows
# (bench/clblast_bench) on both, alternating call by call, so the machine's
# drift between runs falls on both alike; the ratio column is A/B. Each
# side is the driver library of a lib/ directory (this build's when it has
# none) beside that directory's compiler library and builtins (the driver
# finds them next to itself),
# and kernels are compiled afresh. Two compilers cannot share a process
# (LLVM's options register once), so each side first builds the kernels
# alone into a program cache of this run's (its key names the compiler
# library), and the A/B process finds them all there.
#   bench/compare_compilers.sh A_LIB_DIR B_LIB_DIR [max_n] [repeats] [filter]
# e.g. a copy of build/lib from before a change against build/lib.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,9p' "$0"; exit 2; }
a=$(realpath "$1") b=$(realpath "$2")
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
max_n=${1:-1024} filter=${3:-}
for side in a b; do
  from=$a
  [ $side = b ] && from=$b
  mkdir -p "$dir/$side" "$dir/icd" "$dir/icd_$side"
  # The side's own driver library when its directory has one (a change
  # to the compiler's interface needs both halves of its build).
  if [ -f "$from/libWeftOpenCL.so" ]; then
    cp "$from/libWeftOpenCL.so" "$dir/$side/"
  else
    cp build/lib/libWeftOpenCL.so "$dir/$side/"
  fi
  cp "$from/libweft-compiler.so" "$from/weft-builtins.bc" "$dir/$side/"
  echo "$dir/$side/libWeftOpenCL.so" >"$dir/icd/$side.icd"
  cp "$dir/icd/$side.icd" "$dir/icd_$side/"
  OCL_ICD_VENDORS="$dir/icd_$side" WEFT_CACHE_DIR="$dir/cache" \
    build/bin/clblast_bench "$max_n" 1 "$filter" >/dev/null
done
echo "A: $a"
echo "B: $b"
OCL_ICD_VENDORS="$dir/icd" OCL_ICD_PLATFORM_SORT=none CLBLAST_BENCH_AB=1 WEFT_CACHE_DIR="$dir/cache" \
  build/bin/clblast_bench "$@"
