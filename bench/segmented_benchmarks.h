// A sum and an inclusive scan of every run of `segment` floats of 16Mi,
// launched in groups of 256: the rows that collectives_bench (work-group
// functions, runs of 256) and subgroup_bench (sub-group functions, runs of
// 16) set beside the same written with __local memory and barriers. The
// kernels take (input, output) and, when `local_arg`, a __local float per
// work-item; results compare exactly (small integers).
#pragma once
#include "kernel_bench.h"

#include <memory>

namespace segmented {

constexpr size_t kItems = size_t(1) << 24;
constexpr size_t kGroup = 256;

// A group's sum by work_group_reduce_add (its `reduce`, runs of kGroup),
// and the plain copy that sets the bandwidth ceiling (its `copy`).
inline const char *kReduceCollective = R"CLC(
kernel void reduce(global const float *in, global float *sums) {
  float sum = work_group_reduce_add(in[get_global_id(0)]);
  if (get_local_id(0) == 0)
    sums[get_group_id(0)] = sum;
}
)CLC";

inline const char *kCopy = R"CLC(
kernel void copy(global const float *in, global float *out) {
  out[get_global_id(0)] = in[get_global_id(0)];
}
)CLC";

inline std::vector<float> &input() {
  static std::vector<float> data = smallIntegers(kItems, 7, 16);
  return data;
}

// Binds the input and `out`, and a __local float per work-item when asked.
inline bool bind(const Driver &d, Instance &in, const char *source,
                 const char *kernel_name, bool local_arg, size_t out_floats,
                 cl_mem &out, std::string &error) {
  if (!prepare(d, in, source, kernel_name, error))
    return false;
  cl_mem data = bufferWith(d, input());
  out = bufferOf(d, out_floats * 4);
  in.buffers = {data, out};
  clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &data);
  clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &out);
  if (local_arg)
    clSetKernelArg(in.kernel, 2, kGroup * 4, nullptr);
  in.global[0] = kItems;
  in.local[0] = kGroup;
  return true;
}

// The kernel `reduce` writes each run's sum (GB/s of the input read).
inline Benchmark reduction(const char *name, const char *source, bool local_arg,
                           const std::string &needs, size_t segment) {
  auto expected = std::make_shared<std::vector<float>>(kItems / segment, 0.0f);
  for (size_t i = 0; i < kItems; ++i)
    (*expected)[i / segment] += input()[i];
  Benchmark bm;
  bm.name = name;
  bm.unit = "GB/s";
  bm.work = kItems * 4.0;
  bm.needs = needs;
  bm.setup = [=](const Driver &d, Instance &in, std::string &error) {
    cl_mem sums;
    if (!bind(d, in, source, "reduce", local_arg, expected->size(), sums,
              error))
      return false;
    in.verify = [&d, sums, expected](int) {
      return compareExact(readBack<float>(d, sums, expected->size()), *expected,
                          "sums");
    };
    return true;
  };
  return bm;
}

// The kernel `kernel_name` writes each element's inclusive scan within its
// run, or (`is_copy`) the element itself (GB/s of the input read and the
// output written).
inline Benchmark scan(const char *name, const char *source,
                      const char *kernel_name, bool local_arg,
                      const std::string &needs, size_t segment, bool is_copy) {
  auto expected = std::make_shared<std::vector<float>>(input());
  if (!is_copy) {
    float running = 0;
    for (size_t i = 0; i < kItems; ++i) {
      running = i % segment == 0 ? input()[i] : running + input()[i];
      (*expected)[i] = running;
    }
  }
  Benchmark bm;
  bm.name = name;
  bm.unit = "GB/s";
  bm.work = kItems * 8.0;
  bm.needs = needs;
  bm.setup = [=](const Driver &d, Instance &in, std::string &error) {
    cl_mem out;
    if (!bind(d, in, source, kernel_name, local_arg, kItems, out, error))
      return false;
    in.verify = [&d, out, expected](int) {
      return compareExact(readBack<float>(d, out, kItems), *expected,
                          "elements");
    };
    return true;
  };
  return bm;
}

} // namespace segmented
