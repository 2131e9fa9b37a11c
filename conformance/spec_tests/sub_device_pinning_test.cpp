// Sub-devices own their compute units (OpenCL 3.0 API spec, 4.3,
// "Partitioning a device"): the work of one sub-device never runs on
// another's cores. The CPU device is split equally into one-unit
// sub-devices; each runs a kernel long enough to show up in the per-thread
// CPU times of /proc/self/task. Every thread that did the work of a
// sub-device must be pinned (sched_getaffinity) to as many CPUs as the
// sub-device has units, must last have run on one of them, and those CPUs
// must not be any other sub-device's.
#include "api_fixture.h"

#include <dirent.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace {

struct ThreadSample {
  long cpu_ticks = 0; // user + system time
  int last_cpu = -1;
};

// The process's threads, by id: CPU time so far and the CPU last run on
// (fields 14, 15 and 39 of proc(5)'s stat).
std::map<pid_t, ThreadSample> sampleThreads() {
  std::map<pid_t, ThreadSample> threads;
  DIR *dir = opendir("/proc/self/task");
  REQUIRE(dir != nullptr);
  while (dirent *entry = readdir(dir)) {
    if (entry->d_name[0] == '.')
      continue;
    std::ifstream stat(std::string("/proc/self/task/") + entry->d_name +
                       "/stat");
    std::string line;
    if (!std::getline(stat, line))
      continue; // the thread ended meanwhile
    // The command name may hold spaces: fields count from its ')'.
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    std::vector<std::string> fields;
    for (std::string f; rest >> f;)
      fields.push_back(f);
    if (fields.size() < 37)
      continue;
    ThreadSample sample;
    sample.cpu_ticks = std::stol(fields[11]) + std::stol(fields[12]);
    sample.last_cpu = std::stoi(fields[36]);
    threads[static_cast<pid_t>(std::stoi(entry->d_name))] = sample;
  }
  closedir(dir);
  return threads;
}

std::set<int> affinityOf(pid_t thread) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  REQUIRE(sched_getaffinity(thread, sizeof mask, &mask) == 0);
  std::set<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &mask))
      cpus.insert(c);
  return cpus;
}

// Every work-item spins for `rounds` steps of a generator.
const char *kSpinSource = R"(
kernel void spin(global uint *out, int rounds) {
  uint x = get_global_id(0);
  for (int i = 0; i < rounds; ++i)
    x = x * 1664525u + 1013904223u;
  out[get_global_id(0)] = x;
}
)";

} // namespace

TEST_CASE_METHOD(WeftFixture,
                 "a sub-device runs its work only on its own cores",
                 "[sub-devices]") {
  cl_uint units = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units,
                          &units, nullptr) == CL_SUCCESS);
  std::set<int> process_cpus = affinityOf(0);
  REQUIRE(units == process_cpus.size());
  if (units < 2) {
    WARN("one CPU: no partition to check");
    return;
  }
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                  1, 0};
  std::vector<cl_device_id> subs(units);
  REQUIRE(clCreateSubDevices(device, equally, units, subs.data(), nullptr) ==
          CL_SUCCESS);
  cl_int err;
  cl_context sub_context =
      clCreateContext(nullptr, units, subs.data(), nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_program program =
      clCreateProgramWithSource(sub_context, 1, &kSpinSource, nullptr, &err);
  REQUIRE(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr) ==
          CL_SUCCESS);
  cl_kernel spin = clCreateKernel(program, "spin", &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem out = clCreateBuffer(sub_context, CL_MEM_READ_WRITE,
                              256 * sizeof(cl_uint), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  clSetKernelArg(spin, 0, sizeof out, &out);
  // Enough rounds for a quarter of a second of one core's time per launch,
  // found by doubling on the first sub-device.
  cl_int rounds = 100000;
  const size_t global = 256, local = 16;
  for (;;) {
    cl_command_queue q = clCreateCommandQueue(sub_context, subs[0], 0, &err);
    REQUIRE(err == CL_SUCCESS);
    clSetKernelArg(spin, 1, sizeof rounds, &rounds);
    auto start = std::chrono::steady_clock::now();
    REQUIRE(clEnqueueNDRangeKernel(q, spin, 1, nullptr, &global, &local, 0,
                                   nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(q) == CL_SUCCESS);
    clReleaseCommandQueue(q);
    if (std::chrono::steady_clock::now() - start >
            std::chrono::milliseconds(250) ||
        rounds > (1 << 29))
      break;
    rounds *= 2;
  }

  const pid_t self = static_cast<pid_t>(syscall(SYS_gettid));
  std::set<int> claimed; // CPUs already seen working for a sub-device
  for (cl_device_id sub : subs) {
    cl_command_queue q = clCreateCommandQueue(sub_context, sub, 0, &err);
    REQUIRE(err == CL_SUCCESS);
    std::map<pid_t, ThreadSample> before = sampleThreads();
    REQUIRE(clEnqueueNDRangeKernel(q, spin, 1, nullptr, &global, &local, 0,
                                   nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(q) == CL_SUCCESS);
    std::map<pid_t, ThreadSample> after = sampleThreads();

    // The threads that did the work: those that gained at least 50 ms.
    long tick = sysconf(_SC_CLK_TCK);
    std::set<int> used;
    int workers = 0;
    for (const auto &[thread, sample] : after) {
      long gained = sample.cpu_ticks -
                    (before.count(thread) ? before[thread].cpu_ticks : 0);
      if (gained * 20 < tick)
        continue;
      INFO("thread " << thread << " gained " << gained << " ticks");
      CHECK(thread != self); // no application thread runs work-groups
      std::set<int> pinned = affinityOf(thread);
      CHECK(pinned.size() == 1); // one unit: one CPU
      CHECK(pinned.count(sample.last_cpu) == 1);
      used.insert(pinned.begin(), pinned.end());
      ++workers;
    }
    CHECK(workers >= 1);
    CHECK(used.size() == 1);
    for (int cpu : used) {
      CHECK(process_cpus.count(cpu) == 1);
      CHECK(claimed.count(cpu) == 0); // not another sub-device's
      claimed.insert(cpu);
    }
    clReleaseCommandQueue(q);
  }
  CHECK(claimed.size() == units);
  clReleaseMemObject(out);
  clReleaseKernel(spin);
  clReleaseProgram(program);
  clReleaseContext(sub_context);
  for (cl_device_id sub : subs)
    clReleaseDevice(sub);
}
