// Sub-devices through the ICD loader: partitioning the CPU device, the
// queries of a sub-device, contexts and programs spanning sub-devices and
// their parent, and kernels run on a sub-device's queue.
#include "api_fixture.h"

#include <algorithm>

namespace {

template <typename T> T deviceInfo(cl_device_id device, cl_device_info param) {
  T value{};
  REQUIRE(clGetDeviceInfo(device, param, sizeof value, &value, nullptr) ==
          CL_SUCCESS);
  return value;
}

std::vector<cl_device_partition_property> partitionType(cl_device_id device) {
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_PARTITION_TYPE, 0, nullptr,
                          &size) == CL_SUCCESS);
  std::vector<cl_device_partition_property> type(
      size / sizeof(cl_device_partition_property));
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_PARTITION_TYPE, size, type.data(),
                          nullptr) == CL_SUCCESS);
  return type;
}

} // namespace

TEST_CASE_METHOD(WeftFixture, "the CPU device partitions into sub-devices",
                 "[api][subdevices]") {
  cl_uint units = deviceInfo<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  CHECK(deviceInfo<cl_uint>(device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) ==
        units);
  CHECK(partitionType(device).empty()); // the root device
  CHECK(deviceInfo<cl_device_id>(device, CL_DEVICE_PARENT_DEVICE) == nullptr);
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, 0, nullptr,
                          &size) == CL_SUCCESS);
  std::vector<cl_device_partition_property> schemes(
      size / sizeof(cl_device_partition_property));
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, size,
                          schemes.data(), nullptr) == CL_SUCCESS);
  CHECK(std::find(schemes.begin(), schemes.end(),
                  CL_DEVICE_PARTITION_EQUALLY) != schemes.end());
  CHECK(std::find(schemes.begin(), schemes.end(),
                  CL_DEVICE_PARTITION_BY_COUNTS) != schemes.end());
  if (units < 2)
    return; // one CPU cannot be split

  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                  1, 0};
  cl_uint count = 0;
  REQUIRE(clCreateSubDevices(device, equally, 0, nullptr, &count) ==
          CL_SUCCESS);
  CHECK(count == units);
  std::vector<cl_device_id> subs(count);
  cl_device_id too_few[1];
  CHECK(clCreateSubDevices(device, equally, 1, too_few, nullptr) ==
        CL_INVALID_VALUE);
  REQUIRE(clCreateSubDevices(device, equally, count, subs.data(), nullptr) ==
          CL_SUCCESS);
  for (cl_device_id sub : subs) {
    CHECK(sub != device);
    CHECK(deviceInfo<cl_uint>(sub, CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
    CHECK(deviceInfo<cl_device_id>(sub, CL_DEVICE_PARENT_DEVICE) == device);
    CHECK(deviceInfo<cl_device_type>(sub, CL_DEVICE_TYPE) ==
          CL_DEVICE_TYPE_CPU);
    CHECK(partitionType(sub) == std::vector<cl_device_partition_property>(
                                    std::begin(equally), std::end(equally)));
    CHECK(deviceInfo<cl_uint>(sub, CL_DEVICE_REFERENCE_COUNT) == 1);
  }
  // Reference counts move on sub-devices only.
  REQUIRE(clRetainDevice(subs[0]) == CL_SUCCESS);
  CHECK(deviceInfo<cl_uint>(subs[0], CL_DEVICE_REFERENCE_COUNT) == 2);
  REQUIRE(clReleaseDevice(subs[0]) == CL_SUCCESS);
  CHECK(deviceInfo<cl_uint>(device, CL_DEVICE_REFERENCE_COUNT) == 1);

  // A sub-device of one CPU cannot be split again.
  const cl_device_partition_property one_each[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                   1, 0};
  cl_uint none = 0;
  CHECK(clCreateSubDevices(subs[0], one_each, 0, nullptr, &none) ==
        CL_DEVICE_PARTITION_FAILED);
  const cl_device_partition_property too_many[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, 1, static_cast<cl_int>(units),
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  CHECK(clCreateSubDevices(device, too_many, 0, nullptr, &none) ==
        CL_INVALID_DEVICE_PARTITION_COUNT);
  CHECK(clCreateSubDevices(device, nullptr, 0, nullptr, &none) ==
        CL_INVALID_VALUE);

  // One context over the sub-devices and their parent; one build serves
  // every device, and each runs kernels on its own queue.
  std::vector<cl_device_id> members = subs;
  members.push_back(device);
  cl_int err;
  cl_context both =
      clCreateContext(nullptr, static_cast<cl_uint>(members.size()),
                      members.data(), nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_uint in_context = 0;
  REQUIRE(clGetContextInfo(both, CL_CONTEXT_NUM_DEVICES, sizeof in_context,
                           &in_context, nullptr) == CL_SUCCESS);
  CHECK(in_context == members.size());
  const char *source = "kernel void add(global int *x, int v) {"
                       "  x[get_global_id(0)] += v; }";
  cl_program program =
      clCreateProgramWithSource(both, 1, &source, nullptr, &err);
  REQUIRE(clBuildProgram(program, 1, &device, "", nullptr, nullptr) ==
          CL_SUCCESS);
  cl_uint program_devices = 0;
  REQUIRE(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES,
                           sizeof program_devices, &program_devices,
                           nullptr) == CL_SUCCESS);
  CHECK(program_devices == members.size());
  std::vector<size_t> sizes(members.size());
  REQUIRE(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES,
                           sizes.size() * sizeof(size_t), sizes.data(),
                           nullptr) == CL_SUCCESS);
  for (size_t s : sizes)
    CHECK(s > 0);
  for (cl_device_id member : members) {
    cl_build_status status = CL_BUILD_NONE;
    REQUIRE(clGetProgramBuildInfo(program, member, CL_PROGRAM_BUILD_STATUS,
                                  sizeof status, &status,
                                  nullptr) == CL_SUCCESS);
    CHECK(status == CL_BUILD_SUCCESS);
  }
  cl_kernel k = clCreateKernel(program, "add", &err);
  REQUIRE(err == CL_SUCCESS);
  size_t group = 0;
  // With several devices, a kernel query must name one.
  CHECK(clGetKernelWorkGroupInfo(k, nullptr, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof group, &group,
                                 nullptr) == CL_INVALID_DEVICE);
  REQUIRE(clGetKernelWorkGroupInfo(k, subs[0], CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof group, &group,
                                   nullptr) == CL_SUCCESS);
  CHECK(group > 0);
  constexpr size_t n = 4096;
  std::vector<cl_int> zeros(n, 0);
  cl_mem x = clCreateBuffer(both, CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int),
                            zeros.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  clSetKernelArg(k, 0, sizeof x, &x);
  std::vector<cl_command_queue> queues;
  for (cl_device_id member : members) {
    cl_command_queue q = clCreateCommandQueue(both, member, 0, &err);
    REQUIRE(err == CL_SUCCESS);
    queues.push_back(q);
  }
  cl_int expected = 0;
  for (int round = 0; round < 3; ++round)
    for (size_t i = 0; i < queues.size(); ++i) {
      cl_int v = static_cast<cl_int>(i + 1);
      expected += v;
      clSetKernelArg(k, 1, sizeof v, &v);
      size_t global = n, local = 64;
      REQUIRE(clEnqueueNDRangeKernel(queues[i], k, 1, nullptr, &global, &local,
                                     0, nullptr, nullptr) == CL_SUCCESS);
      REQUIRE(clFinish(queues[i]) == CL_SUCCESS);
    }
  std::vector<cl_int> out(n);
  REQUIRE(clEnqueueReadBuffer(queues[0], x, CL_TRUE, 0, n * sizeof(cl_int),
                              out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  size_t wrong = 0;
  for (cl_int v : out)
    wrong += v != expected;
  CHECK(wrong == 0);
  for (cl_command_queue q : queues)
    clReleaseCommandQueue(q);
  clReleaseMemObject(x);
  clReleaseKernel(k);
  clReleaseProgram(program);
  clReleaseContext(both);
  // The application's references go last; the context held its own.
  for (cl_device_id sub : subs)
    CHECK(clReleaseDevice(sub) == CL_SUCCESS);
}
