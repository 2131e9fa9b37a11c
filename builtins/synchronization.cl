// Memory fences. Work-items of a group run on one thread, and global memory
// is shared with other threads through the cache-coherent x86 memory model;
// a full fence also keeps the compiler from moving accesses across.
#include "builtin_macros.h"

OVERLOADABLE void mem_fence(cl_mem_fence_flags flags) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
OVERLOADABLE void read_mem_fence(cl_mem_fence_flags flags) {
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
}
OVERLOADABLE void write_mem_fence(cl_mem_fence_flags flags) {
  __atomic_thread_fence(__ATOMIC_RELEASE);
}
