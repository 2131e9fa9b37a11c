// Shared set-up for API tests: real host code through the system ICD loader,
// with OCL_ICD_VENDORS pointing at the build tree's Weft (set by CTest).
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

struct WeftFixture {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;

  WeftFixture() {
    cl_uint count = 0;
    REQUIRE(clGetPlatformIDs(0, nullptr, &count) == CL_SUCCESS);
    std::vector<cl_platform_id> platforms(count);
    REQUIRE(clGetPlatformIDs(count, platforms.data(), nullptr) == CL_SUCCESS);
    for (cl_platform_id p : platforms) {
      char name[64] = {};
      clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name), name, nullptr);
      if (std::string(name) == "Weft")
        platform = p;
    }
    REQUIRE(platform != nullptr);
    REQUIRE(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr) ==
            CL_SUCCESS);
    cl_int err;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                         CL_QUEUE_PROFILING_ENABLE, 0};
    queue = clCreateCommandQueueWithProperties(context, device, props, &err);
    REQUIRE(err == CL_SUCCESS);
  }
  ~WeftFixture() {
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }

  // Builds `source`; returns the status and fills `log`.
  cl_int build(const char *source, cl_program &program, std::string &log,
               const char *options = "") {
    cl_int err;
    program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_int status =
        clBuildProgram(program, 1, &device, options, nullptr, nullptr);
    log = buildLog(program);
    return status;
  }

  std::string buildLog(cl_program program) {
    size_t size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                          &size);
    std::string text(size, '\0');
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size,
                          text.data(), nullptr);
    return text;
  }

  // Whether the device lists extension `name` (a whole name, not a prefix).
  bool hasExtension(const char *name) const {
    size_t size = 0;
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size);
    std::string text(size, '\0');
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, text.data(), nullptr);
    text.resize(text.find('\0')); // the terminator
    return (" " + text + " ").find(std::string(" ") + name + " ") !=
           std::string::npos;
  }

  cl_kernel kernel(const char *source, const char *name,
                   const char *options = "") {
    cl_program program;
    std::string log;
    cl_int status = build(source, program, log, options);
    INFO(log);
    REQUIRE(status == CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    REQUIRE(err == CL_SUCCESS);
    clReleaseProgram(program); // the kernel keeps it alive
    return k;
  }

  // Runs `k` over an NDRange and returns the command's final status: a
  // failed command makes the wait return
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, and its event says why.
  cl_int runAndWait(cl_kernel k, cl_uint dims, const size_t *global,
                    const size_t *local) {
    cl_event done;
    cl_int err = clEnqueueNDRangeKernel(queue, k, dims, nullptr, global, local,
                                        0, nullptr, &done);
    if (err != CL_SUCCESS)
      return err;
    clWaitForEvents(1, &done);
    cl_int status = CL_SUCCESS;
    clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                   &status, nullptr);
    clReleaseEvent(done);
    return status;
  }

  // The first `count` ints of `buffer`, read after the queue's work.
  std::vector<cl_int> readInts(cl_mem buffer, size_t count) {
    std::vector<cl_int> values(count);
    REQUIRE(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0,
                                count * sizeof(cl_int), values.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    return values;
  }

  // The first `count` elements of `buffer`, read after the queue's work.
  template <typename T> std::vector<T> readValues(cl_mem buffer, size_t count) {
    std::vector<T> values(count);
    REQUIRE(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, count * sizeof(T),
                                values.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    return values;
  }

  // Checks that `got` equals `expected` element by element, exactly;
  // names the first element that differs.
  template <typename T>
  static void checkSameValues(const std::vector<T> &got,
                              const std::vector<T> &expected) {
    REQUIRE(got.size() == expected.size());
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != expected[i] && wrong++ == 0)
        first = i;
    INFO("first wrong element " << first << ": got " << got[first]
                                << ", expected " << expected[first]);
    CHECK(wrong == 0);
  }

  cl_mem buffer(size_t bytes, void *init = nullptr) {
    cl_int err;
    cl_mem m = clCreateBuffer(
        context, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes,
        init, &err);
    REQUIRE(err == CL_SUCCESS);
    return m;
  }

  // Checks that two runs wrote the same bytes, each work-item
  // `bytes_per_item` of them; names the first work-item that differs.
  static void checkSameBytes(const std::vector<unsigned char> &got,
                             const std::vector<unsigned char> &reference,
                             size_t bytes_per_item) {
    REQUIRE(got.size() == reference.size());
    size_t first_wrong = got.size();
    for (size_t i = 0; i < got.size() && first_wrong == got.size(); ++i)
      if (got[i] != reference[i])
        first_wrong = i;
    INFO("first differing byte " << first_wrong << " (work-item "
                                 << first_wrong / bytes_per_item << ")");
    CHECK(first_wrong == got.size());
  }
};
