// The buffer commands' geometry: checked arithmetic, rect validation (also
// against overflowing origins, regions and pitches), copyRect with pitches,
// fill patterns.
#include "runtime/checked_math.h"
#include "runtime/memory_commands.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

using namespace weft;

TEST_CASE("CheckedSize remembers overflow", "[runtime][rect]") {
  CheckedSize sum = CheckedSize(SIZE_MAX - 1) + 1;
  CHECK(sum.valid());
  CHECK(sum.value() == SIZE_MAX);
  CHECK_FALSE((sum + 1).valid());
  CHECK_FALSE((CheckedSize(size_t(1) << 60) * 16).valid());
  CHECK((CheckedSize(size_t(1) << 59) * 16).value() == size_t(1) << 63);
  CHECK_FALSE((CheckedSize(3) - 4).valid());
  // Once overflowed, always: a later subtraction cannot bring it back.
  CHECK_FALSE(((CheckedSize(SIZE_MAX) + 2) - 4).valid());
  CHECK((CheckedSize(10) * 3 + 2).fitsIn(32));
  CHECK_FALSE((CheckedSize(10) * 3 + 3).fitsIn(32));
}

TEST_CASE("makeRect defaults pitches and checks the region",
          "[runtime][rect]") {
  const size_t origin[3] = {1, 2, 3}, region[3] = {4, 5, 6};
  Rect r;
  REQUIRE(makeRect(origin, region, 0, 0, SIZE_MAX, r) == CL_SUCCESS);
  CHECK(r.row_pitch == 4);
  CHECK(r.slice_pitch == 20);
  CHECK(r.offset == 1 + 2 * 4 + 3 * 20);
  CHECK(r.extent == r.offset + 5 * 20 + 4 * 4 + 4);
  // The limit: the region must end inside it.
  CHECK(makeRect(origin, region, 0, 0, r.extent, r) == CL_SUCCESS);
  CHECK(makeRect(origin, region, 0, 0, r.extent - 1, r) == CL_INVALID_VALUE);
  // Pitches too small, uneven, empty regions, null pointers.
  CHECK(makeRect(origin, region, 3, 0, SIZE_MAX, r) == CL_INVALID_VALUE);
  CHECK(makeRect(origin, region, 8, 39, SIZE_MAX, r) == CL_INVALID_VALUE);
  CHECK(makeRect(origin, region, 8, 44, SIZE_MAX, r) == CL_INVALID_VALUE);
  CHECK(makeRect(origin, region, 8, 48, SIZE_MAX, r) == CL_SUCCESS);
  const size_t empty[3] = {4, 0, 1};
  CHECK(makeRect(origin, empty, 0, 0, SIZE_MAX, r) == CL_INVALID_VALUE);
  CHECK(makeRect(nullptr, region, 0, 0, SIZE_MAX, r) == CL_INVALID_VALUE);
  CHECK(makeRect(origin, nullptr, 0, 0, SIZE_MAX, r) == CL_INVALID_VALUE);
}

TEST_CASE("makeRect rejects every overflow", "[runtime][rect]") {
  const size_t zero[3] = {0, 0, 0};
  Rect r;
  // The default slice pitch (rows * row pitch) wraps to 0.
  const size_t tall[3] = {16, size_t(1) << 60, 1};
  CHECK(makeRect(zero, tall, 0, 0, 1024, r) == CL_INVALID_VALUE);
  CHECK(makeRect(zero, tall, 0, 0, SIZE_MAX, r) == CL_INVALID_VALUE);
  // The end of the region wraps past SIZE_MAX to a small number.
  const size_t high[3] = {SIZE_MAX - 4095, 0, 0};
  const size_t page[3] = {4096, 1, 1};
  CHECK(makeRect(high, page, 0, 0, 1024, r) == CL_INVALID_VALUE);
  CHECK(makeRect(high, page, 0, 0, SIZE_MAX, r) == CL_INVALID_VALUE);
  // origin[1] * row_pitch, origin[2] * slice_pitch wrap.
  const size_t row_origin[3] = {0, size_t(1) << 60, 0};
  const size_t row[3] = {16, 1, 1};
  CHECK(makeRect(row_origin, row, 0, 0, 1024, r) == CL_INVALID_VALUE);
  CHECK(makeRect(row_origin, row, 0, 0, SIZE_MAX, r) == CL_INVALID_VALUE);
  const size_t slice_origin[3] = {0, 0, size_t(1) << 62};
  CHECK(makeRect(slice_origin, row, 16, 16, SIZE_MAX, r) == CL_INVALID_VALUE);
  // Huge pitches with a few rows and slices.
  const size_t small[3] = {1, 2, 2};
  CHECK(makeRect(zero, small, SIZE_MAX / 2 + 1, 0, SIZE_MAX, r) ==
        CL_INVALID_VALUE);
  const size_t deep[3] = {1, 2, 3};
  CHECK(makeRect(zero, deep, 1, size_t(1) << 63, SIZE_MAX, r) ==
        CL_INVALID_VALUE);
  // Just below the overflow still works.
  const size_t top[3] = {SIZE_MAX - 4096, 0, 0};
  CHECK(makeRect(top, page, 0, 0, SIZE_MAX, r) == CL_SUCCESS);
  CHECK(r.extent == SIZE_MAX);
}

TEST_CASE("copyRect copies between pitched layouts", "[runtime][rect]") {
  // Source: 3 slices of 4 rows of 10 bytes, numbered; copy a 3x2x2 box
  // from (2,1,1) into a destination laid out 5 bytes x 3 rows per slice,
  // at (1,1,0).
  std::vector<char> src(3 * 4 * 10);
  std::iota(src.begin(), src.end(), 0);
  std::vector<char> dst(2 * 3 * 5, -1);
  const size_t src_origin[3] = {2, 1, 1}, dst_origin[3] = {1, 1, 0};
  const size_t region[3] = {3, 2, 2};
  Rect src_rect, dst_rect;
  REQUIRE(makeRect(src_origin, region, 10, 40, src.size(), src_rect) ==
          CL_SUCCESS);
  REQUIRE(makeRect(dst_origin, region, 5, 15, dst.size(), dst_rect) ==
          CL_SUCCESS);
  copyRect(dst.data(), dst_rect, src.data(), src_rect, {3, 2, 2});
  for (size_t z = 0; z < 2; ++z)
    for (size_t y = 0; y < 3; ++y)
      for (size_t x = 0; x < 5; ++x) {
        bool inside = x >= 1 && x < 4 && y >= 1 && y < 3;
        char expected = inside
                            ? static_cast<char>((z + 1) * 40 +
                                                (y - 1 + 1) * 10 + (x - 1 + 2))
                            : -1;
        INFO("x " << x << " y " << y << " z " << z);
        CHECK(dst[z * 15 + y * 5 + x] == expected);
      }
}

// CL_MEM_COPY_OVERLAP: rows of one region may lie in the gaps between rows
// of the other; only a shared byte is an overlap (the CTS's
// bufferreadwriterect drew such a pair: a copy between regions whose byte
// spans cross was refused). Checked against marking every byte, for
// thousands of small layouts.
TEST_CASE("rectsOverlap finds a shared byte exactly", "[runtime][rect]") {
  uint64_t seed = 12345;
  auto next = [&](uint64_t below) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<size_t>((seed >> 33) % below);
  };
  size_t overlapping = 0, apart = 0, interleaved = 0;
  for (int round = 0; round < 20000; ++round) {
    const size_t region[3] = {1 + next(5), 1 + next(4), 1 + next(4)};
    size_t row_pitch = region[0] + next(4);
    size_t slice_pitch = row_pitch * (region[1] + next(3));
    const size_t a_origin[3] = {next(6), next(5), next(4)};
    const size_t b_origin[3] = {next(6), next(5), next(4)};
    Rect a, b;
    REQUIRE(makeRect(a_origin, region, row_pitch, slice_pitch, SIZE_MAX, a) ==
            CL_SUCCESS);
    REQUIRE(makeRect(b_origin, region, row_pitch, slice_pitch, SIZE_MAX, b) ==
            CL_SUCCESS);
    std::vector<bool> in_a(std::max(a.extent, b.extent));
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y)
        for (size_t x = 0; x < region[0]; ++x)
          in_a[a.offset + z * slice_pitch + y * row_pitch + x] = true;
    bool shared = false;
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y)
        for (size_t x = 0; x < region[0]; ++x)
          shared =
              shared || in_a[b.offset + z * slice_pitch + y * row_pitch + x];
    INFO("round " << round);
    REQUIRE(rectsOverlap(a, b, {region[0], region[1], region[2]}) == shared);
    REQUIRE(rectsOverlap(b, a, {region[0], region[1], region[2]}) == shared);
    (shared ? overlapping : apart) += 1;
    interleaved += !shared && a.offset < b.extent && b.offset < a.extent;
  }
  // Both answers came up often, and regions apart whose spans cross.
  CHECK(overlapping > 1000);
  CHECK(apart > 1000);
  CHECK(interleaved > 100);
}
