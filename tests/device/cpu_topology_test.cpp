// The CPU topology read from sysfs (a fake tree here), and pools pinned to
// a set of CPUs keeping every thread there.
#include "device/cpu_topology.h"
#include "device/thread_pool.h"

#include <catch2/catch.hpp>

#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <set>

namespace fs = std::filesystem;
using weft::AffinityLevel;
using weft::CpuSet;

namespace {

void write(const fs::path &path, const std::string &text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text << "\n";
}

// Eight CPUs: two NUMA nodes of four, an L3 per node, an L2 per pair of
// CPUs, an L1 data and instruction cache per CPU.
fs::path fakeSysfs() {
  fs::path root =
      fs::temp_directory_path() / ("weft-topology-" + std::to_string(getpid()));
  fs::remove_all(root);
  write(root / "devices/system/node/online", "0-1");
  write(root / "devices/system/node/node0/cpulist", "0-3");
  write(root / "devices/system/node/node1/cpulist", "4-7");
  for (int cpu = 0; cpu < 8; ++cpu) {
    fs::path cache =
        root / ("devices/system/cpu/cpu" + std::to_string(cpu)) / "cache";
    auto index = [&](int i, int level, const char *type, std::string shared) {
      fs::path dir = cache / ("index" + std::to_string(i));
      write(dir / "level", std::to_string(level));
      write(dir / "type", type);
      write(dir / "shared_cpu_list", shared);
    };
    std::string self = std::to_string(cpu);
    int pair = cpu / 2 * 2;
    int node = cpu / 4 * 4;
    index(0, 1, "Data", self);
    index(1, 1, "Instruction", self);
    index(2, 2, "Unified",
          std::to_string(pair) + "-" + std::to_string(pair + 1));
    index(3, 3, "Unified",
          std::to_string(node) + "-" + std::to_string(node + 3));
  }
  return root;
}

} // namespace

TEST_CASE("CPU lists parse as sysfs writes them", "[device][topology]") {
  CHECK(weft::parseCpuList("0-3,8,10-11") == CpuSet{0, 1, 2, 3, 8, 10, 11});
  CHECK(weft::parseCpuList("5") == CpuSet{5});
  CHECK(weft::parseCpuList("").empty());
  CHECK(weft::parseCpuList("3,1-2,2") == CpuSet{1, 2, 3});
  CHECK(weft::parseCpuList("0-1,x") == CpuSet{0, 1});
}

TEST_CASE("NUMA nodes and caches group the process's CPUs",
          "[device][topology]") {
  fs::path root = fakeSysfs();
  // The process may run on CPUs 1-6 only.
  weft::CpuTopology t = weft::readCpuTopology(root, {1, 2, 3, 4, 5, 6});
  CHECK(t.at(AffinityLevel::Numa) == std::vector<CpuSet>{{1, 2, 3}, {4, 5, 6}});
  CHECK(t.at(AffinityLevel::L4).empty()); // not described: unknown
  CHECK(t.at(AffinityLevel::L3) == std::vector<CpuSet>{{1, 2, 3}, {4, 5, 6}});
  CHECK(t.at(AffinityLevel::L2) ==
        std::vector<CpuSet>{{1}, {2, 3}, {4, 5}, {6}});
  CHECK(t.at(AffinityLevel::L1) ==
        std::vector<CpuSet>{{1}, {2}, {3}, {4}, {5}, {6}});
  // Without sysfs, nothing is known.
  weft::CpuTopology none = weft::readCpuTopology(root / "missing", {0, 1});
  for (AffinityLevel level : weft::kAffinityLevels)
    CHECK(none.at(level).empty());
  fs::remove_all(root);
}

TEST_CASE("a pinned pool runs every thread on its CPUs", "[device][topology]") {
  const CpuSet &all = weft::hostCpuTopology().cpus;
  CpuSet mine = {all.back()};
  weft::ThreadPool pool(3, mine);
  std::mutex mutex;
  std::set<int> seen;
  struct State {
    std::mutex *mutex;
    std::set<int> *seen;
  } state{&mutex, &seen};
  // Launches are submitted by the pool's own runner threads (queues run
  // there), so the submitting thread takes part pinned too.
  std::promise<void> done;
  pool.runOnOwnThread([&] {
    for (int round = 0; round < 20; ++round)
      pool.parallelFor(
          64,
          [](void *p, uint64_t, uint64_t) {
            auto *s = static_cast<State *>(p);
            int cpu = sched_getcpu();
            std::lock_guard<std::mutex> lock(*s->mutex);
            s->seen->insert(cpu);
          },
          &state);
    done.set_value();
  });
  done.get_future().wait();
  CHECK(seen == std::set<int>(mine.begin(), mine.end()));
  CHECK(pool.ownsCurrentThread() == false);
}
