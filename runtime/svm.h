// Shared virtual memory. On a CPU, host memory is device memory: an SVM
// allocation is an aligned host allocation, and kernels dereference SVM
// pointers (or, with fine-grained system SVM, any host pointer) directly.
// Each context keeps a registry of the allocations clSVMAlloc made, so the
// entry points that need an allocation's extent (clSVMFree,
// clEnqueueSVMMigrateMem, CL_MEM_USE_HOST_PTR buffers over SVM) can find the
// one containing a pointer, also one into its middle.
#pragma once
#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace weft {

class Context;

// The largest alignment clSVMAlloc accepts: a 2 MiB huge page, so an
// application may ask for memory the kernel can back with huge pages.
constexpr size_t kMaxSvmAlignment = size_t(2) << 20;
// Alignment 0 asks for the default: the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN
// (128 bytes, the largest OpenCL C type, long16/double16).
constexpr size_t kDefaultSvmAlignment = 128;

class Device;

// Who made an allocation: clSVMAlloc, one of the three USM allocators of
// cl_intel_unified_shared_memory (runtime/usm.h), or a buffer with a device
// address (cl_ext_buffer_device_address), whose storage the buffer owns and
// which is listed so kernels' pointers into it are known (the memory
// checking mode). All are the same host memory; the kind is what
// clGetMemAllocInfoINTEL reports.
enum class AllocationKind : uint8_t {
  Svm,
  UsmHost,
  UsmDevice,
  UsmShared,
  BufferDeviceAddress
};

struct SvmAllocation {
  char *base = nullptr;
  size_t size = 0;
  cl_svm_mem_flags flags = 0;
  AllocationKind kind = AllocationKind::Svm;
  Device *device = nullptr;        // a USM device or shared allocation's
  cl_bitfield usm_alloc_flags = 0; // CL_MEM_ALLOC_FLAGS_INTEL

  bool contains(const void *pointer, size_t bytes = 1) const {
    auto p = reinterpret_cast<uintptr_t>(pointer);
    auto b = reinterpret_cast<uintptr_t>(base);
    return p >= b && p - b < size && bytes <= size - (p - b);
  }
};

class SvmRegistry {
public:
  SvmRegistry() = default;
  SvmRegistry(const SvmRegistry &) = delete;
  SvmRegistry &operator=(const SvmRegistry &) = delete;
  // Frees what is left. Live allocations hold their context (svmAllocate),
  // so that is nothing unless a registry is used on its own (tests).
  ~SvmRegistry();

  // Allocates `size` bytes at `alignment` (a power of two; the caller checked
  // flags, size and alignment). Returns null when memory is exhausted.
  void *allocate(cl_svm_mem_flags flags, size_t size, size_t alignment);
  // The same for an allocation described by `made` (all but its base).
  void *allocate(SvmAllocation made, size_t alignment);
  // Lists memory someone else owns (a buffer with a device address) unless
  // it overlaps a listed allocation; false then. forget() takes it out
  // again; the registry never frees it.
  bool adopt(const SvmAllocation &external);
  void forget(const void *base);
  // Frees the allocation that starts at `pointer` if clSVMAlloc made it
  // (`usm` false) or a USM allocator did (`usm` true); false (and nothing
  // freed) when no such allocation of this registry starts there.
  bool free(void *pointer, bool usm = false);
  // The allocation holding `bytes` bytes from `pointer` (bytes 0: holding
  // `pointer` itself), if any.
  std::optional<SvmAllocation> find(const void *pointer,
                                    size_t bytes = 0) const;
  size_t count() const;
  // Every live allocation, and the most recent freed ones no live
  // allocation has reused since (for the memory checking mode's reports
  // of stale pointers, device/memory_checker.h).
  std::vector<SvmAllocation> live() const;
  std::vector<SvmAllocation> recentlyFreed() const;

private:
  // How many freed allocations are remembered.
  static constexpr size_t kFreedRemembered = 256;
  mutable std::mutex mutex_;
  std::map<uintptr_t, SvmAllocation> allocations_; // by base; by mutex_
  std::deque<SvmAllocation> freed_;                // newest last; by mutex_
};

// clSVMAlloc and clSVMFree for `context`. Each live allocation holds a
// reference to its context, so a context released while allocations remain
// stays valid for the clSVMFree calls that free them (then it goes).
void *svmAllocate(Context &context, cl_svm_mem_flags flags, size_t size,
                  size_t alignment);
void svmFree(Context &context, void *pointer);

} // namespace weft
