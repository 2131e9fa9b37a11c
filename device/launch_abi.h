// The ABI between compiled kernels and the device layer: what a work-group
// function receives. compiler/ generates code against this layout and device/
// fills it in; nothing else of device/ is the compiler's business.
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
namespace weft {
#endif

// Per work-group state of the async copies (builtins/async_copy_engine.c).
// The first work-item to reach a group's n-th copy performs it whole; every
// other work-item's n-th call finds it done.
struct AsyncCopyState {
  uint64_t performed; // copies the group has performed
  // Per work-item (by local linear id): copies it has issued in the low 32
  // bits, which count only when the high 32 bits equal `generation`: the
  // device reuses the array for the next group without clearing it. Null
  // until the group's first copy asks.
  uint64_t *issued;
  uint32_t generation; // never 0; set with `issued` by the device
};

// Per work-group state of the work_group_reserve_*/work_group_commit_* pipe
// builtins (builtins/pipe_group.c): the first work-item to reach a group's
// n-th reservation makes it and the others take its id; the last one to
// reach the n-th commit commits it, once every work-item has written. In
// kernels run as a leader and followers
// (compiler/passes/kernels/work_group_pipes.h), the leader notes its commits
// instead, and the group entry makes them at the end of the group.
#define WEFT_GROUP_PIPE_RESERVATIONS 16
struct DeferredPipeCommit {
  void *pipe;
  void *id;
  uint64_t is_write;
};
struct PipeGroupState {
  uint64_t reserved;                       // reservations the group has made
  void *ids[WEFT_GROUP_PIPE_RESERVATIONS]; // reservation n at n % 16
  uint32_t arrivals[WEFT_GROUP_PIPE_RESERVATIONS]; // at commit n, so far
  uint64_t deferred;                               // commits noted so far
  struct DeferredPipeCommit commits[WEFT_GROUP_PIPE_RESERVATIONS];
};

// Which builtin a work-item called, for the checking mode's reports.
enum AsyncCopyFunction {
  kAsyncCopy = 0,        // async_work_group_copy
  kAsyncStridedCopy = 1, // async_work_group_strided_copy
  kAsyncCopy2D2D = 2,
  kAsyncCopy3D3D = 3,
  kWaitGroupEvents = 4,
};

// One async copy or wait as a work-item called it. Geometry is in elements,
// as in async_work_group_copy_3D3D; addresses already include the offsets.
struct AsyncCopyCall {
  uint32_t function; // AsyncCopyFunction
  uint32_t num_events;
  uint64_t work_item; // local linear id
  uint64_t sequence;  // the work-item's n-th copy (copies only)
  uint64_t dst;
  uint64_t src;
  uint64_t element_bytes;
  uint64_t elements_per_line;
  uint64_t lines;
  uint64_t planes;
  uint64_t src_line, src_plane, dst_line, dst_plane;
  void *event;         // the event argument of a copy
  void *const *events; // the list of a wait
};

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
  // Set by a work-group function that could not run its group (one of
  // WorkGroupStatus); the device resets it per group.
  uint32_t status;
  // Local memory of this group: static __local variables first, then the
  // __local pointer arguments at the offsets stored in the argument block.
  char *local_memory;
  // Set by the device layer for kernels that reach a barrier; called with the
  // context when a work-item arrives at a barrier. Unused on the loop path.
  void (*barrier)(struct WorkGroupContext *context);
  void *device_state;
  struct AsyncCopyState async_copies;
  // Returns a counter per work-item of this group (see AsyncCopyState; null
  // when out of memory); set by the device for every group.
  uint64_t *(*async_copy_counters)(struct WorkGroupContext *context);
  // Set only in checking mode: sees every async copy and wait of every
  // work-item.
  void (*async_copy_check)(struct WorkGroupContext *context,
                           const struct AsyncCopyCall *call);
  // Kernels split at their barriers keep each work-item's values that live
  // across a barrier here: returns at least `bytes`, 64-byte aligned, reused
  // by the next group of this thread; null when out of memory.
  void *(*work_item_storage)(struct WorkGroupContext *context, uint64_t bytes);
  // Bytes of local memory this launch uses (from local_memory on).
  uint64_t local_memory_size;
  // Which named address space `address` lies in (one of AddressKind), for
  // to_global/to_local/to_private and get_fence on generic pointers.
  uint32_t (*address_kind)(struct WorkGroupContext *context,
                           const void *address);
  struct PipeGroupState pipe_group;
  // Work-group collective functions (builtins/work_group_collectives.cl
  // lays them out): a collective's result, and a 4-byte and an 8-byte slot
  // per work-item of the largest group of the launch. Set by the device for
  // every group. The collectives rely on what every execution path does:
  // between two barriers, a group's work-items run one after another in
  // local linear id order, so the highest id is the last to arrive.
  uint64_t *collective_slots;
  // Where printf writes its records (device/printf_abi.h); set by the
  // device for every group of a launch whose kernel calls printf, null
  // otherwise.
  struct PrintfBuffer *printf_buffer;
  // The memory checking mode (WEFT_CHECK_MEMORY; null otherwise): each
  // argument's object, by argument index; where a checked access that
  // failed is described; and the question compiled code asks of an address
  // it cannot trace to one object (nonzero: inside an object the launch
  // may reach).
  const struct MemoryRange *memory_ranges;
  struct MemoryViolation *memory_violation;
  uint32_t (*memory_check_address)(struct WorkGroupContext *context,
                                   uint64_t address, uint64_t bytes);
  // Sub-groups whose work-items exchange values (builtins/subgroups.cl),
  // when they run as fibers (device/fiber_group.cpp): the work-item leaves
  // `value` for its sub-group at exchange `site` (the kernel's exchanges
  // numbered in block order) and returns once every work-item of its
  // sub-group waits somewhere; those waiting at the first such site go on
  // together, and the mask returned has their bits (bit i: sub-group local
  // id i). `sub_group_read` then answers the value of sub-group local id
  // `member` at that exchange. Set by the device for every group: outside
  // fibers (a group of one work-item) they answer for a sub-group of one,
  // keeping the value in `solo_sub_group_value`.
  uint64_t (*sub_group_sync)(struct WorkGroupContext *context, uint32_t site,
                             uint64_t value);
  uint64_t (*sub_group_read)(struct WorkGroupContext *context,
                             uint32_t member);
  uint64_t solo_sub_group_value;
  // The kernel's sub-group size (KernelDescription::sub_group_size).
  uint32_t sub_group_size;
  // On fibers: nonzero when every other work-item of the group waits at a
  // barrier or has finished, so the caller is the last to arrive at the
  // next one (the work-group collectives, whose work-items need not arrive
  // in local id order once sub-groups exchange values).
  uint32_t (*last_to_arrive)(struct WorkGroupContext *context);
  // Called at the back edge of a loop in which a work-item waits for
  // another (compiler/analysis/waiting_loops.h): on fibers, the others run
  // before it goes round again (independent forward progress); elsewhere
  // nothing.
  void (*yield)(struct WorkGroupContext *context);
};

// The memory checking mode (compiler/passes/kernels/memory_checks.h,
// device/memory_checker.h). An argument's object spans `below` bytes
// before the pointer the kernel receives (an SVM pointer into the middle
// of its allocation) and `bytes` bytes in all; a null or unknown pointer
// has none.
struct MemoryRange {
  uint64_t below;
  uint64_t bytes;
};

enum MemoryObjectKind {
  kMemoryArgument = 0,        // object_index: the argument
  kMemoryLocalVariable = 1,   // a kernel-scope __local variable
  kMemoryPrivateVariable = 2, // a private variable or array
  kMemoryProgramVariable = 3, // a program-scope variable or constant
  kMemoryUnknownObject = 4,   // a pointer of unknown origin
};

// Written by a checked access that failed (the access itself is skipped);
// `found` last. The device clears `found` before each group.
struct MemoryViolation {
  uint64_t address;
  uint64_t bytes;
  uint64_t object_begin; // 0 when unknown
  uint64_t object_bytes;
  uint64_t local_id[3];
  uint32_t is_write;
  uint32_t object_kind; // MemoryObjectKind
  uint32_t object_index;
  uint32_t found;
};

// Bytes of collective_slots for groups of up to `items` work-items: a
// 64-byte header, the 4-byte slots rounded up to 64 bytes, the 8-byte slots.
#define WEFT_COLLECTIVE_SLOTS_BYTES(items)                                     \
  (64 + (((items)*4 + 63) & ~(uint64_t)63) + (items)*8)

enum AddressKind {
  kGlobalAddress = 0, // anything not local or private: buffers, constants
  kLocalAddress = 1,
  kPrivateAddress =
      2, // the work-item's stack or its values kept across barriers
};

enum WorkGroupStatus {
  kWorkGroupCompleted = 0,
  kWorkGroupOutOfMemory = 1,
  // An async copy's local side reached outside the group's local memory:
  // the copy engine did not make it (it would have written over, or read,
  // memory of the host process).
  kWorkGroupAsyncCopyOutsideLocal = 2,
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
