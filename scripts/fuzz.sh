#!/usr/bin/env bash
# Fuzzes Weft's API with libFuzzer (tests/fuzz/api_fuzzer.cpp) for the given
# number of seconds (default 3600), keeping new inputs in tests/fuzz/corpus,
# then minimizes the corpus. Weft is built with clang-19 into build-fuzz
# with libFuzzer's coverage instrumentation, AddressSanitizer (leaks
# included) and UndefinedBehaviorSanitizer. A crash, hang or leak stops the
# run and leaves the input as build-fuzz/crash-*, leak-* or timeout-*.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-3600}"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
CC=clang-19 CXX=clang++-19 cmake -S . -B build-fuzz -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_FUZZ=ON \
  -DWEFT_SANITIZE=address,undefined >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target api_fuzzer
# As in scripts/sanitize.sh: Weft's own handlers take kernels' faults and
# pass every other fault on to libFuzzer's.
export ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:allow_user_segv_handler=1:use_sigaltstack=0:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OCL_ICD_VENDORS="$PWD/build-fuzz/icd/weft.icd"
export WEFT_CACHE_DIR=off WEFT_KERNEL_TIMEOUT=1
mkdir -p tests/fuzz/corpus build-fuzz/new-corpus
cd build-fuzz
# -close_fd_mask=1: the kernels' printf output stays out of the log.
./bin/api_fuzzer -max_total_time="$seconds" -timeout=60 -rss_limit_mb=6144 \
  -close_fd_mask=1 -print_final_stats=1 new-corpus ../tests/fuzz/corpus
# Keep the smallest set of inputs that covers what all of them cover.
mkdir -p merged
./bin/api_fuzzer -merge=1 -rss_limit_mb=6144 -close_fd_mask=1 merged \
  ../tests/fuzz/corpus \
  new-corpus
rm -rf ../tests/fuzz/corpus && mv merged ../tests/fuzz/corpus
