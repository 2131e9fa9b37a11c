// Work-group collective functions (OpenCL C 3.0 §6.15.16) and the
// operations of cl_khr_work_group_uniform_arithmetic, against a reference
// computed here: every reduction, scan, broadcast and predicate, in 1-, 2-
// and 3-D groups, uniform and non-uniform (the edge groups are smaller), back
// to back and in loops. CTest runs them split at barriers (the default) and
// on fibers (WEFT_BARRIERS=fibers).
#include "api_fixture.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>

namespace {

struct Geometry {
  cl_uint dims;
  size_t global[3];
  size_t local[3];
};

// Where global work-item `g` (linear, x fastest) sits: its group's index
// (linear over groups) and its local linear id, and the group's size.
struct Place {
  size_t group;
  size_t local_id;
  size_t group_items;
};

Place place(const Geometry &r, size_t g) {
  size_t id[3] = {g % r.global[0], (g / r.global[0]) % r.global[1],
                  g / (r.global[0] * r.global[1])};
  size_t groups[3], group[3], local[3], size[3];
  for (int d = 0; d < 3; ++d) {
    groups[d] = (r.global[d] + r.local[d] - 1) / r.local[d];
    group[d] = id[d] / r.local[d];
    local[d] = id[d] % r.local[d];
    size[d] = std::min(r.local[d], r.global[d] - group[d] * r.local[d]);
  }
  return {group[0] + groups[0] * (group[1] + groups[1] * group[2]),
          local[0] + size[0] * (local[1] + size[1] * local[2]),
          size[0] * size[1] * size[2]};
}

size_t items(const Geometry &r) {
  return r.global[0] * r.global[1] * r.global[2];
}

const Geometry kGeometries[] = {
    {1, {1, 1, 1}, {1, 1, 1}},       {1, {192, 1, 1}, {64, 1, 1}},
    {1, {100, 1, 1}, {32, 1, 1}},    {1, {1000, 1, 1}, {256, 1, 1}},
    {2, {20, 9, 1}, {8, 4, 1}},      {2, {16, 16, 1}, {16, 16, 1}},
    {3, {9, 5, 7}, {4, 2, 3}},       {3, {8, 8, 8}, {2, 4, 8}},
    {1, {3000, 1, 1}, {1024, 1, 1}},
};

// One output column per collective; the kernel writes them for every
// work-item, the reference below computes the same.
const char *kIntCollectives = R"CLC(
#define COLUMNS 24
__kernel void collectives(__global const int *in, __global long *out) {
  size_t g = get_global_linear_id();
  int x = in[g];
  __global long *o = out + g * COLUMNS;
  o[0] = work_group_reduce_add(x);
  o[1] = work_group_reduce_min(x);
  o[2] = work_group_reduce_max(x);
  o[3] = work_group_scan_inclusive_add(x);
  o[4] = work_group_scan_exclusive_add(x);
  o[5] = work_group_scan_inclusive_min(x);
  o[6] = work_group_scan_exclusive_min(x);
  o[7] = work_group_scan_inclusive_max(x);
  o[8] = work_group_scan_exclusive_max(x);
  o[9] = work_group_all(x > -40);
  o[10] = work_group_any(x > 45);
  o[11] = work_group_broadcast(x, get_local_size(0) - 1,
                               get_local_size(1) / 2, 0);
  o[12] = work_group_reduce_mul((x & 3) - 1);
  o[13] = work_group_reduce_and(x | 0x100);
  o[14] = work_group_scan_inclusive_or(x & 0xF0);
  o[15] = work_group_scan_exclusive_xor(x);
  o[16] = work_group_reduce_logical_xor(x & 1);
  o[17] = work_group_scan_inclusive_logical_and(x != 7);
  o[18] = work_group_scan_exclusive_logical_or(x == 3);
  o[19] = work_group_reduce_add((long)x << 33);
  o[20] = work_group_scan_inclusive_max((uint)x);
  o[21] = work_group_broadcast((ulong)x * 3, get_local_size(0) / 2);
  int sum = 0;
  for (int round = 0; round < 3; ++round)
    sum += work_group_reduce_add(x + round);
  o[22] = sum;
  o[23] = work_group_scan_exclusive_mul((long)((x & 1) + 1));
}
)CLC";
constexpr size_t kColumns = 24;

int64_t identityAnd() { return -1; }

std::vector<int64_t> reference(const Geometry &r, const std::vector<int> &in) {
  size_t n = items(r);
  std::vector<std::vector<size_t>> members; // global ids by local id, per group
  for (size_t g = 0; g < n; ++g) {
    Place p = place(r, g);
    if (members.size() <= p.group)
      members.resize(p.group + 1);
    if (members[p.group].size() < p.group_items)
      members[p.group].resize(p.group_items);
    members[p.group][p.local_id] = g;
  }
  std::vector<int64_t> out(n * kColumns);
  for (const std::vector<size_t> &group : members) {
    if (group.empty())
      continue;
    size_t count = group.size();
    // The group's first global id tells its actual size in x and y.
    size_t first = group[0];
    size_t fx = first % r.global[0], fy = (first / r.global[0]) % r.global[1];
    size_t size_x = std::min(r.local[0], r.global[0] - fx);
    size_t size_y = std::min(r.local[1], r.global[1] - fy);
    auto fold = [&](auto op, int64_t init, auto value, size_t upto) {
      int64_t acc = init;
      for (size_t i = 0; i < upto; ++i)
        acc = op(acc, value(in[group[i]]));
      return acc;
    };
    auto add = [](int64_t a, int64_t b) { return a + b; };
    auto mn = [](int64_t a, int64_t b) { return std::min(a, b); };
    auto mx = [](int64_t a, int64_t b) { return std::max(a, b); };
    auto same = [](int v) { return (int64_t)v; };
    int64_t int_sum = (int32_t)(uint32_t)fold(add, 0, same, count);
    for (size_t i = 0; i < count; ++i) {
      int x = in[group[i]];
      int64_t *o = &out[group[i] * kColumns];
      o[0] = int_sum;
      o[1] = fold(mn, INT32_MAX, same, count);
      o[2] = fold(mx, INT32_MIN, same, count);
      o[3] = (int32_t)fold(add, 0, same, i + 1);
      o[4] = (int32_t)fold(add, 0, same, i);
      o[5] = fold(mn, INT32_MAX, same, i + 1);
      o[6] = fold(mn, INT32_MAX, same, i);
      o[7] = fold(mx, INT32_MIN, same, i + 1);
      o[8] = fold(mx, INT32_MIN, same, i);
      o[9] = fold([](int64_t a, int64_t b) { return int64_t(a && b); }, 1,
                  [](int v) { return int64_t(v > -40); }, count) != 0;
      o[10] = fold([](int64_t a, int64_t b) { return int64_t(a || b); }, 0,
                   [](int v) { return int64_t(v > 45); }, count) != 0;
      size_t source = (size_x - 1) + size_x * (size_y / 2);
      o[11] = in[group[source]];
      // Products wrap as the device's do.
      auto mul = [](int64_t a, int64_t b) {
        return int64_t(uint64_t(a) * uint64_t(b));
      };
      o[12] = (int32_t)fold(
          mul, 1, [](int v) { return int64_t((v & 3) - 1); }, count);
      o[13] = fold([](int64_t a, int64_t b) { return a & b; }, identityAnd(),
                   [](int v) { return int64_t(v | 0x100); }, count);
      o[14] = fold([](int64_t a, int64_t b) { return a | b; }, 0,
                   [](int v) { return int64_t(v & 0xF0); }, i + 1);
      o[15] = fold([](int64_t a, int64_t b) { return a ^ b; }, 0, same, i);
      o[16] = fold([](int64_t a, int64_t b) { return a ^ b; }, 0,
                   [](int v) { return int64_t(v & 1); }, count);
      o[17] = fold([](int64_t a, int64_t b) { return int64_t(a && b); }, 1,
                   [](int v) { return int64_t(v != 7); }, i + 1);
      o[18] = fold([](int64_t a, int64_t b) { return int64_t(a || b); }, 0,
                   [](int v) { return int64_t(v == 3); }, i);
      o[19] = fold(
          add, 0, [](int v) { return (int64_t)v * (int64_t(1) << 33); }, count);
      o[20] = (int64_t)(uint32_t)fold(
          [](int64_t a, int64_t b) { return std::max(a, b); }, 0,
          [](int v) { return (int64_t)(uint32_t)v; }, i + 1);
      o[21] = (int64_t)((uint64_t)in[group[size_x / 2]] * 3);
      int64_t sum = 0;
      for (int round = 0; round < 3; ++round)
        sum += (int32_t)fold(
            add, 0, [&](int v) { return (int64_t)v + round; }, count);
      o[22] = (int32_t)sum;
      o[23] = fold(
          mul, 1, [](int v) { return int64_t((v & 1) + 1); }, i);
      (void)x;
    }
  }
  return out;
}

struct CollectiveFixture : WeftFixture {
  std::vector<int64_t> run(cl_kernel k, const Geometry &r,
                           const std::vector<int> &in) {
    size_t n = items(r);
    cl_mem input = buffer(n * sizeof(int), const_cast<int *>(in.data()));
    cl_mem output = buffer(n * kColumns * sizeof(int64_t));
    REQUIRE(clSetKernelArg(k, 0, sizeof input, &input) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof output, &output) == CL_SUCCESS);
    REQUIRE(runAndWait(k, r.dims, r.global, r.local) == CL_SUCCESS);
    std::vector<int64_t> out(n * kColumns);
    REQUIRE(clEnqueueReadBuffer(queue, output, CL_TRUE, 0,
                                out.size() * sizeof(int64_t), out.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    clReleaseMemObject(input);
    clReleaseMemObject(output);
    return out;
  }
};

} // namespace

TEST_CASE_METHOD(CollectiveFixture,
                 "work-group collectives match the reference in every shape "
                 "of group",
                 "[collectives]") {
  cl_kernel k = kernel(kIntCollectives, "collectives", "-cl-std=CL3.0");
  for (const Geometry &r : kGeometries) {
    size_t n = items(r);
    std::vector<int> in(n);
    for (size_t i = 0; i < n; ++i)
      in[i] = int((i * 2654435761u) % 101) - 50;
    std::vector<int64_t> got = run(k, r, in);
    std::vector<int64_t> want = reference(r, in);
    for (size_t g = 0; g < n; ++g)
      for (size_t c = 0; c < kColumns; ++c) {
        INFO("global " << r.global[0] << "x" << r.global[1] << "x"
                       << r.global[2] << " local " << r.local[0] << "x"
                       << r.local[1] << "x" << r.local[2] << ", work-item " << g
                       << ", column " << c);
        REQUIRE(got[g * kColumns + c] == want[g * kColumns + c]);
      }
  }
  clReleaseKernel(k);
}

// Floating-point reductions and scans: values whose sums are exact, so the
// order of additions cannot matter; min and max see -0.0 and infinities.
TEST_CASE_METHOD(CollectiveFixture,
                 "floating-point collectives and their identities",
                 "[collectives]") {
  const char *source = R"CLC(
__kernel void floats(__global const float *in, __global double *out) {
  size_t g = get_global_id(0);
  float x = in[g];
  __global double *o = out + g * 8;
  o[0] = work_group_reduce_add(x);
  o[1] = work_group_scan_exclusive_min(x);
  o[2] = work_group_scan_exclusive_max(x);
  o[3] = work_group_reduce_max(x);
  o[4] = work_group_scan_inclusive_add((double)x * 0.5);
  o[5] = work_group_reduce_mul(x < 0 ? -1.0f : 1.0f);
  o[6] = work_group_broadcast((double)x, 3);
  o[7] = work_group_scan_exclusive_add(x);
}
)CLC";
  cl_kernel k = kernel(source, "floats", "-cl-std=CL3.0");
  const size_t local = 48, n = 48 * 3 + 20;
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = float(int(i * 37 % 19) - 9) * 0.25f;
  cl_mem input = buffer(n * sizeof(float), in.data());
  cl_mem output = buffer(n * 8 * sizeof(double));
  REQUIRE(clSetKernelArg(k, 0, sizeof input, &input) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof output, &output) == CL_SUCCESS);
  REQUIRE(runAndWait(k, 1, &n, &local) == CL_SUCCESS);
  std::vector<double> out(n * 8);
  REQUIRE(clEnqueueReadBuffer(queue, output, CL_TRUE, 0,
                              out.size() * sizeof(double), out.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  for (size_t g = 0; g < n; ++g) {
    size_t first = g / local * local, last = std::min(first + local, n);
    double sum = 0, prefix = 0, half_prefix = 0, product = 1;
    float max_value = -INFINITY, min_before = INFINITY, max_before = -INFINITY;
    for (size_t i = first; i < last; ++i) {
      sum += in[i];
      max_value = std::max(max_value, in[i]);
      product *= in[i] < 0 ? -1.0 : 1.0;
      if (i < g) {
        prefix += in[i];
        min_before = std::min(min_before, in[i]);
        max_before = std::max(max_before, in[i]);
      }
      if (i <= g)
        half_prefix += in[i] * 0.5;
    }
    INFO("work-item " << g);
    CHECK(out[g * 8 + 0] == sum);
    CHECK(out[g * 8 + 1] == min_before); // +INFINITY for the first
    CHECK(out[g * 8 + 2] == max_before); // -INFINITY for the first
    CHECK(out[g * 8 + 3] == max_value);
    CHECK(out[g * 8 + 4] == half_prefix);
    CHECK(out[g * 8 + 5] == product);
    CHECK(out[g * 8 + 6] == in[first + 3]);
    CHECK(out[g * 8 + 7] == prefix);
  }
  clReleaseMemObject(input);
  clReleaseMemObject(output);
  clReleaseKernel(k);
}

// Collectives between barriers and __local memory, and under control flow
// that every work-item of the group takes the same way (a loop whose trip
// count is uniform per group).
TEST_CASE_METHOD(CollectiveFixture,
                 "collectives mix with barriers, local memory and loops",
                 "[collectives]") {
  const char *source = R"CLC(
__kernel void mixed(__global int *out, __local int *tile) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  tile[lid] = (int)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  int total = 0;
  int rounds = (int)(get_group_id(0) % 4) + 1;
  for (int r = 0; r < rounds; ++r) {
    int mine = tile[(lid + r) % n];
    total += work_group_reduce_add(mine);
    int first = work_group_broadcast(mine, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[lid] = mine + first;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = total + work_group_scan_inclusive_add(1);
}
)CLC";
  cl_kernel k = kernel(source, "mixed", "-cl-std=CL3.0");
  const size_t local = 37, groups = 6, n = local * groups;
  cl_mem output = buffer(n * sizeof(int));
  REQUIRE(clSetKernelArg(k, 0, sizeof output, &output) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, local * sizeof(int), nullptr) == CL_SUCCESS);
  REQUIRE(runAndWait(k, 1, &n, &local) == CL_SUCCESS);
  std::vector<int> out(n);
  REQUIRE(clEnqueueReadBuffer(queue, output, CL_TRUE, 0, n * sizeof(int),
                              out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  for (size_t group = 0; group < groups; ++group) {
    std::vector<int> tile(local);
    for (size_t i = 0; i < local; ++i)
      tile[i] = int(i);
    int total = 0;
    for (size_t r = 0; r < group % 4 + 1; ++r) {
      std::vector<int> mine(local);
      int sum = 0;
      for (size_t i = 0; i < local; ++i)
        sum += mine[i] = tile[(i + r) % local];
      total += sum;
      for (size_t i = 0; i < local; ++i)
        tile[i] = mine[i] + mine[0];
    }
    for (size_t i = 0; i < local; ++i) {
      INFO("group " << group << ", work-item " << i);
      REQUIRE(out[group * local + i] == total + int(i) + 1);
    }
  }
  clReleaseMemObject(output);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(CollectiveFixture,
                 "the device reports the collectives and their extension",
                 "[collectives]") {
  cl_bool supported = CL_FALSE;
  REQUIRE(clGetDeviceInfo(device,
                          CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
                          sizeof supported, &supported, nullptr) == CL_SUCCESS);
  CHECK(supported == CL_TRUE);
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr,
                          &size) == CL_SUCCESS);
  std::vector<cl_name_version> features(size / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size,
                          features.data(), nullptr) == CL_SUCCESS);
  bool listed = false;
  for (const cl_name_version &f : features)
    listed |=
        std::string(f.name) == "__opencl_c_work_group_collective_functions";
  CHECK(listed);
  char extensions[4096] = {};
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions,
                          extensions, nullptr) == CL_SUCCESS);
  CHECK(std::string(extensions).find("cl_khr_work_group_uniform_arithmetic") !=
        std::string::npos);
  // The macro a kernel sees agrees with the query.
  const char *source = R"CLC(
#ifndef __opencl_c_work_group_collective_functions
#error no collectives macro
#endif
#ifndef cl_khr_work_group_uniform_arithmetic
#error no uniform arithmetic macro
#endif
__kernel void k(__global int *p) { *p = work_group_reduce_xor(1); }
)CLC";
  clReleaseKernel(kernel(source, "k", "-cl-std=CL3.0"));
}
