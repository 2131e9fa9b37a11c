// Async work-group copies, written from the OpenCL C spec's async copy pages
// and cl_khr_extended_async_copies: every gentype in both directions, strides
// 1-5, 2-D/3-D copies whose line and plane gaps must stay untouched, event
// chaining, the copy fence, prefetch, and the checking mode.
#include "api_fixture.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

namespace {

struct GenType {
  std::string name;
  size_t bytes; // sizeof in OpenCL C: a 3-vector takes four components
};

std::vector<GenType> allGenTypes() {
  const std::pair<const char *, size_t> scalars[] = {
      {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},
      {"uint", 4}, {"long", 8},  {"ulong", 8}, {"float", 4},  {"double", 8}};
  std::vector<GenType> types;
  for (auto [name, size] : scalars)
    for (int width : {1, 2, 3, 4, 8, 16})
      types.push_back({width == 1 ? name : name + std::to_string(width),
                       size * (width == 3 ? 4 : width)});
  return types;
}

// One program with a copy-in and copy-out kernel per gentype, plain and
// strided. The copy-in kernels have no barrier (Weft runs them as a loop over
// work-items), the copy-out ones do (fibers), so both paths are covered.
std::string genTypeKernels() {
  std::string source = R"CLC(
#define KERNELS(T) \
__kernel void in_##T(__global const T *src, __global T *dst, __local T *tile, \
                     uint n, uint stride) { \
  size_t group = get_group_id(0); \
  event_t e = stride == 0 \
      ? async_work_group_copy(tile, src + group * n, n, 0) \
      : async_work_group_strided_copy(tile, src + group * n * stride, n, stride, 0); \
  wait_group_events(1, &e); \
  for (uint i = get_local_id(0); i < n; i += get_local_size(0)) \
    dst[group * n + i] = tile[i]; \
} \
__kernel void out_##T(__global const T *src, __global T *dst, __local T *tile, \
                      uint n, uint stride) { \
  size_t group = get_group_id(0); \
  for (uint i = get_local_id(0); i < n; i += get_local_size(0)) \
    tile[i] = src[group * n + i]; \
  barrier(CLK_LOCAL_MEM_FENCE); \
  event_t e = stride == 0 \
      ? async_work_group_copy(dst + group * n, tile, n, 0) \
      : async_work_group_strided_copy(dst + group * n * stride, tile, n, stride, 0); \
  wait_group_events(1, &e); \
}
)CLC";
  for (const GenType &type : allGenTypes())
    source += "KERNELS(" + type.name + ")\n";
  return source;
}

std::vector<unsigned char> pattern(size_t bytes, unsigned seed) {
  std::vector<unsigned char> data(bytes);
  for (size_t i = 0; i < bytes; ++i)
    data[i] = static_cast<unsigned char>(i * 131 + seed * 17 + (i >> 8));
  return data;
}

struct AsyncCopyFixture : WeftFixture {
  cl_int run1D(cl_kernel k, size_t global, size_t local) {
    return runAndWait(k, 1, &global, &local);
  }
  std::vector<unsigned char> read(cl_mem m, size_t bytes) {
    std::vector<unsigned char> out(bytes);
    REQUIRE(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, out.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    return out;
  }
  cl_program program(const std::string &source) {
    cl_program p;
    std::string log;
    cl_int status = build(source.c_str(), p, log);
    INFO(log);
    REQUIRE(status == CL_SUCCESS);
    return p;
  }
  cl_kernel kernelOf(cl_program p, const std::string &name) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, name.c_str(), &err);
    INFO(name);
    REQUIRE(err == CL_SUCCESS);
    return k;
  }
};

void setArgs(cl_kernel k, cl_mem src, cl_mem dst, size_t local_bytes, cl_uint n,
             cl_uint stride) {
  REQUIRE(clSetKernelArg(k, 0, sizeof src, &src) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof dst, &dst) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, local_bytes, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 3, sizeof n, &n) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 4, sizeof stride, &stride) == CL_SUCCESS);
}

} // namespace

TEST_CASE_METHOD(AsyncCopyFixture,
                 "async_work_group_copy moves every gentype both ways",
                 "[async]") {
  cl_program p = program(genTypeKernels());
  const cl_uint n = 37; // elements per group, not a multiple of the group
  const size_t groups = 3, local = 8;
  for (const GenType &type : allGenTypes()) {
    INFO(type.name);
    size_t bytes = groups * n * type.bytes;
    std::vector<unsigned char> src = pattern(bytes, 1);
    for (const char *direction : {"in_", "out_"}) {
      INFO(direction);
      std::vector<unsigned char> init(bytes, 0xEE);
      cl_mem s = buffer(bytes, src.data()), d = buffer(bytes, init.data());
      cl_kernel k = kernelOf(p, direction + type.name);
      setArgs(k, s, d, n * type.bytes, n, 0);
      REQUIRE(run1D(k, groups * local, local) == CL_SUCCESS);
      // Byte for byte, so a 3-vector must have moved all four components.
      CHECK(read(d, bytes) == src);
      clReleaseKernel(k);
      clReleaseMemObject(s);
      clReleaseMemObject(d);
    }
  }
  clReleaseProgram(p);
}

TEST_CASE_METHOD(AsyncCopyFixture,
                 "async_work_group_strided_copy gathers and scatters with "
                 "strides 1 to 5",
                 "[async]") {
  cl_program p = program(genTypeKernels());
  const cl_uint n = 21;
  const size_t groups = 2, local = 4;
  for (const GenType &type : allGenTypes()) {
    INFO(type.name);
    for (cl_uint stride = 1; stride <= 5; ++stride) {
      INFO("stride " << stride);
      size_t packed = groups * n * type.bytes;
      size_t spread = groups * n * stride * type.bytes;
      // Gather: global (strided) to local, then out packed.
      {
        std::vector<unsigned char> src = pattern(spread, stride);
        std::vector<unsigned char> init(packed, 0xEE);
        cl_mem s = buffer(spread, src.data()), d = buffer(packed, init.data());
        cl_kernel k = kernelOf(p, "in_" + type.name);
        setArgs(k, s, d, n * type.bytes, n, stride);
        REQUIRE(run1D(k, groups * local, local) == CL_SUCCESS);
        std::vector<unsigned char> out = read(d, packed);
        std::vector<unsigned char> expected(packed);
        for (size_t e = 0; e < groups * n; ++e)
          std::memcpy(&expected[e * type.bytes], &src[e * stride * type.bytes],
                      type.bytes);
        CHECK(out == expected);
        clReleaseKernel(k);
        clReleaseMemObject(s);
        clReleaseMemObject(d);
      }
      // Scatter: packed into local, then local to global (strided); the
      // elements between the strided ones keep what they held.
      {
        std::vector<unsigned char> src = pattern(packed, stride + 7);
        std::vector<unsigned char> init(spread, 0xEE);
        cl_mem s = buffer(packed, src.data()), d = buffer(spread, init.data());
        cl_kernel k = kernelOf(p, "out_" + type.name);
        setArgs(k, s, d, n * type.bytes, n, stride);
        REQUIRE(run1D(k, groups * local, local) == CL_SUCCESS);
        std::vector<unsigned char> out = read(d, spread);
        std::vector<unsigned char> expected = init;
        for (size_t e = 0; e < groups * n; ++e)
          std::memcpy(&expected[e * stride * type.bytes], &src[e * type.bytes],
                      type.bytes);
        CHECK(out == expected);
        clReleaseKernel(k);
        clReleaseMemObject(s);
        clReleaseMemObject(d);
      }
    }
  }
  clReleaseProgram(p);
}

namespace {

// A 3-D region in elements, as cl_khr_extended_async_copies describes it. A
// 2-D one is a single plane (its plane sizes span its lines).
struct Region {
  size_t element_bytes, per_line, lines, planes;
  size_t src_offset, src_line, src_plane;
  size_t dst_offset, dst_line, dst_plane;
  size_t srcBytes() const {
    return (src_offset + planes * src_plane) * element_bytes;
  }
  size_t dstBytes() const {
    return (dst_offset + planes * dst_plane) * element_bytes;
  }
};

// What the copy must leave in `dst`: the region's elements copied, every
// other byte (line and plane gaps, the offset) untouched.
std::vector<unsigned char> expectedCopy(const Region &r,
                                        const std::vector<unsigned char> &src,
                                        std::vector<unsigned char> dst) {
  for (size_t p = 0; p < r.planes; ++p)
    for (size_t l = 0; l < r.lines; ++l)
      std::memcpy(&dst[(r.dst_offset + p * r.dst_plane + l * r.dst_line) *
                       r.element_bytes],
                  &src[(r.src_offset + p * r.src_plane + l * r.src_line) *
                       r.element_bytes],
                  r.per_line * r.element_bytes);
  return dst;
}

// Global to local: work-items fill local memory with a sentinel, the copy
// lands in it, and the whole local area comes back so its gaps can be seen.
// Local to global: local memory gets the source, the copy goes out into a
// global buffer that holds a sentinel.
const char *kExtendedCopies = R"CLC(
#pragma OPENCL EXTENSION cl_khr_extended_async_copies : enable
#ifndef cl_khr_extended_async_copies
#error the extension macro must be defined when the device reports it
#endif
__kernel void in2d(__global const uchar *src, __global uchar *dst,
                   __local uchar *tile, uint local_bytes, __constant ulong *r) {
  for (uint i = get_local_id(0); i < local_bytes; i += get_local_size(0))
    tile[i] = 0xA5;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy_2D2D(tile, r[8], src, r[4], r[0], r[1],
                                         r[2], r[5], r[9], 0);
  wait_group_events(1, &e);
  for (uint i = get_local_id(0); i < local_bytes; i += get_local_size(0))
    dst[i] = tile[i];
}
__kernel void in3d(__global const uchar *src, __global uchar *dst,
                   __local uchar *tile, uint local_bytes, __constant ulong *r) {
  for (uint i = get_local_id(0); i < local_bytes; i += get_local_size(0))
    tile[i] = 0xA5;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy_3D3D(tile, r[8], src, r[4], r[0], r[1],
                                         r[2], r[3], r[5], r[6], r[9], r[10], 0);
  wait_group_events(1, &e);
  for (uint i = get_local_id(0); i < local_bytes; i += get_local_size(0))
    dst[i] = tile[i];
}
__kernel void out2d(__global const uchar *src, __global uchar *dst,
                    __local uchar *tile, uint local_bytes, __constant ulong *r) {
  for (uint i = get_local_id(0); i < local_bytes; i += get_local_size(0))
    tile[i] = src[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy_2D2D(dst, r[8], tile, r[4], r[0], r[1],
                                         r[2], r[5], r[9], 0);
  wait_group_events(1, &e);
}
__kernel void out3d(__global const uchar *src, __global uchar *dst,
                    __local uchar *tile, uint local_bytes, __constant ulong *r) {
  for (uint i = get_local_id(0); i < local_bytes; i += get_local_size(0))
    tile[i] = src[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy_3D3D(dst, r[8], tile, r[4], r[0], r[1],
                                         r[2], r[3], r[5], r[6], r[9], r[10], 0);
  wait_group_events(1, &e);
}
// The seed's equivalence: a strided copy is a 2D2D copy of one-element lines.
__kernel void strided_vs_2d(__global const int *src, __global int *a,
                            __global int *b, __local int *ta, __local int *tb,
                            uint n, uint stride) {
  event_t e = async_work_group_strided_copy(ta, src, n, stride, 0);
  event_t f = async_work_group_copy_2D2D(tb, 0, src, 0, sizeof(int), 1, n,
                                         stride, 1, 0);
  wait_group_events(1, &e);
  wait_group_events(1, &f);
  for (uint i = get_local_id(0); i < n; i += get_local_size(0)) {
    a[i] = ta[i];
    b[i] = tb[i];
  }
}
)CLC";

} // namespace

TEST_CASE_METHOD(AsyncCopyFixture,
                 "2D2D and 3D3D copies leave line and plane gaps untouched",
                 "[async]") {
  cl_program p = program(kExtendedCopies);
  std::vector<Region> regions;
  for (size_t element : {1, 3, 4, 16, 47}) {
    // 2-D: lines with gaps on both sides, offsets on both sides.
    regions.push_back({element, 5, 4, 1, 2, 7, 4 * 7, 3, 9, 4 * 9});
    // 2-D: packed lines (one memcpy) into gapped ones.
    regions.push_back({element, 6, 3, 1, 0, 6, 3 * 6, 1, 8, 3 * 8});
    // 3-D: line and plane gaps.
    regions.push_back({element, 5, 4, 3, 1, 7, 4 * 7 + 5, 2, 6, 4 * 6 + 2});
    // 3-D: one element per line (a strided gather in planes).
    regions.push_back({element, 1, 6, 2, 0, 3, 6 * 3 + 1, 0, 2, 6 * 2 + 4});
  }
  for (const Region &r : regions) {
    bool three_d = r.planes > 1;
    INFO("element " << r.element_bytes << " per line " << r.per_line
                    << " lines " << r.lines << " planes " << r.planes);
    std::vector<cl_ulong> geometry = {
        r.element_bytes, r.per_line, r.lines,     r.planes,
        r.src_offset,    r.src_line, r.src_plane, 0,
        r.dst_offset,    r.dst_line, r.dst_plane};
    cl_mem g = buffer(geometry.size() * sizeof(cl_ulong), geometry.data());
    for (bool into_local : {true, false}) {
      INFO((into_local ? "global to local" : "local to global"));
      size_t src_bytes = r.srcBytes(), dst_bytes = r.dstBytes();
      std::vector<unsigned char> src = pattern(src_bytes, 3);
      std::vector<unsigned char> sentinel(dst_bytes, into_local ? 0xA5 : 0x5A);
      size_t local_bytes = into_local ? dst_bytes : src_bytes;
      cl_mem s = buffer(src_bytes, src.data());
      cl_mem d = buffer(dst_bytes, sentinel.data());
      std::string name =
          std::string(into_local ? "in" : "out") + (three_d ? "3d" : "2d");
      cl_kernel k = kernelOf(p, name);
      cl_uint lb = static_cast<cl_uint>(local_bytes);
      REQUIRE(clSetKernelArg(k, 0, sizeof s, &s) == CL_SUCCESS);
      REQUIRE(clSetKernelArg(k, 1, sizeof d, &d) == CL_SUCCESS);
      REQUIRE(clSetKernelArg(k, 2, local_bytes, nullptr) == CL_SUCCESS);
      REQUIRE(clSetKernelArg(k, 3, sizeof lb, &lb) == CL_SUCCESS);
      REQUIRE(clSetKernelArg(k, 4, sizeof g, &g) == CL_SUCCESS);
      for (size_t local : {1, 7, 16}) {
        INFO("work-group size " << local);
        REQUIRE(clEnqueueWriteBuffer(queue, d, CL_TRUE, 0, dst_bytes,
                                     sentinel.data(), 0, nullptr,
                                     nullptr) == CL_SUCCESS);
        REQUIRE(run1D(k, local, local) == CL_SUCCESS);
        CHECK(read(d, dst_bytes) == expectedCopy(r, src, sentinel));
      }
      clReleaseKernel(k);
      clReleaseMemObject(s);
      clReleaseMemObject(d);
    }
    clReleaseMemObject(g);
  }
  clReleaseProgram(p);
}

TEST_CASE_METHOD(AsyncCopyFixture,
                 "a strided copy equals the 2D2D copy the extension names",
                 "[async]") {
  cl_program p = program(kExtendedCopies);
  cl_kernel k = kernelOf(p, "strided_vs_2d");
  const cl_uint n = 19;
  for (cl_uint stride = 1; stride <= 5; ++stride) {
    std::vector<cl_int> src(n * stride);
    for (size_t i = 0; i < src.size(); ++i)
      src[i] = static_cast<cl_int>(i * 3 + 1);
    cl_mem s = buffer(src.size() * 4, src.data());
    cl_mem a = buffer(n * 4), b = buffer(n * 4);
    REQUIRE(clSetKernelArg(k, 0, sizeof s, &s) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof a, &a) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof b, &b) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, n * 4, nullptr) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 4, n * 4, nullptr) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 5, sizeof n, &n) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 6, sizeof stride, &stride) == CL_SUCCESS);
    REQUIRE(run1D(k, 4, 4) == CL_SUCCESS);
    std::vector<unsigned char> strided = read(a, n * 4), two_d = read(b, n * 4);
    CHECK(strided == two_d);
    cl_int first;
    std::memcpy(&first, &strided[4 * (n - 1)], 4);
    CHECK(first == src[(n - 1) * stride]);
    clReleaseMemObject(s);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
}

namespace {

const char *kEventsAndFences = R"CLC(
#pragma OPENCL EXTENSION cl_khr_async_work_group_copy_fence : enable
// Two copies share one event; waiting for it waits for both.
__kernel void chained(__global const int *a, __global const int *b,
                      __global int *out, __local int *ta, __local int *tb,
                      uint n) {
  event_t e = async_work_group_copy(ta, a, n, 0);
  e = async_work_group_copy(tb, b, n, e);
  wait_group_events(1, &e);
  for (uint i = get_local_id(0); i < n; i += get_local_size(0))
    out[i] = ta[i] * 1000 + tb[i];
}
// Import, fence, export the same local memory: the export must see the
// import. Then export, fence, import over the global memory just written.
__kernel void fenced(__global int *data, __global int *copy,
                     __global int *back, __local int *tile, uint n) {
  event_t e = async_work_group_copy(tile, data, n, 0);
  async_work_group_copy_fence(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(copy, tile, n, e);
  async_work_group_copy_fence(CLK_GLOBAL_MEM_FENCE);
  e = async_work_group_copy(tile, copy + 1, n - 1, e);
  async_work_group_copy_fence(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(back, tile, n - 1, e);
  wait_group_events(1, &e);
}
// prefetch never faults, whatever range it is given.
__kernel void prefetches(__global const float *p, __global int *done) {
  prefetch(p, 0);
  prefetch(p + 10, 1u << 30);
  prefetch((__global const float4 *)p, 1);
  prefetch((__global const float *)0, 1000);
  done[get_global_id(0)] = 1;
}
)CLC";

} // namespace

TEST_CASE_METHOD(AsyncCopyFixture,
                 "copies chained on one event are all waited for", "[async]") {
  cl_program p = program(kEventsAndFences);
  cl_kernel k = kernelOf(p, "chained");
  const cl_uint n = 50;
  std::vector<cl_int> a(n), b(n);
  for (cl_uint i = 0; i < n; ++i) {
    a[i] = static_cast<cl_int>(i);
    b[i] = static_cast<cl_int>(7 * i);
  }
  cl_mem ma = buffer(n * 4, a.data()), mb = buffer(n * 4, b.data()),
         out = buffer(n * 4);
  REQUIRE(clSetKernelArg(k, 0, sizeof ma, &ma) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof mb, &mb) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 3, n * 4, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 4, n * 4, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 5, sizeof n, &n) == CL_SUCCESS);
  REQUIRE(run1D(k, 8, 8) == CL_SUCCESS);
  std::vector<unsigned char> bytes = read(out, n * 4);
  for (cl_uint i = 0; i < n; ++i) {
    cl_int v;
    std::memcpy(&v, &bytes[i * 4], 4);
    CHECK(v == a[i] * 1000 + b[i]);
  }
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE_METHOD(AsyncCopyFixture,
                 "async_work_group_copy_fence orders aliasing copies",
                 "[async]") {
  cl_program p = program(kEventsAndFences);
  cl_kernel k = kernelOf(p, "fenced");
  const cl_uint n = 33;
  std::vector<cl_int> data(n);
  for (cl_uint i = 0; i < n; ++i)
    data[i] = static_cast<cl_int>(i * i + 5);
  cl_mem md = buffer(n * 4, data.data()), copy = buffer(n * 4),
         back = buffer(n * 4);
  REQUIRE(clSetKernelArg(k, 0, sizeof md, &md) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof copy, &copy) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, sizeof back, &back) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 3, n * 4, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 4, sizeof n, &n) == CL_SUCCESS);
  REQUIRE(run1D(k, 16, 16) == CL_SUCCESS);
  std::vector<unsigned char> c = read(copy, n * 4), b = read(back, n * 4);
  CHECK(std::memcmp(c.data(), data.data(), n * 4) == 0);
  CHECK(std::memcmp(b.data(), data.data() + 1, (n - 1) * 4) == 0);
  clReleaseMemObject(md);
  clReleaseMemObject(copy);
  clReleaseMemObject(back);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE_METHOD(AsyncCopyFixture, "prefetch accepts any range", "[async]") {
  cl_program p = program(kEventsAndFences);
  cl_kernel k = kernelOf(p, "prefetches");
  cl_mem data = buffer(64 * 4), done = buffer(64 * 4);
  REQUIRE(clSetKernelArg(k, 0, sizeof data, &data) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof done, &done) == CL_SUCCESS);
  REQUIRE(run1D(k, 64, 16) == CL_SUCCESS);
  std::vector<unsigned char> flags = read(done, 64 * 4);
  for (size_t i = 0; i < 64; ++i)
    CHECK(flags[i * 4] == 1);
  clReleaseMemObject(data);
  clReleaseMemObject(done);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

namespace {

// Captures what Weft writes to stderr while `action` runs.
template <typename Action> std::string capturedStderr(Action action) {
  std::fflush(stderr);
  char path[] = "/tmp/weft-stderr-XXXXXX";
  int file = mkstemp(path);
  REQUIRE(file >= 0);
  int saved = dup(2);
  dup2(file, 2);
  action();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string text;
  char chunk[512];
  lseek(file, 0, SEEK_SET);
  for (ssize_t got; (got = ::read(file, chunk, sizeof chunk)) > 0;)
    text.append(chunk, static_cast<size_t>(got));
  close(file);
  unlink(path);
  return text;
}

const char *kMisuse = R"CLC(
__kernel void divergent_source(__global const int *src, __global int *dst,
                               __local int *tile) {
  // Each work-item names a different source: undefined behaviour.
  event_t e = async_work_group_copy(tile, src + get_local_id(0), 16, 0);
  wait_group_events(1, &e);
  dst[get_global_id(0)] = tile[get_local_id(0)];
}
__kernel void never_waits(__global const int *src, __global int *dst,
                          __local int *tile) {
  event_t e = async_work_group_copy(tile, src, 16, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  dst[get_global_id(0)] = tile[get_local_id(0)];
}
__kernel void well_behaved(__global const int *src, __global int *dst,
                           __local int *tile) {
  event_t e = async_work_group_copy(tile, src, 16, 0);
  e = async_work_group_copy(tile + 16, src + 16, 16, e);
  wait_group_events(1, &e);
  dst[get_global_id(0)] = tile[get_local_id(0) + 16];
}
)CLC";

} // namespace

// Run with WEFT_CHECK_ASYNC_COPIES=1 (a CTest entry of its own).
TEST_CASE_METHOD(AsyncCopyFixture,
                 "the checking mode reports misuse with the kernel's name",
                 "[async-checking]") {
  REQUIRE(std::getenv("WEFT_CHECK_ASYNC_COPIES") != nullptr);
  cl_program p = program(kMisuse);
  std::vector<cl_int> values(64);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<cl_int>(i);
  cl_mem src = buffer(64 * 4, values.data()), dst = buffer(64 * 4);
  auto prepare = [&](const char *name) {
    cl_kernel k = kernelOf(p, name);
    REQUIRE(clSetKernelArg(k, 0, sizeof src, &src) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof dst, &dst) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, 32 * 4, nullptr) == CL_SUCCESS);
    return k;
  };

  SECTION("different arguments in different work-items") {
    cl_kernel k = prepare("divergent_source");
    cl_int status = CL_SUCCESS;
    std::string report = capturedStderr([&] { status = run1D(k, 16, 16); });
    CHECK(status == CL_INVALID_OPERATION);
    CHECK(report.find("divergent_source") != std::string::npos);
    CHECK(report.find("async_work_group_copy") != std::string::npos);
    CHECK(report.find("work-item (1,0,0)") != std::string::npos);
    clReleaseKernel(k);
  }
  SECTION("a copy never waited for") {
    cl_kernel k = prepare("never_waits");
    cl_int status = CL_SUCCESS;
    std::string report = capturedStderr([&] { status = run1D(k, 16, 16); });
    CHECK(status == CL_INVALID_OPERATION);
    CHECK(report.find("never_waits") != std::string::npos);
    CHECK(report.find("without waiting") != std::string::npos);
    clReleaseKernel(k);
  }
  SECTION("a correct kernel, with chained events, passes") {
    cl_kernel k = prepare("well_behaved");
    cl_int status = CL_OUT_OF_RESOURCES;
    std::string report = capturedStderr([&] { status = run1D(k, 16, 16); });
    CHECK(status == CL_SUCCESS);
    CHECK(report.empty());
    std::vector<unsigned char> out = read(dst, 16 * 4);
    for (size_t i = 0; i < 16; ++i) {
      cl_int v;
      std::memcpy(&v, &out[i * 4], 4);
      CHECK(v == static_cast<cl_int>(i + 16));
    }
    clReleaseKernel(k);
  }
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  clReleaseProgram(p);
}

// A copy whose local side runs past the group's local memory (a count too
// large for its tile) would write over, or read, the host process's memory:
// Weft refuses it and fails the launch, on the loop path and with barriers.
TEST_CASE_METHOD(AsyncCopyFixture,
                 "a copy past the group's local memory fails the launch",
                 "[async]") {
  cl_program p = program(R"CLC(
kernel void in_loop(global const int *src, global int *dst, local int *tile,
                    ulong n) {
  event_t e = async_work_group_copy(tile, src, n, 0);
  wait_group_events(1, &e);
  dst[get_local_id(0)] = tile[get_local_id(0)];
}
kernel void out_with_barrier(global const int *src, global int *dst,
                             local int *tile, ulong n) {
  tile[get_local_id(0)] = src[get_local_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(dst, tile, n, 0);
  wait_group_events(1, &e);
}
)CLC");
  const size_t local = 16, tile_ints = 16;
  std::vector<cl_int> data(1024);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<cl_int>(i + 100);
  cl_mem src = buffer(data.size() * 4, data.data());
  cl_mem dst = buffer(data.size() * 4);
  for (const char *name : {"in_loop", "out_with_barrier"}) {
    INFO(name);
    cl_kernel k = kernelOf(p, name);
    REQUIRE(clSetKernelArg(k, 0, sizeof src, &src) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof dst, &dst) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, tile_ints * 4, nullptr) == CL_SUCCESS);
    for (cl_ulong n :
         {cl_ulong(tile_ints + 1), cl_ulong(1) << 40, ~cl_ulong(0)}) {
      INFO("count " << n);
      REQUIRE(clSetKernelArg(k, 3, sizeof n, &n) == CL_SUCCESS);
      CHECK(run1D(k, local, local) < 0);
    }
    // The process, the queue and the buffers carry on.
    cl_ulong n = tile_ints;
    REQUIRE(clSetKernelArg(k, 3, sizeof n, &n) == CL_SUCCESS);
    REQUIRE(run1D(k, local, local) == CL_SUCCESS);
    std::vector<unsigned char> out = read(dst, tile_ints * 4);
    CHECK(std::memcmp(out.data(), data.data(), tile_ints * 4) == 0);
    clReleaseKernel(k);
  }
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  clReleaseProgram(p);
}
