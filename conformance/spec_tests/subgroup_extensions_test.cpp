// The cl_khr_subgroup_* extensions (ballot, non-uniform vote and
// arithmetic, shuffles, relative shuffles, clustered reductions, extended
// types), from the OpenCL C spec's sub-group function tables. Each
// work-item records which sub-group it is in and where; the host then
// computes every function's result from the inputs of that sub-group's
// members, so the reference holds for any sub-group size: the device's own
// and every required size up to 32.
#include "api_fixture.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <tuple>
#include <vector>

namespace {

// Results per work-item, in the order the kernel writes them.
enum Slot : int {
  kSubGroupId,
  kLocalId,
  kSize,
  kMaxSize,
  kBallot0, // four words
  kInverseBallot = kBallot0 + 4,
  kBitExtract,
  kBitCount,
  kInclusiveScanBits,
  kExclusiveScanBits,
  kFindLsb,
  kFindMsb,
  kEqMask, // each mask four words
  kGeMask = kEqMask + 4,
  kGtMask = kGeMask + 4,
  kLeMask = kGtMask + 4,
  kLtMask = kLeMask + 4,
  kBroadcast = kLtMask + 4,
  kBroadcastFirst,
  kElect,
  kAll,
  kAny,
  kAllEqual,
  kShuffle,
  kShuffleXor,
  kShuffleUp,
  kShuffleDown,
  kReduceAdd,
  kReduceMul,
  kReduceMin,
  kReduceMax,
  kReduceAnd,
  kReduceOr,
  kReduceXor,
  kScanInclusiveAdd,
  kScanExclusiveAdd,
  kScanExclusiveMin,
  kScanExclusiveMax,
  kScanExclusiveMul,
  kScanExclusiveAnd,
  kLogicalAnd,
  kLogicalOr,
  kLogicalXor,
  kClusteredAdd,
  kCharBroadcast,
  kShortReduceAdd,
  kVectorBroadcast, // four words
  kSlots = kVectorBroadcast + 4
};

const char *kSource = R"CLC(
#define SLOTS %d
#ifdef REQUIRED
__attribute__((intel_reqd_sub_group_size(REQUIRED)))
#endif
kernel void subgroups(global const int *in, global int *out, int barrier_at) {
  size_t i = get_global_id(0);
  global int *o = out + i * SLOTS;
  int v = in[i];
  int p = (v %% 3) == 0;
  // A barrier makes the kernel run on fibers; without, widened a sub-group
  // at a time.
  if (barrier_at)
    barrier(CLK_GLOBAL_MEM_FENCE);
  uint lid = get_sub_group_local_id(), size = get_sub_group_size();
  o[0] = get_sub_group_id();
  o[1] = lid;
  o[2] = size;
  o[3] = get_max_sub_group_size();
  uint4 b = sub_group_ballot(p);
  vstore4(as_int4(b), 0, o + 4);
  o[8] = sub_group_inverse_ballot(b);
  o[9] = sub_group_ballot_bit_extract(b, 0);
  o[10] = sub_group_ballot_bit_count(b);
  o[11] = sub_group_ballot_inclusive_scan(b);
  o[12] = sub_group_ballot_exclusive_scan(b);
  uint4 any_bit = b | (uint4)(1, 0, 0, 0);
  o[13] = sub_group_ballot_find_lsb(any_bit);
  o[14] = sub_group_ballot_find_msb(any_bit);
  vstore4(as_int4(get_sub_group_eq_mask()), 0, o + 15);
  vstore4(as_int4(get_sub_group_ge_mask()), 0, o + 19);
  vstore4(as_int4(get_sub_group_gt_mask()), 0, o + 23);
  vstore4(as_int4(get_sub_group_le_mask()), 0, o + 27);
  vstore4(as_int4(get_sub_group_lt_mask()), 0, o + 31);
  o[35] = sub_group_non_uniform_broadcast(v, 0);
  o[36] = sub_group_broadcast_first(v);
  o[37] = sub_group_elect();
  o[38] = sub_group_non_uniform_all(p);
  o[39] = sub_group_non_uniform_any(p);
  o[40] = sub_group_non_uniform_all_equal(v);
  o[41] = sub_group_shuffle(v, size - 1 - lid);
  o[42] = sub_group_shuffle_xor(v, 0);
  o[43] = sub_group_shuffle_up(v, 0);
  o[44] = sub_group_shuffle_down(v, 0);
  o[45] = sub_group_non_uniform_reduce_add(v);
  o[46] = sub_group_non_uniform_reduce_mul(v);
  o[47] = sub_group_non_uniform_reduce_min(v);
  o[48] = sub_group_non_uniform_reduce_max(v);
  o[49] = sub_group_non_uniform_reduce_and(v);
  o[50] = sub_group_non_uniform_reduce_or(v);
  o[51] = sub_group_non_uniform_reduce_xor(v);
  o[52] = sub_group_non_uniform_scan_inclusive_add(v);
  o[53] = sub_group_non_uniform_scan_exclusive_add(v);
  o[54] = sub_group_non_uniform_scan_exclusive_min(v);
  o[55] = sub_group_non_uniform_scan_exclusive_max(v);
  o[56] = sub_group_non_uniform_scan_exclusive_mul(v);
  o[57] = sub_group_non_uniform_scan_exclusive_and(v);
  o[58] = sub_group_non_uniform_reduce_logical_and(p);
  o[59] = sub_group_non_uniform_reduce_logical_or(p);
  o[60] = sub_group_non_uniform_reduce_logical_xor(p);
  o[61] = sub_group_clustered_reduce_add(v, 1);
  o[62] = sub_group_broadcast((char)v, 0);
  o[63] = sub_group_reduce_add((short)v);
  vstore4(sub_group_broadcast((int4)(v, v + 1, v + 2, v + 3), 0), 0, o + 64);
}
)CLC";

struct Member {
  uint32_t local_id;
  int32_t value;
};

// The bits of a ballot below `count`.
std::array<uint32_t, 4> bitsBelow(uint32_t count) {
  std::array<uint32_t, 4> bits = {};
  for (uint32_t bit = 0; bit < count && bit < 128; ++bit)
    bits[bit / 32] |= 1u << (bit % 32);
  return bits;
}

uint32_t popcount(const std::array<uint32_t, 4> &bits) {
  uint32_t n = 0;
  for (uint32_t word : bits)
    n += uint32_t(__builtin_popcount(word));
  return n;
}

std::array<uint32_t, 4> mask(const std::array<uint32_t, 4> &a,
                             const std::array<uint32_t, 4> &b) {
  return {a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]};
}

} // namespace

TEST_CASE_METHOD(WeftFixture,
                 "Sub-group extensions: every function against the members' "
                 "inputs, in uniform and non-uniform groups",
                 "[subgroups]") {
  for (const char *name :
       {"cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote",
        "cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_arithmetic",
        "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
        "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate"}) {
    INFO(name);
    CHECK(hasExtension(name));
  }
  char source[8192];
  std::snprintf(source, sizeof source, kSource, int(kSlots));
  const size_t global = 170, local = 64; // a last group of 42
  std::vector<cl_int> input(global);
  for (size_t i = 0; i < global; ++i)
    input[i] = cl_int((i * 2654435761u) % 1000) - 300;
  cl_mem in = buffer(global * 4, input.data());
  cl_mem out = buffer(global * kSlots * 4);
  // The device's own sub-group size, and every size a kernel may require
  // up to 32.
  for (int required : {0, 4, 8, 16, 32})
    for (cl_int barrier_at : {0, 1}) {
      std::string options = "-cl-std=CL3.0";
      if (required)
        options += " -DREQUIRED=" + std::to_string(required);
      INFO("required sub-group size " << required);
      INFO((barrier_at ? "with a barrier (fibers)" : "without a barrier"));
      cl_kernel k = kernel(source, "subgroups", options.c_str());
      clSetKernelArg(k, 0, sizeof in, &in);
      clSetKernelArg(k, 1, sizeof out, &out);
      clSetKernelArg(k, 2, sizeof barrier_at, &barrier_at);
      REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
      std::vector<cl_int> got = readInts(out, global * kSlots);
      auto at = [&](size_t item, int slot) {
        return got[item * kSlots + size_t(slot)];
      };
      // The sub-groups: (work-group, sub-group id) -> members.
      std::map<std::pair<size_t, cl_int>, std::vector<Member>> groups;
      std::map<std::pair<size_t, cl_int>, std::vector<size_t>> items;
      for (size_t i = 0; i < global; ++i) {
        auto key = std::make_pair(i / local, at(i, kSubGroupId));
        groups[key].push_back({uint32_t(at(i, kLocalId)), input[i]});
        items[key].push_back(i);
      }
      for (auto &[key, members] : groups) {
        std::sort(members.begin(), members.end(),
                  [](const Member &a, const Member &b) {
                    return a.local_id < b.local_id;
                  });
        const uint32_t size = uint32_t(members.size());
        std::array<uint32_t, 4> ballot = {};
        bool all = true, any = false, equal = true;
        int32_t sum = 0, product = 1, lowest = INT32_MAX, highest = INT32_MIN;
        int32_t all_bits = -1, or_bits = 0, xor_bits = 0, logical_xor = 0;
        for (const Member &m : members) {
          bool p = m.value % 3 == 0;
          if (p)
            ballot[m.local_id / 32] |= 1u << (m.local_id % 32);
          all &= p;
          any |= p;
          equal &= m.value == members[0].value;
          sum += m.value;
          product = int32_t(uint32_t(product) * uint32_t(m.value));
          lowest = std::min(lowest, m.value);
          highest = std::max(highest, m.value);
          all_bits &= m.value;
          or_bits |= m.value;
          xor_bits ^= m.value;
          logical_xor ^= int32_t(p);
        }
        for (size_t i : items[key]) {
          INFO("work-item " << i << " (sub-group " << key.second << " of group "
                            << key.first << ", size " << size << ")");
          const uint32_t lid = uint32_t(at(i, kLocalId));
          const uint32_t max_size = uint32_t(at(i, kMaxSize));
          CHECK(uint32_t(at(i, kSize)) == size);
          REQUIRE(lid < size);
          REQUIRE(members[lid].local_id == lid);
          CHECK(size <= max_size);
          for (int w = 0; w < 4; ++w)
            CHECK(uint32_t(at(i, kBallot0 + w)) == ballot[w]);
          CHECK(at(i, kInverseBallot) == ((ballot[lid / 32] >> lid % 32) & 1));
          CHECK(at(i, kBitExtract) == int(ballot[0] & 1));
          CHECK(uint32_t(at(i, kBitCount)) ==
                popcount(mask(ballot, bitsBelow(max_size))));
          CHECK(uint32_t(at(i, kInclusiveScanBits)) ==
                popcount(mask(ballot, bitsBelow(lid + 1))));
          CHECK(uint32_t(at(i, kExclusiveScanBits)) ==
                popcount(mask(ballot, bitsBelow(lid))));
          std::array<uint32_t, 4> any_bit = ballot;
          any_bit[0] |= 1;
          any_bit = mask(any_bit, bitsBelow(max_size));
          uint32_t lsb = 128, msb = 0;
          for (uint32_t bit = 0; bit < 128; ++bit)
            if ((any_bit[bit / 32] >> bit % 32) & 1) {
              lsb = std::min(lsb, bit);
              msb = bit;
            }
          CHECK(uint32_t(at(i, kFindLsb)) == lsb);
          CHECK(uint32_t(at(i, kFindMsb)) == msb);
          std::array<uint32_t, 4> below_max = bitsBelow(max_size),
                                  below_me = bitsBelow(lid),
                                  to_me = bitsBelow(lid + 1);
          for (int w = 0; w < 4; ++w) {
            INFO("mask word " << w);
            CHECK(uint32_t(at(i, kEqMask + w)) == (to_me[w] ^ below_me[w]));
            CHECK(uint32_t(at(i, kGeMask + w)) ==
                  (below_max[w] & ~below_me[w]));
            CHECK(uint32_t(at(i, kGtMask + w)) == (below_max[w] & ~to_me[w]));
            CHECK(uint32_t(at(i, kLeMask + w)) == to_me[w]);
            CHECK(uint32_t(at(i, kLtMask + w)) == below_me[w]);
          }
          int32_t mine = members[lid].value;
          CHECK(at(i, kBroadcast) == members[0].value);
          CHECK(at(i, kBroadcastFirst) == members[0].value);
          CHECK(at(i, kElect) == (lid == 0 ? 1 : 0));
          CHECK(at(i, kAll) == int(all));
          CHECK(at(i, kAny) == int(any));
          CHECK(at(i, kAllEqual) == int(equal));
          CHECK(at(i, kShuffle) == members[size - 1 - lid].value);
          CHECK(at(i, kShuffleXor) == mine);
          CHECK(at(i, kShuffleUp) == mine);
          CHECK(at(i, kShuffleDown) == mine);
          CHECK(at(i, kReduceAdd) == sum);
          CHECK(at(i, kReduceMul) == product);
          CHECK(at(i, kReduceMin) == lowest);
          CHECK(at(i, kReduceMax) == highest);
          CHECK(at(i, kReduceAnd) == all_bits);
          CHECK(at(i, kReduceOr) == or_bits);
          CHECK(at(i, kReduceXor) == xor_bits);
          int32_t before = 0, before_product = 1, before_min = INT32_MAX,
                  before_max = INT32_MIN, before_and = -1;
          for (uint32_t j = 0; j < lid; ++j) {
            int32_t x = members[j].value;
            before += x;
            before_product = int32_t(uint32_t(before_product) * uint32_t(x));
            before_min = std::min(before_min, x);
            before_max = std::max(before_max, x);
            before_and &= x;
          }
          CHECK(at(i, kScanInclusiveAdd) == before + mine);
          CHECK(at(i, kScanExclusiveAdd) == before);
          CHECK(at(i, kScanExclusiveMin) == before_min);
          CHECK(at(i, kScanExclusiveMax) == before_max);
          CHECK(at(i, kScanExclusiveMul) == before_product);
          CHECK(at(i, kScanExclusiveAnd) == before_and);
          CHECK(at(i, kLogicalAnd) == int(all));
          CHECK(at(i, kLogicalOr) == int(any));
          CHECK(at(i, kLogicalXor) == logical_xor);
          CHECK(at(i, kClusteredAdd) == mine); // clusters of one
          CHECK(at(i, kCharBroadcast) == int32_t(int8_t(members[0].value)));
          int16_t short_sum = 0;
          for (const Member &m : members)
            short_sum = int16_t(short_sum + int16_t(m.value));
          CHECK(at(i, kShortReduceAdd) == short_sum);
          for (int c = 0; c < 4; ++c)
            CHECK(at(i, kVectorBroadcast + c) == members[0].value + c);
        }
      }
      clReleaseKernel(k);
    }
  clReleaseMemObject(in);
  clReleaseMemObject(out);
}

namespace {

// cl_intel_subgroups: each work-item records its sub-group and place, its
// shuffles, and blocks read from global memory and a 2-D image; it also
// writes blocks back. The host reference follows the extension's
// definitions for whatever sub-group size the kernel ran with.
const char *kIntelSource = R"CLC(
kernel void intel(global const uint *in, global uint *out,
                  global uint *block_out, read_only image2d_t img,
                  write_only image2d_t dst, int x0, int y0) {
  size_t i = get_global_id(0);
  global uint *o = out + i * 24;
  uint lid = get_sub_group_local_id(), max = get_max_sub_group_size();
  uint v = in[i];
  o[0] = get_sub_group_id();
  o[1] = lid;
  o[2] = max;
  o[3] = intel_sub_group_shuffle(v, lid);
  o[4] = intel_sub_group_shuffle_down(v, v + 1000, 0);
  o[5] = intel_sub_group_shuffle_down(v, v + 1000, max - lid);
  o[6] = intel_sub_group_shuffle_up(v + 1000, v, 0);
  o[7] = intel_sub_group_shuffle_up(v + 1000, v, lid + 1);
  o[8] = intel_sub_group_shuffle_xor(v, 0);
  float4 f = intel_sub_group_shuffle((float4)(v, 1, 2, 3), lid);
  o[9] = (uint)f.x;
  // The block this sub-group reads: 8 uints per work-item.
  const global uint *block = in + get_group_id(0) * get_local_size(0) * 8 +
                             get_sub_group_id() * max * 8;
  uint8 b = intel_sub_group_block_read8(block);
  vstore8(b, 0, o + 10);
  intel_sub_group_block_write4(
      block_out + (block - in), b.s0246);
  // Four rows of the image from (x0 + 16 * sub-group, y0).
  int2 at = (int2)(x0 + 16 * (int)get_sub_group_id() * (int)max, y0);
  uint4 r = intel_sub_group_block_read4(img, at);
  vstore4(r, 0, o + 18);
  // Writes start at a multiple of four bytes.
  intel_sub_group_block_write2(
      dst, (int2)(4 + 16 * (int)get_sub_group_id() * (int)max, y0), r.s01);
  o[22] = intel_sub_group_block_read(img, (int2)(-1000, -1000));
  o[23] = intel_sub_group_block_read(img, (int2)(100000, 100000));
}
)CLC";

} // namespace

namespace {

struct SubgroupFixture : WeftFixture {
  // A 2-D image of `format`, holding `texels` when given.
  cl_mem image2d(cl_image_format format, size_t width, size_t height,
                 cl_mem_flags flags, void *texels = nullptr) {
    cl_image_desc desc = {};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    cl_int err;
    cl_mem m =
        clCreateImage(context, flags | (texels ? CL_MEM_COPY_HOST_PTR : 0),
                      &format, &desc, texels, &err);
    REQUIRE(err == CL_SUCCESS);
    return m;
  }
};

} // namespace

TEST_CASE_METHOD(SubgroupFixture,
                 "cl_intel_subgroups: shuffles and block reads and writes of "
                 "global memory and 2-D images",
                 "[subgroups]") {
  REQUIRE(hasExtension("cl_intel_subgroups"));
  cl_kernel k = kernel(kIntelSource, "intel", "-cl-std=CL3.0");
  const size_t global = 64, local = 32;
  std::vector<cl_uint> input(global * 8);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = cl_uint(i * 7 + 3);
  // A 16x8 RGBA8 image (64 bytes a row) of distinct bytes.
  const size_t width = 16, height = 8, row_bytes = width * 4;
  std::vector<uint8_t> texels(row_bytes * height);
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = uint8_t(i * 13 + 5);
  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_mem img = image2d(format, width, height, CL_MEM_READ_ONLY, texels.data());
  cl_mem dst = image2d(format, width, height, CL_MEM_READ_WRITE);
  std::vector<uint8_t> zero(texels.size(), 0);
  size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  REQUIRE(clEnqueueWriteImage(queue, dst, CL_TRUE, origin, region, 0, 0,
                              zero.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  cl_mem in = buffer(input.size() * 4, input.data());
  cl_mem out = buffer(global * 24 * 4);
  std::vector<cl_uint> blank(input.size(), 0xdeadbeef);
  cl_mem block_out = buffer(blank.size() * 4, blank.data());
  const cl_int x0 = 6, y0 = 5; // rows 5..8: the last one past the edge
  for (auto [index, size, arg] :
       {std::tuple<int, size_t, const void *>{0, sizeof in, &in},
        {1, sizeof out, &out},
        {2, sizeof block_out, &block_out},
        {3, sizeof img, &img},
        {4, sizeof dst, &dst},
        {5, sizeof x0, &x0},
        {6, sizeof y0, &y0}})
    REQUIRE(clSetKernelArg(k, index, size, arg) == CL_SUCCESS);
  REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
  std::vector<cl_int> got_signed = readInts(out, global * 24);
  std::vector<cl_uint> got(got_signed.begin(), got_signed.end());
  std::vector<cl_int> blocks_signed = readInts(block_out, blank.size());
  std::vector<cl_uint> blocks(blocks_signed.begin(), blocks_signed.end());
  std::vector<uint8_t> written(texels.size());
  REQUIRE(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 0, 0,
                             written.data(), 0, nullptr,
                             nullptr) == CL_SUCCESS);
  // The uint at byte x of row y, clamped to the edge in uint steps.
  auto imageUint = [&](long x, long y) {
    y = std::clamp<long>(y, 0, long(height) - 1);
    x = std::clamp<long>(x, 0, long(row_bytes) - 4);
    cl_uint value = 0;
    for (int b = 0; b < 4; ++b)
      value |= cl_uint(texels[size_t(y) * row_bytes + size_t(x) + b]) << 8 * b;
    return value;
  };
  // Members by (work-group, sub-group): global ids by local id.
  std::map<std::pair<size_t, cl_uint>, std::map<cl_uint, size_t>> members;
  for (size_t i = 0; i < global; ++i)
    members[{i / local, got[i * 24]}][got[i * 24 + 1]] = i;
  std::vector<cl_uint> want_blocks = blank;
  std::vector<uint8_t> want_written(texels.size(), 0);
  for (auto &[key, by_lid] : members) {
    const cl_uint max = got[by_lid.begin()->second * 24 + 2];
    REQUIRE(by_lid.size() <= max);
    for (auto [lid, i] : by_lid) {
      INFO("work-item " << i << ", sub-group " << key.second << ", local id "
                        << lid);
      const cl_uint *o = &got[i * 24];
      cl_uint v = input[i];
      auto value_of = [&](cl_uint other) { return input[by_lid.at(other)]; };
      CHECK(o[3] == v);
      CHECK(o[4] == v);
      // Index lid + (max - lid) = max: `next` of local id 0.
      CHECK(o[5] == value_of(0) + 1000);
      CHECK(o[6] == v);
      // Index lid - (lid + 1) = -1: `previous` of local id max - 1.
      if (by_lid.count(max - 1))
        CHECK(o[7] == value_of(max - 1) + 1000);
      CHECK(o[8] == v);
      CHECK(o[9] == v);
      size_t block = key.first * local * 8 + size_t(key.second) * max * 8;
      for (cl_uint j = 0; j < 8; ++j)
        CHECK(o[10 + j] == input[block + lid + j * max]);
      for (cl_uint j = 0; j < 4; ++j)
        want_blocks[block + lid + j * max] = input[block + lid + 2 * j * max];
      long x = x0 + 16 * long(key.second) * long(max) + 4 * long(lid);
      for (int row = 0; row < 4; ++row)
        CHECK(o[18 + row] == imageUint(x, y0 + row));
      long xw = 4 + 16 * long(key.second) * long(max) + 4 * long(lid);
      for (int row = 0; row < 2; ++row)
        if (xw + 4 <= long(row_bytes) && y0 + row < long(height))
          for (int b = 0; b < 4; ++b)
            want_written[size_t(y0 + row) * row_bytes + size_t(xw) + b] =
                uint8_t(imageUint(x, y0 + row) >> 8 * b);
      CHECK(o[22] == imageUint(0, 0));
      CHECK(o[23] == imageUint(long(row_bytes), long(height)));
    }
  }
  CHECK(blocks == want_blocks);
  CHECK(written == want_written);
  for (cl_mem m : {img, dst, in, out, block_out})
    clReleaseMemObject(m);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(SubgroupFixture,
                 "cl_intel_subgroups_char, _short and _long: block reads and "
                 "writes of 8-, 16- and 64-bit elements, narrow shuffles and "
                 "collectives",
                 "[subgroups]") {
  for (const char *name :
       {"cl_intel_subgroups_char", "cl_intel_subgroups_short",
        "cl_intel_subgroups_long"}) {
    INFO(name);
    CHECK(hasExtension(name));
  }
  const char *source = R"CLC(
kernel void narrow(global const uchar *bytes, global const ushort *shorts,
                   global const ulong *longs, read_only image2d_t img,
                   global ushort *written, global ulong *out) {
  size_t i = get_global_id(0);
  global ulong *o = out + i * 12;
  uint lid = get_sub_group_local_id(), max = get_max_sub_group_size();
  size_t base = get_group_id(0) * get_local_size(0) + get_sub_group_id() * max;
  uchar16 c = intel_sub_group_block_read_uc16(bytes + base * 16);
  ushort8 s = intel_sub_group_block_read_us8(shorts + base * 8);
  ulong4 l = intel_sub_group_block_read_ul4(longs + base * 4);
  o[0] = get_sub_group_id();
  o[1] = lid;
  o[2] = max;
  o[3] = c.s0;
  o[4] = c.sf;
  o[5] = s.s0;
  o[6] = s.s7;
  o[7] = l.s0;
  o[8] = l.s3;
  o[9] = intel_sub_group_block_read_us(img, (int2)(2 * (int)base, 1));
  o[10] = intel_sub_group_shuffle((char)c.s1, lid);
  o[11] = intel_sub_group_broadcast(c.s2, 0);
  intel_sub_group_block_write_us2(written + base * 2, s.s01);
}
)CLC";
  cl_kernel k = kernel(source, "narrow", "-cl-std=CL3.0");
  const size_t global = 48, local = 16;
  std::vector<uint8_t> bytes(global * 16);
  std::vector<uint16_t> shorts(global * 8);
  std::vector<uint64_t> longs(global * 4);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = uint8_t(i * 37 + 11);
  for (size_t i = 0; i < shorts.size(); ++i)
    shorts[i] = uint16_t(i * 4099 + 7);
  for (size_t i = 0; i < longs.size(); ++i)
    longs[i] = (uint64_t(i) << 40) ^ (i * 2654435761u);
  // A 20x3 image of 2-byte texels: 40 bytes a row.
  const size_t width = 20, height = 3, row_bytes = width * 2;
  std::vector<uint8_t> texels(row_bytes * height);
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = uint8_t(i * 29 + 3);
  cl_mem img = image2d({CL_R, CL_UNSIGNED_INT16}, width, height,
                       CL_MEM_READ_ONLY, texels.data());
  cl_mem b = buffer(bytes.size(), bytes.data());
  cl_mem s = buffer(shorts.size() * 2, shorts.data());
  cl_mem l = buffer(longs.size() * 8, longs.data());
  std::vector<uint16_t> blank(global * 2, 0xabcd);
  cl_mem written = buffer(blank.size() * 2, blank.data());
  cl_mem out = buffer(global * 12 * 8);
  for (auto [index, arg] : {std::pair<int, const void *>{0, &b},
                            {1, &s},
                            {2, &l},
                            {3, &img},
                            {4, &written},
                            {5, &out}})
    REQUIRE(clSetKernelArg(k, index, sizeof(cl_mem), arg) == CL_SUCCESS);
  REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
  std::vector<uint64_t> got(global * 12);
  REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, got.size() * 8,
                              got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<uint16_t> got_written(blank.size());
  REQUIRE(clEnqueueReadBuffer(queue, written, CL_TRUE, 0,
                              got_written.size() * 2, got_written.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  std::vector<uint16_t> want_written = blank;
  for (size_t i = 0; i < global; ++i) {
    const uint64_t *o = &got[i * 12];
    const uint64_t sub_group = o[0], lid = o[1], max = o[2];
    const size_t base = (i / local) * local + size_t(sub_group * max);
    INFO("work-item " << i << ", sub-group " << sub_group << ", local id "
                      << lid);
    CHECK(o[3] == bytes[base * 16 + lid]);
    CHECK(o[4] == bytes[base * 16 + lid + 15 * max]);
    CHECK(o[5] == shorts[base * 8 + lid]);
    CHECK(o[6] == shorts[base * 8 + lid + 7 * max]);
    CHECK(o[7] == longs[base * 4 + lid]);
    CHECK(o[8] == longs[base * 4 + lid + 3 * max]);
    size_t x = std::min(2 * base + 2 * lid, row_bytes - 2);
    CHECK(o[9] ==
          uint64_t(texels[row_bytes + x] | texels[row_bytes + x + 1] << 8));
    CHECK(o[10] == uint64_t(int64_t(int8_t(bytes[base * 16 + lid + max]))));
    CHECK(o[11] == bytes[base * 16 + 2 * max]);
    for (uint64_t j = 0; j < 2; ++j)
      want_written[base * 2 + lid + j * max] = shorts[base * 8 + lid + j * max];
  }
  CHECK(got_written == want_written);
  for (cl_mem m : {img, b, s, l, written, out})
    clReleaseMemObject(m);
  clReleaseKernel(k);
}
