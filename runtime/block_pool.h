// Blocks of one size, kept for reuse once given back: the storage of
// objects the enqueue path makes by the thousand (queued launches, events).
//
// Applications queue commands in bursts (thousands, then one clFinish).
// Freed in such numbers, blocks of a few hundred bytes land in glibc's
// sorted bins, and each allocation of the next burst went through its slow
// path (an aligned allocation also split a chunk every time): most of an
// enqueue's time. A pool keeps the blocks given back, up to a bound, and
// hands them out again.
#pragma once
#include <cstddef>
#include <mutex>
#include <vector>

namespace weft {

class BlockPool {
public:
  // Blocks of at least `bytes`, aligned to kAlignment.
  explicit BlockPool(size_t bytes);
  ~BlockPool(); // frees the blocks kept; every other one must be back
  BlockPool(const BlockPool &) = delete;
  BlockPool &operator=(const BlockPool &) = delete;

  static constexpr size_t kAlignment = 128;
  // Under AddressSanitizer a pool keeps nothing, so that each block's use
  // after it was given back is still caught.
#if defined(__SANITIZE_ADDRESS__)
  static constexpr bool kKeepsBlocks = false;
#else
  static constexpr bool kKeepsBlocks = true;
#endif
  // Blocks kept for reuse, in bytes: beyond it, given-back blocks are freed.
  static constexpr size_t kKeptBytes = size_t(1) << 20;

  size_t blockSize() const { return bytes_; }
  // A block of blockSize() bytes, or null when memory is exhausted.
  void *take();
  // Gives back a block from take(); thread-safe, as take() is.
  void give(void *block);
  // Blocks waiting to be taken again.
  size_t kept();

private:
  const size_t bytes_;
  const size_t max_kept_;
  std::mutex mutex_;
  std::vector<void *> kept_; // guarded by mutex_
};

} // namespace weft
