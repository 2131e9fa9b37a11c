// Sub-group functions (issue 35) against the same work written with
// __local memory and barriers, on Weft and PoCL side by side: a sum and an
// inclusive scan of every run of 16 floats (sub-groups of 16, required with
// intel_reqd_sub_group_size), beside a plain copy of the same bytes (the
// memory-bandwidth ceiling). Drivers without cl_intel_required_subgroup_size
// run only the hand-written kernels.
#include "segmented_benchmarks.h"

namespace {

constexpr size_t kRun = 16;
constexpr const char *kSubGroups = "cl_intel_required_subgroup_size";

const char *kReduceByHand = R"CLC(
kernel void reduce(global const float *in, global float *sums,
                   local float *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t step = 8; step > 0; step /= 2) {
    if ((lid & 15) < step)
      scratch[lid] += scratch[lid + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if ((lid & 15) == 0)
    sums[get_global_id(0) / 16] = scratch[lid];
}
)CLC";

const char *kReduceSubGroup = R"CLC(
kernel __attribute__((intel_reqd_sub_group_size(16))) void
reduce(global const float *in, global float *sums) {
  float sum = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0)
    sums[get_global_id(0) / 16] = sum;
}
)CLC";

// A group's sum the way sub-group code usually writes it: each sub-group
// reduces, the first sub-group reduces their sums after a barrier (set
// beside work_group_reduce_add, collectives_bench's row).
const char *kReduceGroupBySubGroups = R"CLC(
kernel __attribute__((intel_reqd_sub_group_size(16))) void
reduce(global const float *in, global float *sums, local float *partial) {
  float sum = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0)
    partial[get_sub_group_id()] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_sub_group_id() == 0) {
    uint lid = get_sub_group_local_id();
    float part = lid < get_num_sub_groups() ? partial[lid] : 0.0f;
    part = sub_group_reduce_add(part);
    if (lid == 0)
      sums[get_group_id(0)] = part;
  }
}
)CLC";

// Hillis-Steele in local memory within each run of 16: four steps of two
// barriers each.
const char *kScanByHand = R"CLC(
kernel void scan(global const float *in, global float *out,
                 local float *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t offset = 1; offset < 16; offset *= 2) {
    float add = (lid & 15) >= offset ? scratch[lid - offset] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = scratch[lid];
}
)CLC";

const char *kScanSubGroup = R"CLC(
kernel __attribute__((intel_reqd_sub_group_size(16))) void
scan(global const float *in, global float *out) {
  out[get_global_id(0)] = sub_group_scan_inclusive_add(in[get_global_id(0)]);
}
)CLC";

} // namespace

int main(int argc, char **argv) {
  Runner runner(driversFromArguments(argc, argv), 6.0);
  if (runner.drivers().empty())
    return 1;
  std::printf("Sub-group functions, 16Mi floats in runs of 16 (groups of "
              "256): median wall time of enqueue + clFinish per launch; "
              "ratio = first driver's throughput / second's\n");
  runner.header();
  const char *reduce_hand = "reduce 16, local + barriers";
  const char *reduce_sub_group = "reduce 16, sub_group_reduce_add";
  const char *scan_hand = "scan 16, local + barriers";
  const char *scan_sub_group = "scan 16, sub_group_scan_inclusive_add";
  const char *copy = "copy (bandwidth ceiling)";
  const char *group_sub_groups = "reduce 256, sub-groups + barrier";
  const char *group_collective = "reduce 256, work_group_reduce";
  runner.run(segmented::reduction(reduce_hand, kReduceByHand, true, "", kRun));
  runner.run(segmented::reduction(reduce_sub_group, kReduceSubGroup, false,
                                  kSubGroups, kRun));
  runner.run(
      segmented::scan(scan_hand, kScanByHand, "scan", true, "", kRun, false));
  runner.run(segmented::scan(scan_sub_group, kScanSubGroup, "scan", false,
                             kSubGroups, kRun, false));
  runner.run(
      segmented::scan(copy, segmented::kCopy, "copy", false, "", kRun, true));
  runner.run(segmented::reduction(group_sub_groups, kReduceGroupBySubGroups,
                                  true, kSubGroups, segmented::kGroup));
  runner.run(segmented::reduction(
      group_collective, segmented::kReduceCollective, false,
      "__opencl_c_work_group_collective_functions", segmented::kGroup));
  std::printf("\nSpeed-ups (time of the second / time of the first):\n");
  for (const Driver &d : runner.drivers()) {
    runner.compare("reduce: sub-group vs by hand, " + d.label, reduce_sub_group,
                   d.label, reduce_hand, d.label);
    runner.compare("scan: sub-group vs by hand, " + d.label, scan_sub_group,
                   d.label, scan_hand, d.label);
    runner.compare("scan sub-group vs copy (1.00 = bandwidth), " + d.label,
                   scan_sub_group, d.label, copy, d.label);
  }
  if (runner.drivers().size() == 2) {
    const std::string a = runner.drivers()[0].label,
                      b = runner.drivers()[1].label;
    runner.compare("reduce: " + a + " sub-group vs " + b + " by hand",
                   reduce_sub_group, a, reduce_hand, b);
    runner.compare("scan: " + a + " sub-group vs " + b + " by hand",
                   scan_sub_group, a, scan_hand, b);
  }
  return runner.exitStatus("subgroup_bench");
}
