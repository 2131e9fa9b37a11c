// Independent commands on an out-of-order queue against the same commands
// on an in-order queue: two kernels of one work-group each (an in-order
// queue runs them one after the other on one core; an out-of-order queue
// may run them at once), two kernels with a work-group per core (nothing
// to gain, nothing may be lost), and a 64 MiB copy beside a one-group
// kernel. Each round queues the commands and waits with clFinish; medians
// of the rounds, the drivers alternating.
#include "kernel_bench.h"

namespace {

const char *kSource = R"CLC(
kernel void busy(global uint *out, int rounds) {
  uint x = get_global_id(0);
  for (int i = 0; i < rounds; ++i)
    x = x * 1664525u + 1013904223u;
  out[get_global_id(0)] = x;
}
)CLC";

uint32_t busyResult(uint32_t id, int rounds) {
  uint32_t x = id;
  for (int i = 0; i < rounds; ++i)
    x = x * 1664525u + 1013904223u;
  return x;
}

struct Case {
  const char *name;
  size_t groups;     // work-groups of 64 per kernel (0: one per core)
  bool copy = false; // the second command is a copy, not a kernel
};

struct Setup {
  cl_command_queue in_order = nullptr, out_of_order = nullptr;
  cl_kernel a = nullptr, b = nullptr;
  cl_mem out_a = nullptr, out_b = nullptr, copy_from = nullptr,
         copy_to = nullptr;
  cl_uint units = 1;
};

constexpr size_t kCopyBytes = 64 << 20;
constexpr int kRounds = 200000;

bool prepare(const Driver &d, Setup &s) {
  cl_int err;
  s.in_order = clCreateCommandQueue(d.context, d.device, 0, &err);
  s.out_of_order = clCreateCommandQueue(
      d.context, d.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  if (!s.out_of_order) {
    std::printf("%s: no out-of-order queue (error %d)\n", d.label.c_str(), err);
    return false;
  }
  std::string error;
  cl_program program = buildProgram(d, kSource, "busy", error);
  if (!program) {
    std::printf("%s: %s\n", d.label.c_str(), error.c_str());
    return false;
  }
  s.a = clCreateKernel(program, "busy", &err);
  s.b = clCreateKernel(program, "busy", &err);
  clReleaseProgram(program);
  clGetDeviceInfo(d.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof s.units,
                  &s.units, nullptr);
  size_t most = 64 * s.units * sizeof(cl_uint);
  s.out_a = bufferOf(d, most);
  s.out_b = bufferOf(d, most);
  s.copy_from = bufferOf(d, kCopyBytes);
  s.copy_to = bufferOf(d, kCopyBytes);
  int rounds = kRounds;
  for (cl_kernel k : {s.a, s.b})
    clSetKernelArg(k, 1, sizeof rounds, &rounds);
  clSetKernelArg(s.a, 0, sizeof s.out_a, &s.out_a);
  clSetKernelArg(s.b, 0, sizeof s.out_b, &s.out_b);
  return true;
}

void release(Setup &s) {
  for (cl_mem m : {s.out_a, s.out_b, s.copy_from, s.copy_to})
    clReleaseMemObject(m);
  clReleaseKernel(s.a);
  clReleaseKernel(s.b);
  clReleaseCommandQueue(s.in_order);
  clReleaseCommandQueue(s.out_of_order);
}

// One round: both commands, then clFinish; seconds. Checks kernel A's
// output (and B's, or the copy's first word).
double round(const Driver &d, Setup &s, const Case &c, cl_command_queue q,
             std::string &error) {
  size_t local = 64, global = 64 * (c.groups ? c.groups : s.units);
  double t0 = nowSeconds();
  clEnqueueNDRangeKernel(q, s.a, 1, nullptr, &global, &local, 0, nullptr,
                         nullptr);
  if (c.copy)
    clEnqueueCopyBuffer(q, s.copy_from, s.copy_to, 0, 0, kCopyBytes, 0, nullptr,
                        nullptr);
  else
    clEnqueueNDRangeKernel(q, s.b, 1, nullptr, &global, &local, 0, nullptr,
                           nullptr);
  clFinish(q);
  double seconds = nowSeconds() - t0;
  std::vector<uint32_t> a = readBack<uint32_t>(d, s.out_a, global);
  for (size_t i = 0; i < global && error.empty(); ++i)
    if (a[i] != busyResult(uint32_t(i), kRounds))
      error = "kernel result " + std::to_string(i) + " wrong";
  if (!c.copy) {
    std::vector<uint32_t> b = readBack<uint32_t>(d, s.out_b, global);
    if (b != a)
      error = "second kernel's results differ";
  }
  return seconds;
}

} // namespace

// out_of_order_bench [driver names]
int main(int argc, char **argv) {
  std::vector<Driver> drivers = driversFromArguments(argc, argv);
  std::vector<Setup> setups(drivers.size());
  std::vector<bool> ready(drivers.size());
  for (size_t i = 0; i < drivers.size(); ++i) {
    ready[i] = prepare(drivers[i], setups[i]);
    if (ready[i]) {
      // Random contents for the copy, once.
      cl_uint pattern = 0x5eed;
      clEnqueueFillBuffer(drivers[i].queue, setups[i].copy_from, &pattern,
                          sizeof pattern, 0, kCopyBytes, 0, nullptr, nullptr);
      clFinish(drivers[i].queue);
    }
  }
  const Case cases[] = {{"2 kernels, 1 group each", 1},
                        {"2 kernels, 1 group per core", 0},
                        {"1-group kernel + 64 MiB copy", 1, true}};
  std::printf("Two independent commands, then clFinish: median ms of 15 "
              "rounds, drivers alternating; speed-up = in-order / "
              "out-of-order\n");
  std::printf("%-30s %-6s %12s %12s %9s\n", "commands", "driver", "in order",
              "out of order", "speed-up");
  bool failed = false;
  for (const Case &c : cases) {
    std::vector<std::vector<double>> in(drivers.size()), out(drivers.size());
    for (int r = 0; r < 16; ++r)
      for (size_t i = 0; i < drivers.size(); ++i) {
        if (!ready[i])
          continue;
        std::string error;
        double t_in =
            round(drivers[i], setups[i], c, setups[i].in_order, error);
        double t_out =
            round(drivers[i], setups[i], c, setups[i].out_of_order, error);
        if (!error.empty()) {
          std::fprintf(stderr, "ERROR: %s on %s: %s\n", c.name,
                       drivers[i].label.c_str(), error.c_str());
          failed = true;
          ready[i] = false;
          continue;
        }
        if (r > 0) { // the first round warms up
          in[i].push_back(t_in * 1e3);
          out[i].push_back(t_out * 1e3);
        }
      }
    for (size_t i = 0; i < drivers.size(); ++i) {
      if (in[i].empty())
        continue;
      std::printf("%-30s %-6s %12.2f %12.2f %8.2fx\n", c.name,
                  drivers[i].label.c_str(), median(in[i]), median(out[i]),
                  median(in[i]) / median(out[i]));
    }
    std::fflush(stdout);
  }
  for (size_t i = 0; i < drivers.size(); ++i)
    if (setups[i].out_of_order)
      release(setups[i]);
  return failed ? 1 : 0;
}
