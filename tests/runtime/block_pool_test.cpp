// The pools of the enqueue path's blocks (runtime/block_pool.h), and a
// command's ownership of what its work uses.
#include "runtime/block_pool.h"
#include "runtime/command.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <vector>

using namespace weft;

TEST_CASE("a block pool hands out aligned blocks and reuses given ones",
          "[runtime]") {
  BlockPool pool(200);
  CHECK(pool.blockSize() >= 200);
  CHECK(pool.blockSize() % BlockPool::kAlignment == 0);
  std::vector<void *> blocks;
  for (int i = 0; i < 16; ++i) {
    void *block = pool.take();
    REQUIRE(block != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(block) % BlockPool::kAlignment == 0);
    blocks.push_back(block);
  }
  std::set<void *> given(blocks.begin(), blocks.end());
  CHECK(given.size() == blocks.size());
  for (void *block : blocks)
    pool.give(block);
  // The next burst gets the same blocks back (under AddressSanitizer,
  // new ones: see kKeepsBlocks).
  CHECK(pool.kept() == (BlockPool::kKeepsBlocks ? blocks.size() : 0));
  std::vector<void *> again;
  for (size_t i = 0; i < blocks.size(); ++i) {
    again.push_back(pool.take());
    if (BlockPool::kKeepsBlocks)
      CHECK(given.count(again.back()) == 1);
  }
  for (void *block : again)
    pool.give(block);
}

TEST_CASE("a block pool keeps at most its bound", "[runtime]") {
  BlockPool pool(4096);
  size_t bound =
      BlockPool::kKeepsBlocks ? BlockPool::kKeptBytes / pool.blockSize() : 0;
  std::vector<void *> blocks(bound + 20);
  for (void *&block : blocks)
    block = pool.take();
  for (void *block : blocks)
    pool.give(block);
  CHECK(pool.kept() == bound);
  std::vector<void *> again(bound);
  for (void *&block : again)
    block = pool.take();
  CHECK(pool.kept() == 0);
  for (void *block : again)
    pool.give(block);
}

TEST_CASE("a command releases what it owns once, after moves too",
          "[runtime]") {
  static int released = 0;
  static int value = 7;
  released = 0;
  {
    Command first(CL_COMMAND_NDRANGE_KERNEL,
                  [data = &value] { return *data == 7 ? CL_SUCCESS : -1; });
    first.own(&value, [](void *data) {
      CHECK(data == &value);
      ++released;
    });
    Command second(std::move(first));
    CHECK(released == 0);
    CHECK(second.execute() == CL_SUCCESS);
    Command third(CL_COMMAND_MARKER);
    third = std::move(second);
    CHECK(released == 0);
  }
  CHECK(released == 1);
}
