// Runs one kernel launch (an NDRange) on the thread pool: splits it into
// work-groups, gives each its context and local memory, and picks the
// execution path the compiler chose for the kernel.
#pragma once
#include "device/launch_abi.h"
#include "device/memory_checker.h"
#include "device/printf_abi.h"
#include "device/settings.h"
#include <atomic>

#include <cstdint>
#include <string>

namespace weft {

class ThreadPool;

struct NDRangeLaunch {
  const char *kernel_name = "";
  WorkGroupFunction group_entry = nullptr;
  // Runs one work-item on a fiber: for kernels with barriers, and for the
  // async copy checking mode.
  WorkItemFunction work_item_entry = nullptr;
  bool reaches_barrier = false;
  // The group entry runs the barriers itself (regions; no fibers needed).
  bool split_at_barriers = false;
  const void *arguments = nullptr;
  uint32_t work_dim = 1;
  uint64_t global_offset[3] = {0, 0, 0};
  uint64_t global_size[3] = {1, 1, 1};
  uint64_t local_size[3] = {1, 1, 1};
  // The groups are larger than the application asked for (its kernel cannot
  // tell them apart): a fault names the work-items, not a group.
  bool groups_merged = false;
  // Built with -cl-denorms-are-zero: the threads run its groups with
  // denormal inputs and results taken as zero (MXCSR's DAZ and FTZ), and
  // put their own mode back after.
  bool flush_denormals = false;
  uint64_t local_memory_size = 0;
  // The kernel's sub-group size (builtins/subgroups.cl).
  uint32_t sub_group_size = 1;
  // Where the kernel's printf calls write (device/printf_abi.h); null for a
  // kernel that does not call printf.
  PrintfBuffer *printf_buffer = nullptr;
  // The memory checking mode's objects (device/memory_checker.h), for a
  // kernel compiled with the checks; null otherwise.
  const MemoryCheckObjects *memory_objects = nullptr;
  // Stack bytes a work-item fiber needs (fiber path), and the work-item
  // loop (loop path); the compiler measured both frames.
  uint64_t work_item_stack = 0;
  uint64_t group_stack = 0;
  LaunchSettings settings;
  // The kernel library's code (device/kernel_faults.h): where the watchdog
  // may interrupt a work-group.
  uintptr_t code_begin = 0, code_end = 0;
  // The kernel's work-group time at its last launch, which sizes the help
  // the next one asks for (ThreadPool::parallelFor); null: no history.
  std::atomic<uint64_t> *group_nanoseconds = nullptr;
};

// Frames above this run on a pooled fiber stack instead of the stack of the
// thread that picks the group (which may be the application's own).
constexpr uint64_t kLargestFrameOnThreadStack = 64 * 1024;

enum class LaunchStatus {
  Success,
  OutOfResources,
  StackOverflow,   // a work-item ran off its stack (groups were abandoned)
  AsyncCopyMisuse, // the checking mode found a violation, or an async copy
                   // reached outside its group's local memory
  KernelFault,     // the kernel raised SIGSEGV, SIGBUS, SIGFPE or SIGILL
  MemoryViolation, // the memory checking mode stopped an access
  TimedOut,        // the watchdog (WEFT_KERNEL_TIMEOUT) ended it
};

struct LaunchResult {
  LaunchStatus status = LaunchStatus::Success;
  std::string message; // what went wrong, for the application's eyes
};

LaunchResult runNDRange(ThreadPool &pool, const NDRangeLaunch &launch);

// Whether the calling thread may take part in a launch. Launches keep
// per-thread state (local memory, stacks, fibers) in thread_local objects;
// once the thread has begun to exit (exit() runs the main thread's
// thread_local destructors before the application's static destructors,
// which may still call OpenCL), that state is gone and the thread must
// leave the work to the pool's own threads.
bool threadCanRunLaunches();
// Called by a thread before it runs a launch (see above).
void noteThreadRunsLaunches();

} // namespace weft
