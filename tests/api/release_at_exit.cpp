// An application that keeps OpenCL objects in a static cache and releases
// them from its own static destructor, after exit() has begun (as clBLAST
// does): every object is released, a kernel runs and a queue finishes from
// that destructor. Exits 0 when all calls succeed; before the fix, Weft's
// own registries were gone by then and the heap was corrupted.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

int failures = 0;

void check(cl_int err, const char *what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "release_at_exit: %s failed with %d\n", what, err);
    ++failures;
  }
}

struct StaticCache {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  cl_mem buffer = nullptr;

  ~StaticCache() {
    if (!context)
      return;
    // Work after exit() began: a launch, a blocking read, then releases.
    size_t global = 64;
    check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0,
                                 nullptr, nullptr),
          "clEnqueueNDRangeKernel");
    int values[64] = {};
    check(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof values, values,
                              0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    if (values[63] != 63 * 2) {
      std::fprintf(stderr, "release_at_exit: wrong result %d\n", values[63]);
      ++failures;
    }
    check(clFinish(queue), "clFinish");
    check(clReleaseKernel(kernel), "clReleaseKernel");
    check(clReleaseProgram(program), "clReleaseProgram");
    check(clReleaseMemObject(buffer), "clReleaseMemObject");
    check(clReleaseCommandQueue(queue), "clReleaseCommandQueue");
    check(clReleaseContext(context), "clReleaseContext");
    // The destructor cannot return a status: it ends the process with one.
    std::_Exit(failures == 0 ? 0 : 1);
  }
};

// Made before main, so destroyed after everything Weft makes on first use.
StaticCache cache;

} // namespace

int main() {
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  cl_platform_id platforms[16];
  clGetPlatformIDs(count < 16 ? count : 16, platforms, nullptr);
  cl_platform_id weft = nullptr;
  for (cl_uint i = 0; i < count && i < 16; ++i) {
    char name[64] = {};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name,
                      nullptr);
    if (std::strcmp(name, "Weft") == 0)
      weft = platforms[i];
  }
  if (!weft)
    return 2;
  cl_device_id device;
  cl_int err = clGetDeviceIDs(weft, CL_DEVICE_TYPE_CPU, 1, &device, nullptr);
  check(err, "clGetDeviceIDs");
  cache.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cache.queue =
      clCreateCommandQueueWithProperties(cache.context, device, nullptr, &err);
  check(err, "clCreateCommandQueueWithProperties");
  const char *source =
      "kernel void twice(global int *x) { x[get_global_id(0)] = "
      "2 * get_global_id(0); }";
  cache.program =
      clCreateProgramWithSource(cache.context, 1, &source, nullptr, &err);
  check(clBuildProgram(cache.program, 1, &device, "", nullptr, nullptr),
        "clBuildProgram");
  cache.kernel = clCreateKernel(cache.program, "twice", &err);
  check(err, "clCreateKernel");
  cache.buffer = clCreateBuffer(cache.context, CL_MEM_READ_WRITE,
                                64 * sizeof(int), nullptr, &err);
  check(err, "clCreateBuffer");
  check(clSetKernelArg(cache.kernel, 0, sizeof(cl_mem), &cache.buffer),
        "clSetKernelArg");
  // A launch in main too, so the main thread's launch state exists (and is
  // destroyed at exit before the cache's destructor runs).
  size_t global = 64;
  check(clEnqueueNDRangeKernel(cache.queue, cache.kernel, 1, nullptr, &global,
                               nullptr, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  check(clFinish(cache.queue), "clFinish");
  return failures == 0 ? 0 : 1; // the cache's destructor has the last word
}
