// The memory checking mode (WEFT_CHECK_MEMORY=1; issue 37): an access
// outside its object is reported on stderr, not made, and fails the launch
// with CL_INVALID_OPERATION; correct kernels run as before. Run by CTest
// as api_memory_check, and as api_memory_check_on_fibers with
// WEFT_BARRIERS=fibers (kernels with barriers on work-item fibers).
#include "api_fixture.h"

#include <CL/cl_ext.h>

#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace {

// What the process writes to stderr while `run` runs.
template <typename Run> std::string stderrOf(Run run) {
  std::fflush(stderr);
  char path[] = "/tmp/weft-memory-check-XXXXXX";
  int file = mkstemp(path);
  REQUIRE(file >= 0);
  unlink(path);
  int saved = dup(STDERR_FILENO);
  dup2(file, STDERR_FILENO);
  run();
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  std::string text;
  char chunk[4096];
  lseek(file, 0, SEEK_SET);
  for (ssize_t n; (n = read(file, chunk, sizeof chunk)) > 0;)
    text.append(chunk, static_cast<size_t>(n));
  close(file);
  return text;
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

struct Launch {
  cl_int status;
  std::string report;
};

Launch launch(WeftFixture &f, cl_kernel k, size_t global, size_t local) {
  Launch result{};
  result.report = stderrOf([&] {
    result.status = f.runAndWait(k, 1, &global, local ? &local : nullptr);
  });
  return result;
}

// Launches `k`, which must run as without the checks, nothing reported.
void expectClean(WeftFixture &f, cl_kernel k, size_t global, size_t local) {
  Launch run = launch(f, k, global, local);
  INFO(run.report);
  CHECK(run.status == CL_SUCCESS);
  CHECK(run.report.empty());
}

// Launches `k`, which the checks must stop with a report naming each part.
void expectCaught(WeftFixture &f, cl_kernel k, size_t global, size_t local,
                  std::initializer_list<const char *> parts) {
  Launch run = launch(f, k, global, local);
  INFO(run.report);
  CHECK(run.status == CL_INVALID_OPERATION);
  for (const char *part : parts)
    CHECK(contains(run.report, part));
}

} // namespace

TEST_CASE("a write one element past a buffer is caught and not made",
          "[memory-check]") {
  WeftFixture f;
  cl_kernel k = f.kernel("kernel void shift(global int *out) {\n"
                         "  size_t i = get_global_id(0);\n"
                         "  out[i + 1] = (int)i;\n"
                         "}",
                         "shift");
  // The buffer is a sub-buffer of a larger one whose tail must stay as is:
  // the write past the sub-buffer's end lands in its parent.
  std::vector<cl_int> initial(80, -1);
  cl_mem parent = f.buffer(initial.size() * sizeof(cl_int), initial.data());
  cl_buffer_region region{0, 64 * sizeof(cl_int)};
  cl_int err;
  cl_mem sub =
      clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof sub, &sub) == CL_SUCCESS);
  expectCaught(f, k, 64, 16,
               {"kernel 'shift' work-item (63) wrote 4 bytes",
                "argument 0 'out' (256 bytes", "4 bytes past its end"});
  std::vector<cl_int> after = f.readInts(parent, initial.size());
  for (size_t i = 64; i < after.size(); ++i)
    CHECK(after[i] == -1);

  // A whole buffer: the same.
  cl_mem whole = f.buffer(64 * sizeof(cl_int));
  REQUIRE(clSetKernelArg(k, 0, sizeof whole, &whole) == CL_SUCCESS);
  expectCaught(f, k, 64, 16, {"work-item (63) wrote 4 bytes"});
  clReleaseMemObject(whole);
  clReleaseMemObject(sub);
  clReleaseMemObject(parent);
  clReleaseKernel(k);
}

TEST_CASE("reads past a buffer and before it are caught, loops and vectors "
          "included",
          "[memory-check]") {
  WeftFixture f;
  // A loop of its own per work-item, through vload4: widened across
  // work-items; work-item 15 reads one float4 past the end.
  cl_kernel k = f.kernel(
      "kernel void sums(global const float *in, global float *out, int n) {\n"
      "  size_t i = get_global_id(0);\n"
      "  float4 s = 0;\n"
      "  for (int j = 0; j < n; ++j) s += vload4(i + j, in);\n"
      "  out[i] = s.x + s.y + s.z + s.w;\n"
      "}",
      "sums");
  std::vector<float> values(64, 1.0f);
  cl_mem in = f.buffer(values.size() * sizeof(float), values.data());
  cl_mem out = f.buffer(16 * sizeof(float));
  cl_int n = 1;
  REQUIRE(clSetKernelArg(k, 0, sizeof in, &in) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, sizeof n, &n) == CL_SUCCESS);
  expectClean(f, k, 16, 0);
  std::vector<float> sums(16);
  REQUIRE(clEnqueueReadBuffer(f.queue, out, CL_TRUE, 0, sizeof(float) * 16,
                              sums.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  for (float s : sums)
    CHECK(s == 4.0f);
  n = 2;
  REQUIRE(clSetKernelArg(k, 2, sizeof n, &n) == CL_SUCCESS);
  expectCaught(
      f, k, 16, 0,
      {"work-item (15) read 16 bytes", "at offset 256 of argument 0 'in'"});
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(k);

  cl_kernel before = f.kernel("kernel void before(global int *p) {\n"
                              "  p[(int)get_global_id(0) - 1] += 1;\n"
                              "}",
                              "before");
  cl_mem m = f.buffer(8 * sizeof(cl_int));
  REQUIRE(clSetKernelArg(before, 0, sizeof m, &m) == CL_SUCCESS);
  expectCaught(f, before, 8, 0,
               {"work-item (0) read 4 bytes", "4 bytes before argument 0 'p'"});
  clReleaseMemObject(m);
  clReleaseKernel(before);
}

TEST_CASE("writes out of a __local array are caught, across barriers",
          "[memory-check]") {
  WeftFixture f;
  cl_kernel k = f.kernel(
      "kernel void tile(global int *out, local int *scratch, int step) {\n"
      "  local int shared[16];\n"
      "  size_t l = get_local_id(0);\n"
      "  shared[l] = (int)l;\n"
      "  scratch[l] = 2 * (int)l;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  if (step == 1) shared[l + 1] = 0;\n"
      "  if (step == 2) scratch[l + 1] = 0;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  out[get_global_id(0)] = shared[15 - l] + scratch[15 - l];\n"
      "}",
      "tile");
  cl_mem out = f.buffer(64 * sizeof(cl_int));
  REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, 16 * sizeof(cl_int), nullptr) == CL_SUCCESS);
  cl_int step = 0;
  REQUIRE(clSetKernelArg(k, 2, sizeof step, &step) == CL_SUCCESS);
  expectClean(f, k, 64, 16);
  std::vector<cl_int> got = f.readInts(out, 64);
  for (size_t i = 0; i < 64; ++i)
    CHECK(got[i] == 3 * (15 - int(i % 16)));

  step = 1;
  REQUIRE(clSetKernelArg(k, 2, sizeof step, &step) == CL_SUCCESS);
  expectCaught(f, k, 64, 16,
               {"wrote 4 bytes", "of a __local variable (64 bytes"});

  step = 2;
  REQUIRE(clSetKernelArg(k, 2, sizeof step, &step) == CL_SUCCESS);
  expectCaught(f, k, 64, 16,
               {"argument 1 'scratch' (64 bytes", "4 bytes past its end"});
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE("a private array indexed past its end is caught", "[memory-check]") {
  WeftFixture f;
  cl_kernel k = f.kernel("kernel void table(global int *out, int n) {\n"
                         "  int t[4] = {1, 2, 3, 4};\n"
                         "  size_t i = get_global_id(0);\n"
                         "  t[(i + n) % 8] = 9;\n"
                         "  out[i] = t[i % 4];\n"
                         "}",
                         "table");
  cl_mem out = f.buffer(4 * sizeof(cl_int));
  cl_int n = 0;
  REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof n, &n) == CL_SUCCESS);
  CHECK(launch(f, k, 4, 0).status == CL_SUCCESS);
  n = 3;
  REQUIRE(clSetKernelArg(k, 1, sizeof n, &n) == CL_SUCCESS);
  expectCaught(f, k, 4, 0, {"of a private variable of 16 bytes"});
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE("stale SVM pointers are caught, live ones pass", "[memory-check]") {
  WeftFixture f;
  cl_device_svm_capabilities caps = 0;
  clGetDeviceInfo(f.device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps,
                  nullptr);
  REQUIRE((caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0);
  cl_kernel k =
      f.kernel("kernel void follow(global ulong *table, global int *out) {\n"
               "  global int *data = (global int *)table[0];\n"
               "  out[get_global_id(0)] = data[get_global_id(0)];\n"
               "}",
               "follow");
  cl_kernel direct = f.kernel("kernel void direct(global int *p) {\n"
                              "  p[get_global_id(0)] += 1;\n"
                              "}",
                              "direct");
  auto **table = static_cast<cl_int **>(
      clSVMAlloc(f.context, CL_MEM_READ_WRITE, sizeof(cl_int *), 0));
  auto *data = static_cast<cl_int *>(
      clSVMAlloc(f.context, CL_MEM_READ_WRITE, 16 * sizeof(cl_int), 0));
  REQUIRE(table);
  REQUIRE(data);
  for (int i = 0; i < 16; ++i)
    data[i] = i;
  table[0] = data;
  cl_mem out = f.buffer(16 * sizeof(cl_int));
  REQUIRE(clSetKernelArgSVMPointer(k, 0, table) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof data,
                              &data) == CL_SUCCESS);
  expectClean(f, k, 16, 0);
  CHECK(f.readInts(out, 16)[15] == 15);
  // An SVM pointer into the middle of its allocation reaches all of it.
  REQUIRE(clSetKernelArgSVMPointer(direct, 0, data + 8) == CL_SUCCESS);
  expectClean(f, direct, 8, 0);

  clSVMFree(f.context, data);
  expectCaught(f, k, 16, 0,
               {"inside an SVM or USM allocation freed before the launch"});
  expectCaught(f, direct, 8, 0,
               {"argument 0 'p', which points at no object (into an SVM or "
                "USM allocation freed"});
  clSVMFree(f.context, table);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseKernel(direct);
}

TEST_CASE("USM allocations are objects: overruns and stale pointers caught",
          "[memory-check]") {
  WeftFixture f;
  auto device_alloc = reinterpret_cast<clDeviceMemAllocINTEL_fn>(
      clGetExtensionFunctionAddressForPlatform(f.platform,
                                               "clDeviceMemAllocINTEL"));
  auto mem_free = reinterpret_cast<clMemFreeINTEL_fn>(
      clGetExtensionFunctionAddressForPlatform(f.platform, "clMemFreeINTEL"));
  auto set_arg = reinterpret_cast<clSetKernelArgMemPointerINTEL_fn>(
      clGetExtensionFunctionAddressForPlatform(
          f.platform, "clSetKernelArgMemPointerINTEL"));
  REQUIRE(device_alloc);
  REQUIRE(mem_free);
  REQUIRE(set_arg);
  cl_kernel direct = f.kernel("kernel void direct(global int *p) {\n"
                              "  p[get_global_id(0)] += 1;\n"
                              "}",
                              "direct");
  cl_int err = CL_SUCCESS;
  auto *data = static_cast<cl_int *>(
      device_alloc(f.context, f.device, nullptr, 16 * sizeof(cl_int), 0, &err));
  REQUIRE(data);
  for (int i = 0; i < 16; ++i)
    data[i] = i;
  REQUIRE(set_arg(direct, 0, data + 4) == CL_SUCCESS);
  expectClean(f, direct, 12, 0);
  CHECK(data[15] == 16);
  expectCaught(f, direct, 13, 0, {"4 bytes past its end"});
  REQUIRE(mem_free(f.context, data) == CL_SUCCESS);
  expectCaught(f, direct, 1, 0,
               {"(into an SVM or USM allocation freed before the launch)"});
  clReleaseKernel(direct);
}

TEST_CASE("an async copy past its buffer is caught, not made",
          "[memory-check]") {
  WeftFixture f;
  // The last group copies 17 elements from 48: one past the input.
  cl_kernel k = f.kernel(
      "kernel void copy(global const int *in, global int *out,\n"
      "                 local int *tile, int count) {\n"
      "  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16,\n"
      "                                    count, 0);\n"
      "  wait_group_events(1, &e);\n"
      "  out[get_global_id(0)] = tile[get_local_id(0)];\n"
      "}",
      "copy");
  std::vector<cl_int> values(64);
  for (int i = 0; i < 64; ++i)
    values[i] = i;
  cl_mem in = f.buffer(values.size() * sizeof(cl_int), values.data());
  cl_mem out = f.buffer(64 * sizeof(cl_int));
  cl_int count = 16;
  REQUIRE(clSetKernelArg(k, 0, sizeof in, &in) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, 17 * sizeof(cl_int), nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 3, sizeof count, &count) == CL_SUCCESS);
  expectClean(f, k, 64, 16);
  CHECK(f.readInts(out, 64)[63] == 63);
  count = 17;
  REQUIRE(clSetKernelArg(k, 3, sizeof count, &count) == CL_SUCCESS);
  expectCaught(f, k, 64, 16,
               {"read 68 bytes", "outside every object the launch may reach"});
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE("image kernels run with nothing reported", "[memory-check]") {
  WeftFixture f;
  // The image builtins are inlined like the others: the description they
  // read through the argument and the texels they address are objects of
  // the launch too (an image argument was taken for a pointer to nothing).
  cl_kernel k = f.kernel(
      "kernel void k(write_only image2d_t out, read_only image2d_t in,\n"
      "              global int *width) {\n"
      "  int2 c = (int2)(get_global_id(0), get_global_id(1));\n"
      "  write_imagef(out, c, read_imagef(in, c) + 1.0f);\n"
      "  if (c.x == 0 && c.y == 0) width[0] = get_image_width(out);\n"
      "}",
      "k");
  cl_image_format format = {CL_RGBA, CL_FLOAT};
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 16;
  desc.image_height = 8;
  cl_int err;
  cl_mem out = clCreateImage(f.context, CL_MEM_READ_WRITE, &format, &desc,
                             nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem in = clCreateImage(f.context, CL_MEM_READ_WRITE, &format, &desc,
                            nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem width = f.buffer(sizeof(cl_int));
  REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof in, &in) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, sizeof width, &width) == CL_SUCCESS);
  Launch run{};
  run.report = stderrOf([&] {
    size_t global[2] = {16, 8};
    run.status = f.runAndWait(k, 2, global, nullptr);
  });
  INFO(run.report);
  CHECK(run.status == CL_SUCCESS);
  CHECK(run.report.empty());
  CHECK(f.readInts(width, 1)[0] == 16);
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  clReleaseMemObject(width);
  clReleaseKernel(k);
}
