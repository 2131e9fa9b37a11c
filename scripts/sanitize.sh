#!/usr/bin/env bash
# The test suite under the sanitizers (part of README command (2) and CI):
#  - build-asan: everything built with AddressSanitizer and
#    UndefinedBehaviorSanitizer, the whole CTest suite run against it,
#    except what runs kernels on work-item fibers (see README,
#    "Sanitizer builds": ASan cannot follow Boost.Context's stack switches);
#  - build-tsan: runtime/ and device/ built with ThreadSanitizer, their unit
#    tests run (fibers excluded for the same reason).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="$(nproc)"

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWEFT_SANITIZE=address,undefined >/dev/null
cmake --build build-asan -j "$jobs"
# Weft's handlers must see kernels' faults first (containment tests); LLVM's
# and the loader's never-freed globals are not leaks.
export ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:allow_user_segv_handler=1:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan --output-on-failure -j "$jobs" \
  -E 'fibers|fiber|on_fibers|async_copy_checking'

cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWEFT_SANITIZE=thread >/dev/null
cmake --build build-tsan -j "$jobs" --target runtime_tests device_tests
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure \
  -j "$jobs" -L 'runtime|device' -E 'overflow'
