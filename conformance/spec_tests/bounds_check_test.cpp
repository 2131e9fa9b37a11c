// Kernels launched on a range rounded up to whole groups guard their
// accesses with bounds checks (`if (i < m && j < n)`); Weft runs a loop
// over a group's work-items without the checks when they hold for all of
// them (compiler/passes/optimizer/usual_case_versions.h) and splits it
// where they change (split_work_item_ranges.h). Each work-item must still
// touch exactly its elements: every element of the output is compared
// with the host's, for sizes that end inside a group, in one or both
// dimensions, and for groups wholly outside, with several work-items'
// worth of elements each (CLBlast's Xger and CopyPadMatrix shapes).
#include "api_fixture.h"

#include <vector>

namespace {

const char *kBounds = R"CLC(
#pragma OPENCL FP_CONTRACT OFF
// A 4 x 4 block of A a work-item, 4 columns of work-items apart: x and A
// both read under i < m, A updated under i < m && j < n.
kernel void rank_one(int m, int n, float alpha, global const float *x,
                     global const float *y, global float *restrict a,
                     int lda) {
  float xs[4], ys[4];
  for (int w = 0; w < 4; ++w) {
    int i = w * get_global_size(0) + get_global_id(0);
    xs[w] = i < m ? x[i] : 0.0f;
    int j = w * get_global_size(1) + get_global_id(1);
    ys[w] = j < n ? y[j] : 0.0f;
  }
  for (int w1 = 0; w1 < 4; ++w1)
    for (int w2 = 0; w2 < 4; ++w2) {
      int i = w1 * get_global_size(0) + get_global_id(0);
      int j = w2 * get_global_size(1) + get_global_id(1);
      if (i < m && j < n)
        a[j * lda + i] += alpha * xs[w1] * ys[w2];
    }
}

// A copy into a larger matrix, zeros past the source: 4 x 2 elements a
// work-item, two bounds on each.
inline void pad_tile(int src_one, int src_two, int src_ld,
                     global const float *restrict src, int dest_one,
                     int dest_two, int dest_ld, global float *dest) {
  for (int w_one = 0; w_one < 4; ++w_one) {
    int id_one = (get_group_id(0) * 4 + w_one) * get_local_size(0) +
                 get_local_id(0);
    for (int w_two = 0; w_two < 2; ++w_two) {
      int id_two = (get_group_id(1) * 2 + w_two) * get_local_size(1) +
                   get_local_id(1);
      if (id_two < dest_two && id_one < dest_one) {
        float value = 0.0f;
        if (id_two < src_two && id_one < src_one)
          value = src[id_two * src_ld + id_one];
        dest[id_two * dest_ld + id_one] = 2.0f * value;
      }
    }
  }
}

kernel void copy_pad(int src_one, int src_two, int src_ld,
                     global const float *restrict src, int dest_one,
                     int dest_two, int dest_ld, global float *dest) {
  pad_tile(src_one, src_two, src_ld, src, dest_one, dest_two, dest_ld, dest);
}

// The same with the group's size fixed and the loops unrolled, as CLBlast
// writes it (the checks then stay in a loop over work-items, versioned for
// the usual case, where the kernel above is widened).
inline void pad_tile_32x8(int src_one, int src_two, int src_ld,
                          global const float *restrict src, int dest_one,
                          int dest_two, int dest_ld, global float *dest) {
#pragma unroll
  for (int w_one = 0; w_one < 4; ++w_one) {
    int id_one = (get_group_id(0) * 4 + w_one) * 32 + get_local_id(0);
#pragma unroll
    for (int w_two = 0; w_two < 2; ++w_two) {
      int id_two = (get_group_id(1) * 2 + w_two) * 8 + get_local_id(1);
      if (id_two < dest_two && id_one < dest_one) {
        float value = 0.0f;
        if (id_two < src_two && id_one < src_one)
          value = src[id_two * src_ld + id_one];
        dest[id_two * dest_ld + id_one] = 2.0f * value;
      }
    }
  }
}

kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void copy_pad_32x8(int src_one, int src_two, int src_ld,
                   global const float *restrict src, int dest_one,
                   int dest_two, int dest_ld, global float *dest) {
  pad_tile_32x8(src_one, src_two, src_ld, src, dest_one, dest_two, dest_ld,
                dest);
}

// The early-return form of a 2-D check.
kernel void scale_or_leave(int w, int h, global const float *in,
                           global float *out) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  out[y * w + x] = in[y * w + x] * 3.0f + (float)x;
}
)CLC";

std::vector<float> ramp(size_t count, float scale) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = float(int(i % 23) - 11) * scale;
  return values;
}

size_t roundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

using BoundsFixture = WeftFixture;

// {m, n, local x, local y}
const int kRankOneShapes[][4] = {{512, 512, 8, 8}, {509, 37, 8, 8},
                                 {37, 509, 16, 4}, {100, 3, 32, 1},
                                 {1, 1, 8, 8},     {257, 129, 4, 16}};

} // namespace

TEST_CASE_METHOD(BoundsFixture,
                 "a rank-one update touches only the elements inside the "
                 "matrix",
                 "[bounds-checks]") {
  cl_kernel k = kernel(kBounds, "rank_one");
  for (auto [m, n, lx, ly] : kRankOneShapes) {
    INFO("m " << m << " n " << n << " local " << lx << "x" << ly);
    int lda = m + 3;
    float alpha = 0.5f;
    std::vector<float> x = ramp(size_t(m), 0.25f), y = ramp(size_t(n), 0.5f);
    std::vector<float> a = ramp(size_t(lda) * size_t(n), 1.0f);
    cl_mem xb = buffer(x.size() * sizeof(float), x.data());
    cl_mem yb = buffer(y.size() * sizeof(float), y.data());
    cl_mem ab = buffer(a.size() * sizeof(float), a.data());
    REQUIRE(clSetKernelArg(k, 0, sizeof m, &m) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof n, &n) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof alpha, &alpha) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof xb, &xb) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 4, sizeof yb, &yb) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 5, sizeof ab, &ab) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 6, sizeof lda, &lda) == CL_SUCCESS);
    // Each work-item covers 4 x 4 elements a quarter of the range apart.
    size_t global[2] = {roundUp((size_t(m) + 3) / 4, size_t(lx)),
                        roundUp((size_t(n) + 3) / 4, size_t(ly))};
    size_t local[2] = {size_t(lx), size_t(ly)};
    REQUIRE(runAndWait(k, 2, global, local) == CL_SUCCESS);
    std::vector<float> expected = a;
    for (size_t w1 = 0; w1 < 4; ++w1)
      for (size_t w2 = 0; w2 < 4; ++w2)
        for (size_t g0 = 0; g0 < global[0]; ++g0)
          for (size_t g1 = 0; g1 < global[1]; ++g1) {
            size_t i = w1 * global[0] + g0, j = w2 * global[1] + g1;
            if (i < size_t(m) && j < size_t(n)) {
              float product = alpha * x[i];
              product = product * y[j];
              expected[j * size_t(lda) + i] += product;
            }
          }
    checkSameValues(readValues<float>(ab, a.size()), expected);
    clReleaseMemObject(xb);
    clReleaseMemObject(yb);
    clReleaseMemObject(ab);
  }
  clReleaseKernel(k);
}

TEST_CASE_METHOD(BoundsFixture,
                 "a padded copy writes zeros past the source and nothing past "
                 "the destination",
                 "[bounds-checks]") {
  cl_kernel any_size = kernel(kBounds, "copy_pad");
  cl_kernel fixed = kernel(kBounds, "copy_pad_32x8");
  // {src one, src two, dest one, dest two, local x, local y}
  const int shapes[][6] = {
      {256, 64, 256, 64, 32, 8}, {200, 50, 256, 64, 32, 8},
      {255, 63, 257, 65, 32, 8}, {1, 1, 300, 20, 32, 8},
      {31, 7, 33, 9, 8, 8},      {1000, 3, 1029, 5, 16, 2}};
  for (auto [src_one, src_two, dest_one, dest_two, lx, ly] : shapes)
    for (cl_kernel k : {any_size, fixed}) {
      if (k == fixed && (lx != 32 || ly != 8))
        continue;
      INFO((k == fixed ? "copy_pad_32x8" : "copy_pad")
           << " src " << src_one << "x" << src_two << " dest " << dest_one
           << "x" << dest_two << " local " << lx << "x" << ly);
      int src_ld = src_one + 1, dest_ld = dest_one + 5;
      std::vector<float> src = ramp(size_t(src_ld) * size_t(src_two), 1.0f);
      // A sentinel everywhere the copy must not write (past each row).
      std::vector<float> dest(size_t(dest_ld) * size_t(dest_two + 1), -99.0f);
      cl_mem sb = buffer(src.size() * sizeof(float), src.data());
      cl_mem db = buffer(dest.size() * sizeof(float), dest.data());
      int args[] = {src_one, src_two, src_ld};
      for (cl_uint a = 0; a < 3; ++a)
        REQUIRE(clSetKernelArg(k, a, sizeof(int), &args[a]) == CL_SUCCESS);
      REQUIRE(clSetKernelArg(k, 3, sizeof sb, &sb) == CL_SUCCESS);
      int dest_args[] = {dest_one, dest_two, dest_ld};
      for (cl_uint a = 0; a < 3; ++a)
        REQUIRE(clSetKernelArg(k, 4 + a, sizeof(int), &dest_args[a]) ==
                CL_SUCCESS);
      REQUIRE(clSetKernelArg(k, 7, sizeof db, &db) == CL_SUCCESS);
      // Each group covers 4 x 2 tiles of its own size.
      size_t groups[2] = {
          (size_t(dest_one) + 4 * size_t(lx) - 1) / (4 * size_t(lx)),
          (size_t(dest_two) + 2 * size_t(ly) - 1) / (2 * size_t(ly))};
      size_t global[2] = {groups[0] * size_t(lx), groups[1] * size_t(ly)};
      size_t local[2] = {size_t(lx), size_t(ly)};
      REQUIRE(runAndWait(k, 2, global, local) == CL_SUCCESS);
      std::vector<float> expected = dest;
      for (int two = 0; two < dest_two; ++two)
        for (int one = 0; one < dest_one; ++one)
          expected[size_t(two) * size_t(dest_ld) + size_t(one)] =
              two < src_two && one < src_one
                  ? 2.0f * src[size_t(two) * size_t(src_ld) + size_t(one)]
                  : 0.0f;
      checkSameValues(readValues<float>(db, dest.size()), expected);
      clReleaseMemObject(sb);
      clReleaseMemObject(db);
    }
  clReleaseKernel(any_size);
  clReleaseKernel(fixed);
}

TEST_CASE_METHOD(BoundsFixture,
                 "work-items past either edge of a 2-D range return at once",
                 "[bounds-checks]") {
  cl_kernel k = kernel(kBounds, "scale_or_leave");
  // {w, h, local x, local y}
  const int shapes[][4] = {
      {64, 64, 16, 4}, {61, 5, 16, 4}, {1, 33, 8, 8}, {130, 1, 64, 1}};
  for (auto [w, h, lx, ly] : shapes) {
    INFO("w " << w << " h " << h << " local " << lx << "x" << ly);
    std::vector<float> in = ramp(size_t(w) * size_t(h), 1.0f);
    std::vector<float> out(size_t(w) * size_t(h) + 64, -1.0f);
    cl_mem ib = buffer(in.size() * sizeof(float), in.data());
    cl_mem ob = buffer(out.size() * sizeof(float), out.data());
    REQUIRE(clSetKernelArg(k, 0, sizeof w, &w) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof h, &h) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof ib, &ib) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof ob, &ob) == CL_SUCCESS);
    size_t global[2] = {roundUp(size_t(w), size_t(lx)),
                        roundUp(size_t(h), size_t(ly))};
    size_t local[2] = {size_t(lx), size_t(ly)};
    REQUIRE(runAndWait(k, 2, global, local) == CL_SUCCESS);
    std::vector<float> expected = out;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        expected[size_t(y) * size_t(w) + size_t(x)] =
            in[size_t(y) * size_t(w) + size_t(x)] * 3.0f + float(x);
    checkSameValues(readValues<float>(ob, out.size()), expected);
    clReleaseMemObject(ib);
    clReleaseMemObject(ob);
  }
  clReleaseKernel(k);
}
