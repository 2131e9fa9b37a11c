// Kernels that take their strides as arguments (BLAS-style `x[i * x_inc +
// x_offset]`, im2col's `stride * w`) must compute the same whatever the
// strides are. Weft compiles such a kernel twice, once with the strides
// that multiply a work-item's index fixed at 1 (compiler/passes/kernels/
// unit_stride_variants.h), and runs that copy only when every one of them
// is 1 at the launch: each case here runs with all strides 1, with some,
// and with none, in grid-stride loops (each work-item steps its index by
// the global size, leaving when it passes n) and in kernels without loops,
// and compares every element with the host.
#include "api_fixture.h"

#include <cstdint>
#include <vector>

namespace {

const char *kStrided = R"CLC(
// The host reference rounds the product and the sum apart.
#pragma OPENCL FP_CONTRACT OFF
kernel void strided_axpy(int n, float a, global const float *x, int x_offset,
                         int x_inc, global float *y, int y_offset, int y_inc) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    y[i * y_inc + y_offset] += a * x[i * x_inc + x_offset];
}

kernel void strided_copy(global int *dst, long dst_inc, global const int *src,
                         long src_inc, int n) {
  int i = get_global_id(0);
  if (i < n)
    dst[i * dst_inc] = src[i * src_inc] * 3 + i;
}
)CLC";

struct StrideFixture : WeftFixture {
  void axpy(int n, int x_offset, int x_inc, int y_offset, int y_inc,
            size_t global, size_t local) {
    INFO("n " << n << " x " << x_offset << "+i*" << x_inc << " y " << y_offset
              << "+i*" << y_inc << " global " << global << " local "
              << local);
    cl_kernel k = kernel(kStrided, "strided_axpy", "-cl-std=CL3.0");
    size_t x_len = size_t(x_offset) + size_t(n) * size_t(x_inc) + 1;
    size_t y_len = size_t(y_offset) + size_t(n) * size_t(y_inc) + 1;
    std::vector<float> x(x_len), y(y_len);
    for (size_t i = 0; i < x_len; ++i)
      x[i] = float(int(i * 37 % 1001) - 500) * 0.25f;
    for (size_t i = 0; i < y_len; ++i)
      y[i] = float(int(i * 11 % 999) - 499) * 0.5f;
    cl_mem xb = buffer(x_len * sizeof(float), x.data());
    cl_mem yb = buffer(y_len * sizeof(float), y.data());
    const float a = 1.5f;
    REQUIRE(clSetKernelArg(k, 0, sizeof n, &n) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof a, &a) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof xb, &xb) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof x_offset, &x_offset) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 4, sizeof x_inc, &x_inc) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 5, sizeof yb, &yb) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 6, sizeof y_offset, &y_offset) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 7, sizeof y_inc, &y_inc) == CL_SUCCESS);
    REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
    std::vector<float> got(y_len);
    REQUIRE(clEnqueueReadBuffer(queue, yb, CL_TRUE, 0, y_len * sizeof(float),
                                got.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    std::vector<float> expected = y;
    for (int i = 0; i < n; ++i) {
      volatile float product = a * x[size_t(i * x_inc + x_offset)];
      expected[size_t(i * y_inc + y_offset)] += product;
    }
    size_t wrong = 0, first_wrong = 0;
    for (size_t i = 0; i < y_len; ++i)
      if (got[i] != expected[i] && wrong++ == 0)
        first_wrong = i;
    INFO("first wrong element " << first_wrong << ": got " << got[first_wrong]
                                << ", expected " << expected[first_wrong]);
    CHECK(wrong == 0);
    clReleaseMemObject(xb);
    clReleaseMemObject(yb);
    clReleaseKernel(k);
  }

  void copy(int n, cl_long dst_inc, cl_long src_inc, size_t global,
            size_t local) {
    INFO("n " << n << " dst_inc " << dst_inc << " src_inc " << src_inc
              << " global " << global << " local " << local);
    cl_kernel k = kernel(kStrided, "strided_copy", "-cl-std=CL3.0");
    size_t dst_len = size_t(n) * size_t(dst_inc) + 1;
    size_t src_len = size_t(n) * size_t(src_inc) + 1;
    std::vector<cl_int> src(src_len), dst(dst_len, -12345);
    for (size_t i = 0; i < src_len; ++i)
      src[i] = cl_int(i * 7919 % 4093) - 2000;
    cl_mem sb = buffer(src_len * sizeof(cl_int), src.data());
    cl_mem db = buffer(dst_len * sizeof(cl_int), dst.data());
    REQUIRE(clSetKernelArg(k, 0, sizeof db, &db) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof dst_inc, &dst_inc) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof sb, &sb) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof src_inc, &src_inc) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 4, sizeof n, &n) == CL_SUCCESS);
    REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
    std::vector<cl_int> got(dst_len);
    REQUIRE(clEnqueueReadBuffer(queue, db, CL_TRUE, 0,
                                dst_len * sizeof(cl_int), got.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_int> expected = dst;
    for (int i = 0; i < n && size_t(i) < global; ++i)
      expected[size_t(i * dst_inc)] = src[size_t(i * src_inc)] * 3 + i;
    size_t wrong = 0;
    for (size_t i = 0; i < dst_len; ++i)
      wrong += got[i] != expected[i];
    CHECK(wrong == 0);
    clReleaseMemObject(sb);
    clReleaseMemObject(db);
    clReleaseKernel(k);
  }
};

// Strides: both 1 (the copy with 1s), one of them 1, neither.
const int kStrides[][2] = {{1, 1}, {1, 3}, {2, 1}, {4, 2}};

} // namespace

TEST_CASE_METHOD(StrideFixture,
                 "grid-stride loops with strides given as arguments",
                 "[stride-arguments]") {
  for (auto [x_inc, y_inc] : kStrides) {
    // n a multiple of the global size, not one, and below it.
    axpy(4096, 0, x_inc, 0, y_inc, 1024, 64);
    axpy(10007, 3, x_inc, 5, y_inc, 1024, 64);
    axpy(777, 1, x_inc, 0, y_inc, 1000, 100);
    axpy(50, 0, x_inc, 2, y_inc, 64, 64);
  }
}

TEST_CASE_METHOD(StrideFixture,
                 "kernels without loops with long strides given as arguments",
                 "[stride-arguments]") {
  for (auto [dst_inc, src_inc] : kStrides) {
    copy(4096, dst_inc, src_inc, 4096, 64);
    copy(1000, dst_inc, src_inc, 1024, 128);
    copy(33, dst_inc, src_inc, 33, 11);
  }
}
