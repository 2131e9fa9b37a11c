#!/bin/sh
# clinfo through the loader lists Weft and prints no error line.
out=$(clinfo 2>&1) || { echo "$out"; exit 1; }
echo "$out" | grep -q 'Platform Name *Weft' || { echo "Weft not listed"; exit 1; }
if echo "$out" | grep -v 'Error Correction' | grep -iE 'error|invalid'; then
  exit 1
fi
exit 0
