// Unified shared memory (cl_intel_unified_shared_memory). On a CPU host
// memory is device memory, so host, device and shared allocations are all
// aligned host memory that every device of the context and the host read,
// write and use atomically at the same time. They are registered with
// their kind in the context's registry of SVM allocations (runtime/svm.h):
// a USM pointer and an SVM pointer can be found, passed to kernels, copied
// between and checked (WEFT_CHECK_MEMORY) alike.
#pragma once
#include "runtime/svm.h"

#include <CL/cl_ext.h>

#include <cstddef>
#include <vector>

namespace weft {

class Context;
class Device;

// What the allocators accept: the properties read and checked
// (icd/usm_api.cpp), the alignment a power of two (0 for the default).
struct UsmRequest {
  AllocationKind kind = AllocationKind::UsmHost;
  Device *device = nullptr; // for device and (optionally) shared memory
  cl_mem_alloc_flags_intel flags = 0;
  size_t size = 0;
  size_t alignment = 0;
};

// Allocates as `request` says; null when memory is exhausted. Like an SVM
// allocation, each holds a reference to its context until freed.
void *usmAllocate(Context &context, const UsmRequest &request);
// Frees the USM allocation that starts at `pointer`; false when none of
// `context` does (an SVM allocation is clSVMFree's).
bool usmFree(Context &context, void *pointer);
// The same once every command queued on the context so far has completed
// (clMemBlockingFreeINTEL: any of them may use the allocation).
bool usmBlockingFree(Context &context, void *pointer);

// The capabilities each kind of allocation has on this device
// (CL_DEVICE_*_MEM_CAPABILITIES_INTEL): access, atomics, both concurrent
// with the host and other devices, for every kind.
constexpr cl_device_unified_shared_memory_capabilities_intel kUsmCapabilities =
    CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL |
    CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
    CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
    CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL;

// The kind clGetMemAllocInfoINTEL reports; an SVM allocation is not a USM
// allocation (CL_MEM_TYPE_UNKNOWN_INTEL), as the extension says.
cl_unified_shared_memory_type_intel usmTypeOf(const SvmAllocation &allocation);

// The largest alignment the allocators accept, and their default: the
// largest OpenCL C type (long16, double16), as the extension bounds it.
constexpr size_t kMaxUsmAlignment = 128;

} // namespace weft
