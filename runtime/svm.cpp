#include "runtime/svm.h"

#include "runtime/context.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>

namespace weft {

SvmRegistry::~SvmRegistry() {
  for (auto &[base, allocation] : allocations_)
    if (allocation.kind != AllocationKind::BufferDeviceAddress)
      std::free(allocation.base);
}

bool SvmRegistry::adopt(const SvmAllocation &external) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto begin = reinterpret_cast<uintptr_t>(external.base);
  // The first allocation past the start, and the one before it.
  auto next = allocations_.upper_bound(begin);
  if (next != allocations_.end() && next->first < begin + external.size)
    return false;
  if (next != allocations_.begin()) {
    auto before = std::prev(next);
    if (before->first + before->second.size > begin)
      return false;
  }
  allocations_[begin] = external;
  return true;
}

void SvmRegistry::forget(const void *base) {
  std::lock_guard<std::mutex> lock(mutex_);
  allocations_.erase(reinterpret_cast<uintptr_t>(base));
}

void *SvmRegistry::allocate(cl_svm_mem_flags flags, size_t size,
                            size_t alignment) {
  SvmAllocation made;
  made.size = size;
  made.flags = flags;
  return allocate(made, alignment);
}

void *SvmRegistry::allocate(SvmAllocation made, size_t alignment) {
  // posix_memalign: unlike aligned_alloc, the size need not be a multiple of
  // the alignment.
  void *memory = nullptr;
  if (posix_memalign(&memory, std::max(alignment, sizeof(void *)), made.size) !=
      0)
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  made.base = static_cast<char *>(memory);
  allocations_[reinterpret_cast<uintptr_t>(memory)] = made;
  freed_.erase(std::remove_if(freed_.begin(), freed_.end(),
                              [&](const SvmAllocation &old) {
                                return old.base < made.base + made.size &&
                                       made.base < old.base + old.size;
                              }),
               freed_.end());
  return memory;
}

bool SvmRegistry::free(void *pointer, bool usm) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(pointer));
    if (it == allocations_.end() ||
        it->second.kind == AllocationKind::BufferDeviceAddress ||
        (it->second.kind != AllocationKind::Svm) != usm)
      return false;
    freed_.push_back(it->second);
    if (freed_.size() > kFreedRemembered)
      freed_.pop_front();
    allocations_.erase(it);
  }
  std::free(pointer);
  return true;
}

std::optional<SvmAllocation> SvmRegistry::find(const void *pointer,
                                               size_t bytes) const {
  std::lock_guard<std::mutex> lock(mutex_);
  // The last allocation starting at or before `pointer` is the only one
  // that can hold it.
  auto it = allocations_.upper_bound(reinterpret_cast<uintptr_t>(pointer));
  if (it == allocations_.begin())
    return std::nullopt;
  --it;
  if (!it->second.contains(pointer, std::max<size_t>(bytes, 1)))
    return std::nullopt;
  return it->second;
}

std::vector<SvmAllocation> SvmRegistry::live() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<SvmAllocation> all;
  all.reserve(allocations_.size());
  for (const auto &[base, allocation] : allocations_)
    all.push_back(allocation);
  return all;
}

std::vector<SvmAllocation> SvmRegistry::recentlyFreed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::vector<SvmAllocation>(freed_.begin(), freed_.end());
}

size_t SvmRegistry::count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return allocations_.size();
}

void *svmAllocate(Context &context, cl_svm_mem_flags flags, size_t size,
                  size_t alignment) {
  void *memory = context.svm().allocate(flags, size, alignment);
  if (memory)
    context.retain();
  return memory;
}

void svmFree(Context &context, void *pointer) {
  // The allocation's reference to the context goes last: it may be the
  // context's last one, and the registry lives in the context.
  if (context.svm().free(pointer))
    context.release();
}

} // namespace weft
