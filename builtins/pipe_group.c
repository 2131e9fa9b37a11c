// work_group_reserve_{read,write}_pipe and work_group_commit_{read,write}_pipe
// (the sub-group forms are at the end):
// one reservation for the whole group, made by all its work-items with the
// same arguments. The first work-item to reach the group's n-th reservation
// makes it (builtins/pipe_engine.c) and the others take its id; the last to
// reach the n-th commit commits it, so every work-item has written or read
// its packets first. Nothing waits: work-items may run one after another in
// a loop, or as fibers of one thread.
#include "device/launch_abi.h"

#include <stddef.h>
#include <stdint.h>

#define PIPE __attribute__((address_space(1))) void *

// Answered by the compiler inside each kernel
// (compiler/workgroup_function.cpp).
struct WorkGroupContext *__weft_group_context(void);

void *__weft_pipe_reserve(void *pipe, unsigned count, int is_write);
void __weft_pipe_commit(void *pipe, void *id, int is_write);

// The compiler turns each __work_group_reserve_*_pipe call into one of this,
// and each __work_group_commit_*_pipe call into __weft_work_group_commit,
// passing the group's context and `made`: a private variable of the
// work-item counting the group's reservations (commits) it has reached, zero
// when it starts. Private, so in a work-item loop it stays in a register.
// Not inlined here, so the wrappers below keep them in the library; the
// compiler lets them be inlined into kernels once it has found their calls.
__attribute__((noinline)) void *
__weft_work_group_reserve(struct WorkGroupContext *context, uint32_t *made,
                          PIPE pipe, unsigned count, int is_write) {
  struct PipeGroupState *group = &context->pipe_group;
  uint64_t n = (*made)++;
  if (n == group->reserved) {
    group->ids[n % WEFT_GROUP_PIPE_RESERVATIONS] =
        __weft_pipe_reserve((void *)pipe, count, is_write);
    group->arrivals[n % WEFT_GROUP_PIPE_RESERVATIONS] = 0;
    group->reserved++;
  }
  return group->ids[n % WEFT_GROUP_PIPE_RESERVATIONS];
}

__attribute__((noinline)) void
__weft_work_group_commit(struct WorkGroupContext *context, uint32_t *made,
                         PIPE pipe, void *id, int is_write) {
  struct PipeGroupState *group = &context->pipe_group;
  uint64_t n = (*made)++;
  uint64_t items =
      context->local_size[0] * context->local_size[1] * context->local_size[2];
  if (++group->arrivals[n % WEFT_GROUP_PIPE_RESERVATIONS] == items)
    __weft_pipe_commit((void *)pipe, id, is_write);
}

// The leader and followers of compiler/passes/kernels/work_group_pipes.h.

// A follower's n-th reservation: the one the leader made.
void *__weft_work_group_reserved_id(struct WorkGroupContext *context,
                                    uint32_t *made) {
  uint32_t n = (*made)++;
  return context->pipe_group.ids[n % WEFT_GROUP_PIPE_RESERVATIONS];
}

// The leader's n-th commit, made once the whole group has run.
void __weft_work_group_defer_commit(struct WorkGroupContext *context,
                                    uint32_t *made, PIPE pipe, void *id,
                                    int is_write) {
  (void)made;
  struct PipeGroupState *group = &context->pipe_group;
  struct DeferredPipeCommit *commit =
      &group->commits[group->deferred++ % WEFT_GROUP_PIPE_RESERVATIONS];
  commit->pipe = (void *)pipe;
  commit->id = id;
  commit->is_write = (uint64_t)is_write;
}

// After every work-item of the group: the noted commits, in order.
void __weft_work_group_deferred_commits(struct WorkGroupContext *context) {
  struct PipeGroupState *group = &context->pipe_group;
  for (uint64_t n = 0; n < group->deferred; ++n) {
    struct DeferredPipeCommit *commit = &group->commits[n];
    __weft_pipe_commit(commit->pipe, commit->id, (int)commit->is_write);
  }
  group->deferred = 0;
}

// Clang's names for the work-group builtins. The compiler replaces every
// call with one of the two functions above and the work-item's counter; these
// exist so that linking the builtin library brings those in. (Called as they
// are, each would act as the work-item's first reservation or commit.)
void *__work_group_reserve_write_pipe(PIPE pipe, unsigned num_packets,
                                      unsigned size, unsigned align) {
  uint32_t made = 0;
  return __weft_work_group_reserve(__weft_group_context(), &made, pipe,
                                   num_packets, 1);
}
void *__work_group_reserve_read_pipe(PIPE pipe, unsigned num_packets,
                                     unsigned size, unsigned align) {
  uint32_t made = 0;
  return __weft_work_group_reserve(__weft_group_context(), &made, pipe,
                                   num_packets, 0);
}
void __work_group_commit_write_pipe(PIPE pipe, void *reserve_id, unsigned size,
                                    unsigned align) {
  uint32_t made = 0;
  __weft_work_group_commit(__weft_group_context(), &made, pipe, reserve_id, 1);
}
void __work_group_commit_read_pipe(PIPE pipe, void *reserve_id, unsigned size,
                                   unsigned align) {
  uint32_t made = 0;
  __weft_work_group_commit(__weft_group_context(), &made, pipe, reserve_id, 0);
}

// Sub-group reservations (cl_khr_subgroups): the sub-group's first active
// work-item makes the reservation and the others take its id, through the
// exchanges every sub-group function is written with (builtins/
// subgroups.cl); the commit waits for the sub-group's active work-items,
// which have read or written their packets, and the first commits.
uint64_t __weft_sub_group_sync(uint64_t value);
uint64_t __weft_sub_group_read(uint32_t member);
unsigned _Z22get_sub_group_local_idv(void); // get_sub_group_local_id()

static void *subGroupReserve(PIPE pipe, unsigned num_packets, int is_write) {
  uint32_t first = (uint32_t)__builtin_ctzll(__weft_sub_group_sync(0));
  void *id = NULL;
  if (_Z22get_sub_group_local_idv() == first)
    id = __weft_pipe_reserve((void *)pipe, num_packets, is_write);
  __weft_sub_group_sync((uint64_t)(uintptr_t)id);
  return (void *)(uintptr_t)__weft_sub_group_read(first);
}

static void subGroupCommit(PIPE pipe, void *reserve_id, int is_write) {
  uint32_t first = (uint32_t)__builtin_ctzll(__weft_sub_group_sync(0));
  if (_Z22get_sub_group_local_idv() == first)
    __weft_pipe_commit((void *)pipe, reserve_id, is_write);
}

void *__sub_group_reserve_write_pipe(PIPE pipe, unsigned num_packets,
                                     unsigned size, unsigned align) {
  return subGroupReserve(pipe, num_packets, 1);
}

void *__sub_group_reserve_read_pipe(PIPE pipe, unsigned num_packets,
                                    unsigned size, unsigned align) {
  return subGroupReserve(pipe, num_packets, 0);
}

void __sub_group_commit_write_pipe(PIPE pipe, void *reserve_id, unsigned size,
                                   unsigned align) {
  subGroupCommit(pipe, reserve_id, 1);
}

void __sub_group_commit_read_pipe(PIPE pipe, void *reserve_id, unsigned size,
                                  unsigned align) {
  subGroupCommit(pipe, reserve_id, 0);
}
