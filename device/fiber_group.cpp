#include "device/fiber_group.h"

#include "device/kernel_faults.h"

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

namespace weft {
namespace {

namespace ctx = boost::context;

// The smallest stack: room for a small kernel frame plus the libm calls it
// makes.
constexpr uint64_t kMinimumStackSize = 64 * 1024;
// Below each stack, never mapped readable. Compiled kernels probe frames
// larger than a page ("probe-stack"), so an overflow lands here first.
constexpr size_t kGuardSize = 64 * 1024;

// Stacks are mapped once per thread and size class, each with a guard
// below it, and reused by every later launch: no system call per launch or
// per barrier. Mapped with MAP_NORESERVE: only touched pages cost memory.
class StackPool {
public:
  ~StackPool() {
    for (auto &[base, size] : mappings_)
      munmap(base, size);
  }
  bool allocate(size_t size, ctx::stack_context &out) {
    std::vector<void *> &free = free_[size];
    if (free.empty()) {
      void *base = mmap(nullptr, size + kGuardSize, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED)
        return false;
      mprotect(base, kGuardSize, PROT_NONE);
      mappings_.emplace_back(base, size + kGuardSize);
      free.push_back(static_cast<char *>(base) + kGuardSize + size);
    }
    out.sp = free.back();
    out.size = size;
    free.pop_back();
    return true;
  }
  void deallocate(ctx::stack_context &stack) {
    free_[stack.size].push_back(stack.sp);
  }
  // Whether `address` is on one of this thread's stacks (not a guard).
  bool holds(const void *address) const {
    auto a = reinterpret_cast<uintptr_t>(address);
    for (const auto &[base, size] : mappings_) {
      auto b = reinterpret_cast<uintptr_t>(base);
      if (a >= b + kGuardSize && a < b + size)
        return true;
    }
    return false;
  }
  // Called from the fault handler: reads only, allocates nothing.
  bool isGuard(const void *address) const {
    auto a = reinterpret_cast<uintptr_t>(address);
    for (const auto &[base, size] : mappings_) {
      auto b = reinterpret_cast<uintptr_t>(base);
      if (a >= b && a < b + kGuardSize)
        return true;
    }
    return false;
  }

private:
  std::vector<std::pair<void *, size_t>> mappings_;
  std::map<size_t, std::vector<void *>> free_; // size → tops of unused stacks
};

thread_local StackPool stack_pool;

// Stack overflow recovery. A work-item that runs off its stack faults in the
// guard below it; Weft's SIGSEGV handler (device/kernel_faults.h), on this
// thread's alternate signal stack, asks recoverFromOverflow first, which
// jumps back to the group runner; the runner abandons the group's fibers
// (never resuming or unwinding them) and reports the overflow. Any other
// fault goes on through that one handler.
struct OverflowRecovery {
  sigjmp_buf jump;
};
thread_local OverflowRecovery *active_recovery = nullptr;

void recoverFromOverflow(int, siginfo_t *info) {
  if (active_recovery && stack_pool.isGuard(info->si_addr))
    siglongjmp(active_recovery->jump, 1);
}

// The handler needs a stack of its own (the faulting one is exhausted): one
// per thread that runs fibers, kept for the thread's life.
bool prepareOverflowRecovery() {
  static std::once_flag hooked;
  std::call_once(hooked, [] { setSegvHook(recoverFromOverflow); });
  installFaultHandlersOnce();
  return ensureSignalStack();
}

// Holds a T on the stack whose destructor can be skipped: an overflowed
// group's fibers must never be resumed or unwound.
template <typename T> class Abandonable {
public:
  Abandonable() { new (storage_) T(); }
  ~Abandonable() {
    if (!abandoned_)
      get().~T();
  }
  T &get() { return *std::launder(reinterpret_cast<T *>(storage_)); }
  void abandon() { abandoned_ = true; } // what T owns is lost with it

private:
  alignas(T) unsigned char storage_[sizeof(T)];
  bool abandoned_ = false;
};

// Arms recovery for this thread while fibers run. The jump buffer does not
// save the signal mask (that would be a system call per group): the handler
// runs with SA_NODEFER, so leaving it by a jump leaves the mask as it was.
class OverflowGuard {
public:
  OverflowGuard() : previous_(active_recovery) { active_recovery = &recovery_; }
  ~OverflowGuard() { active_recovery = previous_; }
  sigjmp_buf &jump() { return recovery_.jump; }

private:
  OverflowRecovery recovery_;
  OverflowRecovery *previous_;
};

struct PooledStackAllocator {
  size_t size;
  ctx::stack_context allocate() {
    ctx::stack_context stack;
    if (!stack_pool.allocate(size, stack))
      throw std::bad_alloc();
    return stack;
  }
  void deallocate(ctx::stack_context &stack) noexcept {
    stack_pool.deallocate(stack);
  }
};

enum class Waiting : uint8_t { No, AtBarrier, AtExchange };

struct WorkItemFiber {
  ctx::fiber fiber;     // the work-item, while suspended
  ctx::fiber scheduler; // where the work-item returns at a barrier
  bool finished = false;
  Waiting waiting = Waiting::No;
  // At a sub-group exchange: its site and the value left there; then the
  // mask of the work-items that went on from it together.
  uint32_t site = 0;
  uint64_t value = 0;
  uint64_t members = 0;
};

struct GroupState {
  std::vector<WorkItemFiber> items;
  // Per work-item (local linear id): its value at its sub-group's last
  // exchange, which the sub-group reads until its next.
  std::vector<uint64_t> exchanged;
  size_t current = 0;
  uint64_t row = 1;   // work-items along dimension 0
  uint64_t width = 1; // the sub-group size
  size_t at_barrier = 0, at_exchange = 0, finished = 0;
};

void suspend(GroupState &group) {
  WorkItemFiber &item = group.items[group.current];
  item.scheduler = std::move(item.scheduler).resume();
}

void arriveAtBarrier(WorkGroupContext *context) {
  auto *group = static_cast<GroupState *>(context->device_state);
  group->items[group->current].waiting = Waiting::AtBarrier;
  ++group->at_barrier;
  suspend(*group);
}

uint64_t arriveAtExchange(WorkGroupContext *context, uint32_t site,
                          uint64_t value) {
  auto *group = static_cast<GroupState *>(context->device_state);
  WorkItemFiber &item = group->items[group->current];
  item.waiting = Waiting::AtExchange;
  item.site = site;
  item.value = value;
  ++group->at_exchange;
  suspend(*group);
  return item.members;
}

// The first work-item (local linear id) of `index`'s sub-group, and how
// many it has.
size_t subGroupOf(const GroupState &group, size_t index, size_t &count) {
  uint64_t x = index % group.row;
  uint64_t start = x - x % group.width;
  count = std::min(group.width, group.row - start);
  return index - (x - start);
}

uint64_t readExchanged(WorkGroupContext *context, uint32_t member) {
  auto *group = static_cast<GroupState *>(context->device_state);
  size_t count;
  size_t first = subGroupOf(*group, group->current, count);
  return member < count ? group->exchanged[first + member] : 0;
}

// A work-item waiting for another goes round its loop again only after the
// others ran up to where they wait.
void yieldToOthers(WorkGroupContext *context) {
  suspend(*static_cast<GroupState *>(context->device_state));
}

uint32_t lastToArrive(WorkGroupContext *context) {
  auto *group = static_cast<GroupState *>(context->device_state);
  return group->at_barrier + group->finished + 1 == group->items.size();
}

// In each sub-group whose work-items all wait (or have finished), with some
// at an exchange: those at its lowest site go on together. Returns whether
// any did.
bool releaseExchanges(GroupState &group) {
  bool released = false;
  for (size_t first = 0; first < group.items.size();) {
    size_t count;
    subGroupOf(group, first, count);
    uint32_t lowest = UINT32_MAX;
    bool running = false;
    for (size_t i = first; i < first + count; ++i) {
      const WorkItemFiber &item = group.items[i];
      running |= !item.finished && item.waiting == Waiting::No;
      if (item.waiting == Waiting::AtExchange)
        lowest = std::min(lowest, item.site);
    }
    if (running) // one that yielded may still come to the same exchange
      lowest = UINT32_MAX;
    if (lowest != UINT32_MAX) {
      uint64_t members = 0;
      for (size_t i = first; i < first + count; ++i) {
        WorkItemFiber &item = group.items[i];
        if (item.waiting == Waiting::AtExchange && item.site == lowest) {
          members |= uint64_t{1} << (i - first);
          group.exchanged[i] = item.value;
        }
      }
      for (size_t i = first; i < first + count; ++i)
        if (members >> (i - first) & 1) {
          group.items[i].waiting = Waiting::No;
          group.items[i].members = members;
          --group.at_exchange;
        }
      released = true;
    }
    first += count;
  }
  return released;
}

} // namespace

bool onPooledStack(const void *address) { return stack_pool.holds(address); }

uint64_t fiberStackSizeFor(uint64_t bytes_needed) {
  uint64_t size = kMinimumStackSize;
  while (size < bytes_needed)
    size *= 2;
  return size;
}

FiberRunStatus runWorkGroupOnLargeStack(WorkGroupFunction entry,
                                        const void *arguments,
                                        WorkGroupContext &context,
                                        uint64_t stack_size) {
  if (!prepareOverflowRecovery())
    return FiberRunStatus::OutOfMemory;
  Abandonable<ctx::fiber> held;
  ctx::fiber &fiber = held.get();
  try {
    fiber = ctx::fiber(std::allocator_arg,
                       PooledStackAllocator{static_cast<size_t>(stack_size)},
                       [entry, arguments, &context](ctx::fiber &&caller) {
                         entry(arguments, &context);
                         return std::move(caller);
                       });
  } catch (const std::bad_alloc &) {
    return FiberRunStatus::OutOfMemory;
  }
  OverflowGuard guard;
  if (sigsetjmp(guard.jump(), 0)) {
    held.abandon();
    return FiberRunStatus::StackOverflow;
  }
  fiber = std::move(fiber).resume();
  return FiberRunStatus::Completed;
}

FiberRunStatus runWorkGroupOnFibers(WorkItemFunction entry,
                                    const void *arguments,
                                    WorkGroupContext &context,
                                    uint64_t stack_size) {
  if (!prepareOverflowRecovery())
    return FiberRunStatus::OutOfMemory;
  uint64_t sx = context.local_size[0], sy = context.local_size[1],
           sz = context.local_size[2];
  Abandonable<GroupState> held;
  GroupState &group = held.get();
  group.items.resize(sx * sy * sz);
  group.exchanged.resize(sx * sy * sz);
  group.row = sx;
  group.width = std::max<uint64_t>(context.sub_group_size, 1);
  context.device_state = &group;
  context.barrier = arriveAtBarrier;
  context.sub_group_sync = arriveAtExchange;
  context.sub_group_read = readExchanged;
  context.last_to_arrive = lastToArrive;
  context.yield = yieldToOthers;

  try {
    size_t index = 0;
    for (uint64_t z = 0; z < sz; ++z)
      for (uint64_t y = 0; y < sy; ++y)
        for (uint64_t x = 0; x < sx; ++x, ++index) {
          WorkItemFiber *item = &group.items[index];
          item->fiber = ctx::fiber(
              std::allocator_arg,
              PooledStackAllocator{static_cast<size_t>(stack_size)},
              [entry, arguments, &context, item, x, y, z](ctx::fiber &&caller) {
                item->scheduler = std::move(caller);
                entry(arguments, &context, x, y, z);
                item->finished = true;
                return std::move(item->scheduler);
              });
        }
  } catch (const std::bad_alloc &) {
    return FiberRunStatus::OutOfMemory;
  }

  OverflowGuard guard;
  if (sigsetjmp(guard.jump(), 0)) {
    held.abandon();
    return FiberRunStatus::StackOverflow;
  }
  // Each pass runs every work-item that may go on up to where it waits next
  // (or its end), in local linear id order. Then the sub-groups' exchanges
  // are settled; when none is left, everybody waits at a barrier (or has
  // finished), and the barrier lets them all go on.
  // A work-item that yielded (it waits for another in a loop) is run again
  // in the next pass.
  for (;;) {
    bool yielded = false;
    for (size_t i = 0; i < group.items.size(); ++i) {
      WorkItemFiber &item = group.items[i];
      if (item.finished || item.waiting != Waiting::No)
        continue;
      group.current = i;
      item.fiber = std::move(item.fiber).resume();
      group.finished += item.finished;
      yielded |= !item.finished && item.waiting == Waiting::No;
    }
    // Kernels without sub-group exchanges never look through the group.
    if ((group.at_exchange && releaseExchanges(group)) || yielded)
      continue;
    if (group.at_barrier == 0)
      break;
    for (WorkItemFiber &item : group.items)
      if (item.waiting == Waiting::AtBarrier)
        item.waiting = Waiting::No;
    group.at_barrier = 0;
  }
  return FiberRunStatus::Completed;
}

void abandonFiberRecovery() { active_recovery = nullptr; }

} // namespace weft
