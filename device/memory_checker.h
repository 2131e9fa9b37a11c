// The memory checking mode (WEFT_CHECK_MEMORY, which the runtime passes with
// each launch in LaunchSettings): the objects a launch may reach, which
// compiled kernels check each access against
// (compiler/passes/kernels/memory_checks.h), and the report of the first
// access that fell outside them.
#pragma once
#include "device/launch_abi.h"

#include <cstdint>
#include <string>
#include <vector>

namespace weft {

struct MemoryCheckObjects {
  // By argument index, what compiled code reads (WorkGroupContext::
  // memory_ranges): a pointer argument's object; nothing for the others.
  std::vector<MemoryRange> arguments;
  std::vector<std::string> argument_names; // for reports
  // What an address of unknown origin may lie in besides the group's local
  // memory and the work-item's private memory: the buffer arguments, the
  // context's SVM allocations and the kernel library (its program-scope
  // variables), as [begin, begin + bytes), sorted by begin.
  struct Span {
    uint64_t begin, bytes;
  };
  std::vector<Span> reachable;
  // SVM allocations freed before the launch: a pointer into one is stale.
  std::vector<Span> freed;
  // The kernel may use any host memory (fine-grained system SVM: an SVM
  // argument no allocation holds, or CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_
  // SYSTEM): an address of unknown origin outside every known object is
  // then taken as the application's own, unless it is stale.
  bool any_host_memory = false;

  // Sorts `reachable` once it is filled.
  void finish();
  // Whether [address, address + bytes) lies in one reachable object.
  bool reaches(uint64_t address, uint64_t bytes) const;
  // Whether `address` lies in a freed SVM allocation.
  bool stale(uint64_t address) const;
};

// WorkGroupContext::memory_check_address: asks the objects of the launch
// running on this thread (setCurrentMemoryObjects).
uint32_t checkMemoryAddress(WorkGroupContext *context, uint64_t address,
                            uint64_t bytes);
void setCurrentMemoryObjects(const MemoryCheckObjects *objects);

// The report of `violation` in a group of `context`.
std::string describeMemoryViolation(const MemoryViolation &violation,
                                    const WorkGroupContext &context,
                                    const MemoryCheckObjects &objects,
                                    const char *kernel_name);

} // namespace weft
