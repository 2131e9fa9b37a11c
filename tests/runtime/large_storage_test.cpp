// Large buffers' storage kept for reuse once released
// (runtime/large_storage.h).
#include "runtime/large_storage.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

using namespace weft;

namespace {
constexpr size_t kTwoMiB = size_t(2) << 20;
} // namespace

TEST_CASE("a released large block is handed to the next of its size",
          "[runtime]") {
  size_t before = keptLargeBlocks();
  void *first = takeLargeStorage(4 * kTwoMiB, kTwoMiB);
  REQUIRE(first != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(first) % kTwoMiB == 0);
  std::memset(first, 0x5a, 4 * kTwoMiB); // writable, every page
  giveBackLargeStorage(first, 4 * kTwoMiB);
  CHECK(keptLargeBlocks() == before + (kKeepsLargeBlocks ? 1 : 0));
  // Another size does not take it.
  void *other = takeLargeStorage(2 * kTwoMiB, kTwoMiB);
  REQUIRE(other != nullptr);
  CHECK(other != first);
  void *again = takeLargeStorage(4 * kTwoMiB, kTwoMiB);
  REQUIRE(again != nullptr);
  if (kKeepsLargeBlocks) {
    CHECK(again == first);
    // Not cleared: a buffer's contents are undefined until written.
    CHECK(static_cast<unsigned char *>(again)[kTwoMiB + 7] == 0x5a);
  }
  CHECK(keptLargeBlocks() == before);
  giveBackLargeStorage(again, 4 * kTwoMiB);
  giveBackLargeStorage(other, 2 * kTwoMiB);
}

TEST_CASE("large blocks are kept up to a bound, the oldest freed first",
          "[runtime]") {
  std::vector<void *> blocks;
  for (size_t i = 0; i < kKeptLargeBlocks + 3; ++i) {
    blocks.push_back(takeLargeStorage(kTwoMiB, kTwoMiB));
    REQUIRE(blocks.back() != nullptr);
  }
  for (void *block : blocks)
    giveBackLargeStorage(block, kTwoMiB);
  CHECK(keptLargeBlocks() <= kKeptLargeBlocks);
  CHECK(keptLargeBytes() <= kKeptLargeBytes);
  if (kKeepsLargeBlocks) {
    CHECK(keptLargeBlocks() == kKeptLargeBlocks);
    // The newest come back first; the 3 oldest were freed.
    std::set<void *> newest(blocks.end() - kKeptLargeBlocks, blocks.end());
    for (size_t i = 0; i < kKeptLargeBlocks; ++i) {
      void *block = takeLargeStorage(kTwoMiB, kTwoMiB);
      CHECK(newest.count(block) == 1);
      newest.erase(block);
      blocks[i] = block;
    }
    CHECK(keptLargeBlocks() == 0);
    for (size_t i = 0; i < kKeptLargeBlocks; ++i)
      giveBackLargeStorage(blocks[i], kTwoMiB);
  }
  // A block larger than everything kept together is freed at once.
  size_t huge = kKeptLargeBytes + kTwoMiB;
  void *big = takeLargeStorage(huge, kTwoMiB);
  if (big) {
    size_t kept = keptLargeBlocks();
    giveBackLargeStorage(big, huge);
    CHECK(keptLargeBlocks() == kept);
  }
}
