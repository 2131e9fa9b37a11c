#!/usr/bin/env bash
# Configures and builds Weft into ./build.
set -euo pipefail
cd "$(dirname "$0")/.."
# One ccache for every checkout of Weft (CI builds a fresh clone elsewhere).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
