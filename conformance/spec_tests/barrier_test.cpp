// Barriers and local memory, from the OpenCL C spec's work-group barrier
// section: barriers in loops, in helpers called in loops, after whole groups
// returned early, private variables and arrays that live across barriers,
// kernel-scope __local variables of every type with their alignment, in
// 1-, 2- and 3-D groups of many sizes. CTest runs them on both paths: split
// at the barriers (the default) and on fibers (WEFT_BARRIERS=fibers).
#include "api_fixture.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

struct Range {
  cl_uint dims;
  size_t local[3];
  size_t groups[3];
};

struct BarrierFixture : WeftFixture {
  // Runs `k` and returns the command's final status.
  cl_int run(cl_kernel k, const Range &range) {
    size_t global[3];
    for (cl_uint d = 0; d < 3; ++d)
      global[d] = range.local[d] * range.groups[d];
    return runAndWait(k, range.dims, global, range.local);
  }
  std::vector<cl_int> read(cl_mem m, size_t count) {
    std::vector<cl_int> out(count);
    REQUIRE(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * sizeof(cl_int),
                                out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    return out;
  }
  size_t maxGroupSize(cl_kernel k) {
    size_t size = 0;
    REQUIRE(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE,
                                     sizeof size, &size,
                                     nullptr) == CL_SUCCESS);
    return size;
  }
};

size_t items(const Range &r) {
  return r.local[0] * r.local[1] * r.local[2] * r.groups[0] * r.groups[1] *
         r.groups[2];
}

// The local linear id of the work-item at global linear position `g`.
size_t localLinearId(const Range &r, size_t g) {
  size_t global0 = r.local[0] * r.groups[0], global1 = r.local[1] * r.groups[1];
  size_t x = g % global0, y = (g / global0) % global1,
         z = g / (global0 * global1);
  return x % r.local[0] +
         r.local[0] * (y % r.local[1] + r.local[1] * (z % r.local[2]));
}

const char *kRotate = R"CLC(
__kernel void rotate(__global int *out, __local int *tmp, int rounds) {
  uint n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  uint lid = get_local_linear_id();
  int v = (int)(lid * 7);
  for (int r = 0; r < rounds; ++r) {
    tmp[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = tmp[(lid + 1) % n] + 1;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_linear_id()] = v;
}
)CLC";

// Runs kRotate over each range for `rounds` rounds and checks every
// work-item's value.
void checkRotate(BarrierFixture &f, cl_kernel k,
                 const std::vector<Range> &ranges, int rounds) {
  for (const Range &range : ranges) {
    INFO("local " << range.local[0] << "x" << range.local[1] << "x"
                  << range.local[2]);
    size_t count = items(range);
    size_t group = range.local[0] * range.local[1] * range.local[2];
    cl_mem out = f.buffer(count * sizeof(cl_int));
    REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, group * sizeof(cl_int), nullptr) ==
            CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof rounds, &rounds) == CL_SUCCESS);
    REQUIRE(f.run(k, range) == CL_SUCCESS);
    std::vector<cl_int> got = f.read(out, count);
    size_t wrong = 0, first_wrong = 0;
    for (size_t g = 0; g < count; ++g) {
      size_t lid = localLinearId(range, g);
      cl_int expected =
          static_cast<cl_int>((lid + rounds) % group * 7 + rounds);
      if (got[g] != expected && wrong++ == 0)
        first_wrong = g;
    }
    INFO("first wrong work-item " << first_wrong);
    CHECK(wrong == 0);
    clReleaseMemObject(out);
  }
}

} // namespace

TEST_CASE_METHOD(BarrierFixture,
                 "barriers in a loop pass values around the group",
                 "[barrier]") {
  cl_kernel k = kernel(kRotate, "rotate", "-cl-std=CL3.0");
  std::vector<Range> ranges = {{1, {1, 1, 1}, {3, 1, 1}},
                               {1, {7, 1, 1}, {3, 1, 1}},
                               {1, {64, 1, 1}, {2, 1, 1}},
                               {1, {256, 1, 1}, {3, 1, 1}},
                               {2, {7, 3, 1}, {2, 2, 1}},
                               {2, {16, 16, 1}, {1, 2, 1}},
                               {3, {4, 4, 4}, {1, 2, 2}},
                               {3, {2, 3, 5}, {2, 1, 2}},
                               {1, {maxGroupSize(k), 1, 1}, {2, 1, 1}}};
  checkRotate(*this, k, ranges, 5);
  clReleaseKernel(k);
}

// Applications size their groups from CL_DEVICE_MAX_WORK_GROUP_SIZE (a
// bitonic sort library does): a kernel split at its barriers takes that
// size in any shape. On fibers the kernel's own limit may be smaller, and
// a group of that size runs.
TEST_CASE_METHOD(BarrierFixture,
                 "a kernel with barriers takes the device's largest group",
                 "[barrier]") {
  cl_kernel k = kernel(kRotate, "rotate", "-cl-std=CL3.0");
  size_t device_max = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                          sizeof device_max, &device_max,
                          nullptr) == CL_SUCCESS);
  const char *path = std::getenv("WEFT_BARRIERS");
  bool on_fibers = path && std::string(path) == "fibers";
  size_t kernel_max = maxGroupSize(k);
  if (on_fibers)
    CHECK(kernel_max <= device_max);
  else
    CHECK(kernel_max == device_max);
  // The largest group as a 1-D line and as a 3-D block.
  std::vector<Range> ranges = {{1, {kernel_max, 1, 1}, {2, 1, 1}}};
  if (kernel_max % 128 == 0)
    ranges.push_back({3, {kernel_max / 128, 8, 16}, {1, 2, 1}});
  checkRotate(*this, k, ranges, 3);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(BarrierFixture, "a helper with barriers called in a loop",
                 "[barrier]") {
  const char *source = R"CLC(
void mirror(__local int *tmp, int *v, uint lid, uint n) {
  tmp[lid] = *v;
  barrier(CLK_LOCAL_MEM_FENCE);
  *v = tmp[n - 1 - lid] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
}
__kernel void callee(__global int *out, __local int *tmp, int rounds) {
  uint lid = get_local_id(0), n = get_local_size(0);
  int v = lid + 1;
  for (int r = 0; r < rounds; ++r)
    mirror(tmp, &v, lid, n);
  out[get_global_id(0)] = v;
}
)CLC";
  cl_kernel k = kernel(source, "callee");
  for (size_t local : {1, 7, 64, 256}) {
    INFO("local " << local);
    Range range{1, {local, 1, 1}, {3, 1, 1}};
    const int rounds = 5; // odd: each work-item ends with its mirror's value
    cl_mem out = buffer(items(range) * sizeof(cl_int));
    REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, local * sizeof(cl_int), nullptr) ==
            CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof rounds, &rounds) == CL_SUCCESS);
    REQUIRE(run(k, range) == CL_SUCCESS);
    std::vector<cl_int> got = read(out, items(range));
    size_t wrong = 0;
    for (size_t g = 0; g < items(range); ++g)
      wrong += got[g] != static_cast<cl_int>((local - g % local) * 32);
    CHECK(wrong == 0);
    clReleaseMemObject(out);
  }
  clReleaseKernel(k);
}

TEST_CASE_METHOD(BarrierFixture,
                 "a group that returns early skips the barriers of the others",
                 "[barrier]") {
  const char *source = R"CLC(
__kernel void early(__global int *out, __local int *tmp) {
  uint lid = get_local_id(0), n = get_local_size(0);
  if (get_group_id(0) == 1) {
    out[get_global_id(0)] = -1;
    return;
  }
  tmp[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[n - 1 - lid];
}
)CLC";
  cl_kernel k = kernel(source, "early");
  Range range{1, {64, 1, 1}, {3, 1, 1}};
  cl_mem out = buffer(items(range) * sizeof(cl_int));
  REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, 64 * sizeof(cl_int), nullptr) == CL_SUCCESS);
  REQUIRE(run(k, range) == CL_SUCCESS);
  std::vector<cl_int> got = read(out, items(range));
  size_t wrong = 0;
  for (size_t g = 0; g < items(range); ++g)
    wrong += got[g] != (g / 64 == 1 ? -1 : static_cast<cl_int>(63 - g % 64));
  CHECK(wrong == 0);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(BarrierFixture, "a tree reduction in local memory",
                 "[barrier]") {
  const char *source = R"CLC(
__kernel void reduce(__global const int *in, __global int *out,
                     __local int *scratch) {
  uint lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = scratch[0];
}
)CLC";
  cl_kernel k = kernel(source, "reduce");
  for (size_t local : {1, 2, 64, 256, 1024}) {
    INFO("local " << local);
    const size_t groups = 5;
    std::vector<cl_int> in(local * groups);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<cl_int>(i * 3 % 101);
    cl_mem input = buffer(in.size() * sizeof(cl_int), in.data());
    cl_mem out = buffer(groups * sizeof(cl_int));
    REQUIRE(clSetKernelArg(k, 0, sizeof input, &input) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof out, &out) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, local * sizeof(cl_int), nullptr) ==
            CL_SUCCESS);
    REQUIRE(run(k, {1, {local, 1, 1}, {groups, 1, 1}}) == CL_SUCCESS);
    std::vector<cl_int> got = read(out, groups);
    for (size_t g = 0; g < groups; ++g) {
      cl_int sum = 0;
      for (size_t i = 0; i < local; ++i)
        sum += in[g * local + i];
      CHECK(got[g] == sum);
    }
    clReleaseMemObject(input);
    clReleaseMemObject(out);
  }
  clReleaseKernel(k);
}

TEST_CASE_METHOD(BarrierFixture,
                 "private variables and arrays keep their values across "
                 "barriers",
                 "[barrier]") {
  const char *source = R"CLC(
__kernel void keep(__global int *out, __local int *tmp) {
  int priv[9];
  uint lid = get_local_id(0), n = get_local_size(0);
  float f = lid * 0.5f;
  long l = (long)lid << 33;
  for (int i = 0; i < 9; ++i)
    priv[(i + lid) % 9] = lid * ((i + lid) % 9);
  tmp[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  for (int i = 0; i < 9; ++i)
    sum += priv[(i + tmp[lid]) % 9];
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] =
      tmp[(lid + 1) % n] + (int)(f * 2.0f) + (int)(l >> 33);
}
)CLC";
  cl_kernel k = kernel(source, "keep");
  for (size_t local : {1, 7, 64, 256}) {
    INFO("local " << local);
    Range range{1, {local, 1, 1}, {2, 1, 1}};
    cl_mem out = buffer(items(range) * sizeof(cl_int));
    REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, local * sizeof(cl_int), nullptr) ==
            CL_SUCCESS);
    REQUIRE(run(k, range) == CL_SUCCESS);
    std::vector<cl_int> got = read(out, items(range));
    size_t wrong = 0;
    for (size_t g = 0; g < items(range); ++g) {
      size_t lid = g % local, next = (lid + 1) % local;
      wrong += got[g] != static_cast<cl_int>(36 * next + 2 * lid);
    }
    CHECK(wrong == 0);
    clReleaseMemObject(out);
  }
  clReleaseKernel(k);
}

TEST_CASE_METHOD(BarrierFixture,
                 "kernel-scope local variables of every type are aligned and "
                 "shared by the group",
                 "[barrier]") {
  const char *source = R"CLC(
typedef struct { char c; double d; int4 v; } Mixed;
void fill(__local Mixed *m, int g) { m->c = g; m->d = g; m->v = g; }
__kernel void locals(__global int *out, __local double16 *arg) {
  __local char c; __local short s; __local int i; __local long l;
  __local float f; __local double d; __local int4 v4; __local float8 f8;
  __local double16 d16; __local uchar3 u3; __local Mixed m;
  uint lid = get_local_id(0);
  int g = get_group_id(0);
  if (lid == get_local_size(0) - 1) {
    c = g; s = g; i = g; l = g; f = g; d = g; v4 = g; f8 = g; d16 = g;
    u3 = (uchar)g; fill(&m, g); *arg = g;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int same = c == g && s == g && i == g && l == g && f == g && d == g &&
             all(v4 == g) && all(f8 == g) && all(d16 == g) &&
             all(u3 == (uchar)g) && m.c == g && m.d == g && all(m.v == g) &&
             all(*arg == g);
  int aligned = (size_t)&s % 2 == 0 && (size_t)&i % 4 == 0 &&
                (size_t)&l % 8 == 0 && (size_t)&f % 4 == 0 &&
                (size_t)&d % 8 == 0 && (size_t)&v4 % 16 == 0 &&
                (size_t)&f8 % 32 == 0 && (size_t)&d16 % 128 == 0 &&
                (size_t)&u3 % 4 == 0 && (size_t)&m % 16 == 0 &&
                (size_t)arg % 128 == 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = same * 2 + aligned;
}
)CLC";
  cl_kernel k = kernel(source, "locals");
  for (size_t local : {1, 7, 64}) {
    INFO("local " << local);
    Range range{1, {local, 1, 1}, {4, 1, 1}};
    cl_mem out = buffer(items(range) * sizeof(cl_int));
    REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, 16 * sizeof(cl_double), nullptr) ==
            CL_SUCCESS);
    REQUIRE(run(k, range) == CL_SUCCESS);
    std::vector<cl_int> got = read(out, items(range));
    size_t wrong = 0;
    for (cl_int v : got)
      wrong += v != 3;
    CHECK(wrong == 0);
    clReleaseMemObject(out);
  }
  clReleaseKernel(k);
}

TEST_CASE_METHOD(BarrierFixture,
                 "a barrier only some work-items reach neither hangs nor "
                 "crashes",
                 "[barrier]") {
  // Undefined behaviour in OpenCL C; Weft still runs every work-item to its
  // end.
  const char *source = R"CLC(
__kernel void diverge(__global int *out) {
  if (get_local_id(0) < 3)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = 1;
}
)CLC";
  cl_kernel k = kernel(source, "diverge");
  Range range{1, {16, 1, 1}, {2, 1, 1}};
  cl_mem out = buffer(items(range) * sizeof(cl_int));
  REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(run(k, range) == CL_SUCCESS);
  std::vector<cl_int> got = read(out, items(range));
  size_t wrong = 0;
  for (cl_int v : got)
    wrong += v != 1;
  CHECK(wrong == 0);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(BarrierFixture,
                 "loops around a barrier only some work-items reach still "
                 "compute each work-item's values",
                 "[barrier]") {
  // The regions before and after the barrier have loops of their own, so
  // they run widened; once the work-items disagree the group runs them one
  // work-item at a time, through the same widened code.
  const char *source = R"CLC(
__kernel void diverge_loops(__global uint *out, int n) {
  int lid = get_local_id(0);
  uint acc = 0;
  for (int i = 0; i < n + lid % 3; ++i)
    acc += i * (lid + 1);
  if (lid < 3)
    barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < n + lid; ++i)
    acc = (acc ^ (uint)(i + lid)) * 3u;
  out[get_global_id(0)] = acc;
}
)CLC";
  cl_kernel k = kernel(source, "diverge_loops");
  for (size_t local : {20, 16, 5}) {
    INFO("groups of " << local);
    Range range{1, {local, 1, 1}, {4, 1, 1}};
    cl_mem out = buffer(items(range) * sizeof(cl_int));
    cl_int n = 5;
    REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof n, &n) == CL_SUCCESS);
    REQUIRE(run(k, range) == CL_SUCCESS);
    std::vector<cl_int> got = read(out, items(range));
    size_t wrong = 0;
    for (size_t g = 0; g < got.size(); ++g) {
      int lid = int(g % local);
      uint32_t acc = 0;
      for (int i = 0; i < n + lid % 3; ++i)
        acc += uint32_t(i * (lid + 1));
      for (int i = 0; i < n + lid; ++i)
        acc = (acc ^ uint32_t(i + lid)) * 3u;
      wrong += got[g] != cl_int(acc);
    }
    CHECK(wrong == 0);
    clReleaseMemObject(out);
  }
  clReleaseKernel(k);
}
