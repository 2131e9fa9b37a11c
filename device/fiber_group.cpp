#include "device/fiber_group.h"

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <vector>

namespace weft {
namespace {

namespace ctx = boost::context;

// The smallest stack: room for a small kernel frame plus the libm calls it
// makes.
constexpr uint64_t kMinimumStackSize = 64 * 1024;

// Stacks are mapped once per thread and size class, each with a guard page
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
      size_t guard = static_cast<size_t>(sysconf(_SC_PAGESIZE));
      void *base = mmap(nullptr, size + guard, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED)
        return false;
      mprotect(base, guard, PROT_NONE);
      mappings_.emplace_back(base, size + guard);
      free.push_back(static_cast<char *>(base) + guard + size);
    }
    out.sp = free.back();
    out.size = size;
    free.pop_back();
    return true;
  }
  void deallocate(ctx::stack_context &stack) {
    free_[stack.size].push_back(stack.sp);
  }

private:
  std::vector<std::pair<void *, size_t>> mappings_;
  std::map<size_t, std::vector<void *>> free_; // size → tops of unused stacks
};

thread_local StackPool stack_pool;

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

uint64_t fiberStackSizeFor(uint64_t bytes_needed) {
  uint64_t size = kMinimumStackSize;
  while (size < bytes_needed)
    size *= 2;
  return size;
}

bool runWorkGroupOnLargeStack(WorkGroupFunction entry, const void *arguments,
                              WorkGroupContext &context, uint64_t stack_size) {
  try {
    ctx::fiber fiber(std::allocator_arg,
                     PooledStackAllocator{static_cast<size_t>(stack_size)},
                     [entry, arguments, &context](ctx::fiber &&caller) {
                       entry(arguments, &context);
                       return std::move(caller);
                     });
    std::move(fiber).resume();
  } catch (const std::bad_alloc &) {
    return false;
  }
  return true;
}

bool runWorkGroupOnFibers(WorkItemFunction entry, const void *arguments,
                          WorkGroupContext &context, uint64_t stack_size) {
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
