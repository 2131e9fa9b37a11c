// C++ for OpenCL (cl_ext_cxx_for_opencl; the C++ for OpenCL 1.0 and 2021
// documentation): templates, classes with address-space-qualified methods,
// operator overloading, references, namespaces, lambdas and constexpr, in
// kernels with loops of their own (widened across work-items) and with
// barriers (regions, or fibers under WEFT_BARRIERS=fibers), against the
// host's answers; the language versions; program-scope objects built by
// constructors; and what a C++ build refuses.
#include "api_fixture.h"

#include <CL/cl_ext.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

const char *kCxxKernels = R"CLC(
namespace weft_test {

template <typename T, int N> struct Vec {
  T v[N];
  T dot(const Vec &other) const {
    T sum = 0;
    for (int i = 0; i < N; ++i)
      sum += v[i] * other.v[i];
    return sum;
  }
};

// The same method for private and global objects: the address space of
// `this` picks the overload.
struct Counter {
  int count;
  int bump() __private { return count += 1; }
  int bump() __global { return count += 100; }
};

template <typename T> T square(T x) { return x * x; }

struct Complex {
  float re, im;
  Complex operator*(const Complex &o) const {
    return {re * o.re - im * o.im, re * o.im + im * o.re};
  }
  Complex operator+(const Complex &o) const { return {re + o.re, im + o.im}; }
};

constexpr int kSteps = 12;

} // namespace weft_test

using namespace weft_test;

// A loop per work-item: a template dot product, a lambda, constexpr bounds.
__kernel void templates(__global const float *in, __global float *out,
                        __global int *counters) {
  size_t i = get_global_id(0);
  Vec<float, 4> a, b;
  for (int k = 0; k < 4; ++k) {
    a.v[k] = in[4 * i + k];
    b.v[k] = (float)(k + 1);
  }
  auto scale = [](float x, float by) { return x * by; };
  float acc = 0.0f;
  for (int step = 0; step < kSteps; ++step)
    acc += scale(a.dot(b), (float)step);
  out[i] = acc + square(2.0f) + (float)square<int>((int)i % 3);
  Counter mine{(int)i};
  int here = mine.bump();
  counters[i] = here * 1000 + counters[i];
  counters[i] = counters[i] + (&counters[i] == &counters[i] ? 0 : 1);
}

// Global objects through references and the global method.
__kernel void global_methods(__global Counter *counters) {
  size_t i = get_global_id(0);
  __global Counter &mine = counters[i];
  mine.bump();
  mine.bump();
}

// Barriers between phases, a class value kept across them.
__kernel void mandel_steps(__global float2 *z_out, __local Complex *scratch) {
  size_t l = get_local_id(0), n = get_local_size(0);
  Complex c{(float)l / (float)n - 0.5f, 0.25f};
  Complex z{0.0f, 0.0f};
  for (int step = 0; step < 8; ++step)
    z = z * z + c;
  scratch[l] = z;
  barrier(CLK_LOCAL_MEM_FENCE);
  Complex mirrored = scratch[n - 1 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
  Complex sum = z + mirrored;
  z_out[get_global_id(0)] = (float2)(sum.re, sum.im);
}
)CLC";

struct Complex {
  float re, im;
  Complex operator*(const Complex &o) const {
    return {re * o.re - im * o.im, re * o.im + im * o.re};
  }
  Complex operator+(const Complex &o) const { return {re + o.re, im + o.im}; }
};

} // namespace

TEST_CASE_METHOD(WeftFixture,
                 "C++ for OpenCL: templates, classes, address-space methods, "
                 "on every execution path",
                 "[cxx]") {
  REQUIRE(hasExtension("cl_ext_cxx_for_opencl"));
  cl_version version = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT,
                          sizeof version, &version, nullptr) == CL_SUCCESS);
  CHECK(version == CL_MAKE_VERSION(1, 0, 0));

  for (const char *std : {"-cl-std=CLC++", "-cl-std=CLC++2021"}) {
    INFO(std);
    const size_t items = 200;
    std::vector<float> in(items * 4);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = float(i % 17) * 0.25f;
    std::vector<cl_int> counters(items);
    for (size_t i = 0; i < items; ++i)
      counters[i] = cl_int(i * 7);
    cl_mem in_buffer = buffer(in.size() * 4, in.data());
    cl_mem out = buffer(items * 4);
    cl_mem counter_buffer = buffer(items * 4, counters.data());
    cl_kernel k = kernel(kCxxKernels, "templates", std);
    clSetKernelArg(k, 0, sizeof(cl_mem), &in_buffer);
    clSetKernelArg(k, 1, sizeof(cl_mem), &out);
    clSetKernelArg(k, 2, sizeof(cl_mem), &counter_buffer);
    REQUIRE(runAndWait(k, 1, &items, nullptr) == CL_SUCCESS);
    std::vector<float> got(items);
    clEnqueueReadBuffer(queue, out, CL_TRUE, 0, items * 4, got.data(), 0,
                        nullptr, nullptr);
    std::vector<cl_int> got_counters = readInts(counter_buffer, items);
    for (size_t i = 0; i < items; ++i) {
      float dot = 0;
      for (int k = 0; k < 4; ++k)
        dot += in[4 * i + k] * float(k + 1);
      float acc = 0;
      for (int step = 0; step < 12; ++step)
        acc += dot * float(step);
      float expected = acc + 4.0f + float((i % 3) * (i % 3));
      INFO("work-item " << i);
      CHECK(got[i] == expected);
      // The private overload of bump: count + 1.
      CHECK(got_counters[i] == cl_int(i + 1) * 1000 + cl_int(i * 7));
    }

    // The global overload, twice: +200.
    cl_kernel g = kernel(kCxxKernels, "global_methods", std);
    clSetKernelArg(g, 0, sizeof(cl_mem), &counter_buffer);
    REQUIRE(runAndWait(g, 1, &items, nullptr) == CL_SUCCESS);
    std::vector<cl_int> bumped = readInts(counter_buffer, items);
    for (size_t i = 0; i < items; ++i)
      CHECK(bumped[i] == got_counters[i] + 200);

    cl_kernel m = kernel(kCxxKernels, "mandel_steps", std);
    const size_t group = 32, total = 128;
    cl_mem z = buffer(total * 8);
    clSetKernelArg(m, 0, sizeof(cl_mem), &z);
    clSetKernelArg(m, 1, group * sizeof(Complex), nullptr);
    REQUIRE(runAndWait(m, 1, &total, &group) == CL_SUCCESS);
    std::vector<float> zs(total * 2);
    clEnqueueReadBuffer(queue, z, CL_TRUE, 0, total * 8, zs.data(), 0, nullptr,
                        nullptr);
    auto orbit = [](size_t l) {
      Complex c{float(l) / 32.0f - 0.5f, 0.25f}, v{0, 0};
      for (int step = 0; step < 8; ++step)
        v = v * v + c;
      return v;
    };
    for (size_t i = 0; i < total; ++i) {
      size_t l = i % group;
      Complex expected = orbit(l) + orbit(group - 1 - l);
      INFO("work-item " << i);
      // Contracted multiply-adds may round differently on either side.
      CHECK(std::fabs(zs[2 * i] - expected.re) <= 1e-4f);
      CHECK(std::fabs(zs[2 * i + 1] - expected.im) <= 1e-4f);
    }
    for (cl_mem b : {in_buffer, out, counter_buffer, z})
      clReleaseMemObject(b);
    for (cl_kernel kk : {k, g, m})
      clReleaseKernel(kk);
  }
}

TEST_CASE_METHOD(WeftFixture,
                 "C++ for OpenCL: language versions, constructed program "
                 "objects, refused sources",
                 "[cxx]") {
  const char *versions = R"CLC(
__kernel void version(__global int *out) { out[0] = __OPENCL_CPP_VERSION__; }
)CLC";
  const struct {
    const char *option;
    cl_int value;
  } kVersions[] = {{"-cl-std=CLC++", 100},
                   {"-cl-std=CLC++1.0", 100},
                   {"-cl-std=CLC++2021", 202100}};
  cl_mem out = buffer(16);
  for (const auto &v : kVersions) {
    INFO(v.option);
    cl_kernel k = kernel(versions, "version", v.option);
    clSetKernelArg(k, 0, sizeof(cl_mem), &out);
    size_t one = 1;
    REQUIRE(runAndWait(k, 1, &one, nullptr) == CL_SUCCESS);
    CHECK(readInts(out, 1)[0] == v.value);
    clReleaseKernel(k);
  }

  // A program-scope object with a constructor is built before any kernel
  // of its program runs.
  const char *constructed = R"CLC(
struct Table {
  int entries[4];
  Table(int base) {
    for (int i = 0; i < 4; ++i)
      entries[i] = base * (i + 1);
  }
};
__global Table table(7);
__kernel void read_table(__global int *out) {
  out[get_global_id(0)] = table.entries[get_global_id(0)];
}
)CLC";
  cl_kernel k = kernel(constructed, "read_table", "-cl-std=CLC++");
  clSetKernelArg(k, 0, sizeof(cl_mem), &out);
  size_t four = 4;
  REQUIRE(runAndWait(k, 1, &four, nullptr) == CL_SUCCESS);
  std::vector<cl_int> entries = readInts(out, 4);
  CHECK(entries == std::vector<cl_int>{7, 14, 21, 28});
  clReleaseKernel(k);

  // C++ that C++ for OpenCL leaves out gets a build log, not a crash.
  cl_program program;
  std::string log;
  const char *virtuals = R"CLC(
struct Base { virtual int f() { return 1; } };
__kernel void k(__global int *out) { Base b; out[0] = b.f(); }
)CLC";
  CHECK(build(virtuals, program, log, "-cl-std=CLC++") ==
        CL_BUILD_PROGRAM_FAILURE);
  CHECK(log.find("virtual") != std::string::npos);
  clReleaseProgram(program);
  CHECK(build(versions, program, log, "-cl-std=CLC++17") ==
        CL_INVALID_BUILD_OPTIONS);
  clReleaseProgram(program);
  clReleaseMemObject(out);
}
