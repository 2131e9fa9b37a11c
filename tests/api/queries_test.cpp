// Platform, device and handle validation through the loader.
#include "api_fixture.h"

#include <set>
#include <sstream>

TEST_CASE_METHOD(WeftFixture, "platform and device describe this machine",
                 "[api]") {
  char version[128] = {};
  REQUIRE(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof(version),
                            version, nullptr) == CL_SUCCESS);
  CHECK(std::string(version).rfind("OpenCL 3.0", 0) == 0);
  cl_uint units = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units),
                          &units, nullptr) == CL_SUCCESS);
  CHECK(units >= 1);
  cl_ulong memory = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(memory),
                          &memory, nullptr) == CL_SUCCESS);
  CHECK(memory > (cl_ulong(64) << 20));
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_NAME, 0, nullptr, &size) ==
          CL_SUCCESS);
  CHECK(size > 1);
  cl_device_type type = 0;
  clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(type), &type, nullptr);
  CHECK(type == CL_DEVICE_TYPE_CPU);
  cl_device_id gpu;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &gpu, nullptr) ==
        CL_DEVICE_NOT_FOUND);
  // A buffer too small for the answer.
  char tiny[2];
  CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(tiny), tiny, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clGetDeviceInfo(device, 0x7fff, sizeof(tiny), tiny, nullptr) ==
        CL_INVALID_VALUE);
}

TEST_CASE_METHOD(WeftFixture, "wrong handles get CL_INVALID_<OBJECT>",
                 "[api]") {
  // A handle that carries the dispatch pointer and the loader's data (so a
  // loader, also one with cl_khr_icd 2.0, reaches Weft) but is not a Weft
  // object. It sits inside a larger zeroed block: Weft reads its magic value
  // at a fixed offset around the handle, which must stay inside the block
  // (AddressSanitizer checks).
  struct FakeHandle {
    alignas(16) char before[64];
    const void *dispatch;
    const void *loader_data;
    char rest[192];
  } storage{};
  FakeHandle &fake = storage;
  std::memcpy(&fake.dispatch, context, 2 * sizeof(void *));
  cl_uint count;
  CHECK(clGetContextInfo(reinterpret_cast<cl_context>(&fake.dispatch),
                         CL_CONTEXT_REFERENCE_COUNT, sizeof(count), &count,
                         nullptr) == CL_INVALID_CONTEXT);
  CHECK(clRetainCommandQueue(reinterpret_cast<cl_command_queue>(
            &fake.dispatch)) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clReleaseMemObject(reinterpret_cast<cl_mem>(&fake.dispatch)) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(reinterpret_cast<cl_kernel>(&fake.dispatch), 0, 4,
                       &count) == CL_INVALID_KERNEL);
  // The context itself is passed where a queue is expected.
  CHECK(clFinish(reinterpret_cast<cl_command_queue>(context)) ==
        CL_INVALID_COMMAND_QUEUE);
}

TEST_CASE_METHOD(WeftFixture, "buffer creation flags are checked", "[api]") {
  cl_int err;
  int host[4] = {1, 2, 3, 4};
  CHECK(clCreateBuffer(context, CL_MEM_READ_WRITE, 0, nullptr, &err) ==
        nullptr);
  CHECK(err == CL_INVALID_BUFFER_SIZE);
  CHECK(clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16,
                       nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 16, nullptr, &err) ==
        nullptr);
  CHECK(err == CL_INVALID_HOST_PTR);
  CHECK(clCreateBuffer(context, CL_MEM_READ_WRITE, 16, host, &err) == nullptr);
  CHECK(err == CL_INVALID_HOST_PTR);
  CHECK(clCreateBuffer(context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 16,
                       host, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);

  cl_mem use =
      clCreateBuffer(context, CL_MEM_USE_HOST_PTR, sizeof(host), host, &err);
  REQUIRE(err == CL_SUCCESS);
  int *mapped = static_cast<int *>(
      clEnqueueMapBuffer(queue, use, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                         sizeof(host), 0, nullptr, nullptr, &err));
  REQUIRE(err == CL_SUCCESS);
  CHECK(mapped == host); // USE_HOST_PTR maps the application's memory
  cl_uint maps = 0;
  clGetMemObjectInfo(use, CL_MEM_MAP_COUNT, sizeof(maps), &maps, nullptr);
  CHECK(maps == 1);
  CHECK(clEnqueueUnmapMemObject(queue, use, mapped, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(clFinish(queue) == CL_SUCCESS);

  cl_mem hostless =
      clCreateBuffer(context, CL_MEM_HOST_NO_ACCESS, 16, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clEnqueueReadBuffer(queue, hostless, CL_TRUE, 0, 16, host, 0, nullptr,
                            nullptr) == CL_INVALID_OPERATION);
  CHECK(clEnqueueReadBuffer(queue, use, CL_TRUE, 8, 16, host, 0, nullptr,
                            nullptr) == CL_INVALID_VALUE);
  clReleaseMemObject(hostless);
  clReleaseMemObject(use);
}

TEST_CASE_METHOD(WeftFixture, "copy, fill, rect and sub-buffer commands",
                 "[api]") {
  std::vector<int> data(256);
  for (int i = 0; i < 256; ++i)
    data[i] = i;
  cl_mem a = buffer(1024, data.data());
  cl_mem b = buffer(1024);
  int pattern = 7;
  REQUIRE(clEnqueueFillBuffer(queue, b, &pattern, sizeof(pattern), 0, 1024, 0,
                              nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueCopyBuffer(queue, a, b, 0, 512, 256, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  std::vector<int> out(256);
  REQUIRE(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, 1024, out.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  CHECK(out[0] == 7);
  CHECK(out[128] == 0);
  CHECK(out[191] == 63);
  CHECK(out[192] == 7);
  CHECK(clEnqueueCopyBuffer(queue, a, a, 0, 4, 64, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);

  cl_buffer_region region = {128, 256};
  cl_int err;
  cl_mem sub =
      clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  REQUIRE(err == CL_SUCCESS);
  int first = -1;
  REQUIRE(clEnqueueReadBuffer(queue, sub, CL_TRUE, 0, 4, &first, 0, nullptr,
                              nullptr) == CL_SUCCESS);
  CHECK(first == 32);
  cl_buffer_region misaligned = {4, 16};
  CHECK(clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned,
                          &err) == nullptr);
  CHECK(err == CL_MISALIGNED_SUB_BUFFER_OFFSET);

  // Read a 2x3 block (rows of 4 ints) out of the buffer.
  const size_t origin[3] = {4 * sizeof(int), 1, 0};
  const size_t host_origin[3] = {0, 0, 0};
  const size_t rect[3] = {2 * sizeof(int), 3, 1};
  int block[6] = {};
  REQUIRE(clEnqueueReadBufferRect(queue, a, CL_TRUE, origin, host_origin, rect,
                                  16 * sizeof(int), 0, 2 * sizeof(int), 0,
                                  block, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(block[0] == 20);
  CHECK(block[1] == 21);
  CHECK(block[2] == 36);
  CHECK(block[5] == 53);
  clReleaseMemObject(sub);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

TEST_CASE_METHOD(WeftFixture,
                 "events: user events gate commands, profiling "
                 "times are ordered",
                 "[api]") {
  cl_int err;
  cl_event gate = clCreateUserEvent(context, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem b = buffer(64);
  int value = 42, out = 0;
  cl_event write;
  REQUIRE(clEnqueueWriteBuffer(queue, b, CL_FALSE, 0, 4, &value, 1, &gate,
                               &write) == CL_SUCCESS);
  clFlush(queue);
  cl_int status = 0;
  clGetEventInfo(write, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
                 &status, nullptr);
  CHECK(status > CL_COMPLETE); // still waiting for the user event
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE) == CL_INVALID_OPERATION);
  REQUIRE(clWaitForEvents(1, &write) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, 4, &out, 0, nullptr,
                              nullptr) == CL_SUCCESS);
  CHECK(out == 42);
  cl_ulong times[4];
  const cl_profiling_info which[4] = {
      CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i)
    REQUIRE(clGetEventProfilingInfo(write, which[i], sizeof(cl_ulong),
                                    &times[i], nullptr) == CL_SUCCESS);
  CHECK(times[0] <= times[1]);
  CHECK(times[1] <= times[2]);
  CHECK(times[2] <= times[3]);

  // A failed dependency fails the command instead of running it.
  cl_event broken = clCreateUserEvent(context, &err);
  cl_event dependent;
  REQUIRE(clEnqueueWriteBuffer(queue, b, CL_FALSE, 0, 4, &value, 1, &broken,
                               &dependent) == CL_SUCCESS);
  clSetUserEventStatus(broken, -1);
  CHECK(clWaitForEvents(1, &dependent) ==
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(broken);
  clReleaseEvent(dependent);
  clReleaseEvent(write);
  clReleaseEvent(gate);
  clReleaseMemObject(b);
}

namespace {

std::set<std::string> words(const std::string &text) {
  std::istringstream in(text);
  std::set<std::string> out;
  for (std::string word; in >> word;)
    out.insert(word);
  return out;
}

std::set<std::string> names(const std::vector<cl_name_version> &list) {
  std::set<std::string> out;
  for (const cl_name_version &entry : list)
    out.insert(entry.name);
  return out;
}

} // namespace

// CTS test_computeinfo extended_versioning: the string and the versioned
// list name the same extensions, for the platform and for the device (the
// SPIR-V extensions, reported with the translator, were missing from the
// platform's list).
TEST_CASE_METHOD(WeftFixture,
                 "extension strings and versioned lists name the same",
                 "[api]") {
  size_t size = 0;
  REQUIRE(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, 0, nullptr,
                            &size) == CL_SUCCESS);
  std::string platform_string(size, '\0');
  clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, size,
                    platform_string.data(), nullptr);
  REQUIRE(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0,
                            nullptr, &size) == CL_SUCCESS);
  std::vector<cl_name_version> platform_list(size / sizeof(cl_name_version));
  clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, size,
                    platform_list.data(), nullptr);
  CHECK(words(platform_string.c_str()) == names(platform_list));

  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size) ==
          CL_SUCCESS);
  std::string device_string(size, '\0');
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, device_string.data(),
                  nullptr);
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr,
                          &size) == CL_SUCCESS);
  std::vector<cl_name_version> device_list(size / sizeof(cl_name_version));
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size,
                  device_list.data(), nullptr);
  CHECK(words(device_string.c_str()) == names(device_list));
  CHECK(names(platform_list) == names(device_list));
}
