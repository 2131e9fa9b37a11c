// Kernels compiled on first use (runtime/program_executable.h): a program of
// several kernels that share no variable is built without native code, and
// each kernel's part is compiled when a launch or a query first needs it.
// Such kernels must behave as if the build had compiled them: frame sizes
// answered before any launch, image format variants found, clones and
// clCreateKernelsInProgram, first uses on several threads at once, binaries
// holding every kernel. The [deferred-cache-*] cases run as two processes
// on a cache of their own (tests/CMakeLists.txt): the second finds the
// kernel the first used compiled in the cache, and the other still bitcode.
#include "api_fixture.h"

#include <fstream>
#include <iterator>
#include <thread>

namespace {

const char *kProgram =
    "kernel void add_one(global int *p) { p[get_global_id(0)] += 1; }\n"
    "kernel void private_table(global const int *in, global int *out) {\n"
    "  int table[1024];\n"
    "  for (int i = 0; i < 1024; ++i)\n"
    "    table[i] = in[i % 64] + i;\n"
    "  out[get_global_id(0)] = table[(in[get_global_id(0)] * 37) & 1023];\n"
    "}\n"
    "kernel void group_sum(global const int *in, global int *out,\n"
    "                      local int *scratch) {\n"
    "  size_t l = get_local_id(0);\n"
    "  scratch[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
    "    if (l < s) scratch[l] += scratch[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = scratch[0];\n"
    "}\n"
    "kernel void image_row(read_only image2d_t image, global float4 *out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  out[y * get_image_width(image) + x] = read_imagef(image, (int2)(x, "
    "y));\n"
    "}\n";

constexpr size_t kItems = 64;

struct Runner {
  WeftFixture &f;
  cl_command_queue queue;

  std::vector<int> input() const {
    std::vector<int> in(kItems);
    for (size_t i = 0; i < kItems; ++i)
      in[i] = static_cast<int>(i * 7 + 3);
    return in;
  }

  std::vector<int> read(cl_mem m, size_t count) {
    std::vector<int> out(count);
    REQUIRE(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * sizeof(int),
                                out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    return out;
  }

  void launch(cl_kernel k, cl_uint dims, const size_t *global,
              const size_t *local) {
    REQUIRE(clEnqueueNDRangeKernel(queue, k, dims, nullptr, global, local, 0,
                                   nullptr, nullptr) == CL_SUCCESS);
  }

  void addOne(cl_kernel k) {
    std::vector<int> in = input();
    cl_mem data = f.buffer(kItems * sizeof(int), in.data());
    REQUIRE(clSetKernelArg(k, 0, sizeof data, &data) == CL_SUCCESS);
    size_t global = kItems;
    launch(k, 1, &global, nullptr);
    std::vector<int> got = read(data, kItems);
    for (size_t i = 0; i < kItems; ++i)
      REQUIRE(got[i] == in[i] + 1);
    clReleaseMemObject(data);
  }

  void privateTable(cl_kernel k) {
    std::vector<int> in = input();
    cl_mem source = f.buffer(kItems * sizeof(int), in.data());
    cl_mem out = f.buffer(kItems * sizeof(int));
    REQUIRE(clSetKernelArg(k, 0, sizeof source, &source) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof out, &out) == CL_SUCCESS);
    size_t global = kItems;
    launch(k, 1, &global, nullptr);
    std::vector<int> got = read(out, kItems);
    for (size_t i = 0; i < kItems; ++i) {
      int index = (in[i] * 37) & 1023;
      REQUIRE(got[i] == in[static_cast<size_t>(index) % 64] + index);
    }
    clReleaseMemObject(source);
    clReleaseMemObject(out);
  }

  void groupSum(cl_kernel k) {
    std::vector<int> in = input();
    cl_mem source = f.buffer(kItems * sizeof(int), in.data());
    cl_mem out = f.buffer(4 * sizeof(int));
    REQUIRE(clSetKernelArg(k, 0, sizeof source, &source) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof out, &out) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, 16 * sizeof(int), nullptr) == CL_SUCCESS);
    size_t global = kItems, local = 16;
    launch(k, 1, &global, &local);
    std::vector<int> got = read(out, 4);
    for (size_t g = 0; g < 4; ++g) {
      int want = 0;
      for (size_t i = 0; i < 16; ++i)
        want += in[g * 16 + i];
      REQUIRE(got[g] == want);
    }
    clReleaseMemObject(source);
    clReleaseMemObject(out);
  }

  // An RGBA unorm8 image, a format the compiler makes a variant for.
  void imageRow(cl_kernel k) {
    constexpr size_t kWidth = 8, kHeight = 2;
    std::vector<unsigned char> texels(kWidth * kHeight * 4);
    for (size_t i = 0; i < texels.size(); ++i)
      texels[i] = static_cast<unsigned char>(i * 5);
    cl_image_format format{CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = kWidth;
    desc.image_height = kHeight;
    cl_int err;
    cl_mem image =
        clCreateImage(f.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                      &format, &desc, texels.data(), &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem out = f.buffer(texels.size() * sizeof(float));
    REQUIRE(clSetKernelArg(k, 0, sizeof image, &image) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof out, &out) == CL_SUCCESS);
    size_t global[2] = {kWidth, kHeight};
    launch(k, 2, global, nullptr);
    std::vector<float> got(texels.size());
    REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0,
                                got.size() * sizeof(float), got.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    for (size_t i = 0; i < texels.size(); ++i)
      REQUIRE(got[i] == Approx(texels[i] / 255.0f).margin(1e-6));
    clReleaseMemObject(image);
    clReleaseMemObject(out);
  }

  void run(cl_kernel k, const std::string &name) {
    if (name == "add_one")
      addOne(k);
    else if (name == "private_table")
      privateTable(k);
    else if (name == "group_sum")
      groupSum(k);
    else
      imageRow(k);
  }
};

const char *kKernels[] = {"add_one", "private_table", "group_sum", "image_row"};

cl_program buildProgram(WeftFixture &f) {
  cl_program program;
  std::string log;
  cl_int status = f.build(kProgram, program, log);
  INFO(log);
  REQUIRE(status == CL_SUCCESS);
  return program;
}

cl_kernel create(cl_program program, const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(program, name, &err);
  REQUIRE(err == CL_SUCCESS);
  return k;
}

bool compilerLoaded() {
  std::ifstream maps("/proc/self/maps");
  std::string text((std::istreambuf_iterator<char>(maps)),
                   std::istreambuf_iterator<char>());
  return text.find("libweft-compiler.so") != std::string::npos;
}

} // namespace

TEST_CASE_METHOD(
    WeftFixture,
    "kernels compiled on first use behave as compiled by the build",
    "[api][deferred]") {
  cl_program program = buildProgram(*this);
  Runner runner{*this, queue};

  // What only the code knows, asked before any launch.
  cl_kernel table = create(program, "private_table");
  cl_ulong private_bytes = 0;
  REQUIRE(clGetKernelWorkGroupInfo(table, device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                   sizeof private_bytes, &private_bytes,
                                   nullptr) == CL_SUCCESS);
  CHECK(private_bytes >= 1024 * sizeof(int));
  cl_kernel sum = create(program, "group_sum");
  size_t group_limit = 0;
  REQUIRE(clGetKernelWorkGroupInfo(sum, device, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof group_limit, &group_limit,
                                   nullptr) == CL_SUCCESS);
  CHECK(group_limit >= 16);

  // A clone made before the first use runs the same code.
  cl_int err;
  cl_kernel image = create(program, "image_row");
  cl_kernel image_clone = clCloneKernel(image, &err);
  REQUIRE(err == CL_SUCCESS);
  runner.run(image_clone, "image_row");
  runner.run(image, "image_row");
  runner.run(table, "private_table");
  runner.run(sum, "group_sum");
  for (cl_kernel k : {table, sum, image, image_clone})
    clReleaseKernel(k);

  // All kernels of a second build, created at once, each run.
  cl_program again = buildProgram(*this);
  cl_kernel all[4];
  cl_uint count = 0;
  REQUIRE(clCreateKernelsInProgram(again, 4, all, &count) == CL_SUCCESS);
  REQUIRE(count == 4);
  for (cl_kernel k : all) {
    char name[64] = {};
    REQUIRE(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name,
                            nullptr) == CL_SUCCESS);
    runner.run(k, name);
    clReleaseKernel(k);
  }
  clReleaseProgram(again);
  clReleaseProgram(program);
}

TEST_CASE_METHOD(WeftFixture,
                 "kernels of one program first used on several threads at once",
                 "[api][deferred]") {
  cl_program program = buildProgram(*this);
  std::vector<std::thread> threads;
  std::vector<cl_command_queue> queues;
  for (const char *name : kKernels) {
    cl_int err;
    queues.push_back(
        clCreateCommandQueueWithProperties(context, device, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
  }
  // Catch's assertions are not thread-safe: each thread records a failure,
  // and the main thread checks them.
  std::vector<std::string> failures(std::size(kKernels));
  for (size_t i = 0; i < std::size(kKernels); ++i)
    threads.emplace_back([&, i] {
      cl_int err;
      cl_kernel k = clCreateKernel(program, kKernels[i], &err);
      if (err != CL_SUCCESS) {
        failures[i] = "clCreateKernel failed";
        return;
      }
      // Only the launch is raced: it compiles the kernel's part.
      size_t global = 1;
      cl_mem scratch =
          clCreateBuffer(context, CL_MEM_READ_WRITE, 4096, nullptr, &err);
      if (std::string(kKernels[i]) != "image_row") {
        for (cl_uint a = 0; a < 2; ++a)
          clSetKernelArg(k, a, sizeof scratch, &scratch);
        if (std::string(kKernels[i]) == "group_sum")
          clSetKernelArg(k, 2, sizeof(int), nullptr);
        err = clEnqueueNDRangeKernel(queues[i], k, 1, nullptr, &global, nullptr,
                                     0, nullptr, nullptr);
        if (err == CL_SUCCESS)
          err = clFinish(queues[i]);
        if (err != CL_SUCCESS)
          failures[i] = "launch failed: " + std::to_string(err);
      } else {
        cl_ulong bytes = 0;
        err = clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                       sizeof bytes, &bytes, nullptr);
        if (err != CL_SUCCESS || bytes == 0)
          failures[i] = "no private memory size";
      }
      clReleaseMemObject(scratch);
      clReleaseKernel(k);
    });
  for (std::thread &t : threads)
    t.join();
  for (const std::string &failure : failures)
    CHECK(failure.empty());
  // Then each gives the right results.
  for (size_t i = 0; i < std::size(kKernels); ++i) {
    cl_kernel k = create(program, kKernels[i]);
    Runner{*this, queues[i]}.run(k, kKernels[i]);
    clReleaseKernel(k);
    clReleaseCommandQueue(queues[i]);
  }
  clReleaseProgram(program);
}

TEST_CASE_METHOD(
    WeftFixture,
    "the binary of a program compiled on first use has all kernels",
    "[api][deferred]") {
  cl_program program = buildProgram(*this);
  Runner runner{*this, queue};
  cl_kernel add = create(program, "add_one");
  runner.run(add, "add_one");
  clReleaseKernel(add);
  size_t size = 0;
  REQUIRE(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size,
                           nullptr) == CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char *destination = binary.data();
  REQUIRE(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof destination,
                           &destination, nullptr) == CL_SUCCESS);
  clReleaseProgram(program);

  const unsigned char *pointer = binary.data();
  cl_int status, err;
  cl_program loaded = clCreateProgramWithBinary(context, 1, &device, &size,
                                                &pointer, &status, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clBuildProgram(loaded, 1, &device, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  for (const char *name : kKernels) {
    cl_kernel k = create(loaded, name);
    runner.run(k, name);
    clReleaseKernel(k);
  }
  clReleaseProgram(loaded);
}

// Step 1 of 2 (own process, fresh cache): builds, and uses one kernel.
TEST_CASE_METHOD(WeftFixture, "a kernel compiled on first use is cached",
                 "[deferred-cache-fill]") {
  cl_program program = buildProgram(*this);
  cl_kernel add = create(program, "add_one");
  Runner{*this, queue}.run(add, "add_one");
  clReleaseKernel(add);
  clReleaseProgram(program);
}

// Step 2: the build comes from the cache with add_one compiled; the other
// kernels are compiled (loading the compiler) when first used.
TEST_CASE_METHOD(WeftFixture,
                 "a cached program keeps the kernels it compiled on first use",
                 "[deferred-cache-warm]") {
  cl_program program = buildProgram(*this);
  Runner runner{*this, queue};
  cl_kernel add = create(program, "add_one");
  runner.run(add, "add_one");
  CHECK_FALSE(compilerLoaded());
  cl_kernel sum = create(program, "group_sum");
  runner.run(sum, "group_sum");
  CHECK(compilerLoaded());
  clReleaseKernel(add);
  clReleaseKernel(sum);
  clReleaseProgram(program);
}
