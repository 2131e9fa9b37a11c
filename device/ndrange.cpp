#include "device/ndrange.h"

#include "device/kernel_faults.h"

#include "device/async_copy_checker.h"
#include "device/fiber_group.h"
#include "device/thread_pool.h"

#include <pthread.h>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

namespace weft {
namespace {

// Each thread keeps one local memory block and reuses it for every group it
// runs; it only grows.
struct LocalMemory {
  char *data = nullptr;
  uint64_t size = 0;
  ~LocalMemory() { std::free(data); }
  char *get(uint64_t needed) {
    if (needed > size) {
      std::free(data);
      size = (needed + 127) & ~uint64_t(127);
      data = static_cast<char *>(std::aligned_alloc(128, size));
      if (!data)
        size = 0;
    }
    return data;
  }
};
thread_local LocalMemory local_memory;
// The per-work-item values of kernels split at their barriers; same reuse.
thread_local LocalMemory work_item_values;
// The slots of the work-group collective functions; same reuse.
thread_local LocalMemory collective_slots;

uint64_t *collectiveSlots(const NDRangeLaunch &launch) {
  uint64_t items =
      launch.local_size[0] * launch.local_size[1] * launch.local_size[2];
  return reinterpret_cast<uint64_t *>(
      collective_slots.get(WEFT_COLLECTIVE_SLOTS_BYTES(items)));
}

void *workItemStorage(WorkGroupContext *, uint64_t bytes) {
  return work_item_values.get(bytes);
}

// The bounds of the calling thread's own stack, found once per thread.
struct ThreadStack {
  uintptr_t low = 0, high = 0;
  ThreadStack() {
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0)
      return;
    void *base = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attributes, &base, &size) == 0) {
      low = reinterpret_cast<uintptr_t>(base);
      high = low + size;
    }
    pthread_attr_destroy(&attributes);
  }
};

// The stacks and local memory blocks of every thread that has run
// work-groups. A work-item's pointer to its private or local memory may
// reach a work-item of another group through memory they share (the CTS's
// generic address space tests do this), and it still points to private or
// local memory there. Each thread takes a slot before its first group and
// updates its local range when its block moves; the pool's threads live as
// long as the process's devices.
class RunnerMemory {
public:
  // This thread's slot, or kSlots when all are taken (its own stack and
  // block are still known to it).
  uint32_t slot() {
    thread_local uint32_t mine = take();
    return mine;
  }
  void setLocal(const char *data, uint64_t size) {
    uint32_t i = slot();
    if (i == kSlots)
      return;
    auto low = reinterpret_cast<uintptr_t>(data);
    if (slots_[i].local_low.load(std::memory_order_relaxed) == low)
      return;
    slots_[i].local_high.store(0, std::memory_order_release);
    slots_[i].local_low.store(low, std::memory_order_release);
    slots_[i].local_high.store(low + size, std::memory_order_release);
  }
  // AddressKind of `address` if it lies in a registered range, else global.
  uint32_t kindOf(uintptr_t address) const {
    uint32_t used = std::min(used_.load(std::memory_order_acquire), kSlots);
    for (uint32_t i = 0; i < used; ++i) {
      const Slot &s = slots_[i];
      if (address < s.stack_high.load(std::memory_order_acquire) &&
          address >= s.stack_low.load(std::memory_order_acquire))
        return kPrivateAddress;
      if (address < s.local_high.load(std::memory_order_acquire) &&
          address >= s.local_low.load(std::memory_order_acquire))
        return kLocalAddress;
    }
    return kGlobalAddress;
  }

private:
  static constexpr uint32_t kSlots = 1024;
  struct Slot {
    std::atomic<uintptr_t> stack_low{0}, stack_high{0};
    std::atomic<uintptr_t> local_low{0}, local_high{0};
  };
  uint32_t take() {
    uint32_t i = used_.fetch_add(1);
    if (i >= kSlots)
      return kSlots;
    ThreadStack stack;
    slots_[i].stack_low.store(stack.low, std::memory_order_release);
    slots_[i].stack_high.store(stack.high, std::memory_order_release);
    return i;
  }
  std::atomic<uint32_t> used_{0};
  Slot slots_[kSlots];
};
RunnerMemory runner_memory;

// Private memory is whatever stack a work-item runs on (a thread's, or a
// pooled fiber stack) and this thread's values kept across barriers; local
// memory is a group's block (this group's, or another running group's);
// everything else is global (or constant) memory.
uint32_t addressKind(WorkGroupContext *context, const void *address) {
  auto a = reinterpret_cast<uintptr_t>(address);
  auto local = reinterpret_cast<uintptr_t>(context->local_memory);
  if (a >= local && a < local + context->local_memory_size)
    return kLocalAddress;
  thread_local ThreadStack stack;
  auto values = reinterpret_cast<uintptr_t>(work_item_values.data);
  if ((a >= stack.low && a < stack.high) ||
      (a >= values && a < values + work_item_values.size) ||
      onPooledStack(address))
    return kPrivateAddress;
  return runner_memory.kindOf(a);
}

void noBarrier(WorkGroupContext *) {}

// A sub-group exchange outside fibers: the group has one work-item, its
// sub-group that one.
uint64_t soloSubGroupSync(WorkGroupContext *context, uint32_t, uint64_t value) {
  context->solo_sub_group_value = value;
  return 1;
}
uint64_t soloSubGroupRead(WorkGroupContext *context, uint32_t) {
  return context->solo_sub_group_value;
}
uint32_t aloneInGroup(WorkGroupContext *) { return 1; }
void noYield(WorkGroupContext *) {}

// The async copies' per-work-item counters (AsyncCopyState) for the groups
// this thread runs: one array, grown as needed and never cleared between
// groups, because each group counts under a generation of its own.
struct AsyncCopyCounters {
  std::vector<uint64_t> entries;
  uint32_t generation = 0;
  // The generation for the next group; entries are cleared once when the
  // 32-bit generation wraps, so an old entry can never pass for a new one.
  uint32_t next() {
    if (++generation == 0) {
      std::fill(entries.begin(), entries.end(), 0);
      generation = 1;
    }
    return generation;
  }
};
thread_local AsyncCopyCounters async_copy_counters;

// Asked by the group's first copy only, which is when the group gets its
// generation: groups without copies pay nothing.
uint64_t *asyncCopyCounters(WorkGroupContext *context) {
  context->async_copies.generation = async_copy_counters.next();
  uint64_t items =
      context->local_size[0] * context->local_size[1] * context->local_size[2];
  std::vector<uint64_t> &entries = async_copy_counters.entries;
  if (entries.size() < items) {
    try {
      entries.resize(items, 0);
    } catch (...) {
      return nullptr;
    }
  }
  return entries.data();
}

struct LaunchState {
  const NDRangeLaunch *launch;
  uint64_t groups[3];
  std::atomic<bool> failed{false};
  std::atomic<bool> overflowed{false};
  std::mutex violation_mutex;
  std::string violation; // guarded by violation_mutex; the first one found
  // The first group whose async copy reached outside its local memory, by
  // violation_mutex.
  std::string copy_outside_local;
  // The memory checking mode stopped an access: the first report, by
  // violation_mutex; the launch's other groups are not run.
  std::atomic<bool> memory_violated{false};
  std::string memory_violation;
  // A kernel fault or the watchdog ended the launch (device/kernel_faults.h);
  // the first fault's description, by violation_mutex.
  std::atomic<bool> faulted{false};
  std::atomic<bool> timed_out{false};
  std::string fault;
  // The threads running groups now, for the watchdog to signal.
  std::mutex threads_mutex;
  std::vector<pthread_t> threads; // guarded by threads_mutex
};

// Signals every thread running a group of the launch (the watchdog's
// callback; the threads' traps decide whether they can leave at once).
void onLaunchTimeout(void *opaque) {
  auto &state = *static_cast<LaunchState *>(opaque);
  state.timed_out = true;
  std::lock_guard<std::mutex> lock(state.threads_mutex);
  for (pthread_t thread : state.threads)
    pthread_kill(thread, watchdogSignal());
}

// While a thread runs groups of a launch: its fault trap is armed and the
// watchdog knows it.
// (Without a watchdog nobody needs the list: no lock per chunk then.)
class GroupRunnerScope {
public:
  explicit GroupRunnerScope(LaunchState &state)
      : state_(state),
        watched_(state.launch->settings.kernel_timeout_seconds > 0) {
    if (!watched_)
      return;
    std::lock_guard<std::mutex> lock(state_.threads_mutex);
    state_.threads.push_back(pthread_self());
  }
  ~GroupRunnerScope() {
    disarmFaultTrap();
    if (!watched_)
      return;
    std::lock_guard<std::mutex> lock(state_.threads_mutex);
    state_.threads.erase(std::find(state_.threads.begin(), state_.threads.end(),
                                   pthread_self()));
  }

private:
  LaunchState &state_;
  const bool watched_;
};

const char *signalName(int signal) {
  switch (signal) {
  case SIGSEGV:
    return "SIGSEGV (an invalid memory access)";
  case SIGBUS:
    return "SIGBUS (an invalid memory access)";
  case SIGFPE:
    return "SIGFPE (an arithmetic exception)";
  case SIGILL:
    return "SIGILL (an illegal instruction)";
  default:
    return "a signal";
  }
}

// Runs one group on whichever path the kernel takes.
FiberRunStatus runGroup(const NDRangeLaunch &launch, WorkGroupContext &context,
                        uint64_t items) {
  if (!launch.reaches_barrier && context.async_copy_check &&
      launch.work_item_entry) {
    // Checking mode, kernel without barriers: every work-item makes its own
    // async copy calls (the group entry lets only the first one make them),
    // one after the other on this thread.
    for (uint64_t z = 0; z < context.local_size[2]; ++z)
      for (uint64_t y = 0; y < context.local_size[1]; ++y)
        for (uint64_t x = 0; x < context.local_size[0]; ++x)
          launch.work_item_entry(launch.arguments, &context, x, y, z);
    return FiberRunStatus::Completed;
  }
  // The checking mode must see every work-item's copies: split kernels let
  // work-item (0,0,0) make them for the group, so they run on fibers then.
  // WEFT_BARRIERS=fibers runs split kernels on fibers too (to compare the
  // two paths).
  if (launch.reaches_barrier && launch.work_item_entry && items > 1 &&
      (!launch.split_at_barriers ||
       launch.settings.barriers == BarrierPath::Fibers ||
       context.async_copy_check)) {
    FiberRunStatus status =
        runWorkGroupOnFibers(launch.work_item_entry, launch.arguments, context,
                             fiberStackSizeFor(launch.work_item_stack));
    context.barrier = noBarrier;
    context.sub_group_sync = soloSubGroupSync;
    context.sub_group_read = soloSubGroupRead;
    context.last_to_arrive = aloneInGroup;
    context.yield = noYield;
    return status;
  }
  // A group entry that could not get its per-work-item storage says so in
  // the context.
  context.status = kWorkGroupCompleted;
  FiberRunStatus status = FiberRunStatus::Completed;
  if (launch.group_stack > kLargestFrameOnThreadStack)
    status =
        runWorkGroupOnLargeStack(launch.group_entry, launch.arguments, context,
                                 fiberStackSizeFor(launch.group_stack));
  else
    launch.group_entry(launch.arguments, &context);
  if (status == FiberRunStatus::Completed &&
      context.status == kWorkGroupOutOfMemory)
    status = FiberRunStatus::OutOfMemory;
  return status;
}

// The next work-group's coordinates, x fastest (the order of the indices).
void stepGroup(uint64_t g[3], const LaunchState &state) {
  if (++g[0] < state.groups[0])
    return;
  g[0] = 0;
  if (++g[1] < state.groups[1])
    return;
  g[1] = 0;
  ++g[2];
}

// Denormals as zero (MXCSR's DAZ and FTZ bits) while a thread runs the
// groups of a launch built with -cl-denorms-are-zero; the thread's own mode
// (the application's, when it helps run groups) is put back after, also
// after a fault, which jumps back into runGroups.
class DenormalsAsZero {
public:
  explicit DenormalsAsZero(bool on) : on_(on) {
#if defined(__x86_64__)
    if (on_) {
      saved_ = _mm_getcsr();
      _mm_setcsr(saved_ | kDenormalsAreZero | kFlushToZero);
    }
#endif
  }
  ~DenormalsAsZero() {
#if defined(__x86_64__)
    if (on_)
      _mm_setcsr(saved_);
#endif
  }
  DenormalsAsZero(const DenormalsAsZero &) = delete;
  DenormalsAsZero &operator=(const DenormalsAsZero &) = delete;

private:
  static constexpr unsigned kDenormalsAreZero = 0x0040, kFlushToZero = 0x8000;
  bool on_;
  unsigned saved_ = 0;
};

void runGroups(void *opaque, uint64_t first, uint64_t last) {
  runner_memory.slot();
  auto &state = *static_cast<LaunchState *>(opaque);
  const NDRangeLaunch &launch = *state.launch;
  DenormalsAsZero denormals(launch.flush_denormals);
  WorkGroupContext context{};
  for (unsigned d = 0; d < 3; ++d) {
    context.global_offset[d] = launch.global_offset[d];
    context.global_size[d] = launch.global_size[d];
    context.enqueued_local_size[d] = launch.local_size[d];
    context.num_groups[d] = state.groups[d];
  }
  // The spare slot answers out-of-range dimensions.
  context.global_offset[3] = 0;
  context.global_size[3] = 1;
  context.local_size[3] = 1;
  context.enqueued_local_size[3] = 1;
  context.num_groups[3] = 1;
  context.group_id[3] = 0;
  context.work_dim = launch.work_dim;
  context.barrier = noBarrier;
  context.sub_group_sync = soloSubGroupSync;
  context.sub_group_read = soloSubGroupRead;
  context.last_to_arrive = aloneInGroup;
  context.yield = noYield;
  context.sub_group_size = launch.sub_group_size;
  context.async_copy_counters = asyncCopyCounters;
  context.work_item_storage = workItemStorage;
  context.address_kind = addressKind;
  context.local_memory_size = launch.local_memory_size;
  thread_local MemoryViolation memory_violation;
  if (launch.memory_objects) {
    context.memory_ranges = launch.memory_objects->arguments.data();
    context.memory_violation = &memory_violation;
    context.memory_check_address = checkMemoryAddress;
    setCurrentMemoryObjects(launch.memory_objects);
  }
  thread_local AsyncCopyGroupCheck check;
  if (launch.settings.check_async_copies) {
    context.async_copy_check = recordAsyncCopyCall;
    setCurrentAsyncCopyCheck(&check);
  }
  context.local_memory = local_memory.get(launch.local_memory_size + 1);
  context.collective_slots = collectiveSlots(launch);
  context.printf_buffer = launch.printf_buffer;
  if (!context.local_memory || !context.collective_slots) {
    state.failed = true;
    return;
  }
  runner_memory.setLocal(local_memory.data, local_memory.size);

  // A fault in the kernel jumps back here (device/kernel_faults.h).
  FaultTrap trap;
  trap.code_begin = launch.code_begin;
  trap.code_end = launch.code_end;
  volatile uint64_t group_index = first;
  if (!ensureSignalStack()) {
    state.failed = true;
    return;
  }
  GroupRunnerScope scope(state);
  if (sigsetjmp(trap.jump, 0) != 0) {
    disarmFaultTrap();
    abandonFiberRecovery();
    uint64_t index = group_index;
    uint64_t g[3] = {index % state.groups[0],
                     (index / state.groups[0]) % state.groups[1],
                     index / (state.groups[0] * state.groups[1])};
    std::string group = "work-group (" + std::to_string(g[0]) + "," +
                        std::to_string(g[1]) + "," + std::to_string(g[2]) + ")";
    if (launch.groups_merged) {
      group = "the work-items of global ids (";
      for (unsigned d = 0; d < launch.work_dim; ++d) {
        uint64_t first_id = g[d] * launch.local_size[d];
        uint64_t last_id =
            std::min(first_id + launch.local_size[d], launch.global_size[d]);
        group += (d ? ", " : "") +
                 std::to_string(launch.global_offset[d] + first_id) + "-" +
                 std::to_string(launch.global_offset[d] + last_id - 1);
      }
      group += ")";
    }
    char address[32];
    std::snprintf(address, sizeof address, "%p", trap.address);
    std::lock_guard<std::mutex> lock(state.violation_mutex);
    if (state.fault.empty())
      state.fault = trap.signal ? std::string(signalName(trap.signal)) +
                                      " at address " + address + " in " + group
                                : "its time limit ran out in " + group;
    (trap.signal ? state.faulted : state.timed_out) = true;
    return;
  }
  armFaultTrap(trap);

  // The group's coordinates step along with its index: three 64-bit
  // divisions per group cost a short group (256 work-items of saxpy) more
  // than its own work.
  uint64_t g[3] = {first % state.groups[0],
                   (first / state.groups[0]) % state.groups[1],
                   first / (state.groups[0] * state.groups[1])};
  for (uint64_t index = first; index < last; ++index, stepGroup(g, state)) {
    if (state.failed || state.overflowed || state.faulted || state.timed_out ||
        state.memory_violated)
      return; // the launch has already failed
    group_index = index;
    uint64_t items = 1;
    for (unsigned d = 0; d < 3; ++d) {
      context.group_id[d] = g[d];
      // The last group of a dimension may be smaller (non-uniform groups).
      uint64_t start = g[d] * launch.local_size[d];
      context.local_size[d] =
          std::min(launch.local_size[d], launch.global_size[d] - start);
      items *= context.local_size[d];
    }
    context.async_copies = AsyncCopyState{0, nullptr, 0};
    // A reservation sets its own id and arrival count: only the count of
    // reservations starts over (clearing the whole state cost every group
    // ~200 bytes of stores, visible on short groups).
    context.pipe_group.reserved = 0;
    context.pipe_group.deferred = 0;
    if (context.async_copy_check)
      check.begin(context);
    if (launch.memory_objects)
      memory_violation.found = 0;
    context.status = kWorkGroupCompleted;
    trap.in_kernel = 1;
    FiberRunStatus status = runGroup(launch, context, items);
    trap.in_kernel = 0;
    if (status != FiberRunStatus::Completed) {
      (status == FiberRunStatus::StackOverflow ? state.overflowed
                                               : state.failed) = true;
      return;
    }
    if (launch.memory_objects && memory_violation.found) {
      std::string report =
          describeMemoryViolation(memory_violation, context,
                                  *launch.memory_objects, launch.kernel_name);
      std::lock_guard<std::mutex> lock(state.violation_mutex);
      if (state.memory_violation.empty())
        state.memory_violation = std::move(report);
      state.memory_violated = true;
      return;
    }
    if (context.status == kWorkGroupAsyncCopyOutsideLocal) {
      std::lock_guard<std::mutex> lock(state.violation_mutex);
      if (state.copy_outside_local.empty())
        state.copy_outside_local = "work-group (" +
                                   std::to_string(context.group_id[0]) + "," +
                                   std::to_string(context.group_id[1]) + "," +
                                   std::to_string(context.group_id[2]) + ")";
      return;
    }
    if (context.async_copy_check) {
      std::string violation = check.finish();
      if (!violation.empty()) {
        std::lock_guard<std::mutex> lock(state.violation_mutex);
        if (state.violation.empty())
          state.violation = std::move(violation);
      }
    }
  }
}

// Trivially destructible, so it outlives the thread's other thread_local
// objects; set by the sentinel's destructor, which runs after theirs (it is
// made before any of them, in noteThreadRunsLaunches).
thread_local bool thread_state_gone = false;
struct ThreadStateSentinel {
  ~ThreadStateSentinel() { thread_state_gone = true; }
};
thread_local ThreadStateSentinel thread_state_sentinel;

} // namespace

bool threadCanRunLaunches() { return !thread_state_gone; }

void noteThreadRunsLaunches() {
  // Odr-use makes the sentinel on this thread (once).
  static_cast<void>(&thread_state_sentinel);
}

LaunchResult runNDRange(ThreadPool &pool, const NDRangeLaunch &launch) {
  noteThreadRunsLaunches();
  LaunchState state;
  state.launch = &launch;
  uint64_t total = 1;
  for (unsigned d = 0; d < 3; ++d) {
    state.groups[d] = (launch.global_size[d] + launch.local_size[d] - 1) /
                      launch.local_size[d];
    total *= state.groups[d];
  }
  LaunchResult result;
  if (total == 0)
    return result;
  installFaultHandlersOnce();
  uint64_t watch = 0;
  if (launch.settings.kernel_timeout_seconds > 0) {
    watchdogSignal(); // installs its handler before anyone is signalled
    watch = watchLaunch(launch.settings.kernel_timeout_seconds, onLaunchTimeout,
                        &state);
  }
  pool.parallelFor(total, runGroups, &state, launch.group_nanoseconds);
  if (watch)
    endWatch(watch);
  if (state.faulted || state.timed_out) {
    result.status =
        state.faulted ? LaunchStatus::KernelFault : LaunchStatus::TimedOut;
    result.message = "kernel '" + std::string(launch.kernel_name) + "' " +
                     (state.faulted ? "raised " : "was stopped: ") +
                     state.fault + "; the launch was abandoned";
  } else if (state.overflowed) {
    result.status = LaunchStatus::StackOverflow;
    result.message = "a work-item of kernel '" +
                     std::string(launch.kernel_name) +
                     "' overflowed its stack; the launch was abandoned";
  } else if (state.failed) {
    result.status = LaunchStatus::OutOfResources;
  } else if (state.memory_violated) {
    result.status = LaunchStatus::MemoryViolation;
    result.message = state.memory_violation + "; the launch was abandoned";
  } else if (!state.copy_outside_local.empty()) {
    result.status = LaunchStatus::AsyncCopyMisuse;
    result.message =
        "kernel '" + std::string(launch.kernel_name) + "', " +
        state.copy_outside_local +
        ": an async copy reaches outside the group's " +
        std::to_string(launch.local_memory_size) +
        " bytes of local memory; it was not made and the launch failed";
  } else if (!state.violation.empty()) {
    result.status = LaunchStatus::AsyncCopyMisuse;
    result.message = "async copy check failed in kernel '" +
                     std::string(launch.kernel_name) + "', " + state.violation;
  }
  return result;
}

} // namespace weft
