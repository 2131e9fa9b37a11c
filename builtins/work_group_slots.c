// The slots of the work-group collective functions
// (builtins/work_group_collectives.cl), from the group's context.
#include "device/launch_abi.h"

#include <stdint.h>

// Answered by the compiler inside each kernel (compiler/kernel_bodies.cpp).
struct WorkGroupContext *__weft_group_context(void);

// A __global pointer to the OpenCL C side (address space 1).
__attribute__((address_space(1))) uint64_t *__weft_collective_slots(void) {
  return (__attribute__((address_space(1))) uint64_t *)
      __weft_group_context()->collective_slots;
}
