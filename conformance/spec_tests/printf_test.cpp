// printf, from OpenCL C 3.0 §6.15.14 and the cl_arm_printf extension: every
// conversion with flags, width and precision (also '*'), the vector
// specifier, doubles printed as doubles, the return value (0, or -1 when
// the record did not fit), each work-item's output in the order of its
// calls while many work-groups print at once, a full buffer that drops
// calls without touching other memory, output on stdout before the
// command completes, and the callback context property. CTest runs the
// tests split at barriers (the default) and on fibers (WEFT_BARRIERS=fibers).
#include "api_fixture.h"

#include <CL/cl_ext.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

// Receives a context's printf output (CL_PRINTF_CALLBACK_ARM).
struct PrintfCapture {
  std::mutex mutex;
  std::string text;
  size_t calls = 0;
  bool all_complete = true;

  static void CL_CALLBACK receive(const char *buffer, size_t length,
                                  size_t complete, void *self) {
    auto *capture = static_cast<PrintfCapture *>(self);
    std::lock_guard<std::mutex> lock(capture->mutex);
    capture->text.append(buffer, length);
    ++capture->calls;
    capture->all_complete = capture->all_complete && complete;
  }
};

// The fixture's device, with a second context whose printf output goes to
// a PrintfCapture.
struct PrintfFixture : WeftFixture {
  PrintfCapture capture;
  cl_context printing = nullptr;
  cl_command_queue printing_queue = nullptr;

  void usePrintfCallback(size_t buffer_size = 0) {
    cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM,
        reinterpret_cast<cl_context_properties>(platform),
        CL_PRINTF_CALLBACK_ARM,
        reinterpret_cast<cl_context_properties>(&PrintfCapture::receive),
        buffer_size ? CL_PRINTF_BUFFERSIZE_ARM : 0,
        static_cast<cl_context_properties>(buffer_size),
        0};
    cl_int err;
    printing = clCreateContext(properties, 1, &device, nullptr, &capture, &err);
    REQUIRE(err == CL_SUCCESS);
    printing_queue =
        clCreateCommandQueueWithProperties(printing, device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    context = printing;
    queue = printing_queue;
  }
};

// The lines of `text`, counted.
std::map<std::string, int> countLines(const std::string &text) {
  std::map<std::string, int> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    ++lines[line];
  return lines;
}

// Every conversion of the spec's table beside what the host's C library
// prints for the same value (doubles as doubles, floats promoted).
const char *kConversions = R"CLC(
kernel void conversions(global int *results) {
  int i = 0;
  results[i++] = printf("[%d|%i|%+5d|%-5d|%05d|% d]\n", -42, 42, 42, 42, 42, 42);
  results[i++] = printf("[%o|%#o|%u|%x|%#X|%hhd|%hd|%ld|%lu]\n", 8, 8, 4000000000u,
                        255, 255, (char)-3, (short)-300, -9000000000L,
                        18000000000000000000UL);
  results[i++] = printf("[%f|%.3f|%10.2f|%-10.1e|%E|%g|%G|%a|%A]\n", 1.5f,
                        3.14159f, 2.5f, 12345.678f, 0.000123f, 1e-5f, 1e20f,
                        1.0f, 2.0f);
  results[i++] = printf("[%.15f|%.17g|%e]\n", 0.1, 1.0 / 3.0, 1e300);
  results[i++] = printf("[%c|%s|%10s|%-6s|%.2s|%%|%5c]\n", 'x', "str", "right",
                        "left", "cut", 'y');
  results[i++] = printf("[%*d|%-*d|%.*f|%*.*f]\n", 6, 7, 6, 7, 2, 3.14159f, 8, 3,
                        2.71828f);
  results[i++] = printf("[%v4hlf|%v2hd|%#v4hhx|%v3hld|%v2ld|%v2lf|%+v4hld]\n",
                        (float4)(1.0f, 2.5f, -3.0f, 4.25f), (short2)(-1, 2),
                        (uchar4)(1, 2, 254, 255), (int3)(1, 2, 3),
                        (long2)(-5, 6), (double2)(0.1, 0.2), (int4)(1, -2, 3, 0));
  results[i++] = printf("[%.2v8hlf|%v16hhu]\n",
                        (float8)(0.125f, 1, 2, 3, 4, 5, 6, 7),
                        (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                  14, 15));
  results[i++] = printf("[%s|%s]\n", "", "a\0b");
  results[i++] = printf("no conversions\n");
}
)CLC";

std::string expectedConversions() {
  char line[1024];
  std::string out;
  std::snprintf(line, sizeof line, "[%d|%i|%+5d|%-5d|%05d|% d]\n", -42, 42, 42,
                42, 42, 42);
  out += line;
  std::snprintf(line, sizeof line, "[%o|%#o|%u|%x|%#X|%hhd|%hd|%ld|%lu]\n", 8,
                8, 4000000000u, 255, 255, -3, -300, -9000000000L,
                18000000000000000000UL);
  out += line;
  std::snprintf(line, sizeof line, "[%f|%.3f|%10.2f|%-10.1e|%E|%g|%G|%a|%A]\n",
                1.5, double(3.14159f), 2.5, double(12345.678f),
                double(0.000123f), double(1e-5f), double(1e20f), 1.0, 2.0);
  out += line;
  std::snprintf(line, sizeof line, "[%.15f|%.17g|%e]\n", 0.1, 1.0 / 3.0, 1e300);
  out += line;
  out += "[x|str|     right|left  |cu|%|    y]\n";
  std::snprintf(line, sizeof line, "[%*d|%-*d|%.*f|%*.*f]\n", 6, 7, 6, 7, 2,
                double(3.14159f), 8, 3, double(2.71828f));
  out += line;
  out += "[1.000000,2.500000,-3.000000,4.250000|-1,2|0x1,0x2,0xfe,0xff|1,2,3|"
         "-5,6|0.100000,0.200000|+1,-2,+3,+0]\n";
  out += "[0.12,1.00,2.00,3.00,4.00,5.00,6.00,7.00|"
         "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]\n";
  out += "[|a]\n";
  out += "no conversions\n";
  return out;
}

} // namespace

TEST_CASE_METHOD(PrintfFixture,
                 "printf formats every conversion as OpenCL C defines it",
                 "[printf]") {
  usePrintfCallback();
  cl_kernel k = kernel(kConversions, "conversions", "-cl-std=CL3.0");
  int results[10];
  cl_mem out = buffer(sizeof results);
  clSetKernelArg(k, 0, sizeof out, &out);
  size_t one = 1;
  REQUIRE(runAndWait(k, 1, &one, &one) == CL_SUCCESS);
  clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof results, results, 0,
                      nullptr, nullptr);
  for (int r : results)
    CHECK(r == 0);
  CHECK(capture.text == expectedConversions());
  CHECK(capture.calls == 1); // one delivery per launch
  CHECK(capture.all_complete);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

// Each kernel prints three lines per work-item, "<step> <global id>", on
// a different execution path: the plain loop over work-items, a body with a
// loop of its own (the widening candidate), and barriers between the calls
// (regions, or fibers under WEFT_BARRIERS=fibers).
const char *kOrdered = R"CLC(
kernel void loop_path(global int *sink) {
  size_t g = get_global_id(0);
  printf("A %d\n", (int)g);
  printf("B %d\n", (int)g);
  sink[g] = printf("C %d\n", (int)g);
}
kernel void own_loop(global int *sink) {
  size_t g = get_global_id(0);
  int sum = 0;
  for (int step = 0; step < 3; ++step) {
    sum += printf("%c %d\n", 'A' + step, (int)g);
    sum += step;
  }
  sink[g] = sum;
}
kernel void with_barriers(global int *sink) {
  local int shared[256];
  size_t g = get_global_id(0), l = get_local_id(0);
  printf("A %d\n", (int)g);
  shared[l] = (int)g;
  barrier(CLK_LOCAL_MEM_FENCE);
  printf("B %d\n", (int)g);
  int other = shared[get_local_size(0) - 1 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
  sink[g] = printf("C %d\n", (int)g) + other - other;
}
)CLC";

TEST_CASE_METHOD(PrintfFixture,
                 "each work-item's output keeps its order while many groups "
                 "print at once, on every execution path",
                 "[printf]") {
  usePrintfCallback();
  const char *kernels[] = {"loop_path", "own_loop", "with_barriers"};
  constexpr size_t kItems = 4096, kGroup = 64;
  for (const char *name : kernels) {
    DYNAMIC_SECTION(name) {
      cl_kernel k = kernel(kOrdered, name, "-cl-std=CL3.0");
      cl_mem sink = buffer(kItems * sizeof(int));
      clSetKernelArg(k, 0, sizeof sink, &sink);
      capture.text.clear();
      size_t global = kItems, local = kGroup;
      REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
      // Per work-item, the position of each of its lines in the output.
      std::vector<std::vector<char>> seen(kItems);
      std::istringstream in(capture.text);
      size_t lines = 0;
      for (std::string line; std::getline(in, line); ++lines) {
        char step;
        size_t g;
        REQUIRE(std::sscanf(line.c_str(), "%c %zu", &step, &g) == 2);
        REQUIRE(g < kItems);
        seen[g].push_back(step);
      }
      CHECK(lines == 3 * kItems);
      size_t in_order = 0;
      for (const std::vector<char> &steps : seen)
        in_order += steps == std::vector<char>{'A', 'B', 'C'};
      CHECK(in_order == kItems);
      std::vector<int> results(kItems);
      clEnqueueReadBuffer(queue, sink, CL_TRUE, 0, kItems * sizeof(int),
                          results.data(), 0, nullptr, nullptr);
      int expected = std::string(name) == "own_loop" ? 3 : 0;
      size_t right = 0;
      for (int r : results)
        right += r == expected;
      CHECK(right == kItems);
      clReleaseMemObject(sink);
      clReleaseKernel(k);
    }
  }
}

const char *kFlood = R"CLC(
kernel void flood(global int *results, global int *guard) {
  size_t g = get_global_id(0);
  results[g] = printf("work-item %4d says hello\n", (int)g);
  guard[g] = 7;
}
)CLC";

TEST_CASE_METHOD(PrintfFixture,
                 "a full printf buffer drops whole calls, returns -1 for them "
                 "and touches no other memory",
                 "[printf]") {
  // Each record: a 16-byte header, the int (8 + 8): 32 bytes. A buffer of
  // 512 bytes gets 8 record bytes per byte (runtime/kernel.cpp): 4096 bytes
  // hold 128 records.
  usePrintfCallback(512);
  cl_kernel k = kernel(kFlood, "flood", "-cl-std=CL3.0");
  constexpr size_t kItems = 1000;
  std::vector<int> results(kItems, 99), guard(kItems, 0);
  cl_mem results_buffer = buffer(kItems * sizeof(int), results.data());
  cl_mem guard_buffer = buffer(kItems * sizeof(int), guard.data());
  clSetKernelArg(k, 0, sizeof results_buffer, &results_buffer);
  clSetKernelArg(k, 1, sizeof guard_buffer, &guard_buffer);
  size_t global = kItems, local = 50;
  REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
  clEnqueueReadBuffer(queue, results_buffer, CL_TRUE, 0, kItems * sizeof(int),
                      results.data(), 0, nullptr, nullptr);
  clEnqueueReadBuffer(queue, guard_buffer, CL_TRUE, 0, kItems * sizeof(int),
                      guard.data(), 0, nullptr, nullptr);
  size_t printed = 0, dropped = 0, guarded = 0;
  for (size_t i = 0; i < kItems; ++i) {
    printed += results[i] == 0;
    dropped += results[i] == -1;
    guarded += guard[i] == 7;
  }
  CHECK(printed == 128);
  CHECK(dropped == kItems - 128);
  CHECK(guarded == kItems);
  std::map<std::string, int> lines = countLines(capture.text);
  size_t total = 0;
  for (auto &[line, count] : lines) {
    CHECK(count == 1);
    CHECK(line.rfind("work-item ", 0) == 0);
    total += count;
  }
  CHECK(total == printed);
  CHECK_FALSE(capture.all_complete);
  clReleaseMemObject(results_buffer);
  clReleaseMemObject(guard_buffer);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(PrintfFixture,
                 "printf output is on stdout when the command completes",
                 "[printf]") {
  cl_kernel k = kernel(
      "kernel void hello(global int *r) { r[get_global_id(0)] = "
      "printf(\"hello from %d, %s\\n\", (int)get_global_id(0), \"weft\"); }",
      "hello", "-cl-std=CL3.0");
  cl_mem out = buffer(4 * sizeof(int));
  clSetKernelArg(k, 0, sizeof out, &out);
  char path[] = "/tmp/weft-printf-XXXXXX";
  int file = mkstemp(path);
  REQUIRE(file >= 0);
  std::fflush(stdout);
  int saved = dup(STDOUT_FILENO);
  dup2(file, STDOUT_FILENO);
  size_t global = 4;
  cl_event done;
  REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0,
                                 nullptr, &done) == CL_SUCCESS);
  clWaitForEvents(1, &done);
  // Read while stdout still points at the file: nothing more comes later.
  std::string text;
  char chunk[256];
  lseek(file, 0, SEEK_SET);
  for (ssize_t n; (n = read(file, chunk, sizeof chunk)) > 0;)
    text.append(chunk, n);
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  close(file);
  unlink(path);
  std::map<std::string, int> lines = countLines(text);
  CHECK(lines.size() == 4);
  for (int i = 0; i < 4; ++i)
    CHECK(lines["hello from " + std::to_string(i) + ", weft"] == 1);
  clReleaseEvent(done);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(PrintfFixture,
                 "formats the host could not print fail the build with a "
                 "log that says why",
                 "[printf]") {
  struct Case {
    const char *source;
    const char *log;
  } cases[] = {
      {"kernel void k(global int *x) { printf(\"%n\", x); }", "%n"},
      {"kernel void k(global char *s) { printf(\"%s\", s); }",
       "not a string literal"},
      {"kernel void k(global int *x) { printf(\"%d %d\", 1); }",
       "more conversions than arguments"},
      {"kernel void k(global float *x) { printf(\"%v4hlf\", vload2(0, x)); }",
       "takes a vector of 16 bytes, has 8 bytes"},
      {"kernel void k(global int *x) { printf(\"%d\", vload4(0, x)); }",
       "a vector needs a vector specifier"},
  };
  for (const Case &c : cases) {
    cl_program program;
    std::string log;
    CHECK(build(c.source, program, log, "-cl-std=CL3.0") ==
          CL_BUILD_PROGRAM_FAILURE);
    INFO(log);
    CHECK(log.find(c.log) != std::string::npos);
    clReleaseProgram(program);
  }
}

TEST_CASE_METHOD(PrintfFixture,
                 "the cl_arm_printf context properties are checked",
                 "[printf]") {
  auto create = [&](cl_context_properties name, cl_context_properties value) {
    cl_context_properties properties[] = {name, value, 0};
    cl_int err;
    cl_context c =
        clCreateContext(properties, 1, &device, nullptr, nullptr, &err);
    if (c)
      clReleaseContext(c);
    return err;
  };
  CHECK(create(CL_PRINTF_CALLBACK_ARM, 0) == CL_INVALID_PROPERTY);
  CHECK(create(CL_PRINTF_BUFFERSIZE_ARM, 0) == CL_INVALID_PROPERTY);
  CHECK(create(CL_PRINTF_BUFFERSIZE_ARM, -1) == CL_INVALID_PROPERTY);
  CHECK(create(CL_PRINTF_BUFFERSIZE_ARM, 1 << 16) == CL_SUCCESS);
  size_t size = 0;
  clGetDeviceInfo(device, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof size, &size,
                  nullptr);
  CHECK(size >= 1024 * 1024);
  size_t length = 0;
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &length);
  std::string extensions(length, '\0');
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, length, extensions.data(),
                  nullptr);
  CHECK(extensions.find("cl_arm_printf") != std::string::npos);
}
