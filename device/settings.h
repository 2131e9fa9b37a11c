// The user's switches that device/ obeys, as plain values. device/ reads no
// environment: the runtime reads every switch once (runtime/settings.def) and
// hands these down.
#pragma once

namespace weft {

// WEFT_BARRIERS: how kernels that reach a barrier run.
enum class BarrierPath {
  Regions, // kernels the compiler split at their barriers run region by
           // region; the others on work-item fibers
  Fibers,  // every kernel with barriers runs on work-item fibers
};

// Given with each launch (NDRangeLaunch::settings) rather than to the thread
// pool: the launch is already the value the runtime fills per command, the
// pool is created before anyone needs these, and tests may run both paths in
// one process.
struct LaunchSettings {
  BarrierPath barriers = BarrierPath::Regions;
  // WEFT_CHECK_ASYNC_COPIES (device/async_copy_checker.h).
  bool check_async_copies = false;
  // WEFT_KERNEL_TIMEOUT: a launch running longer is stopped (0: never;
  // device/kernel_faults.h).
  double kernel_timeout_seconds = 0;
};

} // namespace weft
