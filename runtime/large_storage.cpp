#include "runtime/large_storage.h"

#include <sys/mman.h>

#include <cstdlib>
#include <deque>
#include <mutex>
#include <utility>

namespace weft {
namespace {

struct KeptBlocks {
  std::mutex lock;
  std::deque<std::pair<void *, size_t>> blocks; // oldest first
  size_t bytes = 0;
};

// Never destroyed: buffers may be released during the program's exit,
// after static destructors ran.
KeptBlocks &kept() {
  static auto *blocks = new KeptBlocks;
  return *blocks;
}

} // namespace

void *takeLargeStorage(size_t bytes, size_t alignment) {
  if (kKeepsLargeBlocks) {
    KeptBlocks &k = kept();
    std::lock_guard<std::mutex> hold(k.lock);
    // The newest of that size: the likeliest still in the caches.
    for (auto it = k.blocks.rbegin(); it != k.blocks.rend(); ++it)
      if (it->second == bytes) {
        void *block = it->first;
        k.blocks.erase(std::next(it).base());
        k.bytes -= bytes;
        return block;
      }
  }
  void *block = std::aligned_alloc(alignment, bytes);
  if (block)
    madvise(block, bytes, MADV_HUGEPAGE); // a hint: refusal changes nothing
  return block;
}

void giveBackLargeStorage(void *block, size_t bytes) {
  if (!block)
    return;
  if (!kKeepsLargeBlocks || bytes > kKeptLargeBytes) {
    std::free(block);
    return;
  }
  std::deque<std::pair<void *, size_t>> freed;
  {
    KeptBlocks &k = kept();
    std::lock_guard<std::mutex> hold(k.lock);
    k.blocks.emplace_back(block, bytes);
    k.bytes += bytes;
    while (k.blocks.size() > kKeptLargeBlocks || k.bytes > kKeptLargeBytes) {
      freed.push_back(k.blocks.front());
      k.bytes -= k.blocks.front().second;
      k.blocks.pop_front();
    }
  }
  for (auto &[old, size] : freed) // outside the lock: munmap takes a while
    std::free(old);
}

size_t keptLargeBlocks() {
  KeptBlocks &k = kept();
  std::lock_guard<std::mutex> hold(k.lock);
  return k.blocks.size();
}

size_t keptLargeBytes() {
  KeptBlocks &k = kept();
  std::lock_guard<std::mutex> hold(k.lock);
  return k.bytes;
}

} // namespace weft
