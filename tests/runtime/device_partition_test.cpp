// clCreateSubDevices's schemes over a known topology: equally, by counts,
// along NUMA nodes and caches, and the spec's error for each bad request.
#include "runtime/device_partition.h"

#include <catch2/catch.hpp>

using weft::CpuSet;

namespace {

// Eight CPUs: NUMA nodes {0-3} {4-7}, one L3 each, L2 per pair, L1 per CPU.
weft::CpuTopology eightCpus() {
  weft::CpuTopology t;
  t.cpus = {0, 1, 2, 3, 4, 5, 6, 7};
  auto &d = t.domains;
  d[int(weft::AffinityLevel::Numa)] = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  d[int(weft::AffinityLevel::L3)] = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  d[int(weft::AffinityLevel::L2)] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}};
  for (int cpu = 0; cpu < 8; ++cpu)
    d[int(weft::AffinityLevel::L1)].push_back({cpu});
  return t;
}

struct Result {
  cl_int status;
  std::vector<CpuSet> parts;
  std::vector<cl_device_partition_property> type;
};

Result cut(const CpuSet &cpus,
           std::vector<cl_device_partition_property> properties,
           const weft::CpuTopology &t = eightCpus()) {
  Result r;
  r.status = weft::partitionCpus(cpus, t, properties.data(), r.parts, r.type);
  return r;
}

} // namespace

TEST_CASE("partition equally and by counts", "[runtime][partition]") {
  CpuSet all = eightCpus().cpus;
  Result equal = cut(all, {CL_DEVICE_PARTITION_EQUALLY, 3, 0});
  REQUIRE(equal.status == CL_SUCCESS);
  CHECK(equal.parts == std::vector<CpuSet>{{0, 1, 2}, {3, 4, 5}});
  CHECK(equal.type == std::vector<cl_device_partition_property>{
                          CL_DEVICE_PARTITION_EQUALLY, 3, 0});
  Result counts = cut(all, {CL_DEVICE_PARTITION_BY_COUNTS, 1, 5,
                            CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0});
  REQUIRE(counts.status == CL_SUCCESS);
  CHECK(counts.parts == std::vector<CpuSet>{{0}, {1, 2, 3, 4, 5}});
  CHECK(counts.type.size() == 5);

  CHECK(cut(all, {CL_DEVICE_PARTITION_EQUALLY, 0, 0}).status ==
        CL_INVALID_VALUE);
  CHECK(cut(all, {CL_DEVICE_PARTITION_EQUALLY, 9, 0}).status ==
        CL_INVALID_DEVICE_PARTITION_COUNT);
  // One part of every CPU is no partition.
  CHECK(cut(all, {CL_DEVICE_PARTITION_EQUALLY, 8, 0}).status ==
        CL_DEVICE_PARTITION_FAILED);
  CHECK(cut(all, {CL_DEVICE_PARTITION_BY_COUNTS, 8,
                  CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0})
            .status == CL_DEVICE_PARTITION_FAILED);
  CHECK(cut(all, {CL_DEVICE_PARTITION_EQUALLY, 5, 0}).parts ==
        std::vector<CpuSet>{{0, 1, 2, 3, 4}});
  CHECK(cut(all, {CL_DEVICE_PARTITION_EQUALLY, 2, 5, 0}).status ==
        CL_INVALID_VALUE);
  CHECK(cut(all, {CL_DEVICE_PARTITION_BY_COUNTS, 4, 5,
                  CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0})
            .status == CL_INVALID_DEVICE_PARTITION_COUNT);
  // More sub-devices than compute units.
  CHECK(cut(all, {CL_DEVICE_PARTITION_BY_COUNTS, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                  CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0})
            .status == CL_INVALID_DEVICE_PARTITION_COUNT);
  CHECK(cut(all, {CL_DEVICE_PARTITION_BY_COUNTS, -1,
                  CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0})
            .status == CL_INVALID_DEVICE_PARTITION_COUNT);
  CHECK(cut(all, {CL_DEVICE_PARTITION_BY_COUNTS,
                  CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0})
            .status == CL_INVALID_VALUE);
  CHECK(cut(all, {0x1234, 1, 0}).status == CL_INVALID_VALUE);
  CHECK(weft::partitionCpus(all, eightCpus(), nullptr, equal.parts,
                            equal.type) == CL_INVALID_VALUE);
}

TEST_CASE("partition along NUMA nodes and caches", "[runtime][partition]") {
  CpuSet all = eightCpus().cpus;
  auto domain = [&](const CpuSet &cpus, cl_device_affinity_domain d) {
    return cut(cpus, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                      static_cast<cl_device_partition_property>(d), 0});
  };
  CHECK(domain(all, CL_DEVICE_AFFINITY_DOMAIN_NUMA).parts ==
        std::vector<CpuSet>{{0, 1, 2, 3}, {4, 5, 6, 7}});
  CHECK(domain(all, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE).parts.size() == 4);
  CHECK(domain(all, CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE).parts.size() == 8);
  // A node's CPUs share one L3: that cannot split it; its L2s can.
  CpuSet node = {0, 1, 2, 3};
  CHECK(domain(node, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE).status ==
        CL_DEVICE_PARTITION_FAILED);
  CHECK(domain(node, CL_DEVICE_AFFINITY_DOMAIN_NUMA).status ==
        CL_DEVICE_PARTITION_FAILED);
  // Next partitionable: the outermost level that splits the device.
  CHECK(domain(all, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE).parts ==
        std::vector<CpuSet>{{0, 1, 2, 3}, {4, 5, 6, 7}});
  Result next = domain(node, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE);
  CHECK(next.parts == std::vector<CpuSet>{{0, 1}, {2, 3}});
  CHECK(next.type[1] == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE);
  CHECK(domain({5}, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE).status ==
        CL_DEVICE_PARTITION_FAILED);
  // L4 is not described; two bits at once are no domain.
  CHECK(domain(all, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE).status ==
        CL_INVALID_VALUE);
  CHECK(domain(all, CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE |
                        CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE)
            .status == CL_INVALID_VALUE);
  CHECK(weft::supportedAffinityDomains(all, eightCpus()) ==
        (CL_DEVICE_AFFINITY_DOMAIN_NUMA | CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE |
         CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE |
         CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE |
         CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE));
  // Only the levels that split a device are offered: a node's CPUs share
  // its L3.
  CHECK(weft::supportedAffinityDomains(node, eightCpus()) ==
        (CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE |
         CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE |
         CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE));
  CHECK(weft::supportedAffinityDomains({5}, eightCpus()) == 0);
  // Without topology, no domain is offered.
  weft::CpuTopology unknown;
  unknown.cpus = all;
  CHECK(weft::supportedAffinityDomains(all, unknown) == 0);
  CHECK(cut(all,
            {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
             CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0},
            unknown)
            .status == CL_INVALID_VALUE);
}
