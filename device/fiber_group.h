// Runs a work-group whose kernel reaches a barrier: each work-item is a
// stackful fiber (Boost.Context) that switches back to the group's scheduler
// at every barrier; the barrier is released once every work-item arrived.
// Also where a sub-group's work-items exchange values (each waits until its
// sub-group has reached an exchange; those at the earliest go on together)
// and where a work-item waits in a loop for another (it yields each time
// round, so the others run).
#pragma once
#include "device/launch_abi.h"

#include <cstdint>

namespace weft {

// Whether `address` lies on a fiber stack of the calling thread's pool (a
// work-item's private memory, when its group runs on fibers).
bool onPooledStack(const void *address);

// Rounds a stack need up to the size class the stack pools hand out.
uint64_t fiberStackSizeFor(uint64_t bytes_needed);

enum class FiberRunStatus {
  Completed,
  OutOfMemory,   // the fibers could not be given stacks
  StackOverflow, // a work-item ran into the guard below its stack; the
                 // group's fibers were abandoned where they stood
};

// Runs every work-item of the group on its own fiber with a stack of
// `stack_size` bytes (a size class).
// After a kernel fault jumped out of a group on fibers (device/
// kernel_faults.h): the group's overflow recovery, left armed, is dropped.
void abandonFiberRecovery();

FiberRunStatus runWorkGroupOnFibers(WorkItemFunction entry,
                                    const void *arguments,
                                    WorkGroupContext &context,
                                    uint64_t stack_size);

// Runs the work-item loop of a group on one fiber: for kernels whose frame
// is too big for the stack of whatever thread runs the group.
FiberRunStatus runWorkGroupOnLargeStack(WorkGroupFunction entry,
                                        const void *arguments,
                                        WorkGroupContext &context,
                                        uint64_t stack_size);

} // namespace weft
