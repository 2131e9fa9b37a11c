// What every example needs: find Weft's platform (or the one named by
// WEFT_EXAMPLE_PLATFORM) through the ICD loader and report errors.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int status_ = (call);                                                   \
    if (status_ != CL_SUCCESS) {                                               \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__,       \
                   #call, status_);                                            \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

inline cl_platform_id findPlatform() {
  const char *wanted = std::getenv("WEFT_EXAMPLE_PLATFORM");
  if (!wanted)
    wanted = "Weft";
  cl_uint count = 0;
  CHECK(clGetPlatformIDs(0, nullptr, &count));
  std::vector<cl_platform_id> platforms(count);
  CHECK(clGetPlatformIDs(count, platforms.data(), nullptr));
  for (cl_platform_id p : platforms) {
    char name[256] = {};
    CHECK(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name), name, nullptr));
    if (std::strstr(name, wanted))
      return p;
  }
  std::fprintf(stderr, "no OpenCL platform named %s\n", wanted);
  std::exit(1);
}

inline cl_program buildProgram(cl_context context, cl_device_id device,
                               const char *source) {
  cl_int err;
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  CHECK(err);
  if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                          &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size,
                          log.data(), nullptr);
    std::fprintf(stderr, "build failed:\n%s\n", log.c_str());
    std::exit(1);
  }
  return program;
}
