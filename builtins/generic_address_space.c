// The generic address space's runtime questions: to_global, to_local,
// to_private and get_fence. On this CPU every address space is one flat
// memory, so a generic pointer is just an address; which named space it
// belongs to, the device answers from the ranges it knows (the group's local
// memory, the work-item's stack and its values kept across barriers).
#include "device/launch_abi.h"

#define GENERIC __attribute__((address_space(4)))
#define GLOBAL __attribute__((address_space(1)))
#define LOCAL __attribute__((address_space(3)))

struct WorkGroupContext *__weft_group_context(void);

static uint32_t kindOf(const GENERIC void *pointer) {
  struct WorkGroupContext *context = __weft_group_context();
  return context->address_kind(context, (const void *)pointer);
}

GLOBAL void *__to_global(GENERIC void *pointer) {
  return pointer && kindOf(pointer) == kGlobalAddress ? (GLOBAL void *)pointer
                                                      : 0;
}

LOCAL void *__to_local(GENERIC void *pointer) {
  return pointer && kindOf(pointer) == kLocalAddress ? (LOCAL void *)pointer
                                                     : 0;
}

void *__to_private(GENERIC void *pointer) {
  return pointer && kindOf(pointer) == kPrivateAddress ? (void *)pointer : 0;
}

// CLK_GLOBAL_MEM_FENCE and CLK_LOCAL_MEM_FENCE; private memory needs none.
enum { kGlobalFence = 2, kLocalFence = 1 };

static uint32_t fenceFor(const GENERIC void *pointer) {
  switch (kindOf(pointer)) {
  case kLocalAddress:
    return kLocalFence;
  case kPrivateAddress:
    return 0;
  default:
    return kGlobalFence;
  }
}

// get_fence(generic void *) and get_fence(const generic void *).
uint32_t _Z9get_fencePU9CLgenericv(GENERIC void *pointer) {
  return fenceFor(pointer);
}
uint32_t _Z9get_fencePU9CLgenericKv(const GENERIC void *pointer) {
  return fenceFor(pointer);
}
