// Benchmark helpers: pick a platform by name through the ICD loader and take
// medians, so Weft and PoCL are measured the same way in one run.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// "Weft#2" is the second platform whose name has "Weft" (two builds of
// Weft side by side, each ICD file naming its own copy of the library: an
// A/B of two compilers alternating call by call in one process).
inline cl_platform_id platformNamed(const char *wanted) {
  std::string text = wanted;
  int skip = 0;
  if (size_t hash = text.find('#'); hash != std::string::npos) {
    skip = std::atoi(text.c_str() + hash + 1) - 1;
    text.resize(hash);
  }
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_platform_id p : platforms) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name), name, nullptr);
    if (std::strstr(name, text.c_str()) && skip-- == 0)
      return p;
  }
  return nullptr;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

inline double nowSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The half nearest `f` (ties to even), as its bits, and back: the host side
// of half-precision benchmarks.
inline cl_half toHalf(float f) {
  _Float16 h = static_cast<_Float16>(f);
  cl_half bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}
inline float fromHalf(cl_half bits) {
  _Float16 h;
  std::memcpy(&h, &bits, sizeof h);
  return static_cast<float>(h);
}
