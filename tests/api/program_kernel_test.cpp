// Programs and kernels: builds that fail, argument checks, and launches in
// 1-3 dimensions with offsets, by-value structs and vectors, local memory
// and barriers.
#include "api_fixture.h"

#include <vector>

#include <cstdint>

TEST_CASE_METHOD(WeftFixture, "a source with errors fails with a build log",
                 "[api][compiler]") {
  cl_program program;
  std::string log;
  CHECK(build("kernel void broken(global int *p) { p[0] = undeclared; }",
              program, log) == CL_BUILD_PROGRAM_FAILURE);
  CHECK(log.find("undeclared") != std::string::npos);
  cl_build_status status;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS,
                        sizeof(status), &status, nullptr);
  CHECK(status == CL_BUILD_ERROR);
  cl_int err;
  CHECK(clCreateKernel(program, "broken", &err) == nullptr);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(program);

  CHECK(build("kernel void k() {}", program, log, "-cl-no-such-option") ==
        CL_INVALID_BUILD_OPTIONS);
  clReleaseProgram(program);
  // A function declared but defined nowhere is named in the log.
  CHECK(build("void nowhere(global int *p);\n"
              "kernel void k(global int *p) { nowhere(p); }",
              program, log) == CL_BUILD_PROGRAM_FAILURE);
  CHECK(log.find("nowhere") != std::string::npos);
  clReleaseProgram(program);
  // Recursion, which OpenCL C forbids (and which would outgrow any stack
  // sized from the frames), is a build error naming the function.
  CHECK(build("int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 1); }\n"
              "kernel void k(global int *p) { p[0] = depth(p[0]); }",
              program, log) == CL_BUILD_PROGRAM_FAILURE);
  CHECK(log.find("'depth' is recursive") != std::string::npos);
  clReleaseProgram(program);
  CHECK(build("int ping(int n);\n"
              "int pong(int n) { return n > 0 ? ping(n - 1) : 0; }\n"
              "int ping(int n) { return n > 0 ? pong(n - 1) : 1; }\n"
              "kernel void k(global int *p) { p[0] = ping(p[0]); }",
              program, log) == CL_BUILD_PROGRAM_FAILURE);
  CHECK(log.find("is recursive") != std::string::npos);
  clReleaseProgram(program);
}

TEST_CASE_METHOD(WeftFixture, "kernels calling kernels and helpers",
                 "[api][compiler]") {
  // An unused helper with work-item calls, a kernel called from a kernel,
  // and the platform's OpenCL version macro.
  const char *source =
      "void unused_helper(global int *p) { p[get_global_id(0)] = 0; }\n"
      "kernel void callee(global int *p) { p[get_global_id(0)] += 2; }\n"
      "kernel void caller(global int *p) {\n"
      "  p[get_global_id(0)] = __OPENCL_VERSION__;\n"
      "  callee(p);\n"
      "}\n";
  cl_kernel k = kernel(source, "caller");
  int values[8] = {};
  cl_mem out = buffer(sizeof(values), values);
  REQUIRE(clSetKernelArg(k, 0, sizeof(out), &out) == CL_SUCCESS);
  size_t global = 8;
  REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(values), values, 0,
                              nullptr, nullptr) == CL_SUCCESS);
  for (int v : values)
    CHECK(v == 302);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "argument names only with -cl-kernel-arg-info",
                 "[api]") {
  // The spec makes argument information available with the option; the
  // names, which no driver needs, are refused without it (piglit's
  // api@clgetkernelarginfo). The qualifiers stay available either way.
  const char *source = "kernel void k(global int *out, int count) {}";
  char name[32] = {};
  size_t size = 0;
  cl_kernel plain = kernel(source, "k");
  CHECK(clGetKernelArgInfo(plain, 1, CL_KERNEL_ARG_NAME, sizeof(name), name,
                           &size) == CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  cl_kernel_arg_address_qualifier space = 0;
  CHECK(clGetKernelArgInfo(plain, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                           sizeof(space), &space, nullptr) == CL_SUCCESS);
  CHECK(space == CL_KERNEL_ARG_ADDRESS_GLOBAL);
  cl_kernel with_info = kernel(source, "k", "-cl-std=CL1.2 -cl-kernel-arg-info");
  REQUIRE(clGetKernelArgInfo(with_info, 1, CL_KERNEL_ARG_NAME, sizeof(name),
                             name, &size) == CL_SUCCESS);
  CHECK(std::string(name) == "count");
  CHECK(size == 6);
  clReleaseKernel(plain);
  clReleaseKernel(with_info);
}

TEST_CASE_METHOD(WeftFixture, "denormals flushed with -cl-denorms-are-zero",
                 "[api]") {
  // piglit's amdgcn-f32-inline-immediates "add integer 64": 0 plus the
  // denormal 64 * 2^-149 is 0 with the option and that denormal without.
  // The same on the work-item loop, across a barrier (regions or fibers)
  // and on the large-stack path; and the thread's own mode comes back.
  const char *source = R"(
    kernel void plain(global float *out, global const float *in) {
      int id = get_global_id(0);
      out[id] = in[id] + as_float((int)64);
    }
    kernel void across_barrier(global float *out, global const float *in) {
      local float shared[8];
      int id = get_global_id(0), lid = get_local_id(0);
      shared[lid] = in[id];
      barrier(CLK_LOCAL_MEM_FENCE);
      out[id] = shared[7 - lid] + as_float((int)64);
    }
    kernel void large_stack(global float *out, global const float *in) {
      volatile float big[65536];
      int id = get_global_id(0);
      big[id * 1000] = in[id];
      out[id] = big[id * 1000] + as_float((int)64);
    })";
  std::vector<float> zeros(8, 0.0f);
  cl_mem in = buffer(zeros.size() * sizeof(float), zeros.data());
  cl_mem out = buffer(zeros.size() * sizeof(float), zeros.data());
  unsigned denormal_bits = 64;
  for (const char *options : {"", "-cl-denorms-are-zero"}) {
    bool flushed = *options != 0;
    for (const char *name : {"plain", "across_barrier", "large_stack"}) {
      INFO(name << " with options '" << options << "'");
      cl_kernel k = kernel(source, name, options);
      REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
      REQUIRE(clSetKernelArg(k, 1, sizeof in, &in) == CL_SUCCESS);
      size_t global = 8, local = 8;
      REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0,
                                     nullptr, nullptr) == CL_SUCCESS);
      std::vector<unsigned> got(8, 7);
      REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, 8 * sizeof(unsigned),
                                  got.data(), 0, nullptr,
                                  nullptr) == CL_SUCCESS);
      for (unsigned bits : got)
        CHECK(bits == (flushed ? 0u : denormal_bits));
      clReleaseKernel(k);
    }
  }
  // This thread's arithmetic keeps its denormals.
  volatile float tiny = 1e-40f;
  CHECK(tiny * 0.5f != 0.0f);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
}

TEST_CASE_METHOD(WeftFixture, "kernel arguments are validated", "[api]") {
  const char *source = R"(
    typedef struct { int a; float b; } Pair;
    kernel void k(global int *out, Pair pair, local int *scratch, float4 v) {
      out[0] = pair.a;
    })";
  cl_kernel k = kernel(source, "k");
  cl_uint args = 0;
  clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(args), &args, nullptr);
  CHECK(args == 4);
  char name[32] = {};
  REQUIRE(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof(name), name,
                             nullptr) == CL_SUCCESS);
  CHECK(std::string(name) == "Pair");
  cl_kernel_arg_address_qualifier space;
  clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(space),
                     &space, nullptr);
  CHECK(space == CL_KERNEL_ARG_ADDRESS_LOCAL);

  int pair[2] = {5, 0};
  CHECK(clSetKernelArg(k, 4, 4, pair) == CL_INVALID_ARG_INDEX);
  CHECK(clSetKernelArg(k, 1, 4, pair) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(k, 2, 64, pair) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(k, 2, 0, nullptr) == CL_INVALID_ARG_SIZE);
  cl_mem not_a_buffer = reinterpret_cast<cl_mem>(queue);
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &not_a_buffer) ==
        CL_INVALID_MEM_OBJECT);
  size_t one = 1;
  CHECK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 0, nullptr,
                               nullptr) == CL_INVALID_KERNEL_ARGS);
  CHECK(clEnqueueNDRangeKernel(queue, k, 4, nullptr, &one, nullptr, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_DIMENSION);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture, "3-D launch with offsets, structs and vectors",
                 "[api]") {
  const char *source = R"(
    typedef struct { int scale; char pad; long bias; } Params;
    kernel void fill(global long *out, Params p, int4 dims, float3 unused) {
      size_t x = get_global_id(0) - get_global_offset(0);
      size_t y = get_global_id(1) - get_global_offset(1);
      size_t z = get_global_id(2) - get_global_offset(2);
      size_t i = (z * dims.y + y) * dims.x + x;
      out[i] = p.scale * (long)get_global_linear_id() + p.bias
               + (get_work_dim() == 3 ? 0 : 1000000);
    })";
  // get_global_linear_id and get_work_dim's 3-D use need OpenCL C 2.0+.
  cl_kernel k = kernel(source, "fill", "-cl-std=CL3.0");
  const size_t global[3] = {7, 5, 3}, offset[3] = {2, 4, 6};
  const size_t count = 7 * 5 * 3;
  cl_mem out = buffer(count * sizeof(cl_long));
  struct {
    cl_int scale;
    cl_char pad;
    cl_long bias;
  } params = {3, 0, -11};
  cl_int dims[4] = {7, 5, 3, 0};
  cl_float unused[4] = {};
  REQUIRE(clSetKernelArg(k, 0, sizeof(cl_mem), &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof(params), &params) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, sizeof(dims), dims) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 3, sizeof(unused), unused) == CL_SUCCESS);
  const size_t locals[2][3] = {{7, 5, 1}, {2, 2, 2}}; // uniform and not
  for (const auto &local : locals) {
    REQUIRE(clEnqueueNDRangeKernel(queue, k, 3, offset, global, local, 0,
                                   nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_long> result(count);
    REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, count * sizeof(cl_long),
                                result.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    size_t wrong = 0;
    for (size_t i = 0; i < count; ++i)
      wrong += result[i] != 3 * cl_long(i) - 11;
    CHECK(wrong == 0);
  }
  // The driver chooses the local size.
  REQUIRE(clEnqueueNDRangeKernel(queue, k, 3, offset, global, nullptr, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(queue) == CL_SUCCESS);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture, "local memory and barriers on work-item fibers",
                 "[api]") {
  const char *source = R"(
    kernel void reduce(global const int *in, global int *out, local int *tmp) {
      local int total;
      size_t lid = get_local_id(0), n = get_local_size(0);
      tmp[lid] = in[get_global_id(0)];
      if (lid == 0) total = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (size_t stride = n / 2; stride > 0; stride /= 2) {
        if (lid < stride) tmp[lid] += tmp[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (lid == 0) { total = tmp[0]; out[get_group_id(0)] = total; }
    })";
  cl_kernel k = kernel(source, "reduce");
  const size_t groups = 37, local = 64, global = groups * local;
  std::vector<cl_int> input(global);
  for (size_t i = 0; i < global; ++i)
    input[i] = cl_int(i % 101);
  cl_mem in = buffer(global * sizeof(cl_int), input.data());
  cl_mem out = buffer(groups * sizeof(cl_int));
  clSetKernelArg(k, 0, sizeof(cl_mem), &in);
  clSetKernelArg(k, 1, sizeof(cl_mem), &out);
  clSetKernelArg(k, 2, local * sizeof(cl_int), nullptr);
  cl_ulong local_bytes = 0;
  clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE,
                           sizeof(local_bytes), &local_bytes, nullptr);
  CHECK(local_bytes >= local * sizeof(cl_int) + sizeof(cl_int));
  REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  std::vector<cl_int> sums(groups);
  REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, groups * sizeof(cl_int),
                              sums.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  for (size_t g = 0; g < groups; ++g) {
    cl_int expected = 0;
    for (size_t i = 0; i < local; ++i)
      expected += input[g * local + i];
    CHECK(sums[g] == expected);
  }
  // Asking for more local memory than the device has.
  clSetKernelArg(k, 2, size_t(1) << 30, nullptr);
  CHECK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0,
                               nullptr, nullptr) == CL_OUT_OF_RESOURCES);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "non-uniform work-groups follow the language version",
                 "[api]") {
  const char *source = "kernel void k(global int *p) { p[get_global_id(0)] = "
                       "(int)get_local_size(0); }";
  size_t global = 10, local = 4;
  int values[10] = {};
  cl_mem out = buffer(sizeof(values), values);
  struct Case {
    const char *options;
    cl_int expected;
  } cases[] = {{"", CL_INVALID_WORK_GROUP_SIZE}, // OpenCL C 1.2 by default
               {"-cl-std=CL3.0", CL_SUCCESS},
               {"-cl-std=CL3.0 -cl-uniform-work-group-size",
                CL_INVALID_WORK_GROUP_SIZE}};
  for (const Case &c : cases) {
    INFO(c.options);
    cl_kernel k = kernel(source, "k", c.options);
    REQUIRE(clSetKernelArg(k, 0, sizeof(out), &out) == CL_SUCCESS);
    CHECK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0,
                                 nullptr, nullptr) == c.expected);
    clReleaseKernel(k);
  }
  REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(values), values, 0,
                              nullptr, nullptr) == CL_SUCCESS);
  // Two groups of 4, then the remainder group of 2.
  for (int i = 0; i < 10; ++i)
    CHECK(values[i] == (i < 8 ? 4 : 2));
  clReleaseMemObject(out);
}

TEST_CASE_METHOD(WeftFixture, "large private arrays get stacks sized for them",
                 "[api]") {
  // 512 KiB of private memory per work-item, with and without a barrier:
  // more than a thread stack of the application could hold for the loop,
  // and far more than a default fiber stack.
  const char *source = R"(
    #define N (128 * 1024)
    kernel void loop(global int *out) {
      volatile int a[N];
      for (int i = 0; i < N; ++i) a[i] = i + (int)get_global_id(0);
      out[get_global_id(0)] = a[N - 1];
    }
    kernel void fibers(global int *out, local int *l) {
      volatile int a[N];
      for (int i = 0; i < N; ++i) a[i] = i + (int)get_local_id(0);
      l[get_local_id(0)] = a[N - 1];
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = l[(get_local_id(0) + 1) % get_local_size(0)];
    })";
  for (const char *name : {"loop", "fibers"}) {
    INFO(name);
    cl_kernel k = kernel(source, name);
    cl_ulong private_size = 0;
    REQUIRE(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                     sizeof(private_size), &private_size,
                                     nullptr) == CL_SUCCESS);
    CHECK(private_size >= 512 * 1024);
    CHECK(private_size < 600 * 1024);
    int values[8] = {};
    cl_mem out = buffer(sizeof(values), values);
    REQUIRE(clSetKernelArg(k, 0, sizeof(out), &out) == CL_SUCCESS);
    if (std::string(name) == "fibers")
      REQUIRE(clSetKernelArg(k, 1, 8 * sizeof(int), nullptr) == CL_SUCCESS);
    size_t global = 8, local = 4;
    REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0,
                                   nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(values), values,
                                0, nullptr, nullptr) == CL_SUCCESS);
    for (int i = 0; i < 8; ++i) {
      int expected = std::string(name) == "loop" ? 128 * 1024 - 1 + i
                                                 : 128 * 1024 - 1 + (i + 1) % 4;
      CHECK(values[i] == expected);
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);
  }
}

TEST_CASE_METHOD(WeftFixture,
                 "an impossible allocation inside Weft is an error, not a "
                 "crash",
                 "[api]") {
  // The source length makes the runtime's std::string throw; the dispatch
  // guard turns that into CL_OUT_OF_HOST_MEMORY for the application.
  const char *source = "kernel void k() {}";
  size_t length = SIZE_MAX / 2;
  cl_int err = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, &length, &err);
  CHECK(program == nullptr);
  CHECK(err == CL_OUT_OF_HOST_MEMORY);
}

TEST_CASE_METHOD(WeftFixture, "every OpenCL C build option of the spec builds",
                 "[api]") {
  const char *source =
      "kernel void k(global float *a) { a[0] = a[1] * 2.0f + a[2]; }";
  for (const char *option :
       {"-cl-single-precision-constant", "-cl-denorms-are-zero",
        "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-opt-disable",
        "-cl-mad-enable", "-cl-no-signed-zeros",
        "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
        "-cl-fast-relaxed-math", "-cl-uniform-work-group-size",
        "-cl-kernel-arg-info", "-cl-strict-aliasing", "-w", "-Werror",
        "-cl-std=CL1.2 -cl-denorms-are-zero",
        "-cl-std=CL3.0 -cl-denorms-are-zero"}) {
    INFO(option);
    cl_program program;
    std::string log;
    CHECK(build(source, program, log, option) == CL_SUCCESS);
    INFO(log);
    clReleaseProgram(program);
  }
}

TEST_CASE_METHOD(WeftFixture, "cl_khr_expect_assume in OpenCL C", "[api]") {
  const char *source = R"(
#ifndef cl_khr_expect_assume
#error the extension's macro is not defined
#endif
kernel void hinted(global int *data, int n) {
  __builtin_assume(n > 0);
  int i = get_global_id(0);
  if (__builtin_expect(i < n, 1))
    data[i] = data[i] * 2 + n;
})";
  cl_kernel k = kernel(source, "hinted", "-cl-std=CL3.0");
  std::vector<cl_int> data = {1, 2, 3, 4};
  cl_mem m = buffer(data.size() * sizeof(cl_int), data.data());
  cl_int n = 4;
  clSetKernelArg(k, 0, sizeof m, &m);
  clSetKernelArg(k, 1, sizeof n, &n);
  size_t global = data.size();
  REQUIRE(runAndWait(k, 1, &global, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, data.size() * 4,
                              data.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(data == std::vector<cl_int>{6, 8, 10, 12});
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "a store to one address under a condition, widened",
                 "[api][compiler]") {
  // The work-item loop is widened (weft-widen-work-items stores once, the
  // last active work-item's value): one match leaves its index, several
  // leave one of theirs, none leaves the flag untouched.
  const char *source = R"(
    kernel void find(global const int *in, int key, global int *found) {
      int i = get_global_id(0);
      if (in[i] == key)
        *found = i;
    })";
  cl_kernel k = kernel(source, "find");
  constexpr int kItems = 1000;
  std::vector<int> in(kItems);
  for (int i = 0; i < kItems; ++i)
    in[i] = i % 250;
  cl_mem input = buffer(sizeof(int) * kItems, in.data());
  auto run = [&](int key) {
    int found = -1;
    cl_mem out = buffer(sizeof found, &found);
    clSetKernelArg(k, 0, sizeof input, &input);
    clSetKernelArg(k, 1, sizeof key, &key);
    clSetKernelArg(k, 2, sizeof out, &out);
    size_t global = kItems, local = 100;
    REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof found, &found, 0,
                                nullptr, nullptr) == CL_SUCCESS);
    clReleaseMemObject(out);
    return found;
  };
  for (int key : {0, 17, 249}) {
    int found = run(key);
    INFO("key " << key << " found at " << found);
    REQUIRE(found >= 0);
    CHECK(found < kItems);
    CHECK(in[found] == key);
  }
  CHECK(run(250) == -1);
  clReleaseMemObject(input);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "counters all work-items share across barriers, any group",
                 "[api]") {
  // `r` and `scale` live across barriers and are the same in every
  // work-item: the regions keep one copy per group, computed once per
  // region run (compiler/analysis/group_uniform_variables.h). `acc` is each
  // work-item's own; `bonus` is set under a branch on the local id.
  const char *source = R"(
    kernel void staged(global const int *in, global int *out,
                       local int *scratch, int rounds) {
      size_t lid = get_local_id(0), n = get_local_size(0);
      int acc = in[get_global_id(0)];
      int scale = 1, bonus = 0;
      for (int r = 0; r < rounds; ++r) {
        scratch[lid] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        acc += scale * scratch[(lid + 1) % n];
        if (lid % 3 == 0) bonus += r;
        scale = scale * 2 + r;
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      out[get_global_id(0)] = acc + scale + bonus;
    })";
  cl_kernel k = kernel(source, "staged", "-cl-std=CL2.0");
  constexpr size_t kItems = 210;
  std::vector<cl_int> input(kItems);
  for (size_t i = 0; i < kItems; ++i)
    input[i] = cl_int(i * 7 % 23);
  cl_mem in = buffer(kItems * sizeof(cl_int), input.data());
  cl_mem out = buffer(kItems * sizeof(cl_int));
  for (size_t local : {size_t{1}, size_t{7}, size_t{30}, size_t{105}})
    for (cl_int rounds : {0, 1, 5}) {
      INFO("local size " << local << ", rounds " << rounds);
      clSetKernelArg(k, 0, sizeof(cl_mem), &in);
      clSetKernelArg(k, 1, sizeof(cl_mem), &out);
      clSetKernelArg(k, 2, local * sizeof(cl_int), nullptr);
      clSetKernelArg(k, 3, sizeof(cl_int), &rounds);
      size_t global = kItems;
      REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
      std::vector<cl_int> got = readInts(out, kItems);
      for (size_t g = 0; g < kItems / local; ++g) {
        std::vector<cl_int> acc(input.begin() + g * local,
                                input.begin() + (g + 1) * local);
        cl_int scale = 1;
        std::vector<cl_int> bonus(local, 0);
        for (cl_int r = 0; r < rounds; ++r) {
          std::vector<cl_int> scratch = acc;
          for (size_t l = 0; l < local; ++l) {
            acc[l] += scale * scratch[(l + 1) % local];
            if (l % 3 == 0)
              bonus[l] += r;
          }
          scale = scale * 2 + r;
        }
        for (size_t l = 0; l < local; ++l)
          REQUIRE(got[g * local + l] == acc[l] + scale + bonus[l]);
      }
    }
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "work-items that leave a region at different barriers all "
                 "finish",
                 "[api]") {
  // Undefined behaviour in OpenCL C, but it must not hang or lose work:
  // the group notices the work-items disagree and runs them one at a time
  // (compiler/passes/kernels/barrier_regions.cpp). Each region after a barrier
  // has one way out (it returns), so the one-work-item runs there record where
  // each work-item stops without the resume state a region loop would store.
  const char *source = R"(
    kernel void diverge(global int *out, int mode) {
      int lid = (int)get_local_id(0);
      int v = lid * 10;
      if (mode == 0) {
        if (lid % 3 == 1) {
          out[get_global_id(0)] = -v;
          return;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = v + 1;
      } else {
        if (lid & 1) {
          v += 3;
          barrier(CLK_LOCAL_MEM_FENCE);
          v *= 2;
        } else {
          v += 5;
          barrier(CLK_GLOBAL_MEM_FENCE);
          v *= 3;
        }
        out[get_global_id(0)] = v;
      }
    })";
  cl_kernel k = kernel(source, "diverge");
  constexpr size_t kItems = 210;
  cl_mem out = buffer(kItems * sizeof(cl_int));
  for (cl_int mode : {0, 1})
    for (size_t local : {size_t{1}, size_t{7}, size_t{30}, size_t{105}}) {
      INFO("mode " << mode << ", local size " << local);
      clSetKernelArg(k, 0, sizeof(cl_mem), &out);
      clSetKernelArg(k, 1, sizeof(cl_int), &mode);
      size_t global = kItems;
      REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
      std::vector<cl_int> got = readInts(out, kItems);
      for (size_t i = 0; i < kItems; ++i) {
        cl_int lid = cl_int(i % local), v = lid * 10, expected;
        if (mode == 0)
          expected = lid % 3 == 1 ? -v : v + 1;
        else
          expected = lid & 1 ? (v + 3) * 2 : (v + 5) * 3;
        REQUIRE(got[i] == expected);
      }
    }
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "a required group size bounds loops over a work-item's rows, "
                 "edge groups too",
                 "[api]") {
  // Each work-item moves rows y, y + 4, y + 8, y + 12 of a 16-row tile. The
  // group's rows are bounded by reqd_work_group_size, so the row loop runs
  // 4 times for every y (compiler/passes/optimizer/constant_trip_counts.h) and
  // unrolls; an edge group of the non-uniform range has fewer rows and must
  // still move exactly the rows its work-items own.
  const char *source = R"(
    kernel __attribute__((reqd_work_group_size(8, 4, 1)))
    void rows(global int *out, int width) {
      local int tile[16][8];
      size_t x = get_global_id(0), lx = get_local_id(0);
      size_t y = get_local_id(1), g = get_group_id(1);
      for (size_t r = y; r < 16; r += 4)
        tile[r][lx] = (int)(g * 16 + r) * 1000 + (int)x;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (size_t r = y; r < 16; r += 4)
        out[(g * 16 + r) * width + x] = tile[r][lx];
    })";
  cl_kernel k = kernel(source, "rows", "-cl-std=CL2.0");
  for (size_t rows_of_items : {size_t{8}, size_t{10}, size_t{3}}) {
    const cl_int width = 20;
    const size_t groups_y = (rows_of_items + 3) / 4;
    const size_t count = groups_y * 16 * width;
    INFO(rows_of_items << " rows of work-items");
    std::vector<cl_int> unset(count, -1);
    cl_mem out = buffer(count * sizeof(cl_int), unset.data());
    clSetKernelArg(k, 0, sizeof(cl_mem), &out);
    clSetKernelArg(k, 1, sizeof(cl_int), &width);
    size_t global[2] = {size_t(width), rows_of_items}, local[2] = {8, 4};
    REQUIRE(runAndWait(k, 2, global, local) == CL_SUCCESS);
    std::vector<cl_int> got = readInts(out, count);
    std::vector<cl_int> expected(count, -1);
    for (size_t g = 0; g < groups_y; ++g) {
      size_t group_rows = std::min<size_t>(4, rows_of_items - g * 4);
      for (size_t y = 0; y < group_rows; ++y)
        for (size_t r = y; r < 16; r += 4)
          for (cl_int x = 0; x < width; ++x)
            expected[(g * 16 + r) * width + x] = cl_int(g * 16 + r) * 1000 + x;
    }
    for (size_t i = 0; i < count; ++i)
      REQUIRE(got[i] == expected[i]);
    clReleaseMemObject(out);
  }
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture,
                 "loops every work-item goes round as often, widened, in full "
                 "and partial chunks",
                 "[api]") {
  // A column walk (widened: weft-widen-work-items) whose loop test is one
  // for all: its work-items leave together, and a row's full chunks of 16
  // run with all lanes active. Rows of 37 end in a partial chunk; `skip`
  // keeps some work-items out of the loop (a branch on the id around it,
  // so no lane may go round for them); n = 0 runs no round.
  const char *source = R"(
    kernel void columns(global const float *m, global float *out, int n,
                        int skip) {
      int col = get_global_id(0), row = get_global_id(1);
      float acc = (float)col;
      if (col % 5 != skip) {
        for (int k = 0; k < n; ++k)
          acc += m[k * get_global_size(0) + col] * (float)(k + row);
      }
      out[row * get_global_size(0) + col] = acc;
    })";
  cl_kernel k = kernel(source, "columns");
  const size_t width = 37, height = 3, rows = 9;
  std::vector<float> m(width * rows);
  for (size_t i = 0; i < m.size(); ++i)
    m[i] = float(i % 7);
  cl_mem in = buffer(m.size() * sizeof(float), m.data());
  cl_mem out = buffer(width * height * sizeof(float));
  for (cl_int n : {0, 1, 9})
    for (cl_int skip : {-1, 2}) {
      INFO("n " << n << ", skip " << skip);
      clSetKernelArg(k, 0, sizeof(cl_mem), &in);
      clSetKernelArg(k, 1, sizeof(cl_mem), &out);
      clSetKernelArg(k, 2, sizeof(cl_int), &n);
      clSetKernelArg(k, 3, sizeof(cl_int), &skip);
      size_t global[2] = {width, height};
      REQUIRE(runAndWait(k, 2, global, nullptr) == CL_SUCCESS);
      std::vector<float> got(width * height);
      REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0,
                                  got.size() * sizeof(float), got.data(), 0,
                                  nullptr, nullptr) == CL_SUCCESS);
      for (size_t row = 0; row < height; ++row)
        for (size_t col = 0; col < width; ++col) {
          float acc = float(col);
          if (cl_int(col % 5) != skip)
            for (cl_int j = 0; j < n; ++j)
              acc += m[j * width + col] * float(j + cl_int(row));
          REQUIRE(got[row * width + col] == acc);
        }
    }
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture, "__IMAGE_SUPPORT__ follows the device", "[api]") {
  // OpenCL C: 1 when the device supports images (CTS test_basic
  // kernel_preprocessor_macros and kernel_numeric_constants).
  const char *source = R"(
    kernel void k(global int *p) {
    #ifdef __IMAGE_SUPPORT__
      p[0] = __IMAGE_SUPPORT__;
    #else
      p[0] = -1;
    #endif
    })";
  cl_bool images = CL_FALSE;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images,
                          &images, nullptr) == CL_SUCCESS);
  cl_kernel k = kernel(source, "k");
  int value = 0;
  cl_mem out = buffer(sizeof value, &value);
  clSetKernelArg(k, 0, sizeof out, &out);
  size_t one = 1;
  REQUIRE(runAndWait(k, 1, &one, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof value, &value, 0,
                              nullptr, nullptr) == CL_SUCCESS);
  CHECK(value == (images ? 1 : -1));
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

// Issue 19: launches keep their arguments in blocks a kernel reuses from
// one burst of launches to the next (runtime/block_pool.h); a burst larger
// than the blocks a kernel keeps takes new ones too.
TEST_CASE_METHOD(WeftFixture, "bursts of launches each keep their arguments",
                 "[api]") {
  cl_kernel k = kernel(R"(
    kernel void put(global int *out, int index, int value) {
      if (get_global_id(0) == 0)
        out[index] = value;
    })",
                       "put");
  constexpr int kLaunches = 6000;
  cl_mem out = buffer(kLaunches * sizeof(cl_int));
  cl_int err;
  cl_command_queue plain =
      clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof(cl_mem), &out) == CL_SUCCESS);
  const size_t global = 4;
  for (cl_command_queue q : {plain, queue}) {
    for (int burst = 0; burst < 2; ++burst) {
      for (cl_int i = 0; i < kLaunches; ++i) {
        cl_int value = i * 3 + burst;
        REQUIRE(clSetKernelArg(k, 1, sizeof(i), &i) == CL_SUCCESS);
        REQUIRE(clSetKernelArg(k, 2, sizeof(value), &value) == CL_SUCCESS);
        REQUIRE(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0,
                                       nullptr, nullptr) == CL_SUCCESS);
      }
      std::vector<cl_int> result(kLaunches);
      REQUIRE(clEnqueueReadBuffer(q, out, CL_TRUE, 0,
                                  kLaunches * sizeof(cl_int), result.data(), 0,
                                  nullptr, nullptr) == CL_SUCCESS);
      int wrong = 0;
      for (int i = 0; i < kLaunches; ++i)
        wrong += result[i] != i * 3 + burst;
      CHECK(wrong == 0);
    }
  }
  // Events of a queue without profiling keep no times.
  cl_event event;
  REQUIRE(clEnqueueNDRangeKernel(plain, k, 1, nullptr, &global, nullptr, 0,
                                 nullptr, &event) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &event) == CL_SUCCESS);
  cl_ulong time;
  CHECK(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof(time),
                                &time,
                                nullptr) == CL_PROFILING_INFO_NOT_AVAILABLE);
  clReleaseEvent(event);
  clReleaseCommandQueue(plain);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

// The plan says when it leaves a kernel to LLVM's loop vectorizer; whether
// the vectorizer delivered is told after optimization, in the build log
// (and under WEFT_DEBUG, for parts compiled at build time and on first
// use): a loop over work-items that stayed scalar gets a remark, one that
// became vector code does not. The kernels share a program-scope
// variable, which keeps them in one part compiled at build time.
TEST_CASE_METHOD(WeftFixture, "the build log tells which work-item loops "
                              "stayed scalar", "[api]") {
  const char *source = R"CLC(
    global int launches;
    kernel void counted(global volatile int *count) {
      atomic_inc(count);
      if (get_global_id(0) == 0)
        launches++;
    }
    kernel void added(global const float *a, global float *b) {
      size_t i = get_global_id(0);
      b[i] = a[i] + (float)launches;
    }
  )CLC";
  cl_program program;
  std::string log;
  REQUIRE(build(source, program, log, "-cl-std=CL3.0") == CL_SUCCESS);
  INFO(log);
  CHECK(log.find("remark: kernel 'counted': its loop over work-items "
                 "stayed scalar") != std::string::npos);
  CHECK(log.find("remark: kernel 'added'") == std::string::npos);
  clReleaseProgram(program);
}

// CL_DEVICE_LOCAL_MEM_SIZE is a promise: a launch may use more (test_half's
// vstorea tests declare 128 KiB of double16), up to the launch limit.
TEST_CASE_METHOD(WeftFixture,
                 "a kernel may use more __local memory than promised",
                 "[api]") {
  cl_ulong promised = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof promised,
                          &promised, nullptr) == CL_SUCCESS);
  CHECK(promised == 64 * 1024);
  cl_kernel k = kernel(
      "kernel void big(global const double16 *in, global double16 *out) {\n"
      "  local double16 data[1024];\n"
      "  size_t l = get_local_id(0);\n"
      "  data[l] = in[get_global_id(0)];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  out[get_global_id(0)] = data[1023 - l];\n"
      "}",
      "big");
  cl_ulong used = 0;
  clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used,
                           &used, nullptr);
  CHECK(used == 128 * 1024);
  std::vector<double> values(2048 * 16);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = double(i);
  cl_mem in = buffer(values.size() * sizeof(double), values.data());
  cl_mem out = buffer(values.size() * sizeof(double));
  clSetKernelArg(k, 0, sizeof in, &in);
  clSetKernelArg(k, 1, sizeof out, &out);
  size_t global = 2048, local = 1024;
  REQUIRE(runAndWait(k, 1, &global, &local) == CL_SUCCESS);
  std::vector<double> got(values.size());
  REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0,
                              got.size() * sizeof(double), got.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  for (size_t item = 0; item < 2048; ++item) {
    size_t from = item / 1024 * 1024 + (1023 - item % 1024);
    CHECK(got[item * 16 + 5] == values[from * 16 + 5]);
  }
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  // Past the launch limit: CL_OUT_OF_RESOURCES.
  cl_kernel huge = kernel("kernel void huge(global int *out) {\n"
                          "  local int data[512 * 1024];\n"
                          "  data[get_local_id(0)] = 1;\n"
                          "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                          "  out[get_global_id(0)] = data[0];\n"
                          "}",
                          "huge");
  cl_mem small = buffer(64 * sizeof(cl_int));
  clSetKernelArg(huge, 0, sizeof small, &small);
  size_t n = 64;
  CHECK(runAndWait(huge, 1, &n, nullptr) == CL_OUT_OF_RESOURCES);
  clReleaseMemObject(small);
  clReleaseKernel(huge);
}

// Every OpenCL C version the device lists builds a program: the extension
// declarations Weft puts ahead of each program hold under each version's
// extensions (a group once used macros of an extension Clang offers only
// from OpenCL C 1.2, and broke every CL1.1 build).
TEST_CASE_METHOD(WeftFixture,
                 "a program builds under every OpenCL C version listed",
                 "[api]") {
  size_t bytes = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr,
                          &bytes) == CL_SUCCESS);
  std::vector<cl_name_version> versions(bytes / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, bytes,
                          versions.data(), nullptr) == CL_SUCCESS);
  REQUIRE(versions.size() >= 4);
  const char *source = "kernel void k(global int *d) { d[0] = 1; }";
  for (const cl_name_version &version : versions) {
    unsigned major = CL_VERSION_MAJOR(version.version),
             minor = CL_VERSION_MINOR(version.version);
    if (major == 1 && minor == 0)
      continue; // there is no -cl-std=CL1.0
    std::string option = "-cl-std=CL" + std::to_string(major) + "." +
                         std::to_string(minor);
    INFO(option);
    cl_program program;
    std::string log;
    cl_int status = build(source, program, log, option.c_str());
    INFO(log);
    CHECK(status == CL_SUCCESS);
    clReleaseProgram(program);
  }
}
