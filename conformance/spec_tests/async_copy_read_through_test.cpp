// Copies into tiles the work-items only read. Weft may read such a tile's
// elements from the copy's global source instead (compiler/
// async_copy_read_through.h); whatever it does, the spec's results must hold:
// after wait_group_events a tile holds what the source held when the copy
// ran, also when the kernel then writes the buffer it copied from.
#include "api_fixture.h"

#include <cstring>

namespace {

constexpr size_t kGroup = 64, kGroups = 4, kRadius = 4;

// A 9-point stencil over a tile of group + 2 * radius elements, and a gather
// of every `stride`-th element, for a few element types (the tile is read as
// the copied type, and one kernel reads float elements from a float4 tile).
const char *kSource = R"CLC(
#define GROUP 64
#define RADIUS 4
#define STENCIL(T) \
kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) \
void stencil_##T(global const T *in, global T *out) { \
  local T tile[GROUP + 2 * RADIUS]; \
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * GROUP, \
                                    GROUP + 2 * RADIUS, 0); \
  wait_group_events(1, &e); \
  T sum = 0; \
  for (int k = 0; k <= 2 * RADIUS; ++k) \
    sum += tile[get_local_id(0) + k] * (T)(k + 1); \
  out[get_global_id(0)] = sum; \
} \
kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) \
void gather_##T(global const T *in, global T *out, uint stride) { \
  local T tile[GROUP]; \
  event_t e = async_work_group_strided_copy( \
      tile, in + get_group_id(0) * GROUP * stride, GROUP, stride, 0); \
  wait_group_events(1, &e); \
  out[get_global_id(0)] = tile[GROUP - 1 - get_local_id(0)]; \
}
STENCIL(int)
STENCIL(float)
STENCIL(long)
STENCIL(char)

kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void lanes(global const float4 *in, global float *out) {
  local float4 tile[GROUP / 4];
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * GROUP / 4,
                                    GROUP / 4, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = ((local float *)tile)[get_local_id(0)];
}

// No reqd_work_group_size: the tile fits groups of up to 64 work-items.
kernel void stencil_any_size(global const int *in, global int *out) {
  local int tile[GROUP + 2 * RADIUS];
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * get_local_size(0),
                                    GROUP + 2 * RADIUS, 0);
  wait_group_events(1, &e);
  int sum = 0;
  for (int k = 0; k <= 2 * RADIUS; ++k)
    sum += tile[get_local_id(0) + k] * (k + 1);
  out[get_global_id(0)] = sum;
}

// A barrier after the copy and the wait orders nothing more (the copy is
// complete once waited for); Weft drops it, and the kernel must still read
// what was copied.
kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void stencil_after_barrier(global const int *in, global int *out) {
  local int tile[GROUP + 2 * RADIUS];
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * GROUP,
                                    GROUP + 2 * RADIUS, 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  for (int k = 0; k <= 2 * RADIUS; ++k)
    sum += tile[get_local_id(0) + k] * (k + 1);
  out[get_global_id(0)] = sum;
}

// This barrier follows a read of memory other work-items write after it:
// it must stay, or a work-item would read its neighbour's new value.
kernel void shift_right(global int *data, global int *out) {
  size_t i = get_global_id(0);
  int left = data[i - (get_local_id(0) != 0)];
  barrier(CLK_GLOBAL_MEM_FENCE);
  data[i] = left;
  out[i] = left;
}

// Every work-item writes the element of `data` its left neighbour copied:
// a rotation of each group's slice, if the tile is the copy's snapshot.
kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void rotate(global const int *in, global int *out) {
  local int tile[GROUP];
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * GROUP, GROUP, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[(get_local_id(0) + GROUP - 1) % GROUP];
}
)CLC";

// n values of T, value i being element(i).
template <typename T, typename F>
std::vector<T> generated(size_t n, F element) {
  std::vector<T> values(n);
  for (size_t i = 0; i < n; ++i)
    values[i] = static_cast<T>(element(i));
  return values;
}

// out[i] = sum over k of in[i + k] * (k + 1): the kernels' stencil.
template <typename T>
std::vector<T> hostStencil(const std::vector<T> &in, size_t n) {
  std::vector<T> out(n);
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k <= 2 * kRadius; ++k)
      out[i] += in[i + k] * static_cast<T>(k + 1);
  return out;
}

struct ReadThroughFixture : WeftFixture {
  cl_program program = nullptr;
  ReadThroughFixture() {
    std::string log;
    cl_int status = build(kSource, program, log);
    INFO(log);
    REQUIRE(status == CL_SUCCESS);
  }
  ~ReadThroughFixture() { clReleaseProgram(program); }

  // Runs `name` over kGroups groups with (in, out[, stride]) and returns out.
  template <typename T>
  std::vector<T> run(const std::string &name, cl_mem in, cl_mem out,
                     cl_uint stride = 0) {
    cl_int err;
    cl_kernel k = clCreateKernel(program, name.c_str(), &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 0, sizeof in, &in) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof out, &out) == CL_SUCCESS);
    if (stride)
      REQUIRE(clSetKernelArg(k, 2, sizeof stride, &stride) == CL_SUCCESS);
    size_t global = kGroup * kGroups, local = kGroup;
    REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
    clReleaseKernel(k);
    std::vector<T> result(global);
    REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, global * sizeof(T),
                                result.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    return result;
  }

  template <typename T> void checkStencilAndGather(const char *type) {
    INFO(type);
    size_t n = kGroup * kGroups;
    std::vector<T> in = generated<T>(n * 5 + 2 * kRadius,
                                     [](size_t i) { return (i * 7 + 3) % 23; });
    cl_mem min = buffer(in.size() * sizeof(T), in.data());
    cl_mem mout = buffer(n * sizeof(T));
    CHECK(run<T>(std::string("stencil_") + type, min, mout) ==
          hostStencil(in, n));
    for (cl_uint stride = 1; stride <= 5; ++stride) {
      INFO("stride " << stride);
      std::vector<T> gathered =
          run<T>(std::string("gather_") + type, min, mout, stride);
      for (size_t g = 0; g < kGroups; ++g)
        for (size_t l = 0; l < kGroup; ++l)
          CHECK(gathered[g * kGroup + l] ==
                in[(g * kGroup + kGroup - 1 - l) * stride]);
    }
    clReleaseMemObject(min);
    clReleaseMemObject(mout);
  }
};

} // namespace

TEST_CASE_METHOD(ReadThroughFixture, "tiles only read hold the copied elements",
                 "[async]") {
  checkStencilAndGather<cl_int>("int");
  checkStencilAndGather<cl_float>("float");
  checkStencilAndGather<cl_long>("long");
  checkStencilAndGather<cl_char>("char");
}

TEST_CASE_METHOD(ReadThroughFixture,
                 "a tile read with another type than it was copied as",
                 "[async]") {
  size_t n = kGroup * kGroups;
  std::vector<float> in = generated<float>(
      n, [](size_t i) { return static_cast<float>(i) * 0.5f; });
  cl_mem min = buffer(n * 4, in.data()), mout = buffer(n * 4);
  CHECK(run<float>("lanes", min, mout) == in);
  clReleaseMemObject(min);
  clReleaseMemObject(mout);
}

TEST_CASE_METHOD(ReadThroughFixture,
                 "a kernel writing the buffer it copied from sees the copy",
                 "[async]") {
  size_t n = kGroup * kGroups;
  std::vector<cl_int> data =
      generated<cl_int>(n, [](size_t i) { return i * 3 + 1; });
  std::vector<cl_int> rotated(n);
  for (size_t g = 0; g < kGroups; ++g)
    for (size_t l = 0; l < kGroup; ++l)
      rotated[g * kGroup + l] = data[g * kGroup + (l + kGroup - 1) % kGroup];

  SECTION("distinct buffers") {
    cl_mem min = buffer(n * 4, data.data()), mout = buffer(n * 4);
    CHECK(run<cl_int>("rotate", min, mout) == rotated);
    clReleaseMemObject(min);
    clReleaseMemObject(mout);
  }
  SECTION("one buffer passed twice") {
    cl_mem m = buffer(n * 4, data.data());
    CHECK(run<cl_int>("rotate", m, m) == rotated);
    clReleaseMemObject(m);
  }
  SECTION("two sub-buffers over the same bytes") {
    cl_mem parent = buffer(n * 4, data.data());
    cl_buffer_region region = {0, n * 4};
    cl_int err;
    cl_mem a = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                 CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem b = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                 CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(run<cl_int>("rotate", a, b) == rotated);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(parent);
  }
  SECTION("one SVM allocation passed twice, and a buffer over it") {
    // SVM pointers name no memory object: their extent is unknown, so the
    // copy must still be a snapshot.
    auto *svm = static_cast<cl_int *>(clSVMAlloc(
        context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, n * 4, 0));
    REQUIRE(svm);
    cl_int err;
    cl_kernel k = clCreateKernel(program, "rotate", &err);
    REQUIRE(err == CL_SUCCESS);
    size_t global = n, local = kGroup;
    std::memcpy(svm, data.data(), n * 4);
    REQUIRE(clSetKernelArgSVMPointer(k, 0, svm) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 1, svm) == CL_SUCCESS);
    REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
    CHECK(std::vector<cl_int>(svm, svm + n) == rotated);
    std::memcpy(svm, data.data(), n * 4);
    cl_mem over =
        clCreateBuffer(context, CL_MEM_USE_HOST_PTR, n * 4, svm, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 0, sizeof over, &over) == CL_SUCCESS);
    REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
    CHECK(std::vector<cl_int>(svm, svm + n) == rotated);
    clReleaseMemObject(over);
    clReleaseKernel(k);
    clSVMFree(context, svm);
  }
}

TEST_CASE_METHOD(ReadThroughFixture,
                 "a kernel without a required size, in groups it fits",
                 "[async]") {
  size_t n = kGroup * kGroups;
  // Each group copies GROUP + 2 * RADIUS elements whatever its size: in
  // groups of 1, the last ones read up to GROUP - 1 past the stencil's
  // input, which the memory checking mode caught (WEFT_CHECK_MEMORY=1).
  std::vector<cl_int> in = generated<cl_int>(
      n + kGroup + 2 * kRadius, [](size_t i) { return (i * 11 + 5) % 31; });
  std::vector<cl_int> expected = hostStencil(in, n);
  cl_mem min = buffer(in.size() * 4, in.data()), mout = buffer(n * 4);
  cl_int err;
  cl_kernel k = clCreateKernel(program, "stencil_any_size", &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof min, &min) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof mout, &mout) == CL_SUCCESS);
  for (size_t local : {size_t(1), size_t(16), size_t(64)}) {
    INFO("groups of " << local);
    std::vector<cl_int> zeros(n, 0), out(n);
    REQUIRE(clEnqueueWriteBuffer(queue, mout, CL_TRUE, 0, n * 4, zeros.data(),
                                 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(runAndWait(k, 1, &n, &local) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(queue, mout, CL_TRUE, 0, n * 4, out.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    CHECK(out == expected);
  }
  clReleaseKernel(k);
  clReleaseMemObject(min);
  clReleaseMemObject(mout);
}

TEST_CASE_METHOD(ReadThroughFixture,
                 "barriers right after copies, and after shared reads",
                 "[async]") {
  size_t n = kGroup * kGroups;
  std::vector<cl_int> in = generated<cl_int>(
      n + 2 * kRadius, [](size_t i) { return (i * 13 + 7) % 29; });
  std::vector<cl_int> stencil = hostStencil(in, n);
  cl_mem min = buffer(in.size() * 4, in.data()), mout = buffer(n * 4);
  CHECK(run<cl_int>("stencil_after_barrier", min, mout) == stencil);

  std::vector<cl_int> shifted(n);
  for (size_t i = 0; i < n; ++i)
    shifted[i] = in[i % kGroup ? i - 1 : i];
  CHECK(run<cl_int>("shift_right", min, mout) == shifted);
  clReleaseMemObject(min);
  clReleaseMemObject(mout);
}
