#!/bin/bash
# Runs tests/api/host_fault.cpp's scenarios: an application faulting in its
# own host code after Weft ran kernels (on fibers, on the large-stack path,
# after a contained fault, with handlers of its own) must die by SIGSEGV,
# or reach its own handler, within seconds, never spin.
#   check_host_fault.sh <host_fault binary>
binary="${1:?usage: check_host_fault.sh <host_fault binary>}"
failed=0
expect() { # scenario, exit status wanted (139: killed by SIGSEGV), environment
  local scenario=$1 wanted=$2 log status seen
  shift 2
  log=$(mktemp)
  env "$@" "$binary" "$scenario" >"$log" 2>&1 &
  local pid=$!
  for _ in $(seq 600); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
  fi
  { wait "$pid"; status=$?; } 2>/dev/null
  seen=$(grep -c "the application's handler saw it" "$log")
  if [ "$status" -ne "$wanted" ]; then
    echo "FAIL $scenario: exit status $status, wanted $wanted (137: killed after 60 s, a spin)"
    tail -c 1000 "$log"
    failed=1
  elif [ "$scenario" = chaining ] && [ "$seen" -ne 1 ]; then
    echo "FAIL chaining: the application's handler ran $seen times, wanted once"
    failed=1
  else
    echo "ok   $scenario: exit status $status"
  fi
  rm -f "$log"
}
# `wait` reports a death by signal N as 128 + N (SIGSEGV: 139).
ulimit -c 0
expect fibers 139 WEFT_BARRIERS=fibers
expect fibers 139
expect large-stack 139
expect contained 139 WEFT_BARRIERS=fibers
expect chaining 139 WEFT_BARRIERS=fibers
expect exiting 42 WEFT_BARRIERS=fibers
exit $failed
