// clEnqueue{Read,Write,Copy}BufferRect through the loader: origins, regions
// and pitches whose offsets overflow size_t are CL_INVALID_VALUE (they used
// to wrap around and pass the bounds check), and a valid rect still copies.
#include "api_fixture.h"

#include <cstdint>
#include <numeric>
#include <vector>

namespace {

constexpr size_t kBufferSize = 1024;

struct BadRect {
  const char *what;
  size_t origin[3];
  size_t region[3];
};

// Each is applied on the buffer's side and on the host's side.
const BadRect kBadRects[] = {
    {"a region of 2^60 rows (default slice pitch wraps)",
     {0, 0, 0},
     {16, size_t(1) << 60, 1}},
    {"an origin near SIZE_MAX (the end wraps)",
     {SIZE_MAX - 4095, 0, 0},
     {4096, 1, 1}},
    {"an origin of 2^60 rows", {0, size_t(1) << 60, 0}, {16, 1, 1}},
};

} // namespace

TEST_CASE_METHOD(WeftFixture, "rect commands reject overflowing geometry",
                 "[api]") {
  cl_mem a = buffer(kBufferSize);
  cl_mem b = buffer(kBufferSize);
  std::vector<char> host(kBufferSize);
  const size_t zero[3] = {0, 0, 0};
  for (const BadRect &bad : kBadRects) {
    INFO(bad.what);
    // On the buffer's side.
    CHECK(clEnqueueWriteBufferRect(queue, a, CL_TRUE, bad.origin, zero,
                                   bad.region, 0, 0, 0, 0, host.data(), 0,
                                   nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueReadBufferRect(queue, a, CL_TRUE, bad.origin, zero,
                                  bad.region, 0, 0, 0, 0, host.data(), 0,
                                  nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueCopyBufferRect(queue, a, b, bad.origin, zero, bad.region, 0,
                                  0, 0, 0, 0, nullptr,
                                  nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueCopyBufferRect(queue, a, b, zero, bad.origin, bad.region, 0,
                                  0, 0, 0, 0, nullptr,
                                  nullptr) == CL_INVALID_VALUE);
    // On the host's side: the host pointer would wrap too.
    CHECK(clEnqueueWriteBufferRect(queue, a, CL_TRUE, zero, bad.origin,
                                   bad.region, 0, 0, 0, 0, host.data(), 0,
                                   nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueReadBufferRect(queue, a, CL_TRUE, zero, bad.origin,
                                  bad.region, 0, 0, 0, 0, host.data(), 0,
                                  nullptr, nullptr) == CL_INVALID_VALUE);
  }
  // Pitches so large that the rows or slices wrap.
  const size_t rows_slices[3] = {1, 2, 3};
  CHECK(clEnqueueWriteBufferRect(queue, a, CL_TRUE, zero, zero, rows_slices,
                                 SIZE_MAX / 2 + 1, 0, 0, 0, host.data(), 0,
                                 nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueReadBufferRect(queue, a, CL_TRUE, zero, zero, rows_slices, 0,
                                0, 1, size_t(1) << 63, host.data(), 0, nullptr,
                                nullptr) == CL_INVALID_VALUE);
  CHECK(clFinish(queue) == CL_SUCCESS);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

TEST_CASE_METHOD(WeftFixture, "rect commands copy pitched boxes", "[api]") {
  // A 16x8 byte image; write a 4x3 box at (2,1) from a host layout of
  // 6-byte rows, copy it to (8,4) in a second buffer, read the whole back.
  std::vector<unsigned char> zeros(128, 0);
  cl_mem a = buffer(128, zeros.data());
  cl_mem b = buffer(128, zeros.data());
  std::vector<unsigned char> box(6 * 3);
  std::iota(box.begin(), box.end(), 1);
  const size_t box_origin[3] = {2, 1, 0}, host_origin[3] = {1, 0, 0};
  const size_t region[3] = {4, 3, 1}, target[3] = {8, 4, 0};
  const size_t zero[3] = {0, 0, 0};
  REQUIRE(clEnqueueWriteBufferRect(queue, a, CL_FALSE, box_origin, host_origin,
                                   region, 16, 0, 6, 0, box.data(), 0, nullptr,
                                   nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueCopyBufferRect(queue, a, b, box_origin, target, region, 16,
                                  0, 16, 0, 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<unsigned char> out(128, 0xff);
  const size_t whole[3] = {16, 8, 1};
  REQUIRE(clEnqueueReadBufferRect(queue, b, CL_TRUE, zero, zero, whole, 16, 0,
                                  16, 0, out.data(), 0, nullptr,
                                  nullptr) == CL_SUCCESS);
  for (size_t y = 0; y < 8; ++y)
    for (size_t x = 0; x < 16; ++x) {
      bool inside = x >= 8 && x < 12 && y >= 4 && y < 7;
      unsigned expected = inside ? box[(y - 4) * 6 + (x - 8) + 1] : 0;
      INFO("x " << x << " y " << y);
      CHECK(out[y * 16 + x] == expected);
    }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}
