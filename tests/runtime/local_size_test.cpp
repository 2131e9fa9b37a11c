// The driver's local size when the application passes none.
#include "runtime/kernel.h"

#include <catch2/catch.hpp>

#include <array>
#include <vector>

using namespace weft;

namespace {

struct Choice {
  size_t local[3] = {1, 1, 1};
};

Choice choose(cl_uint dims, std::initializer_list<size_t> global,
              size_t limit = 256, std::array<uint64_t, 3> required = {}) {
  std::vector<size_t> sizes(global);
  Choice choice;
  chooseLocalSize(dims, sizes.data(), required.data(), limit, choice.local);
  return choice;
}

} // namespace

TEST_CASE("1-D local sizes divide the global size", "[runtime][local-size]") {
  CHECK(choose(1, {1024}).local[0] == 256);
  CHECK(choose(1, {1000}).local[0] == 250);
  CHECK(choose(1, {100}).local[0] == 100);
  CHECK(choose(1, {1}).local[0] == 1);
  // A prime above the limit: groups of one.
  CHECK(choose(1, {257}).local[0] == 1);
  CHECK(choose(1, {514}).local[0] == 2);
  // Zero work-items: any size, the launch runs nothing.
  CHECK(choose(1, {0}).local[0] == 1);
}

TEST_CASE("2-D and 3-D local sizes are widest in x", "[runtime][local-size]") {
  Choice c = choose(2, {64, 64});
  CHECK(c.local[0] == 64);
  CHECK(c.local[1] == 4);
  c = choose(2, {1024, 1024});
  CHECK(c.local[0] == 256);
  CHECK(c.local[1] == 1);
  c = choose(3, {6, 10, 14});
  CHECK(c.local[0] == 6);
  CHECK(c.local[1] == 10);
  // 256 / 6 / 10 = 4 left: the largest divisor of 14 up to 4.
  CHECK(c.local[2] == 2);
  c = choose(3, {8, 8, 8});
  CHECK(c.local[0] * c.local[1] * c.local[2] <= 256);
  CHECK(c.local[0] == 8);
  CHECK(c.local[1] == 8);
  CHECK(c.local[2] == 4);
}

TEST_CASE("local sizes respect the kernel's limit", "[runtime][local-size]") {
  // Kernels with barriers may allow fewer work-items per group.
  CHECK(choose(1, {1024}, 64).local[0] == 64);
  CHECK(choose(1, {1024}, 1).local[0] == 1);
  Choice c = choose(2, {30, 30}, 16);
  CHECK(c.local[0] == 15);
  CHECK(c.local[1] == 1);
}

TEST_CASE("reqd_work_group_size wins", "[runtime][local-size]") {
  Choice c = choose(2, {64, 64}, 256, {8, 2, 1});
  CHECK(c.local[0] == 8);
  CHECK(c.local[1] == 2);
}

TEST_CASE("groups without barriers grow with the launch",
          "[runtime][local-size]") {
  // 16Mi work-items: 4096 per group on 2 or 16 compute units.
  CHECK(barrierFreeGroupLimit(size_t{1} << 24, 2) == 4096);
  CHECK(barrierFreeGroupLimit(size_t{1} << 24, 16) == 4096);
  // 8 groups per compute unit at least: 64Ki on 16 units, groups of 512.
  CHECK(barrierFreeGroupLimit(65536, 16) == 512);
  // Never below the 256 of kernels with barriers.
  CHECK(barrierFreeGroupLimit(1024, 16) == 256);
  CHECK(barrierFreeGroupLimit(0, 0) == 256);
  Choice c =
      choose(1, {size_t{1} << 24}, barrierFreeGroupLimit(size_t{1} << 24, 2));
  CHECK(c.local[0] == 4096);
}

TEST_CASE("merged groups stay short", "[runtime][local-size]") {
  // Unmeasured: the largest power of two dividing the group count within
  // the limit (saxpy's 65536 groups of 256 become groups of 4096).
  CHECK(mergedGroupFactor(256, 65536, 4096, 0) == 16);
  CHECK(mergedGroupFactor(64, 128, 256, 0) == 4);
  CHECK(mergedGroupFactor(256, 6, 4096, 0) == 2);
  CHECK(mergedGroupFactor(256, 7, 4096, 0) == 1);
  // Measured: a work-item of 0.25 ns (saxpy) merges as far as the limit;
  // one of 20 us (an n-body body over 8192 others) not at all, so its 128
  // groups still balance over 16 cores; in between, up to 20 us a group.
  CHECK(mergedGroupFactor(256, 65536, 4096, 250) == 16);
  CHECK(mergedGroupFactor(64, 128, 256, 20000000) == 1);
  CHECK(mergedGroupFactor(64, 1024, 4096, 100000) == 2); // 128 x 100 ns
  CHECK(mergedGroupFactor(64, 1024, 4096, 40000) == 4);  // 256 x 40 ns
}
