// The small OpenCL 3.0 extensions, each from its specification:
// cl_khr_extended_bit_ops (every offset and count of a field, including a
// count of 0 at the element's end and the whole element),
// cl_khr_integer_dot_product (every signedness, saturation at both ends,
// the packed forms' byte order), cl_khr_suggested_local_work_size (the
// size an unsized launch uses, and the entry point's errors),
// cl_khr_device_uuid (stable, version-8 UUIDs; sub-devices apart) and
// cl_khr_kernel_clock (every scope's readings in program order).
#include "api_fixture.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

// Work-item i takes field (offset, count) number i of the element's
// (BITS + 1)^2 pairs, count cut so the field fits, as the CTS does; each
// writes insert, unsigned extract, signed extract and reverse of its base.
const char *kBitOps = R"CLC(
kernel void bit_ops(global const T *base, global const T *insert,
                    global T *inserted, global UT *extracted,
                    global ST *signed_extracted, global T *reversed) {
  uint i = get_global_id(0);
  uint bits = sizeof(T) * 8;
  uint offset = i / (bits + 1), count = i % (bits + 1);
  if (offset + count > bits)
    count = bits - offset;
  inserted[i] = bitfield_insert(base[i], insert[i], offset, count);
  extracted[i] = bitfield_extract_unsigned(base[i], offset, count);
  signed_extracted[i] = bitfield_extract_signed(base[i], offset, count);
  reversed[i] = bit_reverse(base[i]);
}
)CLC";

// The host's reference, in 64 bits as the extension defines the fields.
template <typename T, typename UT, typename ST>
void checkBitOps(WeftFixture &f, const char *options) {
  constexpr unsigned bits = sizeof(T) * 8;
  const size_t items = (bits + 1) * (bits + 1);
  std::mt19937_64 random(bits);
  std::vector<T> base(items), insert(items);
  for (size_t i = 0; i < items; ++i) {
    base[i] = T(random());
    insert[i] = T(random());
  }
  cl_kernel k = f.kernel(kBitOps, "bit_ops", options);
  cl_mem in_base = f.buffer(items * sizeof(T), base.data());
  cl_mem in_insert = f.buffer(items * sizeof(T), insert.data());
  cl_mem outs[4] = {f.buffer(items * sizeof(T)), f.buffer(items * sizeof(T)),
                    f.buffer(items * sizeof(T)), f.buffer(items * sizeof(T))};
  clSetKernelArg(k, 0, sizeof(cl_mem), &in_base);
  clSetKernelArg(k, 1, sizeof(cl_mem), &in_insert);
  for (cl_uint a = 0; a < 4; ++a)
    clSetKernelArg(k, 2 + a, sizeof(cl_mem), &outs[a]);
  REQUIRE(f.runAndWait(k, 1, &items, nullptr) == CL_SUCCESS);
  std::vector<T> got[4];
  for (int a = 0; a < 4; ++a) {
    got[a].resize(items);
    REQUIRE(clEnqueueReadBuffer(f.queue, outs[a], CL_TRUE, 0, items * sizeof(T),
                                got[a].data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
  }
  size_t wrong = 0;
  for (size_t i = 0; i < items; ++i) {
    unsigned offset = unsigned(i / (bits + 1)),
             count = unsigned(i % (bits + 1));
    if (offset + count > bits)
      count = bits - offset;
    uint64_t low = count == 64 ? ~0ull : (1ull << count) - 1;
    uint64_t mask = count == 0 ? 0 : low << offset;
    uint64_t b = uint64_t(UT(base[i])), in = uint64_t(UT(insert[i]));
    UT inserted = UT((b & ~mask) | ((in << (offset % 64)) & mask));
    UT field = count == 0 ? 0 : UT((b >> offset) & low);
    // Sign-extend the field from its top bit.
    ST signed_field = 0;
    if (count != 0) {
      uint64_t top = uint64_t(1) << (count - 1);
      int64_t wide = int64_t((uint64_t(field) ^ top) - top);
      signed_field = ST(wide);
    }
    UT reversed = 0;
    for (unsigned bit = 0; bit < bits; ++bit)
      if (b >> bit & 1)
        reversed |= UT(UT(1) << (bits - 1 - bit));
    bool ok = UT(got[0][i]) == inserted && UT(got[1][i]) == field &&
              ST(got[2][i]) == signed_field && UT(got[3][i]) == reversed;
    if (!ok && wrong++ < 4) {
      INFO("type of " << bits << " bits, offset " << offset << ", count "
                      << count << ", base " << uint64_t(UT(base[i])));
      CHECK(uint64_t(UT(got[0][i])) == uint64_t(inserted));
      CHECK(uint64_t(UT(got[1][i])) == uint64_t(field));
      CHECK(int64_t(ST(got[2][i])) == int64_t(signed_field));
      CHECK(uint64_t(UT(got[3][i])) == uint64_t(reversed));
    }
  }
  CHECK(wrong == 0);
  for (cl_mem m : {in_base, in_insert, outs[0], outs[1], outs[2], outs[3]})
    clReleaseMemObject(m);
  clReleaseKernel(k);
}

// Every form of every dot product over the same bytes; acc holds values
// next to the saturation limits.
const char *kDots = R"CLC(
kernel void dots(global const uint *a, global const uint *b,
                 global const int *acc, global int *out) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i];
  int c = acc[i];
  uchar4 ux = as_uchar4(x), uy = as_uchar4(y);
  char4 sx = as_char4(x), sy = as_char4(y);
  global int *o = out + 16 * i;
  o[0] = (int)dot(ux, uy);
  o[1] = dot(sx, sy);
  o[2] = dot(ux, sy);
  o[3] = dot(sx, uy);
  o[4] = (int)dot_acc_sat(ux, uy, (uint)c);
  o[5] = dot_acc_sat(sx, sy, c);
  o[6] = dot_acc_sat(ux, sy, c);
  o[7] = dot_acc_sat(sx, uy, c);
  o[8] = (int)dot_4x8packed_uu_uint(x, y);
  o[9] = dot_4x8packed_ss_int(x, y);
  o[10] = dot_4x8packed_us_int(x, y);
  o[11] = dot_4x8packed_su_int(x, y);
  o[12] = (int)dot_acc_sat_4x8packed_uu_uint(x, y, (uint)c);
  o[13] = dot_acc_sat_4x8packed_ss_int(x, y, c);
  o[14] = dot_acc_sat_4x8packed_us_int(x, y, c);
  o[15] = dot_acc_sat_4x8packed_su_int(x, y, c);
}
)CLC";

int64_t hostDot(uint32_t x, uint32_t y, bool x_signed, bool y_signed) {
  int64_t sum = 0;
  for (int byte = 0; byte < 4; ++byte) { // byte 0 is element 0
    uint8_t xb = uint8_t(x >> (8 * byte)), yb = uint8_t(y >> (8 * byte));
    int64_t xv = x_signed ? int8_t(xb) : xb, yv = y_signed ? int8_t(yb) : yb;
    sum += xv * yv;
  }
  return sum;
}

int32_t saturateSigned(int64_t v) {
  return int32_t(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
}
uint32_t saturateUnsigned(int64_t v) {
  return uint32_t(std::clamp<int64_t>(v, 0, UINT32_MAX));
}

} // namespace

TEST_CASE_METHOD(WeftFixture,
                 "cl_khr_extended_bit_ops: every field of every integer type",
                 "[extensions]") {
  REQUIRE(hasExtension("cl_khr_extended_bit_ops"));
  SECTION("char") {
    checkBitOps<cl_char, cl_uchar, cl_char>(*this,
                                            "-DT=char -DUT=uchar -DST=char");
  }
  SECTION("uchar") {
    checkBitOps<cl_uchar, cl_uchar, cl_char>(*this,
                                             "-DT=uchar -DUT=uchar -DST=char");
  }
  SECTION("short") {
    checkBitOps<cl_short, cl_ushort, cl_short>(
        *this, "-DT=short -DUT=ushort -DST=short");
  }
  SECTION("uint") {
    checkBitOps<cl_uint, cl_uint, cl_int>(*this, "-DT=uint -DUT=uint -DST=int");
  }
  SECTION("long") {
    checkBitOps<cl_long, cl_ulong, cl_long>(*this,
                                            "-DT=long -DUT=ulong -DST=long");
  }
  SECTION("ulong") {
    checkBitOps<cl_ulong, cl_ulong, cl_long>(*this,
                                             "-DT=ulong -DUT=ulong -DST=long");
  }
}

TEST_CASE_METHOD(WeftFixture,
                 "cl_khr_extended_bit_ops on vectors: one field for all "
                 "elements",
                 "[extensions]") {
  const char *source = R"CLC(
kernel void vectors(global short4 *s, global uchar16 *u, global long2 *l) {
  s[0] = bitfield_insert(s[0], (short4)(-1), 4u, 8u);
  s[1] = bitfield_extract_signed(s[1], 12u, 4u);
  s[2] = as_short4(bitfield_extract_unsigned(s[2], 0u, 16u));
  s[3] = bit_reverse(s[3]);
  u[0] = bit_reverse(u[0]);
  u[1] = bitfield_insert(u[1], (uchar16)(0), 8u, 0u);
  l[0] = bit_reverse(l[0]);
  l[1] = bitfield_extract_signed(l[1], 0u, 64u);
}
)CLC";
  cl_kernel k = kernel(source, "vectors");
  std::array<cl_short, 16> s = {0x0123,           -2,     0x7fff, 0x0f00,
                                (cl_short)0xa000, 0x7000, -1,     0x1234,
                                (cl_short)0x8001, 1,      0x00ff, -32768,
                                0x0001,           0x0100, 0x4000, -16};
  std::array<cl_uchar, 32> u{};
  for (int i = 0; i < 32; ++i)
    u[i] = cl_uchar(i * 37 + 1);
  std::array<cl_long, 4> l = {1, INT64_MIN, -5, 0x0123456789abcdefll};
  cl_mem sm = buffer(sizeof s, s.data()), um = buffer(sizeof u, u.data()),
         lm = buffer(sizeof l, l.data());
  clSetKernelArg(k, 0, sizeof(cl_mem), &sm);
  clSetKernelArg(k, 1, sizeof(cl_mem), &um);
  clSetKernelArg(k, 2, sizeof(cl_mem), &lm);
  size_t one = 1;
  REQUIRE(runAndWait(k, 1, &one, &one) == CL_SUCCESS);
  std::array<cl_short, 16> s2;
  std::array<cl_uchar, 32> u2;
  std::array<cl_long, 4> l2;
  clEnqueueReadBuffer(queue, sm, CL_TRUE, 0, sizeof s2, s2.data(), 0, nullptr,
                      nullptr);
  clEnqueueReadBuffer(queue, um, CL_TRUE, 0, sizeof u2, u2.data(), 0, nullptr,
                      nullptr);
  clEnqueueReadBuffer(queue, lm, CL_TRUE, 0, sizeof l2, l2.data(), 0, nullptr,
                      nullptr);
  auto reverse16 = [](uint16_t v) {
    uint16_t r = 0;
    for (int b = 0; b < 16; ++b)
      r |= uint16_t(((v >> b) & 1) << (15 - b));
    return r;
  };
  for (int e = 0; e < 4; ++e) {
    INFO("element " << e);
    CHECK(uint16_t(s2[e]) == uint16_t((uint16_t(s[e]) & ~0x0ff0) | 0x0ff0));
    // The top nibble, sign-extended.
    CHECK(s2[4 + e] == cl_short(int16_t(s[4 + e]) >> 12));
    CHECK(s2[8 + e] == s[8 + e]);
    CHECK(uint16_t(s2[12 + e]) == reverse16(uint16_t(s[12 + e])));
  }
  for (int e = 0; e < 16; ++e) {
    uint8_t r = 0;
    for (int b = 0; b < 8; ++b)
      r |= uint8_t(((u[e] >> b) & 1) << (7 - b));
    CHECK(u2[e] == r);
    CHECK(u2[16 + e] == u[16 + e]); // a count of 0 changes nothing
  }
  auto reverse64 = [](uint64_t v) {
    uint64_t r = 0;
    for (int b = 0; b < 64; ++b)
      r |= ((v >> b) & 1) << (63 - b);
    return r;
  };
  CHECK(uint64_t(l2[0]) == reverse64(1));
  CHECK(uint64_t(l2[1]) == reverse64(uint64_t(INT64_MIN)));
  CHECK(l2[2] == -5); // the whole element is the field
  CHECK(l2[3] == 0x0123456789abcdefll);
  for (cl_mem m : {sm, um, lm})
    clReleaseMemObject(m);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "cl_khr_integer_dot_product: every form, saturated at both "
                 "ends",
                 "[extensions]") {
  REQUIRE(hasExtension("cl_khr_integer_dot_product"));
  cl_device_integer_dot_product_capabilities_khr caps = 0;
  REQUIRE(clGetDeviceInfo(device,
                          CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR,
                          sizeof caps, &caps, nullptr) == CL_SUCCESS);
  CHECK(caps == (CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                 CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR));
  cl_device_integer_dot_product_acceleration_properties_khr accel;
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(
              device,
              CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
              sizeof accel, &accel, &size) == CL_SUCCESS);
  CHECK(size == sizeof accel);

  const size_t items = 4096;
  std::mt19937 random(34);
  std::vector<cl_uint> a(items), b(items);
  std::vector<cl_int> acc(items);
  const cl_int near_limits[] = {
      INT32_MAX, INT32_MAX - 100, INT32_MIN, INT32_MIN + 100, -1,
      0,         70000,           -70000};
  for (size_t i = 0; i < items; ++i) {
    a[i] = random();
    b[i] = random();
    acc[i] = i % 2 ? near_limits[(i / 2) % 8] : cl_int(random());
  }
  // The extremes of every byte.
  a[0] = b[0] = 0xffffffffu;
  a[1] = 0x80808080u, b[1] = 0x80808080u;
  a[2] = 0x7f7f7f7fu, b[2] = 0x80808080u;
  cl_kernel k = kernel(kDots, "dots");
  cl_mem am = buffer(items * 4, a.data()), bm = buffer(items * 4, b.data()),
         cm = buffer(items * 4, acc.data()), out = buffer(items * 64);
  clSetKernelArg(k, 0, sizeof(cl_mem), &am);
  clSetKernelArg(k, 1, sizeof(cl_mem), &bm);
  clSetKernelArg(k, 2, sizeof(cl_mem), &cm);
  clSetKernelArg(k, 3, sizeof(cl_mem), &out);
  REQUIRE(runAndWait(k, 1, &items, nullptr) == CL_SUCCESS);
  std::vector<cl_int> got = readInts(out, items * 16);
  size_t wrong = 0;
  for (size_t i = 0; i < items; ++i) {
    int64_t uu = hostDot(a[i], b[i], false, false),
            ss = hostDot(a[i], b[i], true, true),
            us = hostDot(a[i], b[i], false, true),
            su = hostDot(a[i], b[i], true, false);
    int64_t c = acc[i], cu = int64_t(uint32_t(acc[i]));
    const cl_int expected[8] = {cl_int(uint32_t(uu)),
                                cl_int(ss),
                                cl_int(us),
                                cl_int(su),
                                cl_int(saturateUnsigned(cu + uu)),
                                saturateSigned(c + ss),
                                saturateSigned(c + us),
                                saturateSigned(c + su)};
    for (int form = 0; form < 16; ++form)
      if (got[16 * i + form] != expected[form % 8] && wrong++ < 4) {
        INFO("item " << i << " form " << form << " a " << a[i] << " b " << b[i]
                     << " acc " << acc[i]);
        CHECK(got[16 * i + form] == expected[form % 8]);
      }
  }
  CHECK(wrong == 0);
  for (cl_mem m : {am, bm, cm, out})
    clReleaseMemObject(m);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "cl_khr_suggested_local_work_size: the size an unsized "
                 "launch takes, and the entry point's errors",
                 "[extensions]") {
  REQUIRE(hasExtension("cl_khr_suggested_local_work_size"));
  auto suggest = reinterpret_cast<clGetKernelSuggestedLocalWorkSizeKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(
          platform, "clGetKernelSuggestedLocalWorkSizeKHR"));
  REQUIRE(suggest != nullptr);
  const char *source = R"CLC(
kernel void sizes(global uint *out) {
  if (get_global_id(0) == 0 && get_global_id(1) == 0 && get_global_id(2) == 0) {
    out[0] = get_local_size(0);
    out[1] = get_local_size(1);
    out[2] = get_local_size(2);
  }
}
__attribute__((reqd_work_group_size(4, 2, 1)))
kernel void fixed(global uint *out) { out[get_global_id(0)] = 1; }
)CLC";
  cl_kernel k = kernel(source, "sizes");
  cl_mem out = buffer(64);
  size_t offset[3] = {0, 0, 0};
  size_t global[3] = {1000, 1, 1};
  size_t local[3] = {0, 0, 0};
  // Arguments must be set first.
  CHECK(suggest(queue, k, 1, nullptr, global, local) == CL_INVALID_KERNEL_ARGS);
  clSetKernelArg(k, 0, sizeof(cl_mem), &out);
  const size_t shapes[][3] = {{1000, 1, 1}, {64, 3, 1},   {113, 12, 1},
                              {7, 5, 3},    {1, 1, 4096}, {256, 256, 1}};
  for (const auto &shape : shapes) {
    for (cl_uint dims = 1; dims <= 3; ++dims) {
      std::copy(shape, shape + 3, global);
      for (cl_uint d = dims; d < 3; ++d)
        global[d] = 1;
      size_t suggested[3] = {1, 1, 1};
      REQUIRE(suggest(queue, k, dims, offset, global, suggested) == CL_SUCCESS);
      REQUIRE(clEnqueueNDRangeKernel(queue, k, dims, offset, global, nullptr, 0,
                                     nullptr, nullptr) == CL_SUCCESS);
      std::vector<cl_int> used = readInts(out, 3);
      INFO("global " << global[0] << "x" << global[1] << "x" << global[2]
                     << " in " << dims << " dimensions");
      for (cl_uint d = 0; d < 3; ++d)
        CHECK(size_t(used[d]) == suggested[d]);
    }
  }
  global[0] = 64;
  CHECK(suggest(nullptr, k, 1, nullptr, global, local) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(suggest(queue, nullptr, 1, nullptr, global, local) ==
        CL_INVALID_KERNEL);
  CHECK(suggest(queue, k, 0, nullptr, global, local) ==
        CL_INVALID_WORK_DIMENSION);
  CHECK(suggest(queue, k, 4, nullptr, global, local) ==
        CL_INVALID_WORK_DIMENSION);
  CHECK(suggest(queue, k, 1, nullptr, nullptr, local) ==
        CL_INVALID_GLOBAL_WORK_SIZE);
  size_t zero[3] = {0, 1, 1};
  CHECK(suggest(queue, k, 1, nullptr, zero, local) ==
        CL_INVALID_GLOBAL_WORK_SIZE);
  size_t huge_offset[3] = {SIZE_MAX, 0, 0};
  CHECK(suggest(queue, k, 1, huge_offset, global, local) ==
        CL_INVALID_GLOBAL_OFFSET);
  CHECK(suggest(queue, k, 1, nullptr, global, nullptr) == CL_INVALID_VALUE);

  // A required size is the suggestion.
  cl_kernel fixed = kernel(source, "fixed");
  clSetKernelArg(fixed, 0, sizeof(cl_mem), &out);
  size_t grid[3] = {8, 4, 1}, suggested[3] = {0, 0, 0};
  REQUIRE(suggest(queue, fixed, 2, nullptr, grid, suggested) == CL_SUCCESS);
  CHECK(suggested[0] == 4);
  CHECK(suggested[1] == 2);
  clReleaseKernel(fixed);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "cl_khr_device_uuid: stable version-8 UUIDs, sub-devices "
                 "apart",
                 "[extensions]") {
  REQUIRE(hasExtension("cl_khr_device_uuid"));
  using Uuid = std::array<cl_uchar, CL_UUID_SIZE_KHR>;
  auto uuidOf = [](cl_device_id d, cl_device_info param) {
    Uuid id{};
    size_t size = 0;
    REQUIRE(clGetDeviceInfo(d, param, id.size(), id.data(), &size) ==
            CL_SUCCESS);
    CHECK(size == CL_UUID_SIZE_KHR);
    return id;
  };
  Uuid device_id = uuidOf(device, CL_DEVICE_UUID_KHR);
  Uuid driver_id = uuidOf(device, CL_DRIVER_UUID_KHR);
  CHECK(device_id == uuidOf(device, CL_DEVICE_UUID_KHR));
  CHECK(driver_id == uuidOf(device, CL_DRIVER_UUID_KHR));
  CHECK(device_id != driver_id);
  for (const Uuid &id : {device_id, driver_id}) {
    CHECK((id[6] >> 4) == 8);      // version 8
    CHECK((id[8] & 0xc0) == 0x80); // RFC 9562's variant
  }
  cl_bool luid_valid = CL_TRUE;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_LUID_VALID_KHR, sizeof luid_valid,
                          &luid_valid, nullptr) == CL_SUCCESS);
  CHECK(luid_valid == CL_FALSE);
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_LUID_KHR, 0, nullptr, &size) ==
          CL_SUCCESS);
  CHECK(size == CL_LUID_SIZE_KHR);

  cl_uint units = 0;
  clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
                  nullptr);
  if (units < 2)
    return; // no sub-device to compare
  // One sub-device per CPU (as many as there are).
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                  1, 0};
  std::vector<cl_device_id> parts(units), again(units);
  cl_uint made = 0;
  REQUIRE(clCreateSubDevices(device, equally, units, parts.data(), &made) ==
          CL_SUCCESS);
  REQUIRE(made >= 2);
  Uuid first = uuidOf(parts[0], CL_DEVICE_UUID_KHR);
  CHECK(first != device_id);
  CHECK(first != uuidOf(parts[1], CL_DEVICE_UUID_KHR));
  CHECK(uuidOf(parts[0], CL_DRIVER_UUID_KHR) == driver_id);
  // The same CPUs again: the same device.
  REQUIRE(clCreateSubDevices(device, equally, units, again.data(), nullptr) ==
          CL_SUCCESS);
  CHECK(uuidOf(again[0], CL_DEVICE_UUID_KHR) == first);
  for (cl_uint i = 0; i < made; ++i) {
    clReleaseDevice(parts[i]);
    clReleaseDevice(again[i]);
  }
}

TEST_CASE_METHOD(WeftFixture,
                 "cl_khr_kernel_clock: every scope, readings in order",
                 "[extensions]") {
  REQUIRE(hasExtension("cl_khr_kernel_clock"));
  cl_bitfield scopes = 0;
  REQUIRE(clGetDeviceInfo(device, 0x1076 /* KERNEL_CLOCK_CAPABILITIES */,
                          sizeof scopes, &scopes, nullptr) == CL_SUCCESS);
  CHECK(scopes == 7); // device, work-group and sub-group
  // Each work-item reads each scope's clock, some work between readings;
  // the 64-bit readings around a hi/lo reading bound it.
  const char *source = R"CLC(
kernel void clocks(global ulong *out, global float *sink) {
  size_t i = get_global_id(0);
  global ulong *o = out + 8 * i;
  float x = i;
  o[0] = clock_read_device();
  for (int k = 0; k < 100; ++k)
    x = x * 0.999f + 1.0f;
  uint2 hilo = clock_read_hilo_device();
  o[1] = as_ulong(hilo);
  o[2] = clock_read_work_group();
  uint2 wg = clock_read_hilo_work_group();
  o[3] = as_ulong(wg);
  o[4] = clock_read_sub_group();
  uint2 sg = clock_read_hilo_sub_group();
  o[5] = as_ulong(sg);
  o[6] = clock_read_device();
  sink[i] = x;
}
)CLC";
  cl_kernel k = kernel(source, "clocks");
  const size_t items = 256;
  cl_mem out = buffer(items * 64), sink = buffer(items * 4);
  clSetKernelArg(k, 0, sizeof(cl_mem), &out);
  clSetKernelArg(k, 1, sizeof(cl_mem), &sink);
  size_t local = 64;
  REQUIRE(runAndWait(k, 1, &items, &local) == CL_SUCCESS);
  std::vector<cl_ulong> got(items * 8);
  REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, items * 64, got.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  size_t wrong = 0;
  for (size_t i = 0; i < items; ++i) {
    const cl_ulong *o = &got[8 * i];
    // Element 0 of a uint2 is the low half: as_ulong reads it back whole.
    bool ordered = o[0] <= o[1] && o[1] <= o[2] && o[2] <= o[3] &&
                   o[3] <= o[4] && o[4] <= o[5] && o[5] <= o[6];
    bool advanced = o[6] > o[0];
    if ((!ordered || !advanced) && wrong++ < 4) {
      INFO("work-item " << i << ": " << o[0] << " " << o[1] << " " << o[2]
                        << " " << o[3] << " " << o[4] << " " << o[5] << " "
                        << o[6]);
      CHECK(ordered);
      CHECK(advanced);
    }
  }
  CHECK(wrong == 0);
  clReleaseMemObject(out);
  clReleaseMemObject(sink);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "cl_khr_subgroup_rotate: every type, rotated and clustered, "
                 "against the sub-group's members",
                 "[extensions]") {
  REQUIRE(hasExtension("cl_khr_subgroup_rotate"));
  // Widened a sub-group at a time, and on fibers (with a barrier).
  const char *source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void rotations(global const int *in, global int *out,
                      local int *scratch) {
  size_t i = get_global_id(0), l = get_local_id(0);
  int v = in[i];
  global int *o = out + i * 9;
#ifdef WITH_BARRIER
  scratch[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  v = scratch[l];
#endif
  o[0] = get_sub_group_size();
  o[1] = sub_group_rotate(v, 1);
  o[2] = sub_group_rotate(v, -3);
  o[3] = sub_group_clustered_rotate(v, 1, 4u);
  o[4] = (int)sub_group_rotate((char)v, 2);
  o[5] = (int)sub_group_rotate((ushort)v, 3);
  o[6] = (int)sub_group_rotate((ulong)v, 5) +
         (int)sub_group_rotate((float)v, 7) * 0;
  o[7] = (int)sub_group_rotate((double)v, -1);
  o[8] = (int)sub_group_clustered_rotate((half)(v & 1023), 1, 2u);
}
)CLC";
  for (const char *options : {"", "-DWITH_BARRIER"}) {
    INFO("options '" << options << "'");
    cl_kernel k = kernel(source, "rotations", options);
    const size_t items = 256, local = 64;
    std::vector<cl_int> in(items);
    for (size_t i = 0; i < items; ++i)
      in[i] = cl_int(i * 37 + 5);
    cl_mem m_in = buffer(items * 4, in.data()), out = buffer(items * 9 * 4);
    clSetKernelArg(k, 0, sizeof(cl_mem), &m_in);
    clSetKernelArg(k, 1, sizeof(cl_mem), &out);
    clSetKernelArg(k, 2, local * 4, nullptr);
    REQUIRE(runAndWait(k, 1, &items, &local) == CL_SUCCESS);
    std::vector<cl_int> got = readInts(out, items * 9);
    for (size_t i = 0; i < items; ++i) {
      const cl_int *o = &got[i * 9];
      size_t n = size_t(o[0]), m = i % n, first = i - m;
      INFO("work-item " << i << " of sub-groups of " << n);
      REQUIRE(n >= 1);
      // The member `delta` places on, wrapping round the sub-group or the
      // cluster of `c` work-items.
      auto rotated = [&](long delta, size_t c) {
        size_t base = m / c * c;
        long offset = (long(m - base) + delta) % long(c);
        return in[first + base + size_t(offset < 0 ? offset + long(c) : offset)];
      };
      CHECK(o[1] == rotated(1, n));
      CHECK(o[2] == rotated(-3, n));
      if (n % 4 == 0)
        CHECK(o[3] == rotated(1, 4));
      CHECK(o[4] == cl_int(int8_t(rotated(2, n))));
      CHECK(o[5] == cl_int(uint16_t(rotated(3, n))));
      CHECK(o[6] == rotated(5, n));
      CHECK(o[7] == rotated(-1, n));
      if (n % 2 == 0)
        CHECK(o[8] == (rotated(1, 2) & 1023));
    }
    clReleaseMemObject(m_in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
  }
}
