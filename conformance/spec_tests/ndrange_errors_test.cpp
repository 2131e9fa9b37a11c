// clEnqueueNDRangeKernel's error codes for work-group shapes, from the
// OpenCL 3.0 API spec: each invalid launch gets the code the spec names and
// runs nothing.
#include "api_fixture.h"

#include <cstdint>

namespace {

const char *kKernels = R"CLC(
__kernel void plain(__global int *out) { out[get_global_id(0)] = 1; }
__kernel __attribute__((reqd_work_group_size(8, 2, 1)))
void fixed(__global int *out) { out[get_global_linear_id()] = 1; }
__kernel void tile(__global int *out, __local int *scratch) {
  scratch[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[0];
}
)CLC";

struct LaunchFixture : WeftFixture {
  cl_program program = nullptr;
  cl_mem out = nullptr;
  LaunchFixture() {
    std::string log;
    REQUIRE(build(kKernels, program, log, "-cl-std=CL3.0") == CL_SUCCESS);
    out = buffer(1 << 20);
  }
  ~LaunchFixture() {
    clReleaseMemObject(out);
    clReleaseProgram(program);
  }
  cl_kernel make(const char *name) {
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    return k;
  }
  template <typename T> T deviceInfo(cl_device_info what) {
    T value{};
    REQUIRE(clGetDeviceInfo(device, what, sizeof value, &value, nullptr) ==
            CL_SUCCESS);
    return value;
  }
  cl_int launch(cl_kernel k, cl_uint dims, const size_t *offset,
                const size_t *global, const size_t *local) {
    cl_int err = clEnqueueNDRangeKernel(queue, k, dims, offset, global, local,
                                        0, nullptr, nullptr);
    clFinish(queue);
    return err;
  }
};

} // namespace

TEST_CASE_METHOD(LaunchFixture, "launch shapes get the spec's error codes",
                 "[ndrange]") {
  cl_kernel plain = make("plain");
  size_t max_group = deviceInfo<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t item_sizes[3];
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                          sizeof item_sizes, item_sizes,
                          nullptr) == CL_SUCCESS);

  SECTION("work_dim outside 1..3") {
    size_t global[4] = {8, 1, 1, 1};
    CHECK(launch(plain, 0, nullptr, global, nullptr) ==
          CL_INVALID_WORK_DIMENSION);
    CHECK(launch(plain, 4, nullptr, global, nullptr) ==
          CL_INVALID_WORK_DIMENSION);
  }
  SECTION("no global size runs nothing (valid since OpenCL 2.1)") {
    CHECK(launch(plain, 1, nullptr, nullptr, nullptr) == CL_SUCCESS);
  }
  SECTION("a local size above the work-item limit of its dimension") {
    size_t global[3] = {item_sizes[0] + 1, 1, 1};
    size_t local[3] = {item_sizes[0] + 1, 1, 1};
    cl_int err = launch(plain, 1, nullptr, global, local);
    // Over the group limit too when both limits are equal.
    CHECK((err == CL_INVALID_WORK_ITEM_SIZE ||
           err == CL_INVALID_WORK_GROUP_SIZE));
    size_t global2[2] = {1, item_sizes[1] + 1};
    size_t local2[2] = {1, item_sizes[1] + 1};
    if (item_sizes[1] < max_group)
      CHECK(launch(plain, 2, nullptr, global2, local2) ==
            CL_INVALID_WORK_ITEM_SIZE);
  }
  SECTION("a group larger than the kernel allows") {
    size_t side = 1;
    while (side * side <= max_group)
      side *= 2;
    size_t global[2] = {side, side}, local[2] = {side, side};
    if (side <= item_sizes[0] && side <= item_sizes[1])
      CHECK(launch(plain, 2, nullptr, global, local) ==
            CL_INVALID_WORK_GROUP_SIZE);
  }
  SECTION("a local size of zero") {
    size_t global[1] = {8}, local[1] = {0};
    CHECK(launch(plain, 1, nullptr, global, local) ==
          CL_INVALID_WORK_GROUP_SIZE);
  }
  SECTION("an offset that makes ids overflow size_t") {
    size_t global[1] = {16}, offset[1] = {SIZE_MAX - 4};
    CHECK(launch(plain, 1, offset, global, nullptr) ==
          CL_INVALID_GLOBAL_OFFSET);
  }
  SECTION("reqd_work_group_size must be matched exactly") {
    cl_kernel fixed = make("fixed");
    size_t global[2] = {16, 4}, good[2] = {8, 2}, bad[2] = {4, 4};
    CHECK(launch(fixed, 2, nullptr, global, good) == CL_SUCCESS);
    CHECK(launch(fixed, 2, nullptr, global, bad) == CL_INVALID_WORK_GROUP_SIZE);
    CHECK(launch(fixed, 2, nullptr, global, nullptr) == CL_SUCCESS);
    clReleaseKernel(fixed);
  }
  SECTION("-cl-uniform-work-group-size forbids remainder groups") {
    cl_program uniform;
    std::string log;
    REQUIRE(build(kKernels, uniform, log,
                  "-cl-std=CL3.0 -cl-uniform-work-group-size") == CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(uniform, "plain", &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    size_t global[1] = {10}, local[1] = {4};
    CHECK(launch(k, 1, nullptr, global, local) == CL_INVALID_WORK_GROUP_SIZE);
    clReleaseKernel(k);
    clReleaseProgram(uniform);
    // Without the option, OpenCL C 3.0 runs the remainder group.
    CHECK(launch(plain, 1, nullptr, global, local) == CL_SUCCESS);
  }
  SECTION("more local memory than the device has") {
    // CL_DEVICE_LOCAL_MEM_SIZE is what Weft promises; a launch may use up
    // to 1 MiB (CTS test_half declares 128 KiB), and gets
    // CL_OUT_OF_RESOURCES past that, the spec's error for local memory a
    // launch cannot have.
    cl_kernel tile = make("tile");
    cl_ulong local_bytes = deviceInfo<cl_ulong>(CL_DEVICE_LOCAL_MEM_SIZE);
    REQUIRE(clSetKernelArg(tile, 1, local_bytes + 1, nullptr) == CL_SUCCESS);
    size_t global[1] = {64}, local[1] = {64};
    CHECK(launch(tile, 1, nullptr, global, local) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(tile, 1, 1024 * 1024 + 1, nullptr) == CL_SUCCESS);
    CHECK(launch(tile, 1, nullptr, global, local) == CL_OUT_OF_RESOURCES);
    REQUIRE(clSetKernelArg(tile, 1, 64 * sizeof(cl_int), nullptr) ==
            CL_SUCCESS);
    CHECK(launch(tile, 1, nullptr, global, local) == CL_SUCCESS);
    clReleaseKernel(tile);
  }
  clReleaseKernel(plain);
}
