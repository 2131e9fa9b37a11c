#include "runtime/block_pool.h"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace weft {

BlockPool::BlockPool(size_t bytes)
    : bytes_((std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment *
             kAlignment),
      max_kept_(kKeepsBlocks ? std::max<size_t>(1, kKeptBytes / bytes_) : 0) {}

BlockPool::~BlockPool() {
  for (void *block : kept_)
    std::free(block);
}

void *BlockPool::take() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!kept_.empty()) {
      void *block = kept_.back();
      kept_.pop_back();
      // Blocks come back in bursts and wait out the application's next
      // wait, long enough to leave the caches: fetching the next one now,
      // for writing, overlaps its misses with this block's use instead of
      // stalling the next enqueue's first atomic operation on them.
      if (!kept_.empty()) {
        auto *next = static_cast<const char *>(kept_.back());
        for (size_t line = 0; line < bytes_; line += 64)
          __builtin_prefetch(next + line, 1);
      }
      return block;
    }
  }
  return std::aligned_alloc(kAlignment, bytes_);
}

void BlockPool::give(void *block) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (kept_.size() < max_kept_) {
      // Grows to its bound once; a failed growth frees the block instead.
      try {
        kept_.push_back(block);
        return;
      } catch (const std::bad_alloc &) {
      }
    }
  }
  std::free(block);
}

size_t BlockPool::kept() {
  std::lock_guard<std::mutex> lock(mutex_);
  return kept_.size();
}

} // namespace weft
