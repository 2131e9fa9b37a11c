// Launch latency (enqueue only; enqueue + clFinish round trip of a
// 1-work-item kernel), vector-add bandwidth and the time to rebuild a program
// from the driver's on-disk cache, for each platform named on
// the command line (default: Weft and Portable Computing Language). Then the
// enqueue cost with a backlog (issue 19): 2000 launches of one NDRange size
// enqueued back to back, then one clFinish, for sizes from 1 work-item to
// 1Mi.
#include "bench_common.h"

#include <iterator>
#include <string>
#include <utility>

static const char *kSource = R"CLC(
kernel void empty(global int *p) { if (get_global_id(0) == 1234567) p[0] = 1; }
kernel void vadd(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)CLC";

// The NDRange sizes of the backlog table: global and local size (0: NULL).
struct LaunchShape {
  size_t global, local;
};
constexpr LaunchShape kBacklogShapes[] = {
    {1, 0}, {1024, 64}, {65536, 64}, {size_t(1) << 20, 256}};
constexpr size_t kBacklogShapeCount = std::size(kBacklogShapes);

struct Result {
  double enqueue_us, round_trip_us, vadd_gbs, rebuild_ms;
  // Per shape: us per enqueue with 2000 queued, and the clFinish after.
  double backlog_enqueue_us[kBacklogShapeCount];
  double backlog_finish_ms[kBacklogShapeCount];
};

// 2000 launches of `k` enqueued without waiting, then clFinish: the median
// over 5 rounds of the enqueue time per launch and of the clFinish time.
static void backlog(cl_command_queue q, cl_kernel k, const LaunchShape &shape,
                    double &enqueue_us, double &finish_ms) {
  std::vector<double> enqueues, finishes;
  for (int round = 0; round < 5; ++round) {
    double t0 = nowSeconds();
    for (int i = 0; i < 2000; ++i)
      clEnqueueNDRangeKernel(q, k, 1, nullptr, &shape.global,
                             shape.local ? &shape.local : nullptr, 0, nullptr,
                             nullptr);
    double t1 = nowSeconds();
    clFinish(q);
    double t2 = nowSeconds();
    enqueues.push_back((t1 - t0) / 2000 * 1e6);
    finishes.push_back((t2 - t1) * 1e3);
  }
  enqueue_us = median(enqueues);
  finish_ms = median(finishes);
}

// A rebuild of a program this machine has built before: creation from
// source plus clBuildProgram, served by the driver's on-disk cache.
static double rebuildMilliseconds(cl_context ctx, cl_device_id device) {
  std::vector<double> times;
  for (int i = 0; i < 22; ++i) {
    double t0 = nowSeconds();
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
    err |= clBuildProgram(p, 1, &device, "", nullptr, nullptr);
    double t1 = nowSeconds();
    clReleaseProgram(p);
    if (err != CL_SUCCESS)
      return -1;
    if (i > 0) // the first may compile if the cache was cold
      times.push_back((t1 - t0) * 1e3);
  }
  return median(times);
}

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
  cl_kernel empty = clCreateKernel(prog, "empty", &err);
  cl_kernel vadd = clCreateKernel(prog, "vadd", &err);
  const size_t n = size_t(1) << 24;
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, nullptr, &err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, nullptr, &err);
  cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, nullptr, &err);
  float zero = 0;
  clEnqueueFillBuffer(q, a, &zero, 4, 0, n * 4, 0, nullptr, nullptr);
  clEnqueueFillBuffer(q, b, &zero, 4, 0, n * 4, 0, nullptr, nullptr);
  clSetKernelArg(empty, 0, sizeof(cl_mem), &a);
  clSetKernelArg(vadd, 0, sizeof(cl_mem), &a);
  clSetKernelArg(vadd, 1, sizeof(cl_mem), &b);
  clSetKernelArg(vadd, 2, sizeof(cl_mem), &c);
  clFinish(q);

  const size_t one = 1;
  std::vector<double> enqueue, round_trip, bandwidth;
  for (int i = 0; i < 2000; ++i) {
    double t0 = nowSeconds();
    clEnqueueNDRangeKernel(q, empty, 1, nullptr, &one, nullptr, 0, nullptr,
                           nullptr);
    double t1 = nowSeconds();
    clFinish(q);
    double t2 = nowSeconds();
    if (i >= 100) {
      enqueue.push_back((t1 - t0) * 1e6);
      round_trip.push_back((t2 - t0) * 1e6);
    }
  }
  for (int i = 0; i < 21; ++i) {
    double t0 = nowSeconds();
    clEnqueueNDRangeKernel(q, vadd, 1, nullptr, &n, nullptr, 0, nullptr,
                           nullptr);
    clFinish(q);
    double t1 = nowSeconds();
    if (i > 0)
      bandwidth.push_back(3.0 * n * 4 / (t1 - t0) / 1e9);
  }
  r.enqueue_us = median(enqueue);
  r.round_trip_us = median(round_trip);
  r.vadd_gbs = median(bandwidth);
  r.rebuild_ms = rebuildMilliseconds(ctx, device);
  for (size_t i = 0; i < kBacklogShapeCount; ++i)
    backlog(q, empty, kBacklogShapes[i], r.backlog_enqueue_us[i],
            r.backlog_finish_ms[i]);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(c);
  clReleaseKernel(empty);
  clReleaseKernel(vadd);
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
  std::printf("%-30s %14s %16s %14s %14s\n", "platform", "enqueue (us)",
              "round trip (us)", "vadd (GB/s)", "rebuild (ms)");
  std::vector<std::pair<std::string, Result>> results;
  for (const std::string &name : names) {
    cl_platform_id p = platformNamed(name.c_str());
    Result r;
    if (!p || !measure(p, r)) {
      std::printf("%-30s not available\n", name.c_str());
      continue;
    }
    std::printf("%-30s %14.2f %16.2f %14.2f %14.2f\n", name.c_str(),
                r.enqueue_us, r.round_trip_us, r.vadd_gbs, r.rebuild_ms);
    results.emplace_back(name, r);
  }
  std::printf("\nEnqueue with a backlog: 2000 launches enqueued back to back, "
              "then clFinish; median of 5 rounds: us per enqueue / ms of the "
              "clFinish\n%-30s",
              "platform");
  for (const LaunchShape &shape : kBacklogShapes)
    std::printf(" %20s", (std::to_string(shape.global) + "/" +
                          (shape.local ? std::to_string(shape.local) : "NULL"))
                             .c_str());
  std::printf("\n");
  for (const auto &[name, r] : results) {
    std::printf("%-30s", name.c_str());
    for (size_t i = 0; i < kBacklogShapeCount; ++i)
      std::printf(" %9.2f / %8.1f", r.backlog_enqueue_us[i],
                  r.backlog_finish_ms[i]);
    std::printf("\n");
  }
  return 0;
}
