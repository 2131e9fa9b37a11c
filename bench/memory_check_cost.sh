#!/usr/bin/env bash
# What the memory checking mode (WEFT_CHECK_MEMORY=1) costs: the kernel
# benchmarks run on Weft alone, with the checks off and on, alternating
# (the mode is read once per process, so each run is a process of its
# own), `rounds` times; prints each row's median time both ways and the
# ratio checked / unchecked. Every run also checks its results against the
# host, so a check that fires or a wrong result shows as a failure.
#   bench/memory_check_cost.sh [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/weft"
cp build/icd/weft.icd "$dir/weft/"
status=0
for round in $(seq "$rounds"); do
  for check in 0 1; do
    for bench in kernel_shapes_bench workgroup_bench; do
      OCL_ICD_VENDORS="$dir/weft" WEFT_CHECK_MEMORY=$check \
        build/bin/$bench Weft >"$dir/$bench.$check.$round" 2>&1 || status=1
    done
  done
done
python3 - "$dir" "$rounds" <<'EOF'
import re, statistics, sys, glob, os
directory, rounds = sys.argv[1], int(sys.argv[2])
# A row is "name   <ms>   ...": the first figure after the name is Weft's
# median time in ms.
row = re.compile(r"^(\S.*?)\s{2,}([0-9.]+)\s")
def rows(path):
    found = {}
    for line in open(path):
        m = row.match(line)
        if m:
            found[m.group(1)] = float(m.group(2))
    return found
print(f"{'row':44} {'unchecked ms':>13} {'checked ms':>11} {'ratio':>6}")
for bench in ("kernel_shapes_bench", "workgroup_bench"):
    times = {0: {}, 1: {}}
    for check in (0, 1):
        for r in range(1, rounds + 1):
            for name, ms in rows(f"{directory}/{bench}.{check}.{r}").items():
                times[check].setdefault(name, []).append(ms)
    for name in times[0]:
        if name not in times[1]:
            continue
        off = statistics.median(times[0][name])
        on = statistics.median(times[1][name])
        print(f"{name[:44]:44} {off:13.3f} {on:11.3f} {on / off:6.2f}")
EOF
if [ "$status" != 0 ]; then
  echo "a benchmark run failed: its output is in the runs above" >&2
  for f in "$dir"/*; do grep -l -i "wrong\|fail\|memory check" "$f" || true; done
fi
exit $status
