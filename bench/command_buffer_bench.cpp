// The cost of a launch queued one by one against the same launch replayed
// from a command buffer (cl_khr_command_buffer 0.9.8): 256 small launches
// (1024 work-items in groups of 64), then clFinish, per launch. Host time
// is the time the application's thread spends queuing; total time runs
// until clFinish returns. Platforms without the extension at 0.9.8 (whose
// entry points have other signatures) are measured queuing only.
#include "bench_common.h"

#include "command_buffer_khr.h"

#include <cstring>

static const char *kSource = R"CLC(
kernel void touch(global int *p) { p[get_global_id(0)] += 1; }
)CLC";

static bool hasCommandBuffer098(cl_device_id device) {
  size_t size = 0;
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &size);
  std::vector<cl_name_version> list(size / sizeof(cl_name_version));
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list.data(),
                  nullptr);
  for (const cl_name_version &e : list)
    if (std::strcmp(e.name, "cl_khr_command_buffer") == 0)
      return e.version == CL_MAKE_VERSION(0, 9, 8);
  return false;
}

struct Result {
  double queued_host_us, queued_total_us, replay_host_us, replay_total_us;
  bool replay = false;
  bool correct = true;
};

static bool measure(cl_platform_id platform, Result &r) {
  cl_device_id device;
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr))
    return false;
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  if (clBuildProgram(prog, 1, &device, "", nullptr, nullptr))
    return false;
  cl_kernel k = clCreateKernel(prog, "touch", &err);
  const size_t global = 1024, local = 64;
  constexpr int kLaunches = 256;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, global * 4, nullptr, &err);
  int zero = 0;
  clEnqueueFillBuffer(q, m, &zero, 4, 0, global * 4, 0, nullptr, nullptr);
  clSetKernelArg(k, 0, sizeof m, &m);
  clFinish(q);

  cl_command_buffer_khr cb = nullptr;
  command_buffer_khr::Functions khr(platform);
  r.replay = hasCommandBuffer098(device) && khr.complete();
  if (r.replay) {
    cb = khr.create(1, &q, nullptr, &err);
    for (int i = 0; i < kLaunches; ++i)
      khr.ndrange(cb, nullptr, nullptr, k, 1, nullptr, &global, &local, 0,
                  nullptr, nullptr, nullptr);
    khr.finalize(cb);
  }
  std::vector<double> qh, qt, rh, rt;
  for (int round = 0; round < 41; ++round) {
    double t0 = nowSeconds();
    for (int i = 0; i < kLaunches; ++i)
      clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr,
                             nullptr);
    double t1 = nowSeconds();
    clFinish(q);
    double t2 = nowSeconds();
    if (round > 0) {
      qh.push_back((t1 - t0) * 1e6 / kLaunches);
      qt.push_back((t2 - t0) * 1e6 / kLaunches);
    }
    if (!cb)
      continue;
    t0 = nowSeconds();
    khr.enqueue(0, nullptr, cb, 0, nullptr, nullptr);
    t1 = nowSeconds();
    clFinish(q);
    t2 = nowSeconds();
    if (round > 0) {
      rh.push_back((t1 - t0) * 1e6 / kLaunches);
      rt.push_back((t2 - t0) * 1e6 / kLaunches);
    }
  }
  // Every launch, queued or replayed, added one to every element.
  std::vector<int> out(global);
  clEnqueueReadBuffer(q, m, CL_TRUE, 0, global * 4, out.data(), 0, nullptr,
                      nullptr);
  const int expected = 41 * kLaunches * (cb ? 2 : 1);
  for (int v : out)
    if (v != expected) {
      std::fprintf(stderr, "wrong result: %d, expected %d\n", v, expected);
      r.correct = false;
      break;
    }
  r.queued_host_us = median(qh);
  r.queued_total_us = median(qt);
  r.replay_host_us = cb ? median(rh) : 0;
  r.replay_total_us = cb ? median(rt) : 0;
  if (cb)
    khr.release(cb);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return true;
}

int main(int argc, char **argv) {
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i)
    names.push_back(argv[i]);
  if (names.empty())
    names = {"Weft", "Portable Computing Language"};
  std::printf(
      "per launch of 1024 work-items, 256 launches, median of 40 (us)\n");
  std::printf("%-30s %12s %12s %12s %12s\n", "platform", "queued host",
              "queued total", "replay host", "replay total");
  int status = 0;
  for (const std::string &name : names) {
    cl_platform_id p = platformNamed(name.c_str());
    Result r;
    if (!p || !measure(p, r)) {
      std::printf("%-30s not available\n", name.c_str());
      continue;
    }
    if (!r.correct)
      status = 1;
    if (r.replay)
      std::printf("%-30s %12.2f %12.2f %12.2f %12.2f\n", name.c_str(),
                  r.queued_host_us, r.queued_total_us, r.replay_host_us,
                  r.replay_total_us);
    else
      std::printf("%-30s %12.2f %12.2f %12s %12s\n", name.c_str(),
                  r.queued_host_us, r.queued_total_us, "n/a", "n/a");
  }
  return status;
}
