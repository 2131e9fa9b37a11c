// The cl_mem_flags rules buffers and images share.
#pragma once
#include <CL/cl.h>

namespace weft::icd::memory_flags {

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

} // namespace weft::icd::memory_flags
