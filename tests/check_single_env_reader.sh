#!/bin/sh
# The driver reads the environment in runtime/settings.cpp only
# (runtime/settings.def declares every variable): fails listing any other
# getenv call in icd/, runtime/, device/ or compiler/.
cd "$(dirname "$0")/.." || exit 2
found=$(grep -rn --include='*.c' --include='*.cpp' --include='*.h' \
  -e 'getenv' -e 'secure_getenv' -e 'environ\b' icd runtime device compiler |
  grep -v '^runtime/settings\.\(cpp\|h\|def\):')
if [ -n "$found" ]; then
  echo "read the environment through runtime/settings.def instead:"
  echo "$found"
  exit 1
fi
