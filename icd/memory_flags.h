// The cl_mem_flags rules buffers and images share, and the host access
// checks of their commands.
#pragma once
#include "runtime/memory.h"

#include <CL/cl.h>

namespace weft::icd::memory_flags {

using weft::Memory;

constexpr cl_mem_flags kAccessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kHostPointerFlags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

inline bool atMostOne(cl_mem_flags flags, cl_mem_flags group) {
  cl_mem_flags set = flags & group;
  return (set & (set - 1)) == 0;
}

inline cl_int validateMemoryFlags(cl_mem_flags flags, void *host_ptr) {
  if (flags & ~(kAccessFlags | kHostAccessFlags | kHostPointerFlags |
                CL_MEM_KERNEL_READ_AND_WRITE))
    return CL_INVALID_VALUE;
  if (!atMostOne(flags, kAccessFlags) || !atMostOne(flags, kHostAccessFlags))
    return CL_INVALID_VALUE;
  if ((flags & CL_MEM_USE_HOST_PTR) &&
      (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return CL_INVALID_VALUE;
  bool wants_pointer = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wants_pointer != (host_ptr != nullptr))
    return CL_INVALID_HOST_PTR;
  return CL_SUCCESS;
}

inline bool hostMayRead(const Memory &m) {
  return !(m.flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
}
inline bool hostMayWrite(const Memory &m) {
  return !(m.flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
}

// The flags of clEnqueueMap{Buffer,Image}: CL_INVALID_VALUE for unknown
// flags or CL_MAP_WRITE_INVALIDATE_REGION with another, CL_INVALID_OPERATION
// for access the object's host flags deny.
inline cl_int validateMapFlags(cl_map_flags flags, const Memory &m) {
  constexpr cl_map_flags kKnown =
      CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if ((flags & ~kKnown) || ((flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                            (flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return CL_INVALID_VALUE;
  if (((flags & CL_MAP_READ) && !hostMayRead(m)) ||
      ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
       !hostMayWrite(m)))
    return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

} // namespace weft::icd::memory_flags
