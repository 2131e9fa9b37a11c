// Buffers with a device address (cl_ext_buffer_device_address 1.0.2), from
// the extension's specification: the address query (one per device of the
// context, sub-buffers at their offset), the property's checks, device
// pointers as arguments (with arithmetic before the address given) and
// reached through memory, the argument's errors, and buffers over SVM
// memory. Also run under WEFT_CHECK_MEMORY=1: pointers into such buffers are
// known objects.
#include "api_fixture.h"

#include <CL/cl_ext.h>

#include <cstdint>
#include <vector>

namespace {

constexpr cl_mem_properties kDevicePrivateAddress = 0x5000;
constexpr cl_mem_info kDeviceAddress = 0x5001;
constexpr cl_kernel_exec_info kExecDevicePointers = 0x5002;
using SetDevicePointer = cl_int(CL_API_CALL *)(cl_kernel, cl_uint, cl_ulong);

const char *kKernels = R"CLC(
kernel void address_of(global int *p, global ulong *out) {
  *out = (ulong)p;
  p[get_global_id(0)] += 1;
}
kernel void before(global int *p, global int *out) { *out = p[-2]; }
kernel void follow(global const ulong *where, global int *out) {
  global int *p = (global int *)where[0];
  out[get_global_id(0)] = p[get_global_id(0)] * 2;
}
kernel void not_global(global ulong *p, local ulong *l, ulong v) { *p = v; }
)CLC";

} // namespace

TEST_CASE_METHOD(WeftFixture,
                 "cl_ext_buffer_device_address: addresses, arguments, "
                 "indirect access, errors",
                 "[device-address]") {
  auto set_pointer = reinterpret_cast<SetDevicePointer>(
      clGetExtensionFunctionAddressForPlatform(
          platform, "clSetKernelArgDevicePointerEXT"));
  REQUIRE(set_pointer);
  cl_int err = CL_SUCCESS;
  const cl_mem_properties with_address[] = {kDevicePrivateAddress, CL_TRUE, 0};
  std::vector<cl_int> initial(64);
  for (int i = 0; i < 64; ++i)
    initial[i] = i;
  cl_mem buffer = clCreateBufferWithProperties(
      context, with_address, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
      64 * sizeof(cl_int), initial.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_ulong address = 0;
  size_t size = 0;
  REQUIRE(clGetMemObjectInfo(buffer, kDeviceAddress, sizeof address, &address,
                             &size) == CL_SUCCESS);
  CHECK(size == sizeof address);
  CHECK(address != 0);
  std::vector<cl_mem_properties> listed(3);
  REQUIRE(clGetMemObjectInfo(buffer, CL_MEM_PROPERTIES,
                             listed.size() * sizeof(cl_mem_properties),
                             listed.data(), nullptr) == CL_SUCCESS);
  CHECK(listed ==
        std::vector<cl_mem_properties>{kDevicePrivateAddress, CL_TRUE, 0});

  // The kernel sees the same address through a cl_mem argument.
  cl_mem out = this->buffer(sizeof(cl_ulong));
  cl_kernel k = kernel(kKernels, "address_of");
  clSetKernelArg(k, 0, sizeof buffer, &buffer);
  clSetKernelArg(k, 1, sizeof out, &out);
  size_t all = 64;
  REQUIRE(runAndWait(k, 1, &all, nullptr) == CL_SUCCESS);
  cl_ulong seen = 0;
  clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof seen, &seen, 0, nullptr,
                      nullptr);
  CHECK(seen == address);
  // A sub-buffer's address is its parent's plus its origin.
  cl_buffer_region region = {128, 64};
  cl_mem sub = clCreateSubBuffer(buffer, CL_MEM_READ_WRITE,
                                 CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_ulong sub_address = 0;
  REQUIRE(clGetMemObjectInfo(sub, kDeviceAddress, sizeof sub_address,
                             &sub_address, nullptr) == CL_SUCCESS);
  CHECK(sub_address == address + 128);

  // As an argument, 8 bytes in: the kernel reads before the address given.
  cl_kernel before = kernel(kKernels, "before");
  REQUIRE(set_pointer(before, 0, address + 8) == CL_SUCCESS);
  cl_mem one = this->buffer(sizeof(cl_int));
  clSetKernelArg(before, 1, sizeof one, &one);
  size_t single = 1;
  REQUIRE(runAndWait(before, 1, &single, nullptr) == CL_SUCCESS);
  CHECK(readInts(one, 1)[0] == 1); // element 0, incremented once
  REQUIRE(set_pointer(before, 0, 0) == CL_SUCCESS); // null is allowed

  // Through memory, with the address named in the exec info.
  cl_mem where = this->buffer(sizeof(cl_ulong), &address);
  cl_mem doubled = this->buffer(64 * sizeof(cl_int));
  cl_kernel follow = kernel(kKernels, "follow");
  clSetKernelArg(follow, 0, sizeof where, &where);
  clSetKernelArg(follow, 1, sizeof doubled, &doubled);
  REQUIRE(clSetKernelExecInfo(follow, kExecDevicePointers, sizeof address,
                              &address) == CL_SUCCESS);
  CHECK(clSetKernelExecInfo(follow, kExecDevicePointers, 3, &address) ==
        CL_INVALID_VALUE);
  REQUIRE(runAndWait(follow, 1, &all, nullptr) == CL_SUCCESS);
  std::vector<cl_int> twice = readInts(doubled, 64);
  for (int i = 0; i < 64; ++i)
    CHECK(twice[i] == 2 * (i + 1));

  // Errors: buffers without the property, bad properties, arguments that
  // are not __global pointers.
  cl_mem plain = this->buffer(16);
  CHECK(clGetMemObjectInfo(plain, kDeviceAddress, sizeof address, &address,
                           nullptr) == CL_INVALID_OPERATION);
  const cl_mem_properties without[] = {kDevicePrivateAddress, CL_FALSE, 0};
  cl_mem declined = clCreateBufferWithProperties(
      context, without, CL_MEM_READ_WRITE, 16, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clGetMemObjectInfo(declined, kDeviceAddress, sizeof address, &address,
                           nullptr) == CL_INVALID_OPERATION);
  const cl_mem_properties twice_listed[] = {kDevicePrivateAddress, CL_TRUE,
                                            kDevicePrivateAddress, CL_TRUE, 0};
  const cl_mem_properties bad_value[] = {kDevicePrivateAddress, 7, 0};
  const cl_mem_properties unknown[] = {0x5003, CL_TRUE, 0};
  for (const cl_mem_properties *props : {twice_listed, bad_value, unknown}) {
    CHECK(clCreateBufferWithProperties(context, props, CL_MEM_READ_WRITE, 16,
                                       nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);
  }
  cl_kernel wrong = kernel(kKernels, "not_global");
  CHECK(set_pointer(nullptr, 0, address) == CL_INVALID_KERNEL);
  CHECK(set_pointer(wrong, 1, address) == CL_INVALID_ARG_INDEX);
  CHECK(set_pointer(wrong, 2, address) == CL_INVALID_ARG_INDEX);
  CHECK(set_pointer(wrong, 3, address) == CL_INVALID_ARG_INDEX);

  // Over SVM memory: the address is the SVM pointer.
  void *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, 256, 0);
  REQUIRE(svm);
  cl_mem over_svm = clCreateBufferWithProperties(
      context, with_address, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, 256, svm,
      &err);
  REQUIRE(err == CL_SUCCESS);
  cl_ulong svm_address = 0;
  clGetMemObjectInfo(over_svm, kDeviceAddress, sizeof svm_address, &svm_address,
                     nullptr);
  CHECK(svm_address == reinterpret_cast<uintptr_t>(svm));
  clReleaseMemObject(over_svm);
  clSVMFree(context, svm);

  for (cl_mem m : {buffer, out, sub, one, where, doubled, plain, declined})
    clReleaseMemObject(m);
  for (cl_kernel kk : {k, before, follow, wrong})
    clReleaseKernel(kk);
}

TEST_CASE_METHOD(WeftFixture,
                 "cl_ext_buffer_device_address: one address per device of a "
                 "context of sub-devices",
                 "[device-address]") {
  cl_uint units = 0;
  clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
                  nullptr);
  if (units < 2)
    return; // no sub-devices to make
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                  1, 0};
  std::vector<cl_device_id> parts(units);
  cl_uint made = 0;
  REQUIRE(clCreateSubDevices(device, equally, units, parts.data(), &made) ==
          CL_SUCCESS);
  parts.resize(made);
  cl_int err = CL_SUCCESS;
  cl_context both =
      clCreateContext(nullptr, made, parts.data(), nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  const cl_mem_properties with_address[] = {kDevicePrivateAddress, CL_TRUE, 0};
  cl_mem buffer = clCreateBufferWithProperties(
      both, with_address, CL_MEM_READ_WRITE, 64, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<cl_ulong> addresses(made);
  size_t size = 0;
  REQUIRE(clGetMemObjectInfo(buffer, kDeviceAddress,
                             addresses.size() * sizeof(cl_ulong),
                             addresses.data(), &size) == CL_SUCCESS);
  CHECK(size == made * sizeof(cl_ulong));
  for (cl_ulong a : addresses)
    CHECK(a == addresses[0]);
  cl_ulong too_few = 0;
  CHECK(clGetMemObjectInfo(buffer, kDeviceAddress, sizeof too_few, &too_few,
                           nullptr) == CL_INVALID_VALUE);
  clReleaseMemObject(buffer);
  clReleaseContext(both);
  for (cl_device_id d : parts)
    clReleaseDevice(d);
}
