// Half precision (cl_khr_fp16), from the OpenCL C spec's conversion rules
// and the extension's table of builtins: conversions to half in every
// rounding mode at the places where they differ (ties, the overflow
// threshold, subnormals, a double whose float rounding would land on a
// tie), conversions from half with saturation, subnormal arithmetic, NaN
// payloads through nan() and conversions, fma rounded once, nextafter,
// half kernel arguments and half inside structs, and the device's half
// queries.
#include "api_fixture.h"

#include <CL/cl_ext.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Each work-item converts input i (a double) to half in the four modes, and
// also from the float nearest to it.
const char *kConversions = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void to_half(global const double *in, global ushort *out) {
  size_t i = get_global_id(0);
  double d = in[i];
  float f = (float)d;
  global ushort *o = out + 8 * i;
  o[0] = as_ushort(convert_half_rte(d));
  o[1] = as_ushort(convert_half_rtz(d));
  o[2] = as_ushort(convert_half_rtp(d));
  o[3] = as_ushort(convert_half_rtn(d));
  o[4] = as_ushort(convert_half(f));
  o[5] = as_ushort(convert_half_rtz(f));
  o[6] = as_ushort(convert_half_rtp(f));
  o[7] = as_ushort(convert_half_rtn(f));
}
)CLC";

struct ToHalf {
  double value;
  uint16_t rte, rtz, rtp, rtn; // from the double
};

// The expected halves, worked out by hand from half's layout (1 sign, 5
// exponent bits biased by 15, 10 fraction bits).
const ToHalf kToHalf[] = {
    {1.0, 0x3c00, 0x3c00, 0x3c00, 0x3c00},
    // 1 + 2^-11 is the tie between 1 and 1 + 2^-10: even is 1.
    {1.0 + 0x1p-11, 0x3c00, 0x3c00, 0x3c01, 0x3c00},
    {-(1.0 + 0x1p-11), 0xbc00, 0xbc00, 0xbc00, 0xbc01},
    // Just above the tie: a double rounded to float first would land on
    // the tie and round to even; rounded once it goes up.
    {1.0 + 0x1p-11 + 0x1p-40, 0x3c01, 0x3c00, 0x3c01, 0x3c00},
    // The largest half, and the overflow threshold 65520.
    {65504.0, 0x7bff, 0x7bff, 0x7bff, 0x7bff},
    {65519.0, 0x7bff, 0x7bff, 0x7c00, 0x7bff},
    {65520.0, 0x7c00, 0x7bff, 0x7c00, 0x7bff},
    {-1e10, 0xfc00, 0xfbff, 0xfbff, 0xfc00},
    {INFINITY, 0x7c00, 0x7c00, 0x7c00, 0x7c00},
    // Subnormals: 2^-24 is the smallest; 2^-25 is the tie with 0.
    {0x1p-24, 0x0001, 0x0001, 0x0001, 0x0001},
    {0x1p-25, 0x0000, 0x0000, 0x0001, 0x0000},
    {0x1.8p-24, 0x0002, 0x0001, 0x0002, 0x0001},
    {-0x1p-30, 0x8000, 0x8000, 0x8000, 0x8001},
    {0x1p-14 - 0x1p-25, 0x0400, 0x03ff, 0x0400, 0x03ff},
    {0.1, 0x2e66, 0x2e66, 0x2e67, 0x2e66},
    {-0.0, 0x8000, 0x8000, 0x8000, 0x8000},
};

const char *kFromHalf = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void from_half(global const ushort *in, global int *out) {
  size_t i = get_global_id(0);
  half h = as_half(in[i]);
  global int *o = out + 8 * i;
  o[0] = convert_int_sat(h);
  o[1] = convert_int_sat_rte(h);
  o[2] = convert_int_sat_rtp(h);
  o[3] = convert_int_sat_rtn(h);
  o[4] = convert_char_sat(h);
  o[5] = convert_uchar_sat(h);
  o[6] = as_int(convert_float(h));
  o[7] = (int)isnan(h) + 2 * (int)isinf(h) + 4 * (int)signbit(h);
}
)CLC";

const char *kArithmetic = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef struct {
  char tag;
  half a;
  float b;
  half c;
} Mixed;
kernel void arithmetic(half scale, global Mixed *mixed, global ushort *out) {
  half tiny = as_half((ushort)0x0001); // 2^-24
  half v = 1.0h;
  out[0] = as_ushort(tiny * 0.5h);           // tie with 0: even, 0
  out[1] = as_ushort(tiny + tiny);           // 2^-23
  out[2] = as_ushort(tiny * (half)1.5h);     // 1.5 * 2^-24: tie, even 2^-23
  out[3] = as_ushort(nan((ushort)0x0155));   // quiet NaN with payload
  out[4] = as_ushort(convert_half(convert_float(as_half((ushort)0x7e55))));
  // fma rounds once: (1 + 2^-10)(1 - 2^-10) - 1 = -2^-20 exactly, which
  // a product rounded to half first would make 0.
  half e = as_half((ushort)0x3c01), f = as_half((ushort)0x3bfe);
  out[5] = as_ushort(fma(e, f, -v));
  out[6] = as_ushort(nextafter(v, 2.0h));
  out[7] = as_ushort(nextafter((half)0.0h, -1.0h));
  out[8] = as_ushort(nextafter(-v, (half)0.0h));
  out[9] = as_ushort(scale * mixed->a + mixed->c);
  out[10] = as_ushort((half)mixed->b);
  out[11] = as_ushort(sqrt((half)2.0h));
  out[12] = as_ushort(fabs(as_half((ushort)0xfe55))); // keeps the payload
  out[13] = (ushort)sizeof(Mixed);
  mixed->c = (half)mixed->tag;
  vstore_half_rtz(65535.0f, 14, (global half *)out);
  vstore_half_rtp(65505.0f, 15, (global half *)out);
}
)CLC";

struct MixedHost {
  cl_char tag;
  cl_half a;
  cl_float b;
  cl_half c;
};

} // namespace

TEST_CASE_METHOD(WeftFixture, "the device reports half precision", "[half]") {
  size_t length = 0;
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &length);
  std::string extensions(length, '\0');
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, length, extensions.data(),
                  nullptr);
  CHECK(extensions.find("cl_khr_fp16") != std::string::npos);
  cl_device_fp_config config = 0;
  clGetDeviceInfo(device, CL_DEVICE_HALF_FP_CONFIG, sizeof config, &config,
                  nullptr);
  CHECK(config ==
        (CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA));
  cl_uint width = 0;
  clGetDeviceInfo(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof width,
                  &width, nullptr);
  CHECK(width >= 4);
}

TEST_CASE_METHOD(WeftFixture,
                 "conversions to half round in every mode at ties, overflow "
                 "and subnormals, doubles once",
                 "[half]") {
  cl_kernel k = kernel(kConversions, "to_half", "-cl-std=CL3.0");
  size_t n = sizeof kToHalf / sizeof kToHalf[0];
  std::vector<double> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = kToHalf[i].value;
  cl_mem in_buffer = buffer(n * sizeof(double), in.data());
  cl_mem out_buffer = buffer(n * 8 * sizeof(uint16_t));
  clSetKernelArg(k, 0, sizeof in_buffer, &in_buffer);
  clSetKernelArg(k, 1, sizeof out_buffer, &out_buffer);
  REQUIRE(runAndWait(k, 1, &n, nullptr) == CL_SUCCESS);
  std::vector<uint16_t> out(n * 8);
  clEnqueueReadBuffer(queue, out_buffer, CL_TRUE, 0, out.size() * 2, out.data(),
                      0, nullptr, nullptr);
  for (size_t i = 0; i < n; ++i) {
    const ToHalf &row = kToHalf[i];
    INFO("value " << row.value << " (row " << i << ")");
    CHECK(out[8 * i + 0] == row.rte);
    CHECK(out[8 * i + 1] == row.rtz);
    CHECK(out[8 * i + 2] == row.rtp);
    CHECK(out[8 * i + 3] == row.rtn);
    // From the float nearest the value: the same halves, but for the row
    // whose float is the tie itself (rounded to even, 1).
    if (row.value == 1.0 + 0x1p-11 + 0x1p-40) {
      CHECK(out[8 * i + 4] == 0x3c00);
      continue;
    }
    CHECK(out[8 * i + 4] == row.rte);
    CHECK(out[8 * i + 5] == row.rtz);
    CHECK(out[8 * i + 6] == row.rtp);
    CHECK(out[8 * i + 7] == row.rtn);
  }
  clReleaseMemObject(in_buffer);
  clReleaseMemObject(out_buffer);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "conversions from half saturate and classify NaN, infinity "
                 "and signs",
                 "[half]") {
  cl_kernel k = kernel(kFromHalf, "from_half", "-cl-std=CL3.0");
  const uint16_t in[] = {0x3c00 /* 1 */,    0xb800 /* -0.5 */,
                         0x4170 /* 2.72 */, 0x7c00 /* inf */,
                         0xfc00 /* -inf */, 0x7e01 /* NaN */,
                         0x5bd0 /* 250 */,  0x0001 /* 2^-24 */};
  size_t n = sizeof in / sizeof in[0];
  cl_mem in_buffer = buffer(sizeof in, const_cast<uint16_t *>(in));
  cl_mem out_buffer = buffer(n * 8 * sizeof(cl_int));
  clSetKernelArg(k, 0, sizeof in_buffer, &in_buffer);
  clSetKernelArg(k, 1, sizeof out_buffer, &out_buffer);
  REQUIRE(runAndWait(k, 1, &n, nullptr) == CL_SUCCESS);
  std::vector<cl_int> out(n * 8);
  clEnqueueReadBuffer(queue, out_buffer, CL_TRUE, 0, out.size() * 4, out.data(),
                      0, nullptr, nullptr);
  auto row = [&](size_t i) {
    return std::vector<cl_int>(out.begin() + 8 * i, out.begin() + 8 * i + 8);
  };
  auto floatBits = [](float f) {
    cl_int bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  };
  CHECK(row(0) == std::vector<cl_int>{1, 1, 1, 1, 1, 1, floatBits(1.0f), 0});
  CHECK(row(1) == std::vector<cl_int>{0, 0, 0, -1, 0, 0, floatBits(-0.5f), 4});
  CHECK(row(2) ==
        std::vector<cl_int>{2, 3, 3, 2, 2, 2, floatBits(2.71875f), 0});
  CHECK(row(3) == std::vector<cl_int>{INT32_MAX, INT32_MAX, INT32_MAX,
                                      INT32_MAX, 127, 255, floatBits(INFINITY),
                                      2});
  CHECK(row(4) == std::vector<cl_int>{INT32_MIN, INT32_MIN, INT32_MIN,
                                      INT32_MIN, -128, 0, floatBits(-INFINITY),
                                      6});
  // NaN converts to 0 with saturation; to float it keeps its payload.
  CHECK(row(5) == std::vector<cl_int>{0, 0, 0, 0, 0, 0, cl_int(0x7fc02000), 1});
  CHECK(row(6) == std::vector<cl_int>{250, 250, 250, 250, 127, 250,
                                      floatBits(250.0f), 0});
  CHECK(row(7) ==
        std::vector<cl_int>{0, 0, 1, 0, 0, 0, floatBits(0x1p-24f), 0});
  clReleaseMemObject(in_buffer);
  clReleaseMemObject(out_buffer);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "half arithmetic: subnormals, NaN payloads, fma rounded "
                 "once, nextafter, half arguments and halves in structs",
                 "[half]") {
  cl_kernel k = kernel(kArithmetic, "arithmetic", "-cl-std=CL3.0");
  cl_half scale = 0x4000; // 2
  MixedHost mixed{7, 0x3c00 /* 1 */, 0.1f, 0x3800 /* 0.5 */};
  cl_mem mixed_buffer = buffer(sizeof mixed, &mixed);
  cl_mem out_buffer = buffer(16 * sizeof(uint16_t));
  REQUIRE(clSetKernelArg(k, 0, sizeof scale, &scale) == CL_SUCCESS);
  clSetKernelArg(k, 1, sizeof mixed_buffer, &mixed_buffer);
  clSetKernelArg(k, 2, sizeof out_buffer, &out_buffer);
  size_t one = 1;
  REQUIRE(runAndWait(k, 1, &one, nullptr) == CL_SUCCESS);
  uint16_t out[16];
  clEnqueueReadBuffer(queue, out_buffer, CL_TRUE, 0, sizeof out, out, 0,
                      nullptr, nullptr);
  clEnqueueReadBuffer(queue, mixed_buffer, CL_TRUE, 0, sizeof mixed, &mixed, 0,
                      nullptr, nullptr);
  CHECK(out[0] == 0x0000);
  CHECK(out[1] == 0x0002);
  CHECK(out[2] == 0x0002);
  CHECK(out[3] == 0x7f55);
  CHECK(out[4] == 0x7e55);
  CHECK(out[5] == 0x8010); // -2^-20, a subnormal: -16 * 2^-24
  CHECK(out[6] == 0x3c01);
  CHECK(out[7] == 0x8001);
  CHECK(out[8] == 0xbbff);
  CHECK(out[9] == 0x4100); // 2 * 1 + 0.5 = 2.5
  CHECK(out[10] == 0x2e66);
  CHECK(out[11] == 0x3da8); // sqrt(2) = 1.4142 -> 0x3da8
  CHECK(out[12] == 0x7e55);
  CHECK(out[13] == sizeof(MixedHost));
  CHECK(out[14] == 0x7bff); // 65535 toward zero: the largest half
  CHECK(out[15] == 0x7c00); // 65505 toward +inf: infinity
  CHECK(mixed.c == 0x4700); // 7
  clReleaseMemObject(mixed_buffer);
  clReleaseMemObject(out_buffer);
  clReleaseKernel(k);
}
