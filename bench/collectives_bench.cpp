// Work-group collectives (issue 16) against the same work written by hand
// with __local memory and barriers, on Weft and PoCL side by side: a
// 256-wide sum per group, and a 256-wide inclusive scan, whose throughput is
// set beside a plain copy of the same bytes (the memory-bandwidth ceiling).
// Drivers without __opencl_c_work_group_collective_functions run only the
// hand-written kernels.
#include "segmented_benchmarks.h"

namespace {

using segmented::kGroup;

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

// The same copy with a barrier between the load and the store: what one
// barrier costs, the floor for any collective.
const char *kCopyAcrossBarrier = R"CLC(
kernel void copy(global const float *in, global float *out) {
  float value = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = value;
}
)CLC";

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
  runner.run(
      segmented::reduction(reduce_hand, kReduceByHand, true, "", kGroup));
  runner.run(segmented::reduction(reduce_collective,
                                  segmented::kReduceCollective, false,
                                  kCollectives, kGroup));
  runner.run(
      segmented::scan(scan_hand, kScanByHand, "scan", true, "", kGroup, false));
  runner.run(segmented::scan(scan_collective, kScanCollective, "scan", false,
                             kCollectives, kGroup, false));
  runner.run(
      segmented::scan(copy, segmented::kCopy, "copy", false, "", kGroup, true));
  runner.run(segmented::scan(copy_barrier, kCopyAcrossBarrier, "copy", false,
                             "", kGroup, true));
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
