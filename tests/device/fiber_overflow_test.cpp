// A work-item that runs off its fiber stack fails its group with
// StackOverflow instead of crashing the process, and the thread that ran it
// keeps running groups afterwards.
#include "device/fiber_group.h"

#include <catch2/catch.hpp>

#include <atomic>

namespace {

__attribute__((noinline)) int deepRecursion(int depth) {
  volatile char pad[1024];
  pad[0] = static_cast<char>(depth);
  pad[sizeof pad - 1] = pad[0];
  int below = depth > 0 ? deepRecursion(depth - 1) : 0;
  return below + pad[sizeof pad - 1];
}

std::atomic<int> finished_items{0};

void overflowingItem(const void *, weft::WorkGroupContext *context, uint64_t x,
                     uint64_t, uint64_t) {
  context->barrier(context);
  if (x == 2)
    deepRecursion(1 << 22); // 4 GiB of frames
  finished_items++;
}

void wellBehavedItem(const void *, weft::WorkGroupContext *context, uint64_t,
                     uint64_t, uint64_t) {
  context->barrier(context);
  finished_items++;
}

void overflowingGroup(const void *, weft::WorkGroupContext *) {
  deepRecursion(1 << 22);
}

weft::WorkGroupContext groupOf(uint64_t items) {
  weft::WorkGroupContext context{};
  context.local_size[0] = items;
  context.local_size[1] = context.local_size[2] = context.local_size[3] = 1;
  return context;
}

} // namespace

TEST_CASE("a work-item overflowing its fiber stack fails only its launch",
          "[device]") {
  const uint64_t stack = weft::fiberStackSizeFor(1);
  for (int attempt = 0; attempt < 3; ++attempt) {
    weft::WorkGroupContext context = groupOf(4);
    CHECK(weft::runWorkGroupOnFibers(overflowingItem, nullptr, context, stack) ==
          weft::FiberRunStatus::StackOverflow);
    // The same thread still runs groups, with stacks from the same pool.
    finished_items = 0;
    context = groupOf(8);
    CHECK(weft::runWorkGroupOnFibers(wellBehavedItem, nullptr, context, stack) ==
          weft::FiberRunStatus::Completed);
    CHECK(finished_items == 8);
  }
}

TEST_CASE("a work-group loop overflowing its large stack is reported",
          "[device]") {
  weft::WorkGroupContext context = groupOf(1);
  CHECK(weft::runWorkGroupOnLargeStack(overflowingGroup, nullptr, context,
                                       weft::fiberStackSizeFor(1 << 17)) ==
        weft::FiberRunStatus::StackOverflow);
}
