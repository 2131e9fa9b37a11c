#include "device/cpu_topology.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

namespace weft {
namespace {

std::string readLine(const std::string &path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

CpuSet affinityCpus() {
  CpuSet cpus;
  for (size_t width = CPU_SETSIZE; width <= (size_t{1} << 20); width *= 2) {
    cpu_set_t *set = CPU_ALLOC(width);
    if (!set)
      break;
    size_t bytes = CPU_ALLOC_SIZE(width);
    CPU_ZERO_S(bytes, set);
    int status = sched_getaffinity(0, bytes, set);
    int saved_errno = errno;
    if (status == 0)
      for (size_t cpu = 0; cpu < width; ++cpu)
        if (CPU_ISSET_S(cpu, bytes, set))
          cpus.push_back(static_cast<int>(cpu));
    CPU_FREE(set);
    if (status == 0 || saved_errno != EINVAL)
      break;
  }
  if (cpus.empty())
    cpus.push_back(0);
  return cpus;
}

// Groups the CPUs of `cpus` by the set `domainOf` gives each (an empty set:
// unknown), keeping only groups that are part of `cpus`.
template <typename DomainOf>
std::vector<CpuSet> groupBy(const CpuSet &cpus, DomainOf domainOf) {
  std::set<CpuSet> seen;
  for (int cpu : cpus) {
    CpuSet domain = intersect(cpus, domainOf(cpu));
    if (domain.empty())
      return {}; // one CPU the OS says nothing of: the level is unknown
    seen.insert(domain);
  }
  std::vector<CpuSet> groups(seen.begin(), seen.end());
  std::sort(groups.begin(), groups.end(),
            [](const CpuSet &a, const CpuSet &b) { return a[0] < b[0]; });
  return groups;
}

} // namespace

CpuSet parseCpuList(const std::string &text) {
  CpuSet cpus;
  const char *p = text.c_str();
  while (*p >= '0' && *p <= '9') {
    char *end;
    long first = std::strtol(p, &end, 10), last = first;
    p = end;
    if (*p == '-') {
      last = std::strtol(p + 1, &end, 10);
      if (end == p + 1)
        break;
      p = end;
    }
    for (long cpu = first; cpu <= last && cpu < (1 << 20); ++cpu)
      cpus.push_back(static_cast<int>(cpu));
    if (*p != ',')
      break;
    ++p;
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

CpuSet intersect(const CpuSet &cpus, const CpuSet &domain) {
  CpuSet both;
  std::set_intersection(cpus.begin(), cpus.end(), domain.begin(), domain.end(),
                        std::back_inserter(both));
  return both;
}

CpuTopology readCpuTopology(const std::string &root, const CpuSet &cpus) {
  CpuTopology topology;
  topology.cpus = cpus;
  // NUMA nodes: each node lists its CPUs.
  std::map<int, CpuSet> node_of;
  for (int node :
       parseCpuList(readLine(root + "/devices/system/node/online"))) {
    CpuSet node_cpus =
        parseCpuList(readLine(root + "/devices/system/node/node" +
                              std::to_string(node) + "/cpulist"));
    for (int cpu : node_cpus)
      node_of[cpu] = node_cpus;
  }
  topology.domains[static_cast<int>(AffinityLevel::Numa)] =
      groupBy(cpus, [&](int cpu) {
        auto found = node_of.find(cpu);
        return found == node_of.end() ? CpuSet{} : found->second;
      });
  // Caches: each CPU's data and unified caches, by level.
  for (AffinityLevel level : {AffinityLevel::L4, AffinityLevel::L3,
                              AffinityLevel::L2, AffinityLevel::L1}) {
    int wanted = 5 - static_cast<int>(level); // L4 = 4 ... L1 = 1
    topology.domains[static_cast<int>(level)] = groupBy(cpus, [&](int cpu) {
      std::string dir =
          root + "/devices/system/cpu/cpu" + std::to_string(cpu) + "/cache/";
      for (int index = 0; index < 16; ++index) {
        std::string base = dir + "index" + std::to_string(index) + "/";
        std::string level_text = readLine(base + "level");
        if (level_text.empty())
          break;
        if (std::atoi(level_text.c_str()) != wanted ||
            readLine(base + "type") == "Instruction")
          continue;
        return parseCpuList(readLine(base + "shared_cpu_list"));
      }
      return CpuSet{};
    });
  }
  return topology;
}

const CpuTopology &hostCpuTopology() {
  static const CpuTopology topology = readCpuTopology("/sys", affinityCpus());
  return topology;
}

bool pinCurrentThread(const CpuSet &cpus) {
  if (cpus.empty())
    return true;
  size_t width = static_cast<size_t>(cpus.back()) + 1;
  cpu_set_t *set = CPU_ALLOC(width);
  if (!set)
    return false;
  size_t bytes = CPU_ALLOC_SIZE(width);
  CPU_ZERO_S(bytes, set);
  for (int cpu : cpus)
    CPU_SET_S(static_cast<size_t>(cpu), bytes, set);
  bool pinned = pthread_setaffinity_np(pthread_self(), bytes, set) == 0;
  CPU_FREE(set);
  return pinned;
}

} // namespace weft
