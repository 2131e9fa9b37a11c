// A faulting kernel fails its event and loses its context, not the process
// (device/kernel_faults.h). Run by CTest as api_containment, with the
// watchdog on (WEFT_KERNEL_TIMEOUT=2).
#include "api_fixture.h"

#include <chrono>
#include <string>

namespace {

// Runs one work-item of `source`'s kernel k with a buffer holding `value`,
// and returns the launch's status.
cl_int runFaulting(WeftFixture &f, const char *source, cl_long value) {
  cl_kernel k = f.kernel(source, "k");
  cl_mem m = f.buffer(sizeof value, &value);
  REQUIRE(clSetKernelArg(k, 0, sizeof m, &m) == CL_SUCCESS);
  size_t one = 1;
  cl_int status = f.runAndWait(k, 1, &one, nullptr);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  return status;
}

// After a fault: the context takes no more commands, and a new one works.
void checkContextLostButProcessFine(WeftFixture &f) {
  cl_mem m = f.buffer(16);
  cl_int zero = 0;
  CHECK(clEnqueueFillBuffer(f.queue, m, &zero, sizeof zero, 0, 16, 0, nullptr,
                            nullptr) == CL_OUT_OF_RESOURCES);
  // Asking for the refused command's event gets none (this crashed).
  cl_event refused = nullptr;
  CHECK(clEnqueueFillBuffer(f.queue, m, &zero, sizeof zero, 0, 16, 0, nullptr,
                            &refused) == CL_OUT_OF_RESOURCES);
  CHECK(refused == nullptr);
  CHECK(clEnqueueSVMMemFill(f.queue, &zero, &zero, sizeof zero, sizeof zero, 0,
                            nullptr, &refused) == CL_OUT_OF_RESOURCES);
  CHECK(refused == nullptr);
  CHECK(clEnqueueMarkerWithWaitList(f.queue, 0, nullptr, &refused) ==
        CL_OUT_OF_RESOURCES);
  CHECK(refused == nullptr);
  clReleaseMemObject(m);
  WeftFixture fresh;
  cl_kernel k =
      fresh.kernel("kernel void twice(global int *x) { x[get_global_id(0)] "
                   "= 2 * get_global_id(0); }",
                   "twice");
  cl_mem out = fresh.buffer(64 * sizeof(int));
  REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
  size_t global = 64;
  REQUIRE(fresh.runAndWait(k, 1, &global, nullptr) == CL_SUCCESS);
  int values[64];
  REQUIRE(clEnqueueReadBuffer(fresh.queue, out, CL_TRUE, 0, sizeof values,
                              values, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(values[63] == 126);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

} // namespace

TEST_CASE_METHOD(WeftFixture, "a kernel writing through NULL is contained",
                 "[containment]") {
  // The pointer comes from the buffer, so the compiler cannot see it is
  // null; many work-items fault at once on several threads.
  cl_kernel k = kernel("kernel void k(global long *x) {\n"
                       "  global int *p = (global int *)x[0];\n"
                       "  p[get_global_id(0)] = 1;\n"
                       "}",
                       "k");
  cl_long null_address = 0;
  cl_mem m = buffer(sizeof null_address, &null_address);
  REQUIRE(clSetKernelArg(k, 0, sizeof m, &m) == CL_SUCCESS);
  size_t global = 4096, local = 64;
  CHECK(runAndWait(k, 1, &global, &local) == CL_OUT_OF_RESOURCES);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  checkContextLostButProcessFine(*this);
}

TEST_CASE_METHOD(WeftFixture, "a kernel writing far out of range is contained",
                 "[containment]") {
  CHECK(runFaulting(*this, "kernel void k(global long *x) { x[x[0]] = 1; }",
                    cl_long{1} << 44) == CL_OUT_OF_RESOURCES);
  checkContextLostButProcessFine(*this);
}

TEST_CASE_METHOD(WeftFixture, "a kernel with barriers that faults is contained",
                 "[containment]") {
  // Split into regions, and on fibers when WEFT_BARRIERS=fibers.
  cl_kernel k = kernel("kernel void k(global long *x, local int *t) {\n"
                       "  t[get_local_id(0)] = 1;\n"
                       "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                       "  global int *p = (global int *)x[0];\n"
                       "  p[get_global_id(0)] = t[0];\n"
                       "}",
                       "k");
  cl_long null_address = 0;
  cl_mem m = buffer(sizeof null_address, &null_address);
  REQUIRE(clSetKernelArg(k, 0, sizeof m, &m) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, 64 * sizeof(int), nullptr) == CL_SUCCESS);
  size_t global = 256, local = 64;
  CHECK(runAndWait(k, 1, &global, &local) == CL_OUT_OF_RESOURCES);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  checkContextLostButProcessFine(*this);
}

TEST_CASE_METHOD(WeftFixture, "an endless kernel is stopped by the watchdog",
                 "[containment]") {
  // WEFT_KERNEL_TIMEOUT=2 (set by CTest).
  auto start = std::chrono::steady_clock::now();
  CHECK(runFaulting(*this,
                    "kernel void k(global long *x) {\n"
                    "  while (*(volatile global long *)x == 0)\n"
                    "    ;\n"
                    "}",
                    0) == CL_OUT_OF_RESOURCES);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  CHECK(seconds >= 1.5);
  CHECK(seconds < 60);
  checkContextLostButProcessFine(*this);
}

namespace {

// Runs `source`'s kernel k over `dims` dimensions in a context of its own,
// with a buffer holding a far address, and returns what the context's
// error callback heard.
std::string faultHeard(const WeftFixture &base, const char *source,
                       cl_uint dims, const size_t *global,
                       const size_t *local) {
  std::string heard;
  auto notify = [](const char *message, const void *, size_t, void *data) {
    *static_cast<std::string *>(data) = message;
  };
  cl_int err;
  cl_context context =
      clCreateContext(nullptr, 1, &base.device, notify, &heard, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_queue queue =
      clCreateCommandQueueWithProperties(context, base.device, nullptr, &err);
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  REQUIRE(clBuildProgram(program, 1, &base.device, "", nullptr, nullptr) ==
          CL_SUCCESS);
  cl_kernel k = clCreateKernel(program, "k", &err);
  cl_long far = cl_long{1} << 44;
  cl_mem m =
      clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof far, &far, &err);
  clSetKernelArg(k, 0, sizeof m, &m);
  REQUIRE(clEnqueueNDRangeKernel(queue, k, dims, nullptr, global, local, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  clFinish(queue);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return heard;
}

} // namespace

TEST_CASE("a context's error callback hears of its kernel's fault",
          "[containment]") {
  WeftFixture base;
  size_t one = 1;
  std::string heard = faultHeard(
      base, "kernel void k(global long *x) { x[x[0]] = 1; }", 1, &one, nullptr);
  CHECK(heard.find("kernel 'k' raised SIGSEGV") != std::string::npos);
}

// A kernel that cannot tell its work-groups apart runs in merged groups
// (runtime/kernel.cpp): its fault names the range of global ids that faulted,
// not a group of the application's that never ran as one. A kernel that asks
// for its local id keeps its groups, as do 2-D launches, and the message
// names one.
TEST_CASE("a fault names the work-group, or the work-items of merged groups",
          "[containment]") {
  WeftFixture base;
  struct Case {
    const char *source;
    const char *expected;
    cl_uint dims = 1;
  } cases[] = {
      // Work-item 40 writes far away; groups of 4 would make it group 10.
      {"kernel void k(global long *x) {\n"
       "  size_t i = get_global_id(0);\n"
       "  if (i == 40) x[x[0]] = 1;\n"
       "}",
       "in the work-items of global ids (0-63)"},
      // A required group size only bounds what the application may ask.
      {"__attribute__((reqd_work_group_size(4, 1, 1)))\n"
       "kernel void k(global long *x) {\n"
       "  size_t i = get_global_id(0);\n"
       "  if (i == 40) x[x[0]] = 1;\n"
       "}",
       "in the work-items of global ids (0-63)"},
      {"kernel void k(global long *x) {\n"
       "  size_t i = get_global_id(0);\n"
       "  if (i == 40) x[x[0]] = get_local_id(0);\n"
       "}",
       "in work-group (10,0,0)"},
      // 2-D groups keep their shape (they may be the application's cache
      // blocking): work-item (5,6) in groups of 4x4 is in group (1,1).
      {"kernel void k(global long *x) {\n"
       "  if (get_global_id(0) == 5 && get_global_id(1) == 6) x[x[0]] = 1;\n"
       "}",
       "in work-group (1,1,0)", 2}};
  for (const Case &c : cases) {
    INFO(c.source);
    size_t global[2] = {c.dims == 2 ? size_t(8) : size_t(64), 8};
    size_t local[2] = {4, 4};
    std::string heard = faultHeard(base, c.source, c.dims, global, local);
    INFO(heard);
    CHECK(heard.find(c.expected) != std::string::npos);
  }
}
