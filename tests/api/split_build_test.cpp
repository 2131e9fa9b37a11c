// A program large enough to be compiled in parts, one per thread
// (compiler/codegen/kernel_partitions.cpp), behaves as one program: a
// program-scope variable written by one kernel is the one another kernel reads,
// constant tables and helpers are shared, and every kernel is found. CTest runs
// this also with WEFT_COMPILE_THREADS=4 and WEFT_DUMP_IR set (api_split_build),
// and then checks that the build did compile in parts.
#include "api_fixture.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>

namespace {

// Four kernels of about 200 straight-line steps each (a build counts a part
// worth its threads from about 600 IR instructions): `produce` leaves a
// value in a program-scope variable, `consume` reads it, and all four mix
// their input through the same constant table and helper.
std::string partsProgram() {
  std::string steps;
  for (int k = 0; k < 200; ++k)
    steps += "  x = mix(x, " + std::to_string(k) + "u);\n";
  std::string body = "  uint x = in[get_global_id(0)];\n" + steps;
  return "constant uint table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, "
         "7, 9, 3};\n"
         "global uint left_by_produce;\n"
         "uint mix(uint x, uint k) { return (x * 31u + table[(x + k) & 15u]) "
         "^ k; }\n"
         "kernel void produce(global const uint *in, global uint *out) {\n" +
         body +
         "  out[get_global_id(0)] = x;\n"
         "  if (get_global_id(0) == 0) left_by_produce = x;\n}\n"
         "kernel void consume(global const uint *in, global uint *out) {\n" +
         body +
         "  out[get_global_id(0)] = x + left_by_produce;\n}\n"
         "kernel void twice(global const uint *in, global uint *out) {\n" +
         body +
         "  out[get_global_id(0)] = 2u * x;\n}\n"
         "kernel void thrice(global const uint *in, global uint *out) {\n" +
         body + "  out[get_global_id(0)] = 3u * x;\n}\n";
}

uint32_t mixed(uint32_t x) {
  static const uint32_t table[16] = {3, 1, 4, 1, 5, 9, 2, 6,
                                     5, 3, 5, 8, 9, 7, 9, 3};
  for (uint32_t k = 0; k < 200; ++k)
    x = (x * 31u + table[(x + k) & 15u]) ^ k;
  return x;
}

size_t filesEndingIn(const std::string &directory, const std::string &end) {
  size_t count = 0;
  if (DIR *dir = opendir(directory.c_str())) {
    while (dirent *entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name.size() > end.size() &&
          name.compare(name.size() - end.size(), end.size(), end) == 0)
        ++count;
    }
    closedir(dir);
  }
  return count;
}

} // namespace

TEST_CASE_METHOD(WeftFixture,
                 "a program compiled in parts on threads runs as one program",
                 "[api][split]") {
  // With WEFT_DUMP_IR, the build writes one optimized module per part.
  const char *dump = std::getenv("WEFT_DUMP_IR");
  if (dump) {
    mkdir(dump, 0755);
    if (DIR *dir = opendir(dump)) {
      while (dirent *entry = readdir(dir))
        if (entry->d_name[0] != '.')
          std::remove((std::string(dump) + "/" + entry->d_name).c_str());
      closedir(dir);
    }
  }
  std::string source = partsProgram();
  cl_program program;
  std::string log;
  cl_int status = build(source.c_str(), program, log, "-cl-std=CL2.0");
  INFO(log);
  REQUIRE(status == CL_SUCCESS);
  if (dump) {
    const char *threads = std::getenv("WEFT_COMPILE_THREADS");
    INFO("WEFT_COMPILE_THREADS=" << (threads ? threads : "(unset)"));
    CHECK(filesEndingIn(dump, ".opt.ll") >= 2);
  }

  constexpr size_t kItems = 64;
  std::vector<uint32_t> in(kItems), want(kItems);
  for (size_t i = 0; i < kItems; ++i) {
    in[i] = uint32_t(i * 2654435761u);
    want[i] = mixed(in[i]);
  }
  cl_mem input = buffer(kItems * 4, in.data());
  cl_mem output = buffer(kItems * 4);
  auto run = [&](const char *name) {
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    REQUIRE(err == CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof input, &input);
    clSetKernelArg(k, 1, sizeof output, &output);
    size_t global = kItems;
    REQUIRE(runAndWait(k, 1, &global, nullptr) == CL_SUCCESS);
    clReleaseKernel(k);
    std::vector<uint32_t> got(kItems);
    REQUIRE(clEnqueueReadBuffer(queue, output, CL_TRUE, 0, kItems * 4,
                                got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    return got;
  };
  std::vector<uint32_t> produced = run("produce");
  std::vector<uint32_t> consumed = run("consume");
  std::vector<uint32_t> doubled = run("twice");
  std::vector<uint32_t> tripled = run("thrice");
  for (size_t i = 0; i < kItems; ++i) {
    INFO("work-item " << i);
    CHECK(produced[i] == want[i]);
    // What produce left in the program-scope variable is seen by consume.
    CHECK(consumed[i] == want[i] + want[0]);
    CHECK(doubled[i] == 2u * want[i]);
    CHECK(tripled[i] == 3u * want[i]);
  }
  clReleaseMemObject(input);
  clReleaseMemObject(output);
  clReleaseProgram(program);
}
