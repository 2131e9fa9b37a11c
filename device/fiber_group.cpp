#include "device/fiber_group.h"

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <memory>
#include <vector>

namespace weft {
namespace {

namespace ctx = boost::context;

constexpr size_t kFiberStackSize = 256 * 1024;

// Stacks are mapped once per thread, each with a guard page below it, and
// reused by every later launch: no system call per launch or per barrier.
class StackPool {
public:
  ~StackPool() {
    for (void *base : mappings_)
      munmap(base, kFiberStackSize + pageSize());
  }
  bool allocate(ctx::stack_context &out) {
    if (free_.empty()) {
      size_t guard = pageSize();
      void *base = mmap(nullptr, kFiberStackSize + guard, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED)
        return false;
      mprotect(base, guard, PROT_NONE);
      mappings_.push_back(base);
      free_.push_back(static_cast<char *>(base) + guard + kFiberStackSize);
    }
    out.sp = free_.back();
    out.size = kFiberStackSize;
    free_.pop_back();
    return true;
  }
  void deallocate(ctx::stack_context &stack) { free_.push_back(stack.sp); }

private:
  static size_t pageSize() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }
  std::vector<void *> mappings_;
  std::vector<void *> free_; // tops of unused stacks
};

thread_local StackPool stack_pool;

struct PooledStackAllocator {
  ctx::stack_context allocate() {
    ctx::stack_context stack;
    if (!stack_pool.allocate(stack))
      throw std::bad_alloc();
    return stack;
  }
  void deallocate(ctx::stack_context &stack) noexcept {
    stack_pool.deallocate(stack);
  }
};

struct WorkItemFiber {
  ctx::fiber fiber;     // the work-item, while suspended
  ctx::fiber scheduler; // where the work-item returns at a barrier
  bool finished = false;
};

struct GroupState {
  std::vector<WorkItemFiber> items;
  size_t current = 0;
};

void arriveAtBarrier(WorkGroupContext *context) {
  auto *group = static_cast<GroupState *>(context->device_state);
  WorkItemFiber &item = group->items[group->current];
  item.scheduler = std::move(item.scheduler).resume();
}

} // namespace

bool runWorkGroupOnFibers(WorkItemFunction entry, const void *arguments,
                          WorkGroupContext &context) {
  uint64_t sx = context.local_size[0], sy = context.local_size[1],
           sz = context.local_size[2];
  GroupState group;
  group.items.resize(sx * sy * sz);
  context.device_state = &group;
  context.barrier = arriveAtBarrier;

  try {
    size_t index = 0;
    for (uint64_t z = 0; z < sz; ++z)
      for (uint64_t y = 0; y < sy; ++y)
        for (uint64_t x = 0; x < sx; ++x, ++index) {
          WorkItemFiber *item = &group.items[index];
          item->fiber = ctx::fiber(
              std::allocator_arg, PooledStackAllocator(),
              [entry, arguments, &context, item, x, y, z](ctx::fiber &&caller) {
                item->scheduler = std::move(caller);
                entry(arguments, &context, x, y, z);
                item->finished = true;
                return std::move(item->scheduler);
              });
        }
  } catch (const std::bad_alloc &) {
    return false;
  }

  // Each round runs every work-item up to its next barrier (or its end).
  bool any_running = true;
  while (any_running) {
    any_running = false;
    for (size_t i = 0; i < group.items.size(); ++i) {
      WorkItemFiber &item = group.items[i];
      if (item.finished)
        continue;
      group.current = i;
      item.fiber = std::move(item.fiber).resume();
      any_running |= !item.finished;
    }
  }
  return true;
}

} // namespace weft
