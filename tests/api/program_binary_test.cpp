// Program binaries and the on-disk cache: a built program gives its binary
// back, the binary builds again without compiling, damaged binaries are
// refused, and a cached build or a binary never loads the compiler library.
// The [cache-*] and [no-compiler] cases run as separate processes in order
// (tests/CMakeLists.txt): the first writes WEFT_TEST_BINARY_PATH.
#include "api_fixture.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace {

const char *kScaleSource =
    "kernel void scale(global int *data, int factor) {\n"
    "  size_t i = get_global_id(0);\n"
    "  data[i] = data[i] * factor + (int)i;\n"
    "}\n";

std::vector<unsigned char> programBinary(cl_program program) {
  size_t size = 0;
  REQUIRE(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size),
                           &size, nullptr) == CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char *destination = binary.data();
  REQUIRE(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(destination),
                           &destination, nullptr) == CL_SUCCESS);
  return binary;
}

// Runs scale() of a built program on 64 ints and checks every result.
void checkScaleRuns(WeftFixture &f, cl_program program) {
  cl_int err;
  cl_kernel kernel = clCreateKernel(program, "scale", &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<int> data(64);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<int>(i) - 7;
  cl_mem buffer = f.buffer(data.size() * sizeof(int), data.data());
  int factor = 3;
  REQUIRE(clSetKernelArg(kernel, 0, sizeof(buffer), &buffer) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(kernel, 1, sizeof(factor), &factor) == CL_SUCCESS);
  size_t global = data.size();
  REQUIRE(clEnqueueNDRangeKernel(f.queue, kernel, 1, nullptr, &global, nullptr,
                                 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<int> out(data.size());
  REQUIRE(clEnqueueReadBuffer(f.queue, buffer, CL_TRUE, 0,
                              out.size() * sizeof(int), out.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  for (size_t i = 0; i < out.size(); ++i)
    REQUIRE(out[i] == data[i] * factor + static_cast<int>(i));
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
}

cl_program fromBinary(WeftFixture &f, const std::vector<unsigned char> &binary,
                      cl_int &status, cl_int &err) {
  const unsigned char *pointer = binary.data();
  size_t length = binary.size();
  status = CL_SUCCESS;
  return clCreateProgramWithBinary(f.context, 1, &f.device, &length, &pointer,
                                   &status, &err);
}

bool compilerLoaded() {
  std::ifstream maps("/proc/self/maps");
  std::string text((std::istreambuf_iterator<char>(maps)),
                   std::istreambuf_iterator<char>());
  return text.find("libweft-compiler.so") != std::string::npos;
}

std::string binaryPath() {
  const char *path = std::getenv("WEFT_TEST_BINARY_PATH");
  REQUIRE(path != nullptr);
  return path;
}

} // namespace

TEST_CASE_METHOD(WeftFixture, "a program binary builds and runs again",
                 "[api][binary]") {
  cl_program program;
  std::string log;
  REQUIRE(build(kScaleSource, program, log) == CL_SUCCESS);
  std::vector<unsigned char> binary = programBinary(program);
  REQUIRE(binary.size() > 64);
  clReleaseProgram(program);

  cl_int status, err;
  cl_program loaded = fromBinary(*this, binary, status, err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(status == CL_SUCCESS);
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
  REQUIRE(clGetProgramBuildInfo(loaded, device, CL_PROGRAM_BINARY_TYPE,
                                sizeof(type), &type, nullptr) == CL_SUCCESS);
  CHECK(type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  // Kernels exist only after clBuildProgram, also for binaries.
  cl_kernel early = clCreateKernel(loaded, "scale", &err);
  CHECK(early == nullptr);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
  REQUIRE(clBuildProgram(loaded, 1, &device, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  checkScaleRuns(*this, loaded);
  CHECK(programBinary(loaded) == binary);
  clReleaseProgram(loaded);
}

TEST_CASE_METHOD(WeftFixture, "damaged binaries are refused", "[api][binary]") {
  cl_program program;
  std::string log;
  REQUIRE(build(kScaleSource, program, log) == CL_SUCCESS);
  std::vector<unsigned char> good = programBinary(program);
  clReleaseProgram(program);

  std::vector<std::vector<unsigned char>> damaged;
  damaged.push_back({good.begin(), good.begin() + 16}); // truncated header
  damaged.push_back({good.begin(), good.end() - 1});    // truncated payload
  for (size_t at : {size_t{2}, size_t{40}, good.size() / 2, good.size() - 3}) {
    damaged.push_back(good);
    damaged.back()[at] ^= 0x20; // one flipped bit anywhere
  }
  damaged.push_back(std::vector<unsigned char>(good.size(), 0xab)); // garbage
  for (const auto &binary : damaged) {
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program bad = fromBinary(*this, binary, status, err);
    CHECK(bad == nullptr);
    CHECK(err == CL_INVALID_BINARY);
    CHECK(status == CL_INVALID_BINARY);
  }

  // Missing pieces are CL_INVALID_VALUE.
  const unsigned char *pointer = good.data();
  size_t zero = 0, length = good.size();
  cl_int status, err;
  CHECK(clCreateProgramWithBinary(context, 1, &device, &zero, &pointer, &status,
                                  &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  const unsigned char *null_binary = nullptr;
  CHECK(clCreateProgramWithBinary(context, 1, &device, &length, &null_binary,
                                  &status, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBinary(context, 0, &device, &length, &pointer,
                                  &status, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
}

// Step 1 of 3 (own process, fresh WEFT_CACHE_DIR): compiles, which fills the
// cache, and saves the binary for the no-compiler step.
TEST_CASE_METHOD(WeftFixture, "a build from source fills the cache",
                 "[cache-fill]") {
  cl_program program;
  std::string log;
  REQUIRE(build(kScaleSource, program, log) == CL_SUCCESS);
  CHECK(compilerLoaded());
  std::vector<unsigned char> binary = programBinary(program);
  std::ofstream out(binaryPath(), std::ios::binary);
  out.write(reinterpret_cast<const char *>(binary.data()),
            static_cast<std::streamsize>(binary.size()));
  REQUIRE(out.good());
  clReleaseProgram(program);
}

// Step 2: the same build in a new process comes from the cache.
TEST_CASE_METHOD(WeftFixture, "a cached build does not load the compiler",
                 "[cache-warm]") {
  cl_program program;
  std::string log;
  REQUIRE(build(kScaleSource, program, log) == CL_SUCCESS);
  checkScaleRuns(*this, program);
  CHECK_FALSE(compilerLoaded());
  clReleaseProgram(program);
  // A different source still compiles (and now loads the compiler).
  REQUIRE(build("kernel void other(global int *p) { p[0] = 1; }", program,
                log) == CL_SUCCESS);
  CHECK(compilerLoaded());
  clReleaseProgram(program);
}

// Step 3 (run with the compiler library missing): the saved binary runs.
TEST_CASE_METHOD(WeftFixture, "a binary runs without the compiler library",
                 "[no-compiler]") {
  std::ifstream in(binaryPath(), std::ios::binary);
  std::vector<unsigned char> binary((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
  REQUIRE(!binary.empty());
  cl_int status, err;
  cl_program program = fromBinary(*this, binary, status, err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  checkScaleRuns(*this, program);
  CHECK_FALSE(compilerLoaded());
  clReleaseProgram(program);
}

TEST_CASE_METHOD(WeftFixture, "programs loaded at the same time keep their own code",
                 "[api][binary]") {
  // Same kernel name, different code: each program must run its own.
  std::vector<cl_kernel> kernels;
  for (int value = 1; value <= 4; ++value) {
    std::string source = "kernel void k(global int *p) { p[0] = " +
                         std::to_string(value) + "; }";
    kernels.push_back(kernel(source.c_str(), "k"));
  }
  cl_mem out = buffer(sizeof(int));
  for (int value = 1; value <= 4; ++value) {
    cl_kernel k = kernels[static_cast<size_t>(value - 1)];
    REQUIRE(clSetKernelArg(k, 0, sizeof(out), &out) == CL_SUCCESS);
    REQUIRE(clEnqueueTask(queue, k, 0, nullptr, nullptr) == CL_SUCCESS);
    int result = 0;
    REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(int), &result, 0,
                                nullptr, nullptr) == CL_SUCCESS);
    CHECK(result == value);
  }
  for (cl_kernel k : kernels)
    clReleaseKernel(k);
  clReleaseMemObject(out);
}

TEST_CASE_METHOD(WeftFixture, "separate compilation: headers, objects, libraries",
                 "[api][binary]") {
  auto source = [this](const char *text) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    return p;
  };
  cl_program header = source("#define TWICE(x) ((x) * 2)\n");
  cl_program helper = source("#include \"lib/twice.h\"\n"
                             "int twice(int x) { return TWICE(x); }\n");
  cl_program main_unit = source("int twice(int x);\n"
                                "kernel void k(global int *p) {\n"
                                "  p[get_global_id(0)] = twice(p[get_global_id(0)]);\n"
                                "}\n");
  const char *name = "lib/twice.h";
  REQUIRE(clCompileProgram(helper, 1, &device, "", 1, &header, &name, nullptr,
                           nullptr) == CL_SUCCESS);
  REQUIRE(clCompileProgram(main_unit, 1, &device, "", 0, nullptr, nullptr,
                           nullptr, nullptr) == CL_SUCCESS);
  cl_program_binary_type type;
  clGetProgramBuildInfo(helper, device, CL_PROGRAM_BINARY_TYPE, sizeof(type),
                        &type, nullptr);
  CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_int err;
  // Without the header the helper does not compile, with a log.
  cl_program lonely = source("#include \"lib/twice.h\"\nint f(int x) { return TWICE(x); }\n");
  CHECK(clCompileProgram(lonely, 1, &device, "", 0, nullptr, nullptr, nullptr,
                         nullptr) == CL_COMPILE_PROGRAM_FAILURE);
  clReleaseProgram(lonely);

  // A library made of the helper, then linked with the kernel's object,
  // whose binary went through clCreateProgramWithBinary on the way.
  cl_program library = clLinkProgram(context, 1, &device, "-create-library", 1,
                                     &helper, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  clGetProgramBuildInfo(library, device, CL_PROGRAM_BINARY_TYPE, sizeof(type),
                        &type, nullptr);
  CHECK(type == CL_PROGRAM_BINARY_TYPE_LIBRARY);
  std::vector<unsigned char> object_binary = programBinary(main_unit);
  cl_int status;
  cl_program reloaded = fromBinary(*this, object_binary, status, err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clBuildProgram(reloaded, 1, &device, nullptr, nullptr, nullptr) ==
        CL_INVALID_BINARY);
  cl_program inputs[2] = {reloaded, library};
  cl_program linked =
      clLinkProgram(context, 1, &device, "", 2, inputs, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_kernel k = clCreateKernel(linked, "k", &err);
  REQUIRE(err == CL_SUCCESS);
  int values[4] = {1, 2, 3, 4};
  cl_mem data = buffer(sizeof(values), values);
  REQUIRE(clSetKernelArg(k, 0, sizeof(data), &data) == CL_SUCCESS);
  size_t global = 4;
  REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(queue, data, CL_TRUE, 0, sizeof(values), values,
                              0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(values[0] == 2);
  CHECK(values[3] == 8);

  // An unresolved function fails the link but still returns a program
  // whose log explains; bad options and uncompiled inputs are refused.
  cl_program failed = clLinkProgram(context, 1, &device, "", 1, &main_unit,
                                    nullptr, nullptr, &err);
  CHECK(err == CL_LINK_PROGRAM_FAILURE);
  REQUIRE(failed != nullptr);
  char log[4096] = {};
  clGetProgramBuildInfo(failed, device, CL_PROGRAM_BUILD_LOG, sizeof(log), log,
                        nullptr);
  CHECK(std::string(log).find("twice") != std::string::npos);
  CHECK(clLinkProgram(context, 1, &device, "-no-such-option", 1, &helper,
                      nullptr, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_LINKER_OPTIONS);
  CHECK(clLinkProgram(context, 1, &device, "", 1, &header, nullptr, nullptr,
                      &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);

  clReleaseProgram(failed);
  clReleaseMemObject(data);
  clReleaseKernel(k);
  for (cl_program p : {linked, reloaded, library, main_unit, helper, header})
    clReleaseProgram(p);
}
