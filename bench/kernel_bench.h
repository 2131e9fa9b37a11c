// Shared by the kernel benchmarks (workgroup_bench, async_copy_bench): runs
// the same OpenCL C kernel on every driver in one process, checks its output
// against a host reference and prints median times with the Weft/PoCL ratio.
#pragma once
#include "bench_common.h"

#include <fstream>
#include <functional>
#include <map>

// Small integers as floats: sums and products of these stay exact in float
// whatever the order of the operations or whether they are fused, so
// kernels' results compare exactly with the host's.
inline std::vector<float> smallIntegers(size_t n, unsigned seed, int range) {
  std::vector<float> v(n);
  unsigned x = seed;
  for (float &f : v) {
    x = x * 1664525u + 1013904223u;
    f = float((x >> 16) % unsigned(range));
  }
  return v;
}

struct Driver {
  std::string label; // short name in the tables
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::string extensions; // and the OpenCL C features, space-separated
};

// The platforms to compare: "Weft" and PoCL unless named on the command line.
inline std::vector<Driver> openDrivers(const std::vector<std::string> &names) {
  std::vector<Driver> drivers;
  for (const std::string &name : names) {
    cl_platform_id platform = platformNamed(name.c_str());
    Driver d;
    d.label = name == "Portable Computing Language" ? "PoCL" : name;
    cl_int err = CL_INVALID_PLATFORM;
    if (platform &&
        !clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &d.device, nullptr)) {
      d.context =
          clCreateContext(nullptr, 1, &d.device, nullptr, nullptr, &err);
      if (d.context)
        d.queue = clCreateCommandQueueWithProperties(d.context, d.device,
                                                     nullptr, &err);
    }
    if (!d.queue) {
      std::printf("%s: not available (error %d)\n", name.c_str(), err);
      continue;
    }
    char extensions[4096] = {};
    clGetDeviceInfo(d.device, CL_DEVICE_EXTENSIONS, sizeof(extensions),
                    extensions, nullptr);
    d.extensions = extensions;
    // The OpenCL C features too, so a benchmark can need one.
    size_t size = 0;
    if (!clGetDeviceInfo(d.device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr,
                         &size)) {
      std::vector<cl_name_version> features(size / sizeof(cl_name_version));
      clGetDeviceInfo(d.device, CL_DEVICE_OPENCL_C_FEATURES, size,
                      features.data(), nullptr);
      for (const cl_name_version &feature : features)
        d.extensions += std::string(" ") + feature.name;
    }
    drivers.push_back(d);
  }
  return drivers;
}

// With --dump-elf DIR every program built is searched for the ELF image
// that holds `kernel`'s work-group function (Weft's binary holds one shared
// object per part of a program, see runtime/program_executable.h), which is
// written to DIR/<driver>-<kernel>.so for objdump.
inline std::string &elfDumpDirectory() {
  static std::string directory;
  return directory;
}

// The size of the 64-bit ELF image at `image` (its section headers come
// last, as lld writes them), or 0 if `available` bytes cannot hold it.
inline size_t elfImageSize(const unsigned char *image, size_t available) {
  constexpr size_t kHeaderSize = 64;
  if (available < kHeaderSize || image[4] != 2) // ELFCLASS64
    return 0;
  uint64_t section_offset;
  uint16_t entry_size, count;
  std::memcpy(&section_offset, image + 0x28, sizeof(section_offset));
  std::memcpy(&entry_size, image + 0x3a, sizeof(entry_size));
  std::memcpy(&count, image + 0x3c, sizeof(count));
  uint64_t end = section_offset + uint64_t(entry_size) * count;
  return end <= available ? size_t(end) : 0;
}

inline void dumpElf(const Driver &d, cl_program program,
                    const std::string &kernel) {
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size,
                       nullptr) ||
      size == 0)
    return;
  std::vector<unsigned char> binary(size);
  unsigned char *pointer = binary.data();
  clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(pointer), &pointer,
                   nullptr);
  static const unsigned char kMagic[] = {0x7f, 'E', 'L', 'F'};
  const std::string symbol = "__weft_group_" + kernel;
  const unsigned char *chosen = nullptr;
  size_t chosen_size = 0;
  for (auto at = binary.begin();
       (at = std::search(at, binary.end(), kMagic, kMagic + 4)) !=
       binary.end();) {
    size_t image_size = elfImageSize(&*at, size_t(binary.end() - at));
    if (image_size == 0) {
      ++at;
      continue;
    }
    // The image that names the kernel's entry, else the first one.
    std::string bytes(reinterpret_cast<const char *>(&*at), image_size);
    bool names_kernel = bytes.find(symbol + '\0') != std::string::npos;
    if (!chosen || names_kernel) {
      chosen = &*at;
      chosen_size = image_size;
    }
    if (names_kernel)
      break;
    at += image_size;
  }
  if (!chosen)
    return;
  std::string path = elfDumpDirectory() + "/" + d.label + "-" + kernel + ".so";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char *>(chosen), chosen_size);
  std::printf("  wrote %s\n", path.c_str());
}

// Builds `source`; on failure returns null and puts the build log in `error`.
inline cl_program buildProgram(const Driver &d, const char *source,
                               const std::string &name, std::string &error,
                               const char *options = "") {
  cl_int err;
  cl_program program =
      clCreateProgramWithSource(d.context, 1, &source, nullptr, &err);
  if (!program) {
    error = "clCreateProgramWithSource: error " + std::to_string(err);
    return nullptr;
  }
  err = clBuildProgram(program, 1, &d.device, options, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, d.device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                          &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, d.device, CL_PROGRAM_BUILD_LOG, size,
                          &log[0], nullptr);
    error =
        "clBuildProgram: error " + std::to_string(err) + ", build log:\n" + log;
    clReleaseProgram(program);
    return nullptr;
  }
  if (!elfDumpDirectory().empty())
    dumpElf(d, program, name);
  return program;
}

template <typename T>
cl_mem bufferWith(const Driver &d, const std::vector<T> &host) {
  return clCreateBuffer(d.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        host.size() * sizeof(T), const_cast<T *>(host.data()),
                        nullptr);
}

inline cl_mem bufferOf(const Driver &d, size_t bytes) {
  return clCreateBuffer(d.context, CL_MEM_READ_WRITE, bytes, nullptr, nullptr);
}

template <typename T>
std::vector<T> readBack(const Driver &d, cl_mem buffer, size_t count) {
  std::vector<T> host(count);
  clEnqueueReadBuffer(d.queue, buffer, CL_TRUE, 0, count * sizeof(T),
                      host.data(), 0, nullptr, nullptr);
  return host;
}

// Compares element by element; describes the first mismatch and how many
// there are.
template <typename T>
std::string compareExact(const std::vector<T> &got,
                         const std::vector<T> &expected, const char *what) {
  size_t wrong = 0, first = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    if (!(got[i] == expected[i]) && wrong++ == 0)
      first = i;
  if (wrong == 0)
    return "";
  char text[256];
  std::snprintf(text, sizeof(text),
                "%zu of %zu %s wrong; first at %zu: got %.9g, expected %.9g",
                wrong, expected.size(), what, first, double(got[first]),
                double(expected[first]));
  return text;
}

// One benchmark set up on one driver: the launch to time, and a check of
// the output after `launches` launches (empty when correct).
struct Instance {
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  std::vector<cl_mem> buffers;
  cl_uint dims = 1;
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  std::function<std::string(int launches)> verify;
  // Frees what is not a buffer (SVM allocations), if anything.
  std::function<void()> cleanup;

  cl_int launch(const Driver &d) const {
    cl_int err = clEnqueueNDRangeKernel(d.queue, kernel, dims, nullptr, global,
                                        local, 0, nullptr, nullptr);
    cl_int finished = clFinish(d.queue);
    return err ? err : finished;
  }
  void release() {
    for (cl_mem b : buffers)
      clReleaseMemObject(b);
    if (kernel)
      clReleaseKernel(kernel);
    if (program)
      clReleaseProgram(program);
    if (cleanup)
      cleanup();
  }
};

// Builds `source` and creates `kernel_name` from it, or says why not.
inline bool prepare(const Driver &d, Instance &instance, const char *source,
                    const char *kernel_name, std::string &error,
                    const char *options = "") {
  instance.program = buildProgram(d, source, kernel_name, error, options);
  if (!instance.program)
    return false;
  cl_int err;
  instance.kernel = clCreateKernel(instance.program, kernel_name, &err);
  if (!instance.kernel) {
    error = std::string("clCreateKernel(") + kernel_name + "): error " +
            std::to_string(err);
    return false;
  }
  return true;
}

struct Benchmark {
  std::string name;
  std::string unit; // of the throughput figure, e.g. "GB/s"
  double work;      // per launch, in the units of `unit` times 1e9
  // Extension or OpenCL C feature a driver must report to run it (empty:
  // none).
  std::string needs;
  // Other capabilities it must have (unset: none), e.g. an SVM level.
  std::function<bool(const Driver &)> available;
  std::function<bool(const Driver &, Instance &, std::string &)> setup;
  // The same work done by the host itself (e.g. the STREAM triad for a
  // streaming kernel): timed in the same alternation as the drivers, one
  // run after theirs in each round, so that the drivers' figures can be
  // read against what this machine's cores do without OpenCL.
  struct HostReference {
    std::string name;
    double work; // per run, in the units of `unit` times 1e9
    std::function<void()> run;
  };
  std::vector<HostReference> host_references;
};

struct Outcome {
  bool ran = false;   // false: not supported by the driver
  std::string error;  // build, launch or verification failure
  double seconds = 0; // median per launch
};

// Runs every benchmark on every driver: one warm-up launch each, then timed
// launches that alternate between drivers so that load from elsewhere on
// this shared machine falls on both alike. Repetitions fit `budget` seconds
// (at least 5). The output is checked after the last launch.
class Runner {
public:
  Runner(std::vector<Driver> drivers, double budget)
      : drivers_(std::move(drivers)), budget_(budget) {}

  void run(const Benchmark &b) {
    std::vector<Instance> instances(drivers_.size());
    std::vector<Outcome> &outcomes = results_[b.name];
    outcomes.assign(drivers_.size(), Outcome());
    std::vector<std::vector<double>> times(drivers_.size());
    std::vector<int> launches(drivers_.size(), 0);
    double warm = 0;
    for (size_t i = 0; i < drivers_.size(); ++i) {
      const Driver &d = drivers_[i];
      if (!b.needs.empty() && d.extensions.find(b.needs) == std::string::npos)
        continue;
      if (b.available && !b.available(d))
        continue;
      outcomes[i].ran = true;
      if (!b.setup(d, instances[i], outcomes[i].error))
        continue;
      double t0 = nowSeconds();
      cl_int err = instances[i].launch(d);
      warm += nowSeconds() - t0;
      ++launches[i];
      if (err)
        outcomes[i].error = "launch: error " + std::to_string(err);
    }
    for (const Benchmark::HostReference &host : b.host_references) {
      double t0 = nowSeconds();
      host.run();
      warm += nowSeconds() - t0;
    }
    int reps = warm > 0 ? int(budget_ / warm) : 5;
    reps = std::max(5, std::min(41, reps));
    std::vector<std::vector<double>> host_times(b.host_references.size());
    for (int r = 0; r < reps; ++r) {
      for (size_t i = 0; i < drivers_.size(); ++i) {
        if (!outcomes[i].ran || !outcomes[i].error.empty())
          continue;
        double t0 = nowSeconds();
        cl_int err = instances[i].launch(drivers_[i]);
        times[i].push_back(nowSeconds() - t0);
        ++launches[i];
        if (err)
          outcomes[i].error = "launch: error " + std::to_string(err);
      }
      for (size_t h = 0; h < b.host_references.size(); ++h) {
        double t0 = nowSeconds();
        b.host_references[h].run();
        host_times[h].push_back(nowSeconds() - t0);
      }
    }
    for (size_t i = 0; i < drivers_.size(); ++i) {
      if (outcomes[i].ran && outcomes[i].error.empty()) {
        outcomes[i].error = instances[i].verify(launches[i]);
        outcomes[i].seconds = median(times[i]);
      }
      instances[i].release();
    }
    print(b, outcomes, reps);
    for (size_t h = 0; h < b.host_references.size(); ++h)
      printHost(b, b.host_references[h], median(host_times[h]), outcomes);
  }

  const Outcome *outcome(const std::string &benchmark,
                         const std::string &driver) const {
    auto it = results_.find(benchmark);
    if (it == results_.end())
      return nullptr;
    for (size_t i = 0; i < drivers_.size(); ++i)
      if (drivers_[i].label == driver && it->second[i].ran &&
          it->second[i].error.empty())
        return &it->second[i];
    return nullptr;
  }

  // Prints how much faster `a` runs than `b` (time of b / time of a), each
  // on its own driver.
  void compare(const std::string &what, const std::string &a,
               const std::string &a_driver, const std::string &b,
               const std::string &b_driver) const {
    const Outcome *x = outcome(a, a_driver), *y = outcome(b, b_driver);
    if (x && y)
      std::printf("  %-62s %6.2fx\n", what.c_str(), y->seconds / x->seconds);
    else
      std::printf("  %-62s    n/a\n", what.c_str());
  }

  const std::vector<Driver> &drivers() const { return drivers_; }
  bool failed() const { return failed_; }
  // The program's exit status: 1, said on stderr, when a result was wrong
  // or missing.
  int exitStatus(const char *program) const {
    if (!failed_)
      return 0;
    std::fprintf(stderr,
                 "%s: some results are wrong or missing (see ERROR lines)\n",
                 program);
    return 1;
  }

  void header() const {
    std::printf("%-28s", "benchmark");
    for (const Driver &d : drivers_)
      std::printf(" %12s %17s", (d.label + " ms").c_str(), d.label.c_str());
    if (drivers_.size() == 2)
      std::printf(" %12s",
                  (drivers_[0].label + "/" + drivers_[1].label).c_str());
    std::printf("\n");
  }

private:
  void print(const Benchmark &b, const std::vector<Outcome> &outcomes,
             int reps) {
    std::printf("%-28s", b.name.c_str());
    for (const Outcome &o : outcomes) {
      if (!o.ran)
        std::printf(" %12s %17s", "n/a", "n/a");
      else if (!o.error.empty())
        std::printf(" %12s %17s", "FAILED", "FAILED");
      else
        std::printf(" %12.3f %9.2f %-7s", o.seconds * 1e3,
                    b.work / o.seconds / 1e9, b.unit.c_str());
    }
    // The ratio of throughputs: above 1 the first driver is faster.
    if (outcomes.size() == 2 && outcomes[0].ran && outcomes[1].ran &&
        outcomes[0].error.empty() && outcomes[1].error.empty())
      std::printf(" %11.2fx", outcomes[1].seconds / outcomes[0].seconds);
    std::printf("   (median of %d)\n", reps);
    for (size_t i = 0; i < outcomes.size(); ++i)
      if (!outcomes[i].error.empty()) {
        failed_ = true;
        std::fprintf(stderr, "ERROR: %s on %s: %s\n", b.name.c_str(),
                     drivers_[i].label.c_str(), outcomes[i].error.c_str());
      }
    std::fflush(stdout);
  }

  // A host reference's row: its time and throughput, then each driver's
  // throughput against it (above 1 the driver is faster than the host's
  // own loop).
  void printHost(const Benchmark &b, const Benchmark::HostReference &host,
                 double seconds, const std::vector<Outcome> &outcomes) const {
    std::printf("  host: %-20s %12.3f %9.2f %-7s", host.name.c_str(),
                seconds * 1e3, host.work / seconds / 1e9, b.unit.c_str());
    for (size_t i = 0; i < outcomes.size(); ++i)
      if (outcomes[i].ran && outcomes[i].error.empty())
        std::printf("  %s/host %.2fx", drivers_[i].label.c_str(),
                    (b.work / outcomes[i].seconds) / (host.work / seconds));
    std::printf("\n");
    std::fflush(stdout);
  }

  std::vector<Driver> drivers_;
  double budget_;
  std::map<std::string, std::vector<Outcome>> results_;
  bool failed_ = false;
};

// Command line shared by the kernel benchmarks: [--dump-elf DIR] [platform
// name...], default Weft and PoCL.
inline std::vector<Driver> driversFromArguments(int argc, char **argv) {
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--dump-elf" && i + 1 < argc)
      elfDumpDirectory() = argv[++i];
    else
      names.push_back(argv[i]);
  }
  if (names.empty())
    names = {"Weft", "Portable Computing Language"};
  return openDrivers(names);
}
