#!/bin/bash
# On the lent machine (bench/pack_for_device.sh first): clpeak through Weft
# (host code and WEFT_TARGET_CPU=znver3) and PoCL, alternating, `rounds`
# rounds; fma_peak for the machine's peak; clblast_bench up to `clblast_n`
# (0: none); kernel_shapes_bench. Results in $OUT/clpeak.txt,
# $OUT/clblast.txt and $OUT/shapes.txt.
rounds=${1:-2}
clblast_n=${2:-0}
for payload in device_payload/*.tar*; do tar xf "$payload" -C /; done
echo /tmp/weft-device/lib/libWeftOpenCL.so > /tmp/weft-device/weft.icd
source /tmp/weft-device/env.sh
out=$OUT/clpeak.txt
{ lscpu | grep -E "Model name|^CPU\(s\)"; fma_peak; } > "$out" 2>&1
args="--global-bandwidth --compute-sp --compute-dp --compute-integer"
for round in $(seq "$rounds"); do
  for run in weft_host pocl weft_znver3; do
    echo "=== round $round $run" >> "$out"
    case $run in
    weft_host) OCL_ICD_VENDORS=$WEFT_ICD timeout 200 clpeak $args ;;
    pocl) OCL_ICD_VENDORS=$POCL_ICD timeout 200 clpeak $args ;;
    weft_znver3) WEFT_TARGET_CPU=znver3 OCL_ICD_VENDORS=$WEFT_ICD timeout 200 clpeak $args ;;
    esac 2>&1 | grep -E ": [0-9.]+$|GBPS|GFLOPS|GIOPS|Skipped" >> "$out"
  done
done
echo "=== plans" >> "$out"
WEFT_DEBUG=1 OCL_ICD_VENDORS=$WEFT_ICD timeout 100 clpeak --global-bandwidth --compute-sp 2>&1 |
  grep "weft: kernel" | grep -v "private memory" >> "$out"
if [ "$clblast_n" -gt 0 ] && command -v clblast_bench >/dev/null; then
  mkdir -p /tmp/both
  cp "$WEFT_ICD" "$POCL_ICD" /tmp/both/
  OCL_ICD_VENDORS=/tmp/both timeout 400 clblast_bench "$clblast_n" 3 > "$OUT/clblast.txt" 2>&1
fi
if command -v kernel_shapes_bench >/dev/null; then
  mkdir -p /tmp/both
  cp "$WEFT_ICD" "$POCL_ICD" /tmp/both/
  { OCL_ICD_VENDORS=/tmp/both timeout 300 kernel_shapes_bench 2>&1
    echo "=== znver3 code"
    WEFT_TARGET_CPU=znver3 OCL_ICD_VENDORS=/tmp/both timeout 300 kernel_shapes_bench 2>&1
    echo "=== plans"
    WEFT_DEBUG=1 OCL_ICD_VENDORS=$WEFT_ICD timeout 300 kernel_shapes_bench 2>&1 | grep "weft: kernel" | grep -v "private memory" | sort -u
  } > "$OUT/shapes.txt"
fi
