// Runs one kernel launch (an NDRange) on the thread pool: splits it into
// work-groups, gives each its context and local memory, and picks the
// execution path the compiler chose for the kernel.
#pragma once
#include "device/launch_abi.h"

#include <cstdint>
#include <string>

namespace weft {

class ThreadPool;

struct NDRangeLaunch {
  WorkGroupFunction group_entry = nullptr;
  WorkItemFunction work_item_entry = nullptr; // set: the kernel has barriers
  const void *arguments = nullptr;
  uint32_t work_dim = 1;
  uint64_t global_offset[3] = {0, 0, 0};
  uint64_t global_size[3] = {1, 1, 1};
  uint64_t local_size[3] = {1, 1, 1};
  uint64_t local_memory_size = 0;
  uint64_t private_memory_size = 0; // per work-item stack need
};

enum class LaunchStatus { Success, OutOfResources };

LaunchStatus runNDRange(ThreadPool &pool, const NDRangeLaunch &launch);

} // namespace weft
