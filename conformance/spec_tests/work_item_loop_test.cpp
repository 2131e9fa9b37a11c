// Work-items are independent (OpenCL C execution model): however Weft groups
// them, each must compute what it would alone. Kernels whose work-items run
// loops of their own, with trip counts, breaks, early returns, divisions,
// scattered loads and stores that differ from one work-item to the next,
// are checked against the same code run on the host, in group sizes that
// are and are not multiples of the vector width (compiler/
// work_item_vectorizer.h widens these kernels 16 work-items at a time).
#include "api_fixture.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>

namespace {

const char *kLoops = R"CLC(
// The host references below round every operation separately.
#pragma OPENCL FP_CONTRACT OFF
// Escape-time loop with two exit conditions.
kernel void escape(global long *out, float scale) {
  size_t gid = get_global_id(0);
  float cr = -2.0f + (float)(gid % 64) * scale, ci = -1.0f + (float)(gid / 64) * scale;
  float zr = 0.0f, zi = 0.0f;
  uint i = 0;
  while (i < 200 && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++i;
  }
  out[gid] = i;
}

// Nested loops, the inner one left by a break; an if/else inside.
kernel void nested(global long *out) {
  long gid = get_global_id(0);
  long sum = 0;
  for (long a = 0; a < gid % 7; ++a) {
    for (long b = 0; b < 50; ++b) {
      if ((a * 31 + b * 17 + gid) % 11 == 0)
        break;
      if (b & 1)
        sum += a * b;
      else
        sum -= b;
    }
    sum = sum * 3 + a;
  }
  out[gid] = sum;
}

// Early return, then a loop dividing by a value that reaches zero only on
// the exit path.
kernel void divide(global long *out) {
  long gid = get_global_id(0);
  out[gid] = -7;
  if (gid % 5 == 3)
    return;
  long d = gid % 9, q = 0;
  while (d != 0) {
    q += (1000 + gid) / d - (gid % (d + 1));
    --d;
  }
  out[gid] = q;
}

// Scattered loads and stores of the work-item's own elements inside a loop.
kernel void scatter(global const int *in, global int *slots, global long *out,
                    int n) {
  int gid = get_global_id(0);
  long acc = 0;
  for (int i = 0; i < gid % 6; ++i) {
    int v = in[(gid * 13 + i * 7) % n];
    slots[gid * 8 + i] = v * 2 + i;
    acc += v;
  }
  out[gid] = acc;
}

// A loop left by a return or by a break, at different times.
kernel void search(global const int *in, global long *out, int n) {
  int gid = get_global_id(0);
  long found = -5;
  for (int i = 0; i < n; ++i) {
    int v = in[(gid * 7 + i) % n];
    if (v == gid % 97) {
      out[gid] = i * 2;
      return;
    }
    if (v < -990) {
      found = i;
      break;
    }
  }
  out[gid] = found - 1000;
}

// Builtins (inlined into arithmetic) inside a loop of varying length.
kernel void builtins(global long *out) {
  int gid = get_global_id(0);
  int v = gid - 500;
  long acc = 0;
  for (int k = 0; k < gid % 23; ++k) {
    v = clamp(mad24(v, 3, k) - 7, -100000, 100000);
    acc += abs(v) + min(v, k) + max(gid, k) + abs_diff(v, k);
  }
  out[gid] = acc;
}

// 2-D, with values of several types round a loop.
kernel void typed(global long *out) {
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t gid = y * get_global_size(0) + x;
  char c = (char)x;
  short s = (short)(y * 3);
  double d = 1.0;
  ulong u = gid;
  for (uint k = 0; k < (x + y) % 13; ++k) {
    c = (char)(c * 3 + 1);
    s = (short)(s ^ (short)(k << 3));
    d = d * 0.5 + (double)k;
    u = (u >> 1) | (u << 63);
  }
  out[gid] = (long)c + (long)s * 1000 + (long)(d * 1024.0) + (long)(u & 0xffff);
}

// After a loop, one side of a branch that whole runs of work-items skip
// (the widened body tests its mask and jumps over it) and others take in
// part, with a loop and a branch of its own; its values are used where the
// sides join.
kernel void sides(global long *out) {
  long gid = get_global_id(0);
  long acc = 0;
  for (long k = 0; k < gid % 5; ++k)
    acc += k * gid;
  long extra = 1;
  if ((gid / 48) % 3 == 1 && gid % 7 != 0) {
    for (long j = 0; j < gid % 11; ++j) {
      extra = extra * 3 + j;
      if (extra > 100000)
        extra -= 99991;
    }
    acc += extra * 5 + gid / 3 + gid / 7 + gid / 11;
  }
  out[gid] = acc - extra;
}
)CLC";

struct LoopFixture : WeftFixture {
  // Runs `name` over `global` x `rows` work-items in groups of `local` x 1
  // and compares out[] with `expected(gid)`.
  void check(const char *name, size_t global, size_t local, size_t rows,
             const std::function<void(cl_kernel, cl_mem)> &args,
             const std::function<int64_t(size_t)> &expected) {
    INFO(name << " global " << global << "x" << rows << " local " << local);
    // OpenCL C 3.0: groups at the end of a row may be smaller.
    cl_kernel k = kernel(kLoops, name, "-cl-std=CL3.0");
    cl_mem out = buffer(global * rows * sizeof(cl_long));
    REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    args(k, out);
    size_t sizes[2] = {global, rows}, locals[2] = {local, 1};
    REQUIRE(runAndWait(k, rows > 1 ? 2 : 1, sizes, locals) == CL_SUCCESS);
    std::vector<cl_long> got(global * rows);
    REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0,
                                got.size() * sizeof(cl_long), got.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    size_t wrong = 0, first_wrong = 0;
    for (size_t gid = 0; gid < got.size(); ++gid)
      if (got[gid] != expected(gid) && wrong++ == 0)
        first_wrong = gid;
    INFO("first wrong work-item " << first_wrong << ": got " << got[first_wrong]
                                  << ", expected " << expected(first_wrong));
    CHECK(wrong == 0);
    clReleaseMemObject(out);
    clReleaseKernel(k);
  }
};

const size_t kShapes[][2] = {{1000, 100}, {1024, 64}, {999, 7},
                             {64, 1},     {256, 256}, {33, 17}};

} // namespace

TEST_CASE_METHOD(LoopFixture, "work-items leave a loop at different times",
                 "[work-item-loops]") {
  const float scale = 1.0f / 32;
  for (auto [global, local] : kShapes)
    check(
        "escape", global, local, 1,
        [&](cl_kernel k, cl_mem) {
          REQUIRE(clSetKernelArg(k, 1, sizeof scale, &scale) == CL_SUCCESS);
        },
        [&](size_t gid) {
          float cr = -2.0f + float(gid % 64) * scale,
                ci = -1.0f + float(gid / 64) * scale;
          float zr = 0.0f, zi = 0.0f;
          unsigned i = 0;
          // Written so no compiler contracts it into fused operations,
          // which the kernel's build does not either (no -cl-mad-enable).
          while (i < 200) {
            volatile float zr2 = zr * zr, zi2 = zi * zi;
            if (zr2 + zi2 > 4.0f)
              break;
            volatile float t = zr2 - zi2;
            float next_r = t + cr;
            volatile float p = 2.0f * zr;
            volatile float pz = p * zi;
            zi = pz + ci;
            zr = next_r;
            ++i;
          }
          return int64_t(i);
        });
}

TEST_CASE_METHOD(LoopFixture, "nested loops with breaks and branches",
                 "[work-item-loops]") {
  for (auto [global, local] : kShapes)
    check(
        "nested", global, local, 1, [](cl_kernel, cl_mem) {},
        [](size_t g) {
          int64_t gid = int64_t(g), sum = 0;
          for (int64_t a = 0; a < gid % 7; ++a) {
            for (int64_t b = 0; b < 50; ++b) {
              if ((a * 31 + b * 17 + gid) % 11 == 0)
                break;
              if (b & 1)
                sum += a * b;
              else
                sum -= b;
            }
            sum = sum * 3 + a;
          }
          return sum;
        });
}

TEST_CASE_METHOD(LoopFixture,
                 "early returns, and divisions only on the paths taken",
                 "[work-item-loops]") {
  for (auto [global, local] : kShapes)
    check(
        "divide", global, local, 1, [](cl_kernel, cl_mem) {},
        [](size_t g) {
          int64_t gid = int64_t(g);
          if (gid % 5 == 3)
            return int64_t(-7);
          int64_t d = gid % 9, q = 0;
          while (d != 0) {
            q += (1000 + gid) / d - (gid % (d + 1));
            --d;
          }
          return q;
        });
}

TEST_CASE_METHOD(LoopFixture,
                 "scattered loads and stores of each work-item in a loop",
                 "[work-item-loops]") {
  const cl_int n = 4099;
  std::vector<cl_int> in(n);
  for (cl_int i = 0; i < n; ++i)
    in[i] = (i * 37) % 1001 - 500;
  for (auto [global, local] : kShapes) {
    cl_mem input = buffer(in.size() * sizeof(cl_int), in.data());
    std::vector<cl_int> untouched(global * 8, 12345);
    cl_mem slots = buffer(untouched.size() * sizeof(cl_int), untouched.data());
    check(
        "scatter", global, local, 1,
        [&](cl_kernel k, cl_mem out) {
          // Argument order: in, slots, out, n.
          REQUIRE(clSetKernelArg(k, 0, sizeof input, &input) == CL_SUCCESS);
          REQUIRE(clSetKernelArg(k, 1, sizeof slots, &slots) == CL_SUCCESS);
          REQUIRE(clSetKernelArg(k, 2, sizeof out, &out) == CL_SUCCESS);
          REQUIRE(clSetKernelArg(k, 3, sizeof n, &n) == CL_SUCCESS);
        },
        [&](size_t gid) {
          int64_t acc = 0;
          for (size_t i = 0; i < gid % 6; ++i)
            acc += in[(gid * 13 + i * 7) % n];
          return acc;
        });
    std::vector<cl_int> got(untouched.size());
    REQUIRE(clEnqueueReadBuffer(queue, slots, CL_TRUE, 0,
                                got.size() * sizeof(cl_int), got.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    size_t wrong = 0;
    for (size_t gid = 0; gid < global; ++gid)
      for (size_t i = 0; i < 8; ++i) {
        cl_int expected = i < gid % 6
                              ? in[(gid * 13 + i * 7) % n] * 2 + cl_int(i)
                              : 12345; // never written
        wrong += got[gid * 8 + i] != expected;
      }
    CHECK(wrong == 0);
    clReleaseMemObject(input);
    clReleaseMemObject(slots);
  }
}

TEST_CASE_METHOD(LoopFixture, "loops left by a return or by a break",
                 "[work-item-loops]") {
  const cl_int n = 2003;
  std::vector<cl_int> in(n);
  for (cl_int i = 0; i < n; ++i)
    in[i] = (i * 7919) % 2001 - 1000;
  cl_mem input = buffer(in.size() * sizeof(cl_int), in.data());
  for (auto [global, local] : kShapes)
    check(
        "search", global, local, 1,
        [&](cl_kernel k, cl_mem out) {
          REQUIRE(clSetKernelArg(k, 0, sizeof input, &input) == CL_SUCCESS);
          REQUIRE(clSetKernelArg(k, 1, sizeof out, &out) == CL_SUCCESS);
          REQUIRE(clSetKernelArg(k, 2, sizeof n, &n) == CL_SUCCESS);
        },
        [&](size_t g) {
          int gid = int(g);
          int64_t found = -5;
          for (int i = 0; i < n; ++i) {
            int v = in[(gid * 7 + i) % n];
            if (v == gid % 97)
              return int64_t(i) * 2;
            if (v < -990) {
              found = i;
              break;
            }
          }
          return found - 1000;
        });
  clReleaseMemObject(input);
}

TEST_CASE_METHOD(LoopFixture, "builtins in loops of varying length",
                 "[work-item-loops]") {
  for (auto [global, local] : kShapes)
    check(
        "builtins", global, local, 1, [](cl_kernel, cl_mem) {},
        [](size_t g) {
          int gid = int(g), v = gid - 500;
          int64_t acc = 0;
          for (int k = 0; k < gid % 23; ++k) {
            v = std::clamp(v * 3 + k - 7, -100000, 100000);
            acc += std::abs(v) + std::min(v, k) + std::max(gid, k) +
                   int64_t(uint32_t(v > k ? v - k : k - v));
          }
          return acc;
        });
}

TEST_CASE_METHOD(LoopFixture, "2-D work-items carry several types round a loop",
                 "[work-item-loops]") {
  for (auto [global, local] : kShapes)
    check(
        "typed", global, local, 3, [](cl_kernel, cl_mem) {},
        [&](size_t gid) {
          size_t x = gid % global, y = gid / global;
          int8_t c = int8_t(x);
          int16_t s = int16_t(y * 3);
          double d = 1.0;
          uint64_t u = gid;
          for (unsigned k = 0; k < (x + y) % 13; ++k) {
            c = int8_t(c * 3 + 1);
            s = int16_t(s ^ int16_t(k << 3));
            d = d * 0.5 + double(k);
            u = (u >> 1) | (u << 63);
          }
          return int64_t(c) + int64_t(s) * 1000 + int64_t(d * 1024.0) +
                 int64_t(u & 0xffff);
        });
}

TEST_CASE_METHOD(LoopFixture,
                 "a side of a branch skipped by some runs of work-items",
                 "[work-item-loops]") {
  for (auto [global, local] : kShapes)
    check(
        "sides", global, local, 1, [](cl_kernel, cl_mem) {},
        [](size_t g) {
          int64_t gid = int64_t(g), acc = 0, extra = 1;
          for (int64_t k = 0; k < gid % 5; ++k)
            acc += k * gid;
          if ((gid / 48) % 3 == 1 && gid % 7 != 0) {
            for (int64_t j = 0; j < gid % 11; ++j) {
              extra = extra * 3 + j;
              if (extra > 100000)
                extra -= 99991;
            }
            acc += extra * 5 + gid / 3 + gid / 7 + gid / 11;
          }
          return acc - extra;
        });
}
