#!/bin/sh
# clinfo through the loader lists Weft and prints no error line. Run again,
# it does not load the compiler library: the one kernel clinfo builds (to ask
# for its preferred work-group multiple) comes from the program cache. The
# dynamic loader's own trace (LD_DEBUG=files) tells which libraries it opened.
out=$(clinfo 2>&1) || { echo "$out"; exit 1; }
echo "$out" | grep -q 'Platform Name *Weft' || { echo "Weft not listed"; exit 1; }
if echo "$out" | grep -v 'Error Correction' | grep -iE 'error|invalid'; then
  exit 1
fi
trace=$(LD_DEBUG=files clinfo 2>&1 >/dev/null)
echo "$trace" | grep -q 'libWeftOpenCL' || { echo "Weft was not loaded"; exit 1; }
if echo "$trace" | grep -q 'libweft-compiler'; then
  echo "a second clinfo loaded the compiler library"; exit 1
fi
exit 0
