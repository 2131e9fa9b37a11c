// Pipe throughput on Weft (issue 5): a writer kernel fills a pipe and a
// reader kernel empties it, with the 2-argument builtins, with one
// reservation per work-item, and with one reservation per work-group; the
// reference line is a memcpy of the same bytes. PoCL has no pipes, so there
// is no ratio against it. Each run checks that every packet came through.
#include "bench_common.h"

#include <cstring>
#include <string>
#include <vector>

namespace {

const char *kSource = R"CLC(
__kernel void write2(__write_only pipe int p) {
  int v = get_global_id(0);
  write_pipe(p, &v);
}
__kernel void read2(__read_only pipe int p, __global int *out) {
  int v = -1;
  read_pipe(p, &v);
  out[get_global_id(0)] = v;
}
__kernel void write_item(__write_only pipe int p) {
  int v = get_global_id(0);
  reserve_id_t r = reserve_write_pipe(p, 1);
  if (is_valid_reserve_id(r)) {
    write_pipe(p, r, 0, &v);
    commit_write_pipe(p, r);
  }
}
__kernel void read_item(__read_only pipe int p, __global int *out) {
  int v = -1;
  reserve_id_t r = reserve_read_pipe(p, 1);
  if (is_valid_reserve_id(r)) {
    read_pipe(p, r, 0, &v);
    commit_read_pipe(p, r);
  }
  out[get_global_id(0)] = v;
}
__kernel void write_group(__write_only pipe int p) {
  int v = get_global_id(0);
  reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(r))
    write_pipe(p, r, get_local_id(0), &v);
  work_group_commit_write_pipe(p, r);
}
__kernel void read_group(__read_only pipe int p, __global int *out) {
  int v = -1;
  reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(r))
    read_pipe(p, r, get_local_id(0), &v);
  work_group_commit_read_pipe(p, r);
  out[get_global_id(0)] = v;
}
)CLC";

constexpr size_t kPackets = size_t(1) << 22; // 16 MiB of int packets
constexpr size_t kLocal = 256;
constexpr int kRuns = 15;

struct Setup {
  cl_context context;
  cl_command_queue queue;
  cl_program program;
  cl_mem pipe, out;
};

double run(Setup &s, cl_kernel kernel) {
  size_t global = kPackets, local = kLocal;
  double start = nowSeconds();
  clEnqueueNDRangeKernel(s.queue, kernel, 1, nullptr, &global, &local, 0,
                         nullptr, nullptr);
  clFinish(s.queue);
  return nowSeconds() - start;
}

// Median seconds for a write and a read of every packet; false if any packet
// went missing or came twice.
bool measure(Setup &s, const char *writer, const char *reader, double &write,
             double &read) {
  cl_int err;
  cl_kernel w = clCreateKernel(s.program, writer, &err);
  cl_kernel r = clCreateKernel(s.program, reader, &err);
  clSetKernelArg(w, 0, sizeof s.pipe, &s.pipe);
  clSetKernelArg(r, 0, sizeof s.pipe, &s.pipe);
  clSetKernelArg(r, 1, sizeof s.out, &s.out);
  std::vector<double> writes, reads;
  bool ok = true;
  std::vector<int> got(kPackets);
  for (int i = 0; i < kRuns; ++i) {
    writes.push_back(run(s, w));
    reads.push_back(run(s, r));
    if (i == 0) {
      clEnqueueReadBuffer(s.queue, s.out, CL_TRUE, 0, kPackets * sizeof(int),
                          got.data(), 0, nullptr, nullptr);
      std::vector<char> seen(kPackets, 0);
      for (int v : got)
        if (v < 0 || size_t(v) >= kPackets || seen[v]++)
          ok = false;
    }
  }
  write = median(writes);
  read = median(reads);
  clReleaseKernel(w);
  clReleaseKernel(r);
  return ok;
}

} // namespace

int main() {
  cl_platform_id platform = platformNamed("Weft");
  cl_device_id device;
  if (!platform ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr)) {
    std::printf("Weft: not available\n");
    return 1;
  }
  Setup s;
  cl_int err;
  s.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  s.queue =
      clCreateCommandQueueWithProperties(s.context, device, nullptr, &err);
  s.program = clCreateProgramWithSource(s.context, 1, &kSource, nullptr, &err);
  if (clBuildProgram(s.program, 1, &device, "-cl-std=CL3.0", nullptr,
                     nullptr)) {
    std::printf("pipe_bench: build failed\n");
    return 1;
  }
  s.pipe = clCreatePipe(s.context, 0, sizeof(int), kPackets, nullptr, &err);
  s.out = clCreateBuffer(s.context, CL_MEM_READ_WRITE, kPackets * sizeof(int),
                         nullptr, &err);

  // The reference: the same bytes, one memcpy in and one out.
  std::vector<int> a(kPackets, 1), b(kPackets), c(kPackets);
  std::vector<double> copies;
  for (int i = 0; i < kRuns; ++i) {
    double start = nowSeconds();
    std::memcpy(b.data(), a.data(), kPackets * sizeof(int));
    std::memcpy(c.data(), b.data(), kPackets * sizeof(int));
    copies.push_back(nowSeconds() - start);
  }
  double copy = median(copies) / 2;
  std::printf("Pipes: %zu int packets written by one kernel and read by the "
              "next, groups of %zu; median of %d runs\n",
              kPackets, kLocal, kRuns);
  std::printf("%-34s %10s %10s %14s %12s\n", "form", "write ms", "read ms",
              "Mpackets/s", "vs memcpy");
  std::printf("%-34s %10.3f %10.3f %14.1f %12s\n", "memcpy of the same bytes",
              copy * 1e3, copy * 1e3, kPackets / copy / 1e6, "1.00x");
  struct Form {
    const char *name, *writer, *reader;
  } forms[] = {{"read_pipe/write_pipe (2 arguments)", "write2", "read2"},
               {"a reservation per work-item", "write_item", "read_item"},
               {"a reservation per work-group", "write_group", "read_group"}};
  bool all_ok = true;
  for (const Form &f : forms) {
    double write, read;
    bool ok = measure(s, f.writer, f.reader, write, read);
    all_ok &= ok;
    double per_direction = (write + read) / 2;
    std::printf("%-34s %10.3f %10.3f %14.1f %11.2fx%s\n", f.name, write * 1e3,
                read * 1e3, kPackets / per_direction / 1e6,
                per_direction / copy, ok ? "" : "  ERROR: packets lost");
  }
  std::printf("(vs memcpy: the form's time over memcpy's; lower is better)\n");
  return all_ok ? 0 : 1;
}
