// The ABI between compiled kernels and the device layer: what a work-group
// function receives. compiler/ generates code against this layout and device/
// fills it in; nothing else of device/ is the compiler's business.
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
namespace weft {
#endif

// Per work-group state. The arrays have a fourth slot that holds the value an
// out-of-range dimension index must yield (0 for ids and offsets, 1 for
// sizes), so generated code can clamp the index instead of branching.
struct WorkGroupContext {
  uint64_t global_offset[4];
  uint64_t global_size[4];
  uint64_t local_size[4];          // size of this group (smaller at the edge)
  uint64_t enqueued_local_size[4]; // size the application asked for
  uint64_t num_groups[4];
  uint64_t group_id[4];
  uint32_t work_dim;
  uint32_t reserved;
  // Local memory of this group: static __local variables first, then the
  // __local pointer arguments at the offsets stored in the argument block.
  char *local_memory;
  // Set by the device layer for kernels that reach a barrier; called with the
  // context when a work-item arrives at a barrier. Unused on the loop path.
  void (*barrier)(struct WorkGroupContext *context);
  void *device_state;
};

// Generated per kernel: runs every work-item of one work-group.
// `arguments` is the argument block whose layout the compiler reports.
typedef void (*WorkGroupFunction)(const void *arguments,
                                  struct WorkGroupContext *context);

// Generated per kernel that reaches a barrier: runs one work-item, with its
// local id, up to its end; every barrier() it meets calls context->barrier.
typedef void (*WorkItemFunction)(const void *arguments,
                                 struct WorkGroupContext *context,
                                 uint64_t local_id_x, uint64_t local_id_y,
                                 uint64_t local_id_z);

#ifdef __cplusplus
} // namespace weft
#endif
