// Which CPUs this process may run on, and which of them share a NUMA node
// or a cache: what sub-devices are cut along (CL_DEVICE_PARTITION_*), read
// from sysfs. Also pins threads to a set of CPUs.
#pragma once
#include <string>
#include <vector>

namespace weft {

// The levels a device can be partitioned along, outermost first.
enum class AffinityLevel { Numa, L4, L3, L2, L1 };
inline constexpr AffinityLevel kAffinityLevels[] = {
    AffinityLevel::Numa, AffinityLevel::L4, AffinityLevel::L3,
    AffinityLevel::L2, AffinityLevel::L1};

using CpuSet = std::vector<int>; // ascending CPU numbers

struct CpuTopology {
  CpuSet cpus; // the process's affinity mask
  // For each level, the sets of `cpus` sharing one node or cache, in order
  // of their first CPU; empty where the OS does not say (a VM without
  // cache information in sysfs, a kernel without NUMA).
  std::vector<CpuSet> domains[5];

  const std::vector<CpuSet> &at(AffinityLevel level) const {
    return domains[static_cast<int>(level)];
  }
};

// Read once, on first call; safe from any thread.
const CpuTopology &hostCpuTopology();

// Reads sysfs under `root` (tests give a fake tree) for the CPUs in
// `cpus`.
CpuTopology readCpuTopology(const std::string &root, const CpuSet &cpus);

// "0-3,8,10-11" as sysfs writes CPU lists; malformed text gives what parsed
// before it.
CpuSet parseCpuList(const std::string &text);

// The CPUs of `cpus` that are also in `domain`.
CpuSet intersect(const CpuSet &cpus, const CpuSet &domain);

// Restricts the calling thread to `cpus` (nothing happens for an empty
// set). False if the OS refused.
bool pinCurrentThread(const CpuSet &cpus);

} // namespace weft
