// Half precision (cl_khr_fp16) against float, on Weft and PoCL side by
// side: z = a*x + y and a dot product over 16Mi elements, each in float and
// in half. Half moves half the bytes, so where memory bound it should take
// about half the time. Drivers without cl_khr_fp16 run the float kernels
// only. Inputs are small integers, exact in half, so every result compares
// exactly with the host's.
#include "kernel_bench.h"

#include <cmath>
#include <cstring>

namespace {

constexpr size_t kItems = size_t(1) << 24;
constexpr size_t kChunk = 64; // elements each work-item of the dot sums

const char *kAxpyFloat = R"CLC(
kernel void axpy(float a, global const float *x, global const float *y,
                 global float *z) {
  size_t i = get_global_id(0);
  z[i] = a * x[i] + y[i];
}
)CLC";

const char *kAxpyHalf = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void axpy(half a, global const half *x, global const half *y,
                 global half *z) {
  size_t i = get_global_id(0);
  z[i] = a * x[i] + y[i];
}
)CLC";

// Each work-item sums the products of one chunk (the kernel is not named
// dot, which is a builtin's name); the sum is in float for
// both (half inputs, float accumulation, as BLAS half routines do).
const char *kDotFloat = R"CLC(
kernel void dot_product(global const float *x, global const float *y,
                global float *partial) {
  size_t g = get_global_id(0);
  const global float *a = x + g * 64, *b = y + g * 64;
  float sum = 0.0f;
  for (int i = 0; i < 64; ++i)
    sum += a[i] * b[i];
  partial[g] = sum;
}
)CLC";

const char *kDotHalf = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void dot_product(global const half *x, global const half *y,
                global float *partial) {
  size_t g = get_global_id(0);
  const global half *a = x + g * 64, *b = y + g * 64;
  float sum = 0.0f;
  for (int i = 0; i < 64; ++i)
    sum += (float)a[i] * (float)b[i];
  partial[g] = sum;
}
)CLC";

const std::vector<float> &inputX() {
  static std::vector<float> v = smallIntegers(kItems, 3, 16);
  return v;
}
const std::vector<float> &inputY() {
  static std::vector<float> v = smallIntegers(kItems, 11, 16);
  return v;
}

std::vector<cl_half> asHalves(const std::vector<float> &values) {
  std::vector<cl_half> halves(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    halves[i] = toHalf(values[i]);
  return halves;
}

Benchmark axpy(const char *name, bool half) {
  static std::vector<float> expected;
  expected.resize(kItems);
  for (size_t i = 0; i < kItems; ++i)
    expected[i] = 2.0f * inputX()[i] + inputY()[i];
  Benchmark bm;
  bm.name = name;
  bm.unit = "GB/s";
  bm.work = kItems * (half ? 6.0 : 12.0);
  bm.needs = half ? "cl_khr_fp16" : "";
  bm.setup = [=](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, half ? kAxpyHalf : kAxpyFloat, "axpy", error))
      return false;
    cl_mem x, y, z;
    if (half) {
      x = bufferWith(d, asHalves(inputX()));
      y = bufferWith(d, asHalves(inputY()));
      z = bufferOf(d, kItems * 2);
      cl_half a = toHalf(2.0f);
      clSetKernelArg(in.kernel, 0, sizeof a, &a);
    } else {
      x = bufferWith(d, inputX());
      y = bufferWith(d, inputY());
      z = bufferOf(d, kItems * 4);
      float a = 2.0f;
      clSetKernelArg(in.kernel, 0, sizeof a, &a);
    }
    in.buffers = {x, y, z};
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &x);
    clSetKernelArg(in.kernel, 2, sizeof(cl_mem), &y);
    clSetKernelArg(in.kernel, 3, sizeof(cl_mem), &z);
    in.global[0] = kItems;
    in.local[0] = 256;
    in.verify = [&d, z, half](int) {
      if (half)
        return compareExact(readBack<cl_half>(d, z, kItems), asHalves(expected),
                            "halves");
      return compareExact(readBack<float>(d, z, kItems), expected, "elements");
    };
    return true;
  };
  return bm;
}

Benchmark dot(const char *name, bool half) {
  static std::vector<float> expected;
  expected.assign(kItems / kChunk, 0.0f);
  for (size_t i = 0; i < kItems; ++i)
    expected[i / kChunk] += inputX()[i] * inputY()[i];
  Benchmark bm;
  bm.name = name;
  bm.unit = "GB/s";
  bm.work = kItems * (half ? 4.0 : 8.0);
  bm.needs = half ? "cl_khr_fp16" : "";
  bm.setup = [=](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, half ? kDotHalf : kDotFloat, "dot_product", error))
      return false;
    cl_mem x =
        half ? bufferWith(d, asHalves(inputX())) : bufferWith(d, inputX());
    cl_mem y =
        half ? bufferWith(d, asHalves(inputY())) : bufferWith(d, inputY());
    cl_mem partial = bufferOf(d, kItems / kChunk * 4);
    in.buffers = {x, y, partial};
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &x);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &y);
    clSetKernelArg(in.kernel, 2, sizeof(cl_mem), &partial);
    in.global[0] = kItems / kChunk;
    in.local[0] = 64;
    in.verify = [&d, partial](int) {
      return compareExact(readBack<float>(d, partial, expected.size()),
                          expected, "partial sums");
    };
    return true;
  };
  return bm;
}

} // namespace

int main(int argc, char **argv) {
  Runner runner(driversFromArguments(argc, argv), 6.0);
  if (runner.drivers().empty())
    return 1;
  std::printf("Half precision against float, 16Mi elements: median wall time "
              "of enqueue + clFinish per launch; ratio = first driver's "
              "throughput / second's\n");
  runner.header();
  const char *axpy_float = "axpy, float";
  const char *axpy_half = "axpy, half";
  const char *dot_float = "dot, float";
  const char *dot_half = "dot, half in, float sum";
  runner.run(axpy(axpy_float, false));
  runner.run(axpy(axpy_half, true));
  runner.run(dot(dot_float, false));
  runner.run(dot(dot_half, true));
  std::printf("\nSpeed-ups of half over float (time of float / time of "
              "half; 2.00 = half the bytes, half the time):\n");
  for (const Driver &d : runner.drivers()) {
    runner.compare("axpy, " + d.label, axpy_half, d.label, axpy_float, d.label);
    runner.compare("dot, " + d.label, dot_half, d.label, dot_float, d.label);
  }
  if (runner.drivers().size() == 2) {
    const std::string a = runner.drivers()[0].label,
                      b = runner.drivers()[1].label;
    runner.compare("axpy: " + a + " half vs " + b + " float", axpy_half, a,
                   axpy_float, b);
    runner.compare("dot: " + a + " half vs " + b + " float", dot_half, a,
                   dot_float, b);
  }
  return runner.exitStatus("half_bench");
}
