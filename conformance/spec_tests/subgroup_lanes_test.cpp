// Sub-groups of more than one work-item (OpenCL 3.0 §3.2.2 and the OpenCL
// C sub-group functions; cl_khr_subgroup_*; cl_intel_subgroups;
// cl_intel_required_subgroup_size). Each work-item records where it is and
// what the functions answered; the host checks the sub-groups' shape (runs
// of the kernel's size along dimension 0 of each row, the last run of a row
// shorter) and computes every result from the members' inputs. Every
// required size and the device's own, in 1-, 2- and 3-D groups with a
// smaller last group, on the widened path (no barrier) and on fibers (a
// barrier), with work-items that part ways: a non-uniform reduction in a
// branch, a loop each work-item goes round a different number of times,
// and the uniform reduction after the branch, where they all meet again.
#include "api_fixture.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

enum Slot : int {
  kGroup, // the group's linear id
  kLocalX,
  kRow, // the local linear id of the row: y + z * local y size
  kSubGroupId,
  kLocalId,
  kSize,
  kMaxSize,
  kNumSubGroups,
  kReduceAdd,
  kScanInclusiveAdd,
  kScanExclusiveMax,
  kBroadcastLast,
  kShuffleXor1,
  kShuffleDown1,
  kShuffleUp1,
  kRotate1,
  kClusteredAdd4,
  kOddReduceAdd, // in a branch: the odd inputs only
  kOddScanAdd,   // the same, inclusive scan
  kOddBallot,    // the same, ballot (low word)
  kOddElect,     // the same, elect
  kAnyAbove50,
  kAllNonNegative,
  kLoopSum,     // a loop each work-item goes round (v & 3) times
  kAfterBranch, // reduce_add(1) after the branch: the whole sub-group
  kIntelShuffleDown,
  kExclusiveLogicalAnd, // of v > 10: 1 for the first, whatever it holds
  kClusteredMax2,
  kSlots
};

const char *kSource = R"CLC(
#define SLOTS %d
#ifdef REQUIRED
#define SIZE_ATTRIBUTE __attribute__((intel_reqd_sub_group_size(REQUIRED)))
#else
#define SIZE_ATTRIBUTE
#endif
kernel SIZE_ATTRIBUTE void lanes(global const int *in, global int *out) {
  size_t i = get_global_linear_id();
  global int *o = out + i * SLOTS;
  int v = in[i];
#ifdef WITH_BARRIER
  barrier(CLK_GLOBAL_MEM_FENCE); // the kernel runs on fibers
#endif
  uint lid = get_sub_group_local_id(), size = get_sub_group_size();
  o[0] = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) *
             get_num_groups(0) + get_group_id(0);
  o[1] = get_local_id(0);
  o[2] = get_local_id(2) * get_local_size(1) + get_local_id(1);
  o[3] = get_sub_group_id();
  o[4] = lid;
  o[5] = size;
  o[6] = get_max_sub_group_size();
  o[7] = get_num_sub_groups();
  o[8] = sub_group_reduce_add(v);
  o[9] = sub_group_scan_inclusive_add(v);
  o[10] = sub_group_scan_exclusive_max(v);
  o[11] = sub_group_broadcast(v, size - 1);
  o[12] = sub_group_shuffle_xor(v, 1);
  o[13] = sub_group_shuffle_down(v, 1);
  o[14] = sub_group_shuffle_up(v, 1);
  o[15] = sub_group_rotate(v, 1);
  o[16] = sub_group_clustered_reduce_add(v, 4);
  o[17] = o[18] = o[19] = o[20] = -1;
  if (v & 1) {
    o[17] = sub_group_non_uniform_reduce_add(v);
    o[18] = sub_group_non_uniform_scan_inclusive_add(v);
    o[19] = sub_group_ballot(1).x;
    o[20] = sub_group_elect();
  }
  o[21] = sub_group_any(v > 50);
  o[22] = sub_group_all(v >= 0);
  int sum = 0;
  for (int k = 0; k < (v & 3); ++k)
    sum += sub_group_non_uniform_reduce_add(k + 1);
  o[23] = sum;
  o[24] = sub_group_reduce_add(1);
  o[25] = intel_sub_group_shuffle_down(v, v + 1000, 1);
  o[26] = sub_group_non_uniform_scan_exclusive_logical_and(v > 10);
  o[27] = sub_group_clustered_reduce_max(v, 2);
}
)CLC";

struct Shape {
  const char *name;
  cl_uint dims;
  size_t global[3], local[3];
};

const Shape kShapes[] = {
    {"1-D, 24 a group, a last group of 4", 1, {100, 1, 1}, {24, 1, 1}},
    {"2-D, rows of 12, a last column of groups 6 wide",
     2,
     {30, 5, 1},
     {12, 3, 1}},
    {"3-D, rows of 8", 3, {8, 4, 6}, {8, 2, 3}},
};

struct Member {
  size_t item;
  int value;
};

// Checks one run's records against the members' inputs; `width` is the
// kernel's sub-group size.
void checkRun(const std::vector<cl_int> &got, const std::vector<int> &input,
              size_t items, size_t width, const Shape &shape) {
  auto at = [&](size_t item, int slot) {
    return got[item * kSlots + size_t(slot)];
  };
  // Members by (group, sub-group id), in sub-group local id order.
  std::map<std::pair<int, int>, std::vector<Member>> groups;
  for (size_t i = 0; i < items; ++i) {
    // The shape: runs of `width` along x in each row.
    size_t x = size_t(at(i, kLocalX));
    size_t group_x = shape.local[0]; // the group's own x size, at its edge
    int group = at(i, kGroup);
    size_t gx = size_t(group) %
                ((shape.global[0] + shape.local[0] - 1) / shape.local[0]);
    group_x = std::min(shape.local[0], shape.global[0] - gx * shape.local[0]);
    size_t runs = (group_x + width - 1) / width;
    INFO("work-item " << i << " (x " << x << ", row " << at(i, kRow) << ")");
    REQUIRE(at(i, kLocalId) == cl_int(x % width));
    REQUIRE(at(i, kSubGroupId) ==
            cl_int(size_t(at(i, kRow)) * runs + x / width));
    REQUIRE(at(i, kSize) ==
            cl_int(std::min(width, group_x - x / width * width)));
    REQUIRE(at(i, kMaxSize) == cl_int(std::min(width, shape.local[0])));
    groups[{group, at(i, kSubGroupId)}].push_back({i, input[i]});
  }
  for (auto &[key, members] : groups) {
    std::sort(members.begin(), members.end(),
              [&](const Member &a, const Member &b) {
                return at(a.item, kLocalId) < at(b.item, kLocalId);
              });
    size_t n = members.size();
    INFO("group " << key.first << ", sub-group " << key.second << " of " << n);
    REQUIRE(at(members[0].item, kSize) == cl_int(n));
    int total = 0, odd_total = 0, any_above = 0;
    uint32_t odd_bits = 0;
    for (size_t m = 0; m < n; ++m) {
      total += members[m].value;
      any_above |= members[m].value > 50;
      if (members[m].value & 1) {
        odd_total += members[m].value;
        odd_bits |= 1u << m;
      }
    }
    int running = 0, odd_running = 0, most = INT32_MIN;
    for (size_t m = 0; m < n; ++m) {
      size_t i = members[m].item;
      int v = members[m].value;
      INFO("sub-group local id " << m << ", input " << v);
      CHECK(at(i, kReduceAdd) == total);
      running += v;
      CHECK(at(i, kScanInclusiveAdd) == running);
      CHECK(at(i, kScanExclusiveMax) == most);
      most = std::max(most, v);
      CHECK(at(i, kBroadcastLast) == members[n - 1].value);
      if ((m ^ 1) < n)
        CHECK(at(i, kShuffleXor1) == members[m ^ 1].value);
      if (m + 1 < n)
        CHECK(at(i, kShuffleDown1) == members[m + 1].value);
      if (m >= 1)
        CHECK(at(i, kShuffleUp1) == members[m - 1].value);
      CHECK(at(i, kRotate1) == members[(m + 1) % n].value);
      if (n == width) { // clusters of 4 inside a whole sub-group
        int cluster = 0;
        for (size_t c = m / 4 * 4; c < m / 4 * 4 + 4; ++c)
          cluster += members[c].value;
        CHECK(at(i, kClusteredAdd4) == cluster);
        int next = m + 1 < n ? members[m + 1].value : members[0].value + 1000;
        CHECK(at(i, kIntelShuffleDown) == next);
      }
      if (v & 1) {
        odd_running += v;
        CHECK(at(i, kOddReduceAdd) == odd_total);
        CHECK(at(i, kOddScanAdd) == odd_running);
        CHECK(uint32_t(at(i, kOddBallot)) == odd_bits);
        CHECK(at(i, kOddElect) == (m == size_t(__builtin_ctz(odd_bits))));
      } else {
        CHECK(at(i, kOddReduceAdd) == -1);
      }
      CHECK(at(i, kAnyAbove50) == any_above);
      bool all_before = true;
      for (size_t b = 0; b < m; ++b)
        all_before = all_before && members[b].value > 10;
      CHECK(at(i, kExclusiveLogicalAnd) == int(all_before));
      if (n % 2 == 0)
        CHECK(at(i, kClusteredMax2) ==
              std::max(members[m & ~size_t(1)].value, members[m | 1].value));
      CHECK(at(i, kAllNonNegative) == 1);
      // Round k has the members that go round more than k times, each
      // adding k + 1.
      int sum = 0;
      for (int k = 0; k < (v & 3); ++k) {
        int active = 0;
        for (const Member &other : members)
          active += (other.value & 3) > k;
        sum += active * (k + 1);
      }
      CHECK(at(i, kLoopSum) == sum);
      CHECK(at(i, kAfterBranch) == cl_int(n));
    }
  }
}

} // namespace

TEST_CASE_METHOD(WeftFixture,
                 "Sub-groups as runs of work-items: every required size and "
                 "the device's own, 1-, 2- and 3-D groups, widened and on "
                 "fibers, uniform and parted",
                 "[subgroup-lanes]") {
  REQUIRE(hasExtension("cl_intel_required_subgroup_size"));
  size_t bytes = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr,
                          &bytes) == CL_SUCCESS);
  std::vector<size_t> sizes(bytes / sizeof(size_t));
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, bytes,
                          sizes.data(), nullptr) == CL_SUCCESS);
  for (size_t wanted : {4, 8, 16, 32})
    CHECK(std::find(sizes.begin(), sizes.end(), wanted) != sizes.end());

  char source[8192];
  std::snprintf(source, sizeof source, kSource, int(kSlots));
  for (size_t required :
       {size_t(0), size_t(4), size_t(8), size_t(16), size_t(32)}) {
    for (bool with_barrier : {false, true}) {
      std::string options = "-cl-std=CL3.0";
      if (required)
        options += " -DREQUIRED=" + std::to_string(required);
      if (with_barrier)
        options += " -DWITH_BARRIER";
      INFO("required size " << required
                            << (with_barrier ? ", fibers" : ", widened"));
      cl_kernel k = kernel(source, "lanes", options.c_str());
      size_t compiled = 99;
      REQUIRE(clGetKernelSubGroupInfo(
                  k, device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr,
                  sizeof compiled, &compiled, nullptr) == CL_SUCCESS);
      CHECK(compiled == required);
      // The kernel's own size: what a long row's sub-groups have.
      size_t width = 0, long_row = 1024;
      REQUIRE(clGetKernelSubGroupInfo(k, device,
                                      CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                      sizeof long_row, &long_row, sizeof width,
                                      &width, nullptr) == CL_SUCCESS);
      if (required)
        REQUIRE(width == required);
      else
        REQUIRE(std::find(sizes.begin(), sizes.end(), width) != sizes.end());
      for (const Shape &shape : kShapes) {
        INFO(shape.name);
        size_t largest = 0;
        REQUIRE(clGetKernelSubGroupInfo(
                    k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                    shape.dims * sizeof(size_t), shape.local, sizeof largest,
                    &largest, nullptr) == CL_SUCCESS);
        CHECK(largest == std::min(width, shape.local[0]));
        size_t count = 0;
        REQUIRE(clGetKernelSubGroupInfo(
                    k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                    shape.dims * sizeof(size_t), shape.local, sizeof count,
                    &count, nullptr) == CL_SUCCESS);
        size_t rows = shape.local[1] * shape.local[2];
        CHECK(count == (shape.local[0] + width - 1) / width * rows);

        size_t items = shape.global[0] * shape.global[1] * shape.global[2];
        std::vector<int> input(items);
        for (size_t i = 0; i < items; ++i)
          input[i] = int((i * 2654435761u >> 7) % 100);
        cl_mem in = buffer(items * 4, input.data());
        cl_mem out = buffer(items * kSlots * 4);
        clSetKernelArg(k, 0, sizeof in, &in);
        clSetKernelArg(k, 1, sizeof out, &out);
        REQUIRE(runAndWait(k, shape.dims, shape.global, shape.local) ==
                CL_SUCCESS);
        std::vector<cl_int> got = readInts(out, items * kSlots);
        checkRun(got, input, items, width, shape);
        clReleaseMemObject(in);
        clReleaseMemObject(out);
      }
      clReleaseKernel(k);
    }
  }
}

TEST_CASE_METHOD(WeftFixture,
                 "A sub-group size the device does not offer fails the build "
                 "with a log that says which it offers",
                 "[subgroup-lanes]") {
  cl_program program;
  std::string log;
  const char *source = "kernel __attribute__((intel_reqd_sub_group_size(6))) "
                       "void k(global int *o) { o[0] = get_sub_group_size(); }";
  CHECK(build(source, program, log) == CL_BUILD_PROGRAM_FAILURE);
  CHECK(log.find("1, 2, 4, 8, 16, 32 and 64") != std::string::npos);
  clReleaseProgram(program);
}

TEST_CASE_METHOD(WeftFixture,
                 "Independent forward progress: a work-item waits in a loop "
                 "for a flag a later sub-group sets, with and without a "
                 "barrier",
                 "[subgroup-lanes]") {
  cl_bool progress = CL_FALSE;
  REQUIRE(clGetDeviceInfo(device,
                          CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
                          sizeof progress, &progress, nullptr) == CL_SUCCESS);
  REQUIRE(progress == CL_TRUE);
  REQUIRE(hasExtension("cl_khr_subgroups"));
  // Each sub-group's first work-item waits until the sub-group after it has
  // taken its turn; the last sub-group starts. Work-items run one after
  // another would wait forever in the first sub-group. The turn is in
  // local memory, set up behind a barrier, or in a global buffer the host
  // sets (no barrier: the kernel would otherwise be widened).
  const char *source = R"CLC(
kernel void chain(global int *out, global atomic_int *global_turn,
                  local atomic_int *local_turn) {
  uint sub_group = get_sub_group_id(), count = get_num_sub_groups();
#ifdef WITH_BARRIER
  volatile local atomic_int *turn = local_turn;
  if (get_local_id(0) == 0)
    atomic_init(turn, (int)count - 1);
  barrier(CLK_LOCAL_MEM_FENCE);
#else
  volatile global atomic_int *turn = global_turn;
#endif
  int order = -1;
  if (get_sub_group_local_id() == 0) {
    while (atomic_load(turn) != (int)sub_group)
      ;
    order = atomic_fetch_sub(turn, 1);
  }
  out[get_global_id(0)] = order;
}
)CLC";
  for (bool with_barrier : {true, false}) {
    INFO((with_barrier ? "with a barrier" : "without a barrier"));
    cl_kernel k =
        kernel(source, "chain",
               with_barrier ? "-cl-std=CL3.0 -DWITH_BARRIER" : "-cl-std=CL3.0");
    const size_t items = 64; // one group
    size_t width = 0;
    REQUIRE(clGetKernelSubGroupInfo(k, device,
                                    CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof items, &items, sizeof width, &width,
                                    nullptr) == CL_SUCCESS);
    REQUIRE(width >= 1);
    cl_int start = cl_int(items / width) - 1;
    cl_mem out = buffer(items * 4), turn = buffer(4, &start);
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(k, 1, sizeof turn, &turn);
    clSetKernelArg(k, 2, sizeof(cl_int), nullptr);
    REQUIRE(runAndWait(k, 1, &items, &items) == CL_SUCCESS);
    std::vector<cl_int> got = readInts(out, items);
    for (size_t i = 0; i < items; ++i) {
      INFO("work-item " << i << ", sub-groups of " << width);
      CHECK(got[i] == (i % width == 0 ? cl_int(i / width) : -1));
    }
    clReleaseMemObject(out);
    clReleaseMemObject(turn);
    clReleaseKernel(k);
  }
}
