#include "runtime/memory.h"

#include "device/bulk_memory.h"
#include "runtime/context.h"
#include "runtime/large_storage.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

namespace weft {

// The device's CL_DEVICE_MEM_BASE_ADDR_ALIGN (1024 bits), so every type and
// every SIMD access is aligned in any buffer.
constexpr size_t kBufferAlignment = 128;

// Buffers of this size and more start on a huge page and ask the kernel for
// huge pages (transparent huge pages are often granted only on request): a
// kernel that walks a large matrix a row at a time (a GEMM's tiles) would
// otherwise touch a new 4 KiB page, and miss the TLB, at nearly every row.
constexpr size_t kHugePageBytes = size_t(2) << 20;

bool Memory::allocateStorage(size_t size) {
  if (size >= kHugePageBytes) {
    // On huge pages every buffer would start at the same place in its
    // page, so element i of each maps to the same cache sets: a filter
    // reading one image and writing another of its shape had them evict
    // each other (the Xeon's 3x3 box filter ran 40% slower). Each starts
    // a different number of 4 KiB pages and cache lines in.
    //
    // And half a page in: the application copies between a mapped buffer
    // and its own arrays with memcpy, and glibc's memcpy of many bytes
    // runs at a third of its rate when the destination lies 16 to about
    // 700 bytes past the source within a page (Zen 3; its loads then fall
    // on page offsets its stores just wrote). malloc'ed arrays start 16
    // bytes into a page and posix_memalign'ed ones on a page; 2-3 KiB
    // into a page is far from both either way (clpeak's "memcpy from
    // mapped ptr", a buffer starting on a page: 4.9 GB/s, PoCL's, 128
    // bytes in, 12.4).
    static std::atomic<uint32_t> count{0};
    uint32_t k = count.fetch_add(1, std::memory_order_relaxed);
    constexpr size_t kHalfPage = 2048;
    size_t offset = size_t(k * 5 % 16) * 4096 + kHalfPage +
                    size_t(k * 3 % 8) * kBufferAlignment;
    size_t pages = (size + offset + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    if (void *base = takeLargeStorage(pages, kHugePageBytes)) {
      allocation_ = base;
      allocation_bytes_ = pages;
      data_ = static_cast<char *>(base) + offset;
      return true;
    }
  }
  size_t rounded = (size + kBufferAlignment - 1) & ~(kBufferAlignment - 1);
  data_ = static_cast<char *>(std::aligned_alloc(kBufferAlignment, rounded));
  allocation_ = data_;
  return data_ != nullptr;
}

Memory::Memory(Context &context, cl_mem_flags flags, size_t size)
    : context_(&context), flags_(flags), size_(size) {}

Memory::~Memory() { releaseStorage(); }

void Memory::releaseStorage() {
  if (owns_data_ && allocation_bytes_)
    giveBackLargeStorage(allocation_, allocation_bytes_);
  else if (owns_data_)
    std::free(allocation_ ? allocation_ : data_);
  owns_data_ = false;
  allocation_ = nullptr;
  allocation_bytes_ = 0;
}

Memory *Memory::createBuffer(Context &context, cl_mem_flags flags, size_t size,
                             void *host_ptr,
                             std::vector<cl_mem_properties> properties) {
  auto *memory = new (std::nothrow) Memory(context, flags, size);
  if (!memory)
    return nullptr;
  memory->properties_ = std::move(properties);
  for (size_t i = 0; i + 1 < memory->properties_.size(); i += 2)
    if (memory->properties_[i] == kDevicePrivateAddressProperty)
      memory->device_address_ = memory->properties_[i + 1] != CL_FALSE;
  if (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR))
    memory->host_ptr_ = host_ptr;
  if (flags & CL_MEM_USE_HOST_PTR) {
    memory->data_ = static_cast<char *>(host_ptr);
    memory->uses_svm_pointer_ = context.svm().find(host_ptr).has_value();
    memory->listDeviceAddress();
    return memory;
  }
  if (!memory->allocateStorage(size)) {
    delete memory;
    return nullptr;
  }
  memory->owns_data_ = true;
  if (flags & CL_MEM_COPY_HOST_PTR) // on this thread: no queue to share with
    copyBytes(memory->data_, host_ptr, size);
  memory->listDeviceAddress();
  return memory;
}

void Memory::listDeviceAddress() {
  // Memory already listed (a buffer over SVM or USM memory) is known as it
  // is.
  if (!device_address_)
    return;
  SvmAllocation storage;
  storage.base = data_;
  storage.size = size_;
  storage.kind = AllocationKind::BufferDeviceAddress;
  listed_in_registry_ = context_->svm().adopt(storage);
}

Memory *Memory::createSubBuffer(Memory &parent, cl_mem_flags flags,
                                size_t origin, size_t size) {
  auto *memory = new (std::nothrow) Memory(parent.context(), flags, size);
  if (!memory)
    return nullptr;
  memory->parent_ = Ref<Memory>(&parent);
  memory->offset_ = origin;
  memory->data_ = parent.data() + origin;
  memory->uses_svm_pointer_ = parent.usesSvmPointer();
  if (parent.flags() & CL_MEM_USE_HOST_PTR)
    memory->host_ptr_ = static_cast<char *>(parent.hostPointer()) + origin;
  return memory;
}

bool Memory::removeMapping() {
  cl_uint count = map_count_.load();
  while (count > 0)
    if (map_count_.compare_exchange_weak(count, count - 1))
      return true;
  return false;
}

void Memory::addDestructorCallback(DestructorCallback callback,
                                   void *user_data) {
  std::lock_guard<std::mutex> lock(mutex_);
  destructors_.emplace_back(callback, user_data);
}

void Memory::destroy() {
  // Callbacks run newest first, before the storage is released (spec).
  for (auto it = destructors_.rbegin(); it != destructors_.rend(); ++it)
    it->first(this, it->second);
  // A kernel may still hold a shell reference to this object; the storage
  // and the objects it holds go now.
  if (listed_in_registry_)
    context_->svm().forget(data_);
  listed_in_registry_ = false;
  releaseStorage();
  data_ = nullptr;
  parent_ = Ref<Memory>();
  context_ = Ref<Context>();
  Object::destroy();
}

} // namespace weft
