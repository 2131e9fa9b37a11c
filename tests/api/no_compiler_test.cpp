// Run with WEFT_COMPILER_LIBRARY pointing at a missing file (see
// tests/CMakeLists.txt): everything but compiling works, and a build fails
// with CL_COMPILER_NOT_AVAILABLE and a log that says why.
#include "api_fixture.h"

TEST_CASE_METHOD(WeftFixture, "without the compiler library",
                 "[no-compiler]") {
  cl_bool available = CL_TRUE;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE,
                          sizeof(available), &available, nullptr) == CL_SUCCESS);
  CHECK(available == CL_FALSE);
  int value = 9, out = 0;
  cl_mem b = buffer(sizeof(int), &value);
  REQUIRE(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof(int), &out, 0,
                              nullptr, nullptr) == CL_SUCCESS);
  CHECK(out == 9);
  cl_program program;
  std::string log;
  CHECK(build("kernel void k() {}", program, log) == CL_COMPILER_NOT_AVAILABLE);
  CHECK(log.find("compiler library") != std::string::npos);
  clReleaseProgram(program);
  clReleaseMemObject(b);
}
