// Base of every OpenCL object: the ICD dispatch pointer the loader needs as
// the first word, a magic value so a wrong or released handle is caught with
// CL_INVALID_<OBJECT> instead of a crash, and reference counting that keeps an
// object alive while a queued command still uses it.
#pragma once
#include "runtime/quarantine.h"

#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <atomic>
#include <cstdint>
#include <utility>

// A loader reads the first word of a handle (the dispatch table), and a
// cl_khr_icd 2.0 loader the second: its own dispatch data, which it hands
// to the driver (clIcdSetPlatformDispatchDataKHR, icd/dispatch.cpp) and
// finds in every handle. Weft's magic value comes after them, in the handle
// itself: a handle is checked by reading those bytes, before it is ever
// treated as an object of its kind (a wrong or released one never is).
#define WEFT_HANDLE(name)                                                      \
  struct name {                                                                \
    const cl_icd_dispatch *dispatch;                                           \
    void *loader_data;                                                         \
    uint32_t weft_magic;                                                       \
  };
WEFT_HANDLE(_cl_platform_id)
WEFT_HANDLE(_cl_device_id)
WEFT_HANDLE(_cl_context)
WEFT_HANDLE(_cl_command_queue)
WEFT_HANDLE(_cl_mem)
WEFT_HANDLE(_cl_program)
WEFT_HANDLE(_cl_kernel)
WEFT_HANDLE(_cl_event)
WEFT_HANDLE(_cl_sampler)
WEFT_HANDLE(_cl_command_buffer_khr)  // cl_khr_command_buffer
WEFT_HANDLE(_cl_mutable_command_khr) // cl_khr_command_buffer_mutable_dispatch
#undef WEFT_HANDLE

namespace weft {

// The dispatch table lives in icd/; runtime objects only point at it.
extern const cl_icd_dispatch kDispatchTable;

// The dispatch data a cl_khr_icd 2.0 loader gave the platform (null
// before, or with an older loader); every object made after carries it.
inline std::atomic<void *> &loaderDispatchData() {
  static std::atomic<void *> data{nullptr};
  return data;
}

enum class ObjectKind : uint32_t {
  Platform = 0x57465031, // "WFP1"...
  Device,
  Context,
  Queue,
  Memory,
  Program,
  Kernel,
  Event,
  Sampler,
  CommandBuffer,
  MutableCommand,
};
constexpr uint32_t kDeadMagic = 0xdeadbeef;

// `Handle` is the _cl_* struct the application sees.
template <typename Handle, ObjectKind Kind> class Object : public Handle {
public:
  Object() {
    this->dispatch = &kDispatchTable;
    this->loader_data = loaderDispatchData().load(std::memory_order_acquire);
    this->weft_magic = static_cast<uint32_t>(Kind);
  }
  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;
  virtual ~Object() { this->weft_magic = kDeadMagic; }

  bool isValid() const {
    return this->weft_magic == static_cast<uint32_t>(Kind);
  }

  // The object behind `handle`, or null for a null, foreign or released
  // handle (its magic is read from the handle's own bytes first).
  template <typename Derived> static Derived *checkedCast(Handle *handle) {
    if (!handle || handle->weft_magic != static_cast<uint32_t>(Kind))
      return nullptr;
    return static_cast<Derived *>(handle);
  }

  // Application references (clRetain*/clRelease*): the count the API reports.
  void retainApi() {
    api_refs_.fetch_add(1, std::memory_order_relaxed);
    retain();
  }
  void releaseApi() {
    api_refs_.fetch_sub(1, std::memory_order_relaxed);
    release();
  }
  cl_uint apiReferenceCount() const {
    return api_refs_.load(std::memory_order_relaxed);
  }

  // Internal references: a command, a sub-buffer holding on.
  void retain() { total_refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (total_refs_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      destroy();
  }
  // Takes a strong reference unless the object has already been destroyed.
  bool tryRetain() {
    uint32_t count = total_refs_.load(std::memory_order_relaxed);
    while (count != 0)
      if (total_refs_.compare_exchange_weak(count, count + 1,
                                            std::memory_order_acquire))
        return true;
    return false;
  }

  // Shell references keep the C++ object readable but not its resources.
  // The spec says clSetKernelArg does not retain a memory object, and the
  // CTS checks that releasing a buffer set as an argument runs its
  // destructor callbacks; the kernel still has to tell, at enqueue, that the
  // argument is gone instead of reading freed memory.
  void retainShell() { shell_refs_.fetch_add(1, std::memory_order_relaxed); }
  void releaseShell() {
    if (shell_refs_.fetch_sub(1, std::memory_order_acq_rel) != 1)
      return;
    // Destroyed, but its memory goes to quarantine (runtime/quarantine.h)
    // rather than back to the allocator: a stale handle still leads here.
    void *block = dynamic_cast<void *>(this);
    Handle *handle = this;
    void *magic = &handle->weft_magic;
    void (*deallocate)(void *) = deallocator();
    this->~Object();
    quarantine(block, handle, &kDispatchTable, magic, kDeadMagic, deallocate);
  }

protected:
  // Called once when the last strong reference goes. Objects with resources
  // or destructor callbacks override it, release what they hold, and end
  // with Object::destroy().
  virtual void destroy() {
    this->weft_magic = kDeadMagic;
    releaseShell();
  }
  // How the object's memory is freed once out of quarantine: as the global
  // operator new gave it, unless its kind allocates otherwise (Event).
  virtual void (*deallocator() const)(void *) {
    return [](void *block) { ::operator delete(block); };
  }

private:
  std::atomic<cl_uint> api_refs_{1};
  std::atomic<uint32_t> total_refs_{1};
  // One for all strong references together, plus one per shell reference.
  std::atomic<uint32_t> shell_refs_{1};
};

// Owning internal reference.
template <typename T> class Ref {
public:
  Ref() = default;
  explicit Ref(T *object, bool adopt = false) : object_(object) {
    if (object_ && !adopt)
      object_->retain();
  }
  Ref(const Ref &other) : Ref(other.object_) {}
  Ref(Ref &&other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  Ref &operator=(Ref other) {
    std::swap(object_, other.object_);
    return *this;
  }
  ~Ref() {
    if (object_)
      object_->release();
  }
  T *get() const { return object_; }
  T *operator->() const { return object_; }
  T &operator*() const { return *object_; }
  explicit operator bool() const { return object_ != nullptr; }

private:
  T *object_ = nullptr;
};

// Non-owning reference that can still ask whether the object is alive.
template <typename T> class ShellRef {
public:
  ShellRef() = default;
  explicit ShellRef(T *object) : object_(object) {
    if (object_)
      object_->retainShell();
  }
  ShellRef(const ShellRef &other) : ShellRef(other.object_) {}
  ShellRef &operator=(ShellRef other) {
    std::swap(object_, other.object_);
    return *this;
  }
  ~ShellRef() {
    if (object_)
      object_->releaseShell();
  }
  explicit operator bool() const { return object_ != nullptr; }
  // A strong reference, or an empty one if the object was destroyed.
  Ref<T> lock() const {
    if (object_ && object_->tryRetain())
      return Ref<T>(object_, /*adopt=*/true);
    return Ref<T>();
  }

private:
  T *object_ = nullptr;
};

} // namespace weft
