#!/usr/bin/env bash
# Runs a CTS subset against Weft through the ICD loader.
#   conformance/run_cts.sh <CTS build dir> <subset>
# A subset is conformance/subsets/<subset>.txt: lines "binary [test ...]"
# (binary relative to the CTS build's test_conformance/). Prints pass/fail/
# skip per test and the totals; exits non-zero if any test failed.
set -uo pipefail
# Test names are passed as written in the subset ('*' included), never globbed.
set -f
here="$(cd "$(dirname "$0")" && pwd)"
cts="${1:?usage: run_cts.sh <CTS build dir> <subset>}"
subset="${2:?usage: run_cts.sh <CTS build dir> <subset>}"
list="$here/subsets/$subset.txt"
[ -f "$list" ] || { echo "no subset $list"; exit 2; }
export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-$here/../build/icd/weft.icd}"
out="${WEFT_CTS_OUT:-/tmp/weft-cts-$subset}"
mkdir -p "$out"
pass=0 fail=0 skip=0
while read -r binary tests; do
  [ -z "$binary" ] || [ "${binary#\#}" != "$binary" ] && continue
  name=$(basename "$binary")
  dir="$cts/test_conformance/$(dirname "$binary")"
  json="$out/$name.json"
  # shellcheck disable=SC2086
  (cd "$dir" && CL_CONFORMANCE_RESULTS_FILENAME="$json" \
     timeout "${WEFT_CTS_TIMEOUT:-1800}" "./$name" $tests) >"$out/$name.log" 2>&1
  echo "$name: exit $? (log: $out/$name.log)"
  if [ -f "$json" ]; then
    while read -r test result; do
      printf '  %-50s %s\n' "$test" "$result"
      case "$result" in pass) pass=$((pass+1));; fail) fail=$((fail+1));; *) skip=$((skip+1));; esac
    done < <(python3 -c 'import json,sys; [print(k, v) for k, v in json.load(open(sys.argv[1]))["results"].items()]' "$json")
  else
    echo "  no results file: the binary crashed or timed out"; fail=$((fail+1))
  fi
done < "$list"
echo "total: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
