#include "device/bulk_memory.h"

#include "device/thread_pool.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace weft {

namespace {

// Below this, memcpy's own small-size paths are as fast as anything.
constexpr size_t kOwnLoopBytes = 256;
// From this many bytes the pool's workers help, each taking pieces of
// kPieceBytes: waking them costs some 15-30 us, what one thread copies of
// half a megabyte.
constexpr size_t kSharedBytes = size_t(2) << 20;
constexpr size_t kPieceBytes = size_t(256) << 10;

// Copies and fills this large go past the caches: the bytes would not stay
// there anyway, and stores that bypass them skip reading each line before
// writing it (about a third more bandwidth on Zen 3: 15-17 against 9.4-10
// GB/s for 256 MiB). Smaller ones stay in the cache, where the kernel that
// reads them next finds them. At most 32 MiB: a virtual machine may report
// its host's whole last-level cache (Zen 3's 2-vCPU machine: 256 MiB, of
// which its cores share one 32 MiB part).
size_t streamingBytes() {
  static const size_t bytes = [] {
    constexpr size_t kMost = size_t(32) << 20;
    long last_level = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (last_level <= 0)
      last_level = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return last_level > 0 ? std::min(size_t(last_level), kMost) : kMost;
  }();
  return bytes;
}

bool overlaps(const char *a, const char *b, size_t size) {
  return a < b + size && b < a + size;
}

#if defined(__x86_64__)

bool hasAvx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}

// The loops below load unaligned and store whole aligned vectors: the first
// and last vector are stored unaligned over the edges (bytes written twice
// with the same values), the rest aligned. `size` >= 2 vectors.

// GCC gives lambdas no target attribute of their own: the AVX2 loops spell
// their loads and stores out.
template <bool kStream>
__attribute__((target("avx2"))) inline void storeAvx2(char *at, __m256i v) {
  if constexpr (kStream)
    _mm256_stream_si256(reinterpret_cast<__m256i *>(at), v);
  else
    _mm256_store_si256(reinterpret_cast<__m256i *>(at), v);
}

__attribute__((target("avx2"))) inline __m256i loadAvx2(const char *at) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(at));
}

template <bool kStream>
__attribute__((target("avx2"))) void copyAvx2(char *dst, const char *src,
                                              size_t size) {
  constexpr size_t kV = sizeof(__m256i);
  const __m256i first = loadAvx2(src);
  const __m256i last = loadAvx2(src + size - kV);
  size_t i = kV - (reinterpret_cast<uintptr_t>(dst) & (kV - 1));
  // Four loads before four stores: the loads run ahead of the stores they
  // could be mistaken to depend on.
  for (; i + 4 * kV <= size; i += 4 * kV) {
    __m256i a = loadAvx2(src + i), b = loadAvx2(src + i + kV),
            c = loadAvx2(src + i + 2 * kV), d = loadAvx2(src + i + 3 * kV);
    storeAvx2<kStream>(dst + i, a);
    storeAvx2<kStream>(dst + i + kV, b);
    storeAvx2<kStream>(dst + i + 2 * kV, c);
    storeAvx2<kStream>(dst + i + 3 * kV, d);
  }
  for (; i + kV <= size; i += kV)
    storeAvx2<kStream>(dst + i, loadAvx2(src + i));
  _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst), first);
  _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst + size - kV), last);
  if constexpr (kStream)
    _mm_sfence(); // streamed stores are seen by others only after a fence
}

template <bool kStream> void copySse2(char *dst, const char *src, size_t size) {
  using V = __m128i;
  constexpr size_t kV = sizeof(V);
  const V first = _mm_loadu_si128(reinterpret_cast<const V *>(src));
  const V last = _mm_loadu_si128(reinterpret_cast<const V *>(src + size - kV));
  size_t i = kV - (reinterpret_cast<uintptr_t>(dst) & (kV - 1));
  auto store = [&](size_t at, V v) {
    if constexpr (kStream)
      _mm_stream_si128(reinterpret_cast<V *>(dst + at), v);
    else
      _mm_store_si128(reinterpret_cast<V *>(dst + at), v);
  };
  auto load = [&](size_t at) {
    return _mm_loadu_si128(reinterpret_cast<const V *>(src + at));
  };
  for (; i + 4 * kV <= size; i += 4 * kV) {
    V a = load(i), b = load(i + kV), c = load(i + 2 * kV), d = load(i + 3 * kV);
    store(i, a);
    store(i + kV, b);
    store(i + 2 * kV, c);
    store(i + 3 * kV, d);
  }
  for (; i + kV <= size; i += kV)
    store(i, load(i));
  _mm_storeu_si128(reinterpret_cast<V *>(dst), first);
  _mm_storeu_si128(reinterpret_cast<V *>(dst + size - kV), last);
  if constexpr (kStream)
    _mm_sfence();
}

// `block` holds 128 bytes of the pattern as they fall from the first
// aligned vector of dst on: every aligned vector's bytes are then one of
// the block's vectors (128 is a multiple of the pattern's size).
template <bool kStream>
__attribute__((target("avx2"))) void
fillAvx2(char *dst, size_t size, const unsigned char *block, size_t begin) {
  constexpr size_t kV = sizeof(__m256i);
  const char *bytes = reinterpret_cast<const char *>(block);
  const __m256i v[4] = {loadAvx2(bytes), loadAvx2(bytes + kV),
                        loadAvx2(bytes + 2 * kV), loadAvx2(bytes + 3 * kV)};
  size_t i = begin;
  for (; i + 4 * kV <= size; i += 4 * kV) {
    storeAvx2<kStream>(dst + i, v[0]);
    storeAvx2<kStream>(dst + i + kV, v[1]);
    storeAvx2<kStream>(dst + i + 2 * kV, v[2]);
    storeAvx2<kStream>(dst + i + 3 * kV, v[3]);
  }
  for (unsigned k = 0; i + kV <= size; i += kV, ++k)
    storeAvx2<kStream>(dst + i, v[k]);
  if constexpr (kStream)
    _mm_sfence();
}

template <bool kStream>
void fillSse2(char *dst, size_t size, const unsigned char *block,
              size_t begin) {
  using V = __m128i;
  constexpr size_t kV = sizeof(V);
  V v[8];
  for (unsigned k = 0; k < 8; ++k)
    v[k] = _mm_loadu_si128(reinterpret_cast<const V *>(block + k * kV));
  size_t i = begin;
  for (unsigned k = 0; i + kV <= size; i += kV, k = (k + 1) % 8) {
    if constexpr (kStream)
      _mm_stream_si128(reinterpret_cast<V *>(dst + i), v[k]);
    else
      _mm_store_si128(reinterpret_cast<V *>(dst + i), v[k]);
  }
  if constexpr (kStream)
    _mm_sfence();
}

constexpr size_t kFillAlignment = 32; // AVX2's vectors; SSE2's divide it

#endif // __x86_64__

// One thread's part of a copy of `whole` bytes; the two do not overlap.
void copyPart(char *dst, const char *src, size_t size, size_t whole) {
#if defined(__x86_64__)
  if (size >= kOwnLoopBytes) {
    bool stream = whole >= streamingBytes();
    if (hasAvx2())
      stream ? copyAvx2<true>(dst, src, size) : copyAvx2<false>(dst, src, size);
    else
      stream ? copySse2<true>(dst, src, size) : copySse2<false>(dst, src, size);
    return;
  }
#endif
  (void)whole;
  std::memcpy(dst, src, size);
}

// Fills by doubling what is already written (patterns of any size).
void fillByDoubling(char *dst, size_t size, const void *pattern,
                    size_t pattern_size) {
  std::memcpy(dst, pattern, pattern_size);
  for (size_t done = pattern_size; done < size;) {
    size_t next = std::min(done, size - done);
    std::memcpy(dst + done, dst, next);
    done += next;
  }
}

// One thread's part of a fill of `whole` bytes, starting at a multiple of
// the pattern's size.
void fillPart(char *dst, size_t size, const void *pattern, size_t pattern_size,
              size_t whole) {
#if defined(__x86_64__)
  bool power_of_two = (pattern_size & (pattern_size - 1)) == 0;
  if (power_of_two && pattern_size <= 128 && size >= 2 * kFillAlignment) {
    const auto *bytes = static_cast<const unsigned char *>(pattern);
    size_t begin = (kFillAlignment -
                    (reinterpret_cast<uintptr_t>(dst) & (kFillAlignment - 1))) &
                   (kFillAlignment - 1);
    alignas(32) unsigned char block[128];
    for (size_t t = 0; t < 128; ++t)
      block[t] = bytes[(begin + t) & (pattern_size - 1)];
    for (size_t t = 0; t < begin; ++t) // the unaligned head
      dst[t] = static_cast<char>(bytes[t & (pattern_size - 1)]);
    bool stream = whole >= streamingBytes();
    size_t vectors_end = hasAvx2() ? begin + (size - begin) / 32 * 32
                                   : begin + (size - begin) / 16 * 16;
    if (hasAvx2())
      stream ? fillAvx2<true>(dst, vectors_end, block, begin)
             : fillAvx2<false>(dst, vectors_end, block, begin);
    else
      stream ? fillSse2<true>(dst, vectors_end, block, begin)
             : fillSse2<false>(dst, vectors_end, block, begin);
    for (size_t t = vectors_end; t < size; ++t) // the tail
      dst[t] = static_cast<char>(bytes[t & (pattern_size - 1)]);
    return;
  }
#endif
  (void)whole;
  fillByDoubling(dst, size, pattern, pattern_size);
}

// Pieces of kPieceBytes (the last one shorter), shared with the pool.
template <typename Part> struct Pieces {
  size_t size;
  Part part; // part(offset, bytes)
  static void run(void *state, uint64_t first, uint64_t last) {
    auto &self = *static_cast<Pieces *>(state);
    for (uint64_t piece = first; piece < last; ++piece) {
      size_t offset = piece * kPieceBytes;
      self.part(offset, std::min(kPieceBytes, self.size - offset));
    }
  }
};

template <typename Part>
void shareOrRun(size_t size, ThreadPool *helpers, Part part) {
  if (!helpers || size < kSharedBytes || helpers->workerCount() == 0) {
    part(size_t(0), size);
    return;
  }
  Pieces<Part> pieces{size, part};
  helpers->parallelFor((size + kPieceBytes - 1) / kPieceBytes,
                       &Pieces<Part>::run, &pieces);
}

} // namespace

void copyBytes(void *dst, const void *src, size_t size, ThreadPool *helpers) {
  auto *to = static_cast<char *>(dst);
  const auto *from = static_cast<const char *>(src);
  if (size == 0 || to == from)
    return;
  if (overlaps(to, from, size)) {
    std::memmove(to, from, size);
    return;
  }
  shareOrRun(size, helpers, [=](size_t offset, size_t bytes) {
    copyPart(to + offset, from + offset, bytes, size);
  });
}

void fillBytes(void *dst, size_t size, const void *pattern, size_t pattern_size,
               ThreadPool *helpers) {
  if (size == 0 || pattern_size == 0)
    return;
  auto *to = static_cast<char *>(dst);
  // Pieces start at multiples of kPieceBytes, each at the pattern's start
  // when its size divides the piece's; a pattern that does not (3, 6 or 12
  // bytes) is filled by one thread.
  if (kPieceBytes % pattern_size != 0)
    helpers = nullptr;
  shareOrRun(size, helpers, [=](size_t offset, size_t bytes) {
    fillPart(to + offset, bytes, pattern, pattern_size, size);
  });
}

void copyRows(char *dst, const RowOffsets &dst_offsets, const char *src,
              const RowOffsets &src_offsets, size_t rows, size_t row_bytes,
              ThreadPool *helpers) {
  if (rows == 0 || row_bytes == 0)
    return;
  size_t whole = rows * row_bytes;
  auto copyRow = [&](size_t row) {
    char *to = dst + dst_offsets.at(row);
    const char *from = src + src_offsets.at(row);
    if (overlaps(to, from, row_bytes))
      std::memmove(to, from, row_bytes);
    else if (to != from)
      copyPart(to, from, row_bytes, whole);
  };
  // Rows of one buffer may overlap one another (a read into a
  // CL_MEM_USE_HOST_PTR buffer's own bytes): then they run in order.
  bool in_order = !helpers || whole < kSharedBytes ||
                  helpers->workerCount() == 0 || rows == 1;
  if (!in_order) {
    const char *dst_end = dst + dst_offsets.at(rows - 1) + row_bytes;
    const char *src_end = src + src_offsets.at(rows - 1) + row_bytes;
    const char *dst_begin = dst + dst_offsets.at(0);
    const char *src_begin = src + src_offsets.at(0);
    in_order = dst_begin < src_end && src_begin < dst_end;
  }
  if (in_order) {
    for (size_t row = 0; row < rows; ++row)
      copyRow(row);
    return;
  }
  struct Rows {
    decltype(copyRow) *copy;
    static void run(void *state, uint64_t first, uint64_t last) {
      for (uint64_t row = first; row < last; ++row)
        (*static_cast<Rows *>(state)->copy)(row);
    }
  } shared{&copyRow};
  helpers->parallelFor(rows, &Rows::run, &shared);
}

} // namespace weft
