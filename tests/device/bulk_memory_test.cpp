// Copies and fills move exactly the bytes asked for, at every alignment of
// both sides and every size around the vector loops' edges, alone and
// shared with a pool's workers.
#include "device/bulk_memory.h"
#include "device/thread_pool.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace {

// Bytes that differ from one position to the next over a long stretch, so a
// byte copied from the wrong place shows.
std::vector<unsigned char> numbered(size_t size, unsigned seed) {
  std::vector<unsigned char> bytes(size);
  uint32_t x = seed * 2654435761u + 1;
  for (auto &b : bytes) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<unsigned char>(x >> 24);
  }
  return bytes;
}

// Where the copy differs from the expected bytes, or -1.
long firstDifference(const std::vector<unsigned char> &got,
                     const std::vector<unsigned char> &want) {
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i])
      return long(i);
  return -1;
}

} // namespace

TEST_CASE("copyBytes copies every size at every alignment",
          "[device][bulk-memory]") {
  const std::vector<unsigned char> source = numbered(4096, 1);
  for (size_t size : {0, 1, 15, 16, 31, 32, 33, 63, 64, 65, 127, 255, 256, 257,
                      300, 511, 512, 1000, 2049})
    for (size_t src_at = 0; src_at < 40; src_at += 3)
      for (size_t dst_at = 0; dst_at < 40; dst_at += 5) {
        std::vector<unsigned char> dst = numbered(4096, 2);
        std::vector<unsigned char> want = dst;
        std::memcpy(want.data() + dst_at, source.data() + src_at, size);
        weft::copyBytes(dst.data() + dst_at, source.data() + src_at, size);
        INFO("size " << size << " from +" << src_at << " to +" << dst_at);
        REQUIRE(firstDifference(dst, want) == -1);
      }
}

TEST_CASE("copyBytes moves overlapping bytes as memmove does",
          "[device][bulk-memory]") {
  for (long apart : {-300, -33, -1, 1, 16, 33, 300})
    for (size_t size : {64, 257, 1000}) {
      std::vector<unsigned char> bytes = numbered(2048, 3);
      std::vector<unsigned char> want = bytes;
      std::memmove(want.data() + 600 + apart, want.data() + 600, size);
      weft::copyBytes(bytes.data() + 600 + apart, bytes.data() + 600, size);
      INFO("destination " << apart << " bytes from the source, " << size
                          << " bytes");
      REQUIRE(firstDifference(bytes, want) == -1);
    }
}

TEST_CASE("copyBytes shares large copies with the pool",
          "[device][bulk-memory]") {
  weft::ThreadPool pool(3);
  // Past the cache (streamed stores) and below it, at the page offsets of
  // a buffer and a malloc'ed array.
  for (size_t size : {size_t(3) << 20, (size_t(80) << 20) + 48})
    for (size_t dst_at : {0, 16, 4080}) {
      std::vector<unsigned char> source = numbered(size + 64, 4);
      std::vector<unsigned char> dst(size + 4096 + 64, 0xee);
      std::vector<unsigned char> want = dst;
      std::memcpy(want.data() + dst_at, source.data() + 16, size);
      weft::copyBytes(dst.data() + dst_at, source.data() + 16, size, &pool);
      INFO(size << " bytes to +" << dst_at);
      REQUIRE(firstDifference(dst, want) == -1);
    }
}

TEST_CASE("fillBytes repeats every pattern at every alignment",
          "[device][bulk-memory]") {
  for (size_t pattern_size : {1, 2, 3, 4, 6, 8, 12, 16, 32, 64, 128}) {
    std::vector<unsigned char> pattern(pattern_size);
    std::iota(pattern.begin(), pattern.end(), 1);
    for (size_t count : {1, 2, 5, 17, 40, 129})
      for (size_t at = 0; at < 70; at += 7) {
        size_t size = count * pattern_size;
        std::vector<unsigned char> dst(size + 200, 0);
        std::vector<unsigned char> want = dst;
        for (size_t i = 0; i < size; ++i)
          want[at + i] = pattern[i % pattern_size];
        weft::fillBytes(dst.data() + at, size, pattern.data(), pattern_size);
        INFO(count << " patterns of " << pattern_size << " bytes at +" << at);
        REQUIRE(firstDifference(dst, want) == -1);
      }
  }
}

TEST_CASE("fillBytes shares large fills with the pool",
          "[device][bulk-memory]") {
  weft::ThreadPool pool(3);
  for (size_t pattern_size : {4, 12, 128})
    for (size_t size : {size_t(3) << 20, size_t(80) << 20}) {
      size = size / pattern_size * pattern_size;
      std::vector<unsigned char> pattern = numbered(pattern_size, 5);
      std::vector<unsigned char> dst(size + 64, 0);
      weft::fillBytes(dst.data() + 8, size, pattern.data(), pattern_size,
                      &pool);
      INFO(size << " bytes of a pattern of " << pattern_size);
      long wrong = -1;
      for (size_t i = 0; i < dst.size() && wrong < 0; ++i) {
        bool inside = i >= 8 && i < 8 + size;
        unsigned char want = inside ? pattern[(i - 8) % pattern_size] : 0;
        if (dst[i] != want)
          wrong = long(i);
      }
      REQUIRE(wrong == -1);
    }
}

TEST_CASE("copyRows copies the rows of slices, shared or not",
          "[device][bulk-memory]") {
  weft::ThreadPool pool(3);
  // 2 slices of 3 rows; rows of 40 bytes, then rows large enough to share.
  for (size_t row_bytes : {size_t(40), size_t(1) << 20}) {
    weft::RowOffsets src{5, row_bytes + 11, 4 * (row_bytes + 11), 3};
    weft::RowOffsets dst{16, row_bytes + 3, 3 * (row_bytes + 3) + 7, 3};
    std::vector<unsigned char> source = numbered(src.at(5) + row_bytes, 6);
    std::vector<unsigned char> target(dst.at(5) + row_bytes + 32, 0x5a);
    std::vector<unsigned char> want = target;
    for (size_t row = 0; row < 6; ++row)
      std::memcpy(want.data() + dst.at(row), source.data() + src.at(row),
                  row_bytes);
    for (weft::ThreadPool *helpers : {(weft::ThreadPool *)nullptr, &pool}) {
      std::vector<unsigned char> got = target;
      weft::copyRows(reinterpret_cast<char *>(got.data()), dst,
                     reinterpret_cast<const char *>(source.data()), src, 6,
                     row_bytes, helpers);
      INFO("rows of " << row_bytes << " bytes, "
                      << (helpers ? "shared" : "alone"));
      REQUIRE(firstDifference(got, want) == -1);
    }
  }
}
