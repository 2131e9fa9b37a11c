// Runs a work-group whose kernel reaches a barrier: each work-item is a
// stackful fiber (Boost.Context) that switches back to the group's scheduler
// at every barrier; the barrier is released once every work-item arrived.
#pragma once
#include "device/launch_abi.h"

#include <cstdint>

namespace weft {

// Returns false if the fibers could not be given stacks.
bool runWorkGroupOnFibers(WorkItemFunction entry, const void *arguments,
                          WorkGroupContext &context);

} // namespace weft
