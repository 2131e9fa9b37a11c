// Cold builds of large kernels (issue 20: "a 10,000-line kernel takes 59 s,
// PoCL 11 s") on Weft and PoCL side by side: clBuildProgram of generated
// straight-line kernels of 100, 1,000 and 10,000 lines with every cache off
// (run it with WEFT_CACHE_DIR=off POCL_KERNEL_CACHE=0; bench/run.sh does),
// alternating the drivers, median of the runs; each built kernel is run
// once and checked against the host. Then an application's program of 24
// kernels (issue 19: build and first result), and one program built from
// OpenCL C and from SPIR-V, on the drivers that take SPIR-V.
#include "kernel_bench.h"

#include <fstream>
#include <iterator>
#include <string>

namespace {

constexpr int kItems = 1024;

std::string kernelOfLines(int lines) {
  std::string source = "kernel void big(global const int *in, global int "
                       "*out, int n) {\n  int i = get_global_id(0);\n  int "
                       "acc = 0;\n";
  for (int k = 0; k < lines; ++k)
    source += "  acc = (acc ^ (in[(i + " + std::to_string(k) + ") % n] * " +
              std::to_string(k % 17 + 1) + ")) + " + std::to_string(k) + ";\n";
  return source + "  out[i] = acc;\n}\n";
}

std::vector<int> expected(const std::vector<int> &in, int lines) {
  std::vector<int> out(kItems);
  for (int i = 0; i < kItems; ++i) {
    unsigned acc = 0;
    for (int k = 0; k < lines; ++k)
      acc = (acc ^ unsigned(in[(i + k) % kItems] * (k % 17 + 1))) + unsigned(k);
    out[i] = int(acc);
  }
  return out;
}

// Builds and runs once; returns the seconds from clBuildProgram to the first
// launch's results (PoCL compiles its work-group functions at the first
// launch, Weft in clBuildProgram), or a negative value with `error` set.
double buildAndCheck(const Driver &d, const std::string &source,
                     const std::vector<int> &in, const std::vector<int> &want,
                     std::string &error) {
  const char *text = source.c_str();
  cl_int err;
  cl_program program =
      clCreateProgramWithSource(d.context, 1, &text, nullptr, &err);
  double t0 = nowSeconds();
  err = clBuildProgram(program, 1, &d.device, "", nullptr, nullptr);
  if (err != CL_SUCCESS) {
    error = "clBuildProgram: error " + std::to_string(err);
    clReleaseProgram(program);
    return -1;
  }
  cl_kernel kernel = clCreateKernel(program, "big", &err);
  cl_mem bin = bufferWith(d, in), bout = bufferOf(d, kItems * sizeof(int));
  int n = kItems;
  clSetKernelArg(kernel, 0, sizeof bin, &bin);
  clSetKernelArg(kernel, 1, sizeof bout, &bout);
  clSetKernelArg(kernel, 2, sizeof n, &n);
  size_t global = kItems;
  clEnqueueNDRangeKernel(d.queue, kernel, 1, nullptr, &global, nullptr, 0,
                         nullptr, nullptr);
  std::vector<int> got = readBack<int>(d, bout, kItems);
  double seconds = nowSeconds() - t0;
  error = compareExact(got, want, "results");
  clReleaseMemObject(bin);
  clReleaseMemObject(bout);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  return error.empty() ? seconds : -1;
}

std::string readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// Seconds to create and build the program (from `source`, or from the
// SPIR-V module `il` when it is not empty) and create its kernels; a
// negative value, with `error` set, when that fails.
double coldBuild(const Driver &d, const std::string &source,
                 const std::string &il, std::string &error) {
  double t0 = nowSeconds();
  cl_int err;
  const char *text = source.c_str();
  cl_program program =
      il.empty() ? clCreateProgramWithSource(d.context, 1, &text, nullptr, &err)
                 : clCreateProgramWithIL(d.context, il.data(), il.size(), &err);
  if (program)
    err = clBuildProgram(program, 1, &d.device, "-cl-std=CL2.0", nullptr,
                         nullptr);
  cl_uint kernels = 0;
  if (err == CL_SUCCESS)
    err = clCreateKernelsInProgram(program, 0, nullptr, &kernels);
  double seconds = nowSeconds() - t0;
  if (program)
    clReleaseProgram(program);
  if (err != CL_SUCCESS || kernels == 0) {
    error = "error " + std::to_string(err);
    return -1;
  }
  return seconds;
}

bool supportsIl(const Driver &d) {
  size_t size = 0;
  return clGetDeviceInfo(d.device, CL_DEVICE_IL_VERSION, 0, nullptr, &size) ==
             CL_SUCCESS &&
         size > 1;
}

// The same program from OpenCL C and from the SPIR-V that clang-15 and
// llvm-spirv-15 made of it (conformance/spec_tests/spirv: nine kernels).
bool spirvAgainstSource(const std::vector<Driver> &drivers) {
  std::string dir = WEFT_BENCH_SPIRV_DIR;
  std::string source = readFile(dir + "/programs.cl");
  std::string il = readFile(dir + "/programs_O2.spv");
  std::printf("\nCold builds of one program (programs.cl, 9 kernels) from "
              "OpenCL C and from SPIR-V (programs_O2.spv): median seconds of "
              "5 from clCreateProgramWith* to clCreateKernelsInProgram, "
              "drivers alternating\n");
  std::printf("%-8s %12s %12s %10s\n", "driver", "source s", "SPIR-V s",
              "ratio");
  bool failed = false;
  std::vector<std::vector<double>> from_source(drivers.size()),
      from_il(drivers.size());
  for (int r = 0; r < 5; ++r)
    for (size_t i = 0; i < drivers.size(); ++i) {
      std::string error;
      double s = coldBuild(drivers[i], source, "", error);
      if (s >= 0)
        from_source[i].push_back(s);
      if (!supportsIl(drivers[i]))
        continue;
      double t = coldBuild(drivers[i], source, il, error);
      if (t >= 0)
        from_il[i].push_back(t);
      if (!error.empty()) {
        std::fprintf(stderr, "ERROR: %s: %s\n", drivers[i].label.c_str(),
                     error.c_str());
        failed = true;
      }
    }
  for (size_t i = 0; i < drivers.size(); ++i) {
    std::printf("%-8s", drivers[i].label.c_str());
    if (from_source[i].empty())
      std::printf(" %12s", "fails");
    else
      std::printf(" %12.3f", median(from_source[i]));
    if (from_il[i].empty())
      std::printf(" %12s\n", supportsIl(drivers[i]) ? "fails" : "no IL");
    else
      std::printf(" %12.3f %9.2fx\n", median(from_il[i]),
                  from_source[i].empty()
                      ? 0.0
                      : median(from_il[i]) / median(from_source[i]));
  }
  return !failed;
}

// A typical application's program (bench/kernels/application.cl: 280
// lines, 24 kernels, OpenCL 1.2): seconds from clCreateProgramWithSource
// to the end of clBuildProgram, and to the first checked result of its
// saxpy (PoCL compiles a kernel's work-group function at its first launch,
// Weft every kernel in clBuildProgram); negative, with `error`, on failure.
struct ColdTimes {
  double build = -1, first_result = -1;
};

ColdTimes applicationFirstResult(const Driver &d, const std::string &source,
                                 std::string &error) {
  ColdTimes times;
  constexpr size_t kElements = size_t{1} << 20;
  std::vector<float> x(kElements), y(kElements), want(kElements);
  for (size_t i = 0; i < kElements; ++i) {
    x[i] = float(i % 1000);
    y[i] = float(i % 7);
    want[i] = 2.0f * x[i] + y[i];
  }
  double t0 = nowSeconds();
  const char *text = source.c_str();
  cl_int err;
  cl_program program =
      clCreateProgramWithSource(d.context, 1, &text, nullptr, &err);
  err = clBuildProgram(program, 1, &d.device, "", nullptr, nullptr);
  times.build = nowSeconds() - t0;
  if (err != CL_SUCCESS) {
    error = "clBuildProgram: error " + std::to_string(err);
    clReleaseProgram(program);
    return {};
  }
  cl_kernel kernel = clCreateKernel(program, "saxpy", &err);
  cl_mem bx = bufferWith(d, x), by = bufferWith(d, y);
  float a = 2.0f;
  clSetKernelArg(kernel, 0, sizeof bx, &bx);
  clSetKernelArg(kernel, 1, sizeof by, &by);
  clSetKernelArg(kernel, 2, sizeof a, &a);
  size_t global = kElements;
  clEnqueueNDRangeKernel(d.queue, kernel, 1, nullptr, &global, nullptr, 0,
                         nullptr, nullptr);
  std::vector<float> got = readBack<float>(d, by, kElements);
  times.first_result = nowSeconds() - t0;
  error = compareExact(got, want, "saxpy results");
  clReleaseMemObject(bx);
  clReleaseMemObject(by);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  return error.empty() ? times : ColdTimes{};
}

bool applicationProgram(const std::vector<Driver> &drivers) {
  std::string source = readFile(WEFT_BENCH_KERNELS_DIR "/application.cl");
  std::printf("\nCold build of an application's program (application.cl, "
              "280 lines, 24 kernels): median seconds of 5, drivers "
              "alternating, from clCreateProgramWithSource to the end of "
              "clBuildProgram and to saxpy's first checked result\n");
  std::printf("%-8s %12s %16s\n", "driver", "build s", "first result s");
  bool failed = false;
  std::vector<std::vector<double>> build(drivers.size()), first(drivers.size());
  for (int r = 0; r < 5; ++r)
    for (size_t i = 0; i < drivers.size(); ++i) {
      std::string error;
      ColdTimes t = applicationFirstResult(drivers[i], source, error);
      if (!error.empty() || t.build < 0) {
        std::fprintf(stderr, "ERROR: %s: %s\n", drivers[i].label.c_str(),
                     error.c_str());
        failed = true;
        continue;
      }
      build[i].push_back(t.build);
      first[i].push_back(t.first_result);
    }
  for (size_t i = 0; i < drivers.size(); ++i)
    std::printf("%-8s %12.3f %16.3f\n", drivers[i].label.c_str(),
                build[i].empty() ? -1.0 : median(build[i]),
                first[i].empty() ? -1.0 : median(first[i]));
  if (drivers.size() == 2 && !build[0].empty() && !build[1].empty())
    std::printf("%s/%s: build %.2fx, first result %.2fx\n",
                drivers[1].label.c_str(), drivers[0].label.c_str(),
                median(build[1]) / median(build[0]),
                median(first[1]) / median(first[0]));
  std::fflush(stdout);
  return !failed;
}

} // namespace

// build_bench [--lines N[,N...]] [driver names]   (--lines 0: none)
int main(int argc, char **argv) {
  std::vector<int> line_counts = {100, 1000, 10000};
  if (argc > 2 && std::string(argv[1]) == "--lines") {
    line_counts.clear();
    std::string list = argv[2];
    for (size_t at = 0; at < list.size();) {
      size_t comma = list.find(',', at);
      line_counts.push_back(std::stoi(list.substr(at, comma - at)));
      at = comma == std::string::npos ? list.size() : comma + 1;
    }
    argv[2] = argv[0];
    argc -= 2;
    argv += 2;
  }
  std::vector<Driver> drivers = driversFromArguments(argc, argv);
  if (drivers.empty())
    return 1;
  std::vector<int> in(kItems);
  for (int i = 0; i < kItems; ++i)
    in[i] = (i * 7919) % 1000 - 500;
  std::printf("Cold builds of straight-line kernels (caches off): median "
              "seconds from clBuildProgram to the first launch's results, "
              "drivers alternating; ratio = second driver's time / first's\n");
  std::printf("%-12s", "lines");
  for (const Driver &d : drivers)
    std::printf(" %12s", (d.label + " s").c_str());
  std::printf("\n");
  bool failed = false;
  for (int lines : line_counts) {
    if (lines <= 0)
      continue;
    std::string source = kernelOfLines(lines);
    std::vector<int> want = expected(in, lines);
    // PoCL takes minutes for 10,000 lines: one build each there.
    int runs = lines >= 10000 ? 1 : 5;
    std::vector<std::vector<double>> times(drivers.size());
    for (int r = 0; r < runs; ++r)
      for (size_t i = 0; i < drivers.size(); ++i) {
        std::string error;
        double seconds = buildAndCheck(drivers[i], source, in, want, error);
        if (seconds < 0) {
          std::fprintf(stderr, "ERROR: %d lines on %s: %s\n", lines,
                       drivers[i].label.c_str(), error.c_str());
          failed = true;
        } else {
          times[i].push_back(seconds);
        }
      }
    std::printf("%-12d", lines);
    for (size_t i = 0; i < drivers.size(); ++i)
      std::printf(" %12.3f", times[i].empty() ? -1.0 : median(times[i]));
    if (drivers.size() == 2 && !times[0].empty() && !times[1].empty())
      std::printf("   %.2fx", median(times[1]) / median(times[0]));
    std::printf("   (median of %d)\n", runs);
    std::fflush(stdout);
  }
  if (!applicationProgram(drivers))
    failed = true;
  if (!spirvAgainstSource(drivers))
    failed = true;
  return failed ? 1 : 0;
}
