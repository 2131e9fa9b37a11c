#include "runtime/device_partition.h"

namespace weft {
namespace {

struct DomainLevel {
  cl_device_affinity_domain bit;
  AffinityLevel level;
};
constexpr DomainLevel kDomainLevels[] = {
    {CL_DEVICE_AFFINITY_DOMAIN_NUMA, AffinityLevel::Numa},
    {CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, AffinityLevel::L4},
    {CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, AffinityLevel::L3},
    {CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, AffinityLevel::L2},
    {CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, AffinityLevel::L1}};

// The parts of `cpus` in each domain of `level` (none if the level is
// unknown).
std::vector<CpuSet> splitAlong(const CpuSet &cpus, const CpuTopology &topology,
                               AffinityLevel level) {
  std::vector<CpuSet> parts;
  for (const CpuSet &domain : topology.at(level))
    if (CpuSet part = intersect(cpus, domain); !part.empty())
      parts.push_back(std::move(part));
  return parts;
}

// A level's split of `cpus` that leaves more than one part, if any.
bool splitsDevice(const CpuSet &cpus, const CpuTopology &topology,
                  AffinityLevel level) {
  return splitAlong(cpus, topology, level).size() > 1;
}

cl_int partitionEqually(const CpuSet &cpus, cl_device_partition_property n,
                        std::vector<CpuSet> &parts) {
  if (n <= 0)
    return CL_INVALID_VALUE;
  size_t per_part = static_cast<size_t>(n);
  // More compute units per sub-device than the device has (the CTS's
  // reading of the spec's "total number of compute units requested").
  if (per_part > cpus.size())
    return CL_INVALID_DEVICE_PARTITION_COUNT;
  for (size_t first = 0; first + per_part <= cpus.size(); first += per_part)
    parts.emplace_back(cpus.begin() + first, cpus.begin() + first + per_part);
  return CL_SUCCESS;
}

cl_int
partitionByCounts(const CpuSet &cpus,
                  const std::vector<cl_device_partition_property> &counts,
                  std::vector<CpuSet> &parts) {
  if (counts.empty())
    return CL_INVALID_VALUE;
  if (counts.size() > cpus.size())
    return CL_INVALID_DEVICE_PARTITION_COUNT;
  size_t first = 0;
  for (cl_device_partition_property count : counts) {
    // A sub-device needs a compute unit; together they fit the device.
    if (count <= 0 || static_cast<size_t>(count) > cpus.size() - first)
      return CL_INVALID_DEVICE_PARTITION_COUNT;
    parts.emplace_back(cpus.begin() + first, cpus.begin() + first + count);
    first += static_cast<size_t>(count);
  }
  return CL_SUCCESS;
}

// The levels the OS describes: a domain named among them is a valid
// request, which fails when the level does not split the device.
cl_device_affinity_domain describedDomains(const CpuTopology &topology) {
  cl_device_affinity_domain domains = 0;
  for (const DomainLevel &entry : kDomainLevels)
    if (!topology.at(entry.level).empty())
      domains |= entry.bit;
  return domains;
}

cl_int partitionByDomain(const CpuSet &cpus, const CpuTopology &topology,
                         cl_device_partition_property domain,
                         std::vector<CpuSet> &parts) {
  cl_device_affinity_domain described = describedDomains(topology);
  if (domain == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE) {
    if (!described)
      return CL_INVALID_VALUE; // no level is known
    for (const DomainLevel &entry : kDomainLevels)
      if (splitsDevice(cpus, topology, entry.level)) {
        parts = splitAlong(cpus, topology, entry.level);
        return CL_SUCCESS;
      }
    return CL_DEVICE_PARTITION_FAILED;
  }
  for (const DomainLevel &entry : kDomainLevels) {
    if (static_cast<cl_device_affinity_domain>(domain) != entry.bit)
      continue;
    if (!(described & entry.bit))
      return CL_INVALID_VALUE;
    parts = splitAlong(cpus, topology, entry.level);
    // One part is the device itself: it cannot be split further this way.
    if (parts.size() < 2) {
      parts.clear();
      return CL_DEVICE_PARTITION_FAILED;
    }
    return CL_SUCCESS;
  }
  return CL_INVALID_VALUE; // no such domain, or several bits
}

} // namespace

cl_device_affinity_domain
supportedAffinityDomains(const CpuSet &cpus, const CpuTopology &topology) {
  // Only the levels that split this device are offered: the CTS's buffer
  // and image migration tests take every domain offered as one that
  // partitions (a machine of one L3 and one NUMA node failed both), while
  // its partition tests accept either. Asking for a level the OS describes
  // that does not split the device still gets CL_DEVICE_PARTITION_FAILED.
  cl_device_affinity_domain domains = 0;
  for (const DomainLevel &entry : kDomainLevels)
    if (splitsDevice(cpus, topology, entry.level))
      domains |= entry.bit;
  if (domains)
    domains |= CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
  return domains;
}

cl_int partitionCpus(const CpuSet &cpus, const CpuTopology &topology,
                     const cl_device_partition_property *properties,
                     std::vector<CpuSet> &parts,
                     std::vector<cl_device_partition_property> &type) {
  parts.clear();
  type.clear();
  if (!properties)
    return CL_INVALID_VALUE;
  const cl_device_partition_property scheme = properties[0];
  const cl_device_partition_property *rest = properties + 1;
  cl_int status = CL_INVALID_VALUE;
  switch (scheme) {
  case CL_DEVICE_PARTITION_EQUALLY:
    if (rest[0] == 0 || rest[1] != 0)
      return CL_INVALID_VALUE;
    status = partitionEqually(cpus, rest[0], parts);
    type = {scheme, rest[0], 0};
    break;
  case CL_DEVICE_PARTITION_BY_COUNTS: {
    std::vector<cl_device_partition_property> counts;
    const cl_device_partition_property *p = rest;
    for (; *p != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; ++p) {
      if (counts.size() > cpus.size())
        return CL_INVALID_DEVICE_PARTITION_COUNT; // too many to list
      counts.push_back(*p);
    }
    if (p[1] != 0)
      return CL_INVALID_VALUE;
    status = partitionByCounts(cpus, counts, parts);
    type.push_back(scheme);
    type.insert(type.end(), counts.begin(), counts.end());
    type.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
    type.push_back(0);
    break;
  }
  case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN:
    if (rest[0] == 0 || rest[1] != 0)
      return CL_INVALID_VALUE;
    status = partitionByDomain(cpus, topology, rest[0], parts);
    type = {scheme, rest[0], 0};
    break;
  default:
    return CL_INVALID_VALUE;
  }
  // One part holding every CPU is the device itself, not a partition of it.
  if (status == CL_SUCCESS && parts.size() == 1 && parts[0] == cpus)
    status = CL_DEVICE_PARTITION_FAILED;
  if (status != CL_SUCCESS) {
    parts.clear();
    type.clear();
  }
  return status;
}

} // namespace weft
