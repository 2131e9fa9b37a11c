// Work-group collectives (issue 16) against the same work written by hand
// with __local memory and barriers, on Weft and PoCL side by side: a
// 256-wide sum per group, and a 256-wide inclusive scan, whose throughput is
// set beside a plain copy of the same bytes (the memory-bandwidth ceiling).
// Drivers without __opencl_c_work_group_collective_functions run only the
// hand-written kernels.
#include "kernel_bench.h"

namespace {

constexpr size_t kItems = size_t(1) << 24;
constexpr size_t kGroup = 256;
constexpr const char *kCollectives =
    "__opencl_c_work_group_collective_functions";

const char *kReduceByHand = R"CLC(
kernel void reduce(global const float *in, global float *sums,
                   local float *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t step = get_local_size(0) / 2; step > 0; step /= 2) {
    if (lid < step)
      scratch[lid] += scratch[lid + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    sums[get_group_id(0)] = scratch[0];
}
)CLC";

const char *kReduceCollective = R"CLC(
kernel void reduce(global const float *in, global float *sums) {
  float sum = work_group_reduce_add(in[get_global_id(0)]);
  if (get_local_id(0) == 0)
    sums[get_group_id(0)] = sum;
}
)CLC";

// Hillis-Steele in local memory: log2(256) steps of two barriers each.
const char *kScanByHand = R"CLC(
kernel void scan(global const float *in, global float *out,
                 local float *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t offset = 1; offset < get_local_size(0); offset *= 2) {
    float add = lid >= offset ? scratch[lid - offset] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = scratch[lid];
}
)CLC";

const char *kScanCollective = R"CLC(
kernel void scan(global const float *in, global float *out) {
  out[get_global_id(0)] = work_group_scan_inclusive_add(in[get_global_id(0)]);
}
)CLC";

const char *kCopy = R"CLC(
kernel void copy(global const float *in, global float *out) {
  out[get_global_id(0)] = in[get_global_id(0)];
}
)CLC";

// The same copy with a barrier between the load and the store: what one
// barrier costs, the floor for any collective.
const char *kCopyAcrossBarrier = R"CLC(
kernel void copy(global const float *in, global float *out) {
  float value = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = value;
}
)CLC";

std::vector<float> &input() {
  static std::vector<float> data = smallIntegers(kItems, 7, 16);
  return data;
}

Benchmark reduction(const char *name, const char *source, bool local_arg,
                    const std::string &needs) {
  static std::vector<float> expected;
  expected.assign(kItems / kGroup, 0.0f);
  for (size_t i = 0; i < kItems; ++i)
    expected[i / kGroup] += input()[i];
  Benchmark bm;
  bm.name = name;
  bm.unit = "GB/s";
  bm.work = kItems * 4.0;
  bm.needs = needs;
  bm.setup = [=](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, source, "reduce", error))
      return false;
    cl_mem data = bufferWith(d, input()),
           sums = bufferOf(d, kItems / kGroup * 4);
    in.buffers = {data, sums};
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &data);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &sums);
    if (local_arg)
      clSetKernelArg(in.kernel, 2, kGroup * 4, nullptr);
    in.global[0] = kItems;
    in.local[0] = kGroup;
    in.verify = [&d, sums](int) {
      return compareExact(readBack<float>(d, sums, expected.size()), expected,
                          "group sums");
    };
    return true;
  };
  return bm;
}

Benchmark scan(const char *name, const char *source, const char *kernel_name,
               bool local_arg, const std::string &needs, bool is_copy) {
  static std::vector<float> scanned, copied;
  scanned.assign(kItems, 0.0f);
  float running = 0;
  for (size_t i = 0; i < kItems; ++i) {
    running = i % kGroup == 0 ? input()[i] : running + input()[i];
    scanned[i] = running;
  }
  copied = input();
  Benchmark bm;
  bm.name = name;
  bm.unit = "GB/s";
  bm.work = kItems * 8.0; // read and written once
  bm.needs = needs;
  bm.setup = [=](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, source, kernel_name, error))
      return false;
    cl_mem data = bufferWith(d, input()), out = bufferOf(d, kItems * 4);
    in.buffers = {data, out};
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &data);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &out);
    if (local_arg)
      clSetKernelArg(in.kernel, 2, kGroup * 4, nullptr);
    in.global[0] = kItems;
    in.local[0] = kGroup;
    in.verify = [&d, out, is_copy](int) {
      return compareExact(readBack<float>(d, out, kItems),
                          is_copy ? copied : scanned, "elements");
    };
    return true;
  };
  return bm;
}

} // namespace

int main(int argc, char **argv) {
  Runner runner(driversFromArguments(argc, argv), 6.0);
  if (runner.drivers().empty())
    return 1;
  std::printf("Work-group collectives, 16Mi floats in groups of 256: median "
              "wall time of enqueue + clFinish per launch; ratio = first "
              "driver's throughput / second's\n");
  runner.header();
  const char *reduce_hand = "reduce 256, local + barriers";
  const char *reduce_collective = "reduce 256, work_group_reduce";
  const char *scan_hand = "scan 256, local + barriers";
  const char *scan_collective = "scan 256, work_group_scan";
  const char *copy = "copy (bandwidth ceiling)";
  const char *copy_barrier = "copy across a barrier";
  runner.run(reduction(reduce_hand, kReduceByHand, true, ""));
  runner.run(
      reduction(reduce_collective, kReduceCollective, false, kCollectives));
  runner.run(scan(scan_hand, kScanByHand, "scan", true, "", false));
  runner.run(scan(scan_collective, kScanCollective, "scan", false, kCollectives,
                  false));
  runner.run(scan(copy, kCopy, "copy", false, "", true));
  runner.run(scan(copy_barrier, kCopyAcrossBarrier, "copy", false, "", true));
  std::printf("\nSpeed-ups (time of the second / time of the first):\n");
  for (const Driver &d : runner.drivers()) {
    runner.compare("reduce: collective vs by hand, " + d.label,
                   reduce_collective, d.label, reduce_hand, d.label);
    runner.compare("scan: collective vs by hand, " + d.label, scan_collective,
                   d.label, scan_hand, d.label);
    runner.compare("scan collective vs copy (1.00 = bandwidth), " + d.label,
                   scan_collective, d.label, copy, d.label);
    runner.compare("scan collective vs copy across a barrier, " + d.label,
                   scan_collective, d.label, copy_barrier, d.label);
  }
  if (runner.drivers().size() == 2) {
    const std::string a = runner.drivers()[0].label,
                      b = runner.drivers()[1].label;
    runner.compare("reduce: " + a + " collective vs " + b + " by hand",
                   reduce_collective, a, reduce_hand, b);
    runner.compare("scan: " + a + " collective vs " + b + " by hand",
                   scan_collective, a, scan_hand, b);
  }
  return runner.exitStatus("collectives_bench");
}
