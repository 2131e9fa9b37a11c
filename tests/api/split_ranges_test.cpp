// Kernels that branch on a work-item's id against a bound run, after
// weft-split-work-item-ranges, as two loops over the ids on each side of
// the bound (three for == and !=: below, at and past it; and, where the id
// may wrap, an unsplit copy). Every work-item
// must still take the side its id says: bounds before, inside and after a
// group, at its edges, negative, past the range, and ids that wrap.
#include "api_fixture.h"

#include <climits>
#include <cstdint>

namespace {

// Each kernel writes a[k] on one side of its branch and leaves b alone (an
// `else` storing elsewhere would have LLVM merge the two stores into one
// through a selected pointer, and no branch would be left to split).
const char *kGuards = R"(
kernel void below_size(global int *a, global int *b, ulong n) {
  size_t i = get_global_id(0), k = i - get_global_offset(0);
  if (i < n) a[k] = 2 * (int)k + 1;
}
kernel void below_int(global int *a, global int *b, int n) {
  int i = get_global_id(0);
  size_t k = get_global_id(0) - get_global_offset(0);
  if (i < n) a[k] = 2 * (int)k + 1;
}
kernel void at_least(global int *a, global int *b, uint n) {
  size_t i = get_global_id(0), k = i - get_global_offset(0);
  if (i >= n) a[k] = 5;
}
kernel void at_most_int(global int *a, global int *b, int n) {
  int i = get_global_id(0);
  size_t k = get_global_id(0) - get_global_offset(0);
  if (i <= n) a[k] = 7;
}
kernel void odd_local(global int *a, global int *b, uint n) {
  size_t l = get_local_id(0), k = get_global_id(0) - get_global_offset(0);
  if (2 * l + 1 < n) a[k] = (int)l;
}
kernel void equal_size(global int *a, global int *b, ulong n) {
  size_t i = get_global_id(0), k = i - get_global_offset(0);
  if (i == n) a[k] = 9;
}
kernel void not_equal_size(global int *a, global int *b, ulong n) {
  size_t i = get_global_id(0), k = i - get_global_offset(0);
  if (n != i) a[k] = 11;
}
// Between barriers, as a region loop: the bound is a kernel argument.
kernel void halves(global int *out, local int *t, uint cut) {
  size_t l = get_local_id(0);
  t[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l >= cut) t[l] = -t[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0) - get_global_offset(0)] = t[l];
}
)";

enum class Compare { Below, AtLeast, AtMost, OddLocal, Equal, NotEqual };

} // namespace

TEST_CASE_METHOD(WeftFixture, "branches on a work-item's id take the id's side",
                 "[api]") {
  cl_program program;
  std::string log;
  REQUIRE(build(kGuards, program, log, "-cl-std=CL3.0") == CL_SUCCESS);
  const size_t global = 1000;
  cl_mem a = buffer(global * sizeof(cl_int)),
         b = buffer(global * sizeof(cl_int));
  struct Kernel {
    const char *name;
    bool is_signed;
    Compare compare;
    size_t bound_size; // of the bound argument
  } kernels[] = {{"below_size", false, Compare::Below, 8},
                 {"below_int", true, Compare::Below, 4},
                 {"at_least", false, Compare::AtLeast, 4},
                 {"at_most_int", true, Compare::AtMost, 4},
                 {"odd_local", false, Compare::OddLocal, 4},
                 {"equal_size", false, Compare::Equal, 8},
                 {"not_equal_size", false, Compare::NotEqual, 8}};
  // A bound inside the first group, at a group's edge, inside a later
  // group, past the range, and none or all.
  const int64_t bounds[] = {0,   1,    37,   64, 100,    513,
                            999, 1000, 5000, -5, INT_MAX};
  const size_t offsets[] = {0, 37, size_t(INT_MAX) - 300};
  const size_t locals[] = {64, 256, 0};
  for (const Kernel &kernel : kernels) {
    cl_int err;
    cl_kernel k = clCreateKernel(program, kernel.name, &err);
    REQUIRE(err == CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof(cl_mem), &a);
    clSetKernelArg(k, 1, sizeof(cl_mem), &b);
    for (int64_t bound : bounds)
      for (size_t offset : offsets)
        for (size_t local : locals) {
          if (!kernel.is_signed && bound < 0)
            continue;
          // With no local size Weft picks the groups, and odd_local's
          // answer depends on them.
          if (kernel.compare == Compare::OddLocal && !local)
            continue;
          uint64_t bound_value = uint64_t(bound);
          if (kernel.bound_size == 4 && !kernel.is_signed &&
              bound_value > UINT32_MAX)
            continue;
          // Bounds near the offset, so that ids cross them.
          if (offset > 1000 && bound >= 0 && bound < INT_MAX)
            bound_value += offset;
          if (kernel.is_signed && bound_value > uint64_t(INT_MAX) && bound >= 0)
            continue;
          INFO(kernel.name << " bound " << int64_t(bound_value) << " offset "
                           << offset << " local " << local);
          cl_int init = -1;
          clEnqueueFillBuffer(queue, a, &init, sizeof init, 0,
                              global * sizeof(cl_int), 0, nullptr, nullptr);
          clEnqueueFillBuffer(queue, b, &init, sizeof init, 0,
                              global * sizeof(cl_int), 0, nullptr, nullptr);
          REQUIRE(clSetKernelArg(k, 2, kernel.bound_size, &bound_value) ==
                  CL_SUCCESS);
          REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, &offset, &global,
                                         local ? &local : nullptr, 0, nullptr,
                                         nullptr) == CL_SUCCESS);
          std::vector<cl_int> got_a(global), got_b(global);
          clEnqueueReadBuffer(queue, a, CL_TRUE, 0, global * sizeof(cl_int),
                              got_a.data(), 0, nullptr, nullptr);
          clEnqueueReadBuffer(queue, b, CL_TRUE, 0, global * sizeof(cl_int),
                              got_b.data(), 0, nullptr, nullptr);
          size_t wrong = 0;
          for (size_t i = 0; i < global; ++i) {
            uint64_t id = offset + i;
            // int i = get_global_id(0) keeps the low 32 bits.
            int64_t signed_id = int32_t(uint32_t(id));
            int64_t signed_bound = int32_t(uint32_t(bound_value));
            bool side_a = false;
            cl_int value_a = 0;
            switch (kernel.compare) {
            case Compare::Below:
              side_a = kernel.is_signed ? signed_id < signed_bound
                                        : id < bound_value;
              value_a = 2 * cl_int(i) + 1;
              break;
            case Compare::AtLeast:
              side_a = id >= uint32_t(bound_value);
              value_a = 5;
              break;
            case Compare::AtMost:
              side_a = signed_id <= signed_bound;
              value_a = 7;
              break;
            case Compare::Equal:
              side_a = id == bound_value;
              value_a = 9;
              break;
            case Compare::NotEqual:
              side_a = id != bound_value;
              value_a = 11;
              break;
            case Compare::OddLocal: {
              size_t lid = i % local;
              side_a = 2 * lid + 1 < uint32_t(bound_value);
              value_a = cl_int(lid);
              break;
            }
            }
            wrong += got_a[i] != (side_a ? value_a : -1) || got_b[i] != -1;
          }
          CHECK(wrong == 0);
        }
    clReleaseKernel(k);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);

  // The region loop: ids at or past `cut` negate.
  cl_int err;
  cl_kernel k = clCreateKernel(program, "halves", &err);
  REQUIRE(err == CL_SUCCESS);
  const size_t local = 64, items = 640;
  cl_mem out = buffer(items * sizeof(cl_int));
  clSetKernelArg(k, 0, sizeof(cl_mem), &out);
  clSetKernelArg(k, 1, local * sizeof(cl_int), nullptr);
  for (cl_uint cut : {0u, 1u, 13u, 32u, 63u, 64u, 1000u}) {
    INFO("cut " << cut);
    clSetKernelArg(k, 2, sizeof cut, &cut);
    REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &items, &local, 0,
                                   nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_int> got(items);
    clEnqueueReadBuffer(queue, out, CL_TRUE, 0, items * sizeof(cl_int),
                        got.data(), 0, nullptr, nullptr);
    size_t wrong = 0;
    for (size_t i = 0; i < items; ++i) {
      cl_int l = cl_int(i % local);
      wrong += got[i] != (cl_uint(l) >= cut ? -l : l);
    }
    CHECK(wrong == 0);
  }
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(program);
}
