#!/usr/bin/env bash
# The test suite under the sanitizers (part of README command (2), so of CI):
#  - build-tsan: runtime/ and device/ built with ThreadSanitizer, their unit
#    tests run (the fiber stack-overflow tests excluded);
#  - build-asan: everything built with AddressSanitizer and
#    UndefinedBehaviorSanitizer (leaks included), the whole CTest suite run
#    against it except what runs kernels on work-item fibers, clinfo and
#    the application tests (see README, "Sanitizer builds").
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
jobs="$(nproc)"

cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWEFT_SANITIZE=thread >/dev/null
cmake --build build-tsan -j "$jobs" --target runtime_tests device_tests
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure \
  -j "$jobs" -L 'runtime|device' -E 'overflow'

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWEFT_SANITIZE=address,undefined >/dev/null
cmake --build build-asan -j "$jobs"
# Weft's own handlers take kernels' faults (the containment tests) and give
# threads their alternate signal stacks.
export ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:allow_user_segv_handler=1:use_sigaltstack=0:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan --output-on-failure -j "$jobs" \
  -E 'fibers|overflow|async_copy_checking|clinfo|app_'
