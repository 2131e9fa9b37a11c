// A queued command as data: its kind, the bytes of memory objects it reads
// and writes, its wait list, its event, and the work that executes it. The
// in-order queue only runs the work; the accesses are what an out-of-order
// scheduler needs to tell which commands may run in either order
// (conflictsWith), as PoCL's command nodes list the buffers they touch.
#pragma once
#include "runtime/object.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace weft {

class Event;
class Memory;

// Bytes [offset, offset + size) of `memory` that a command reads or writes;
// without `memory`, host bytes from `offset` taken as an address (SVM
// commands, and kernels with SVM pointer arguments, which can reach any
// host memory).
struct MemoryAccess {
  static constexpr size_t kToEnd = SIZE_MAX;

  Ref<Memory> memory; // null: `offset` is a host address
  size_t offset = 0;
  size_t size = kToEnd; // kToEnd: up to the end of the object (of memory)
  bool writes = false;
};

class Command {
public:
  // Returns CL_SUCCESS or the negative status the command's event ends with.
  using Work = std::function<cl_int()>;

  explicit Command(cl_command_type type, Work work = nullptr);
  // Out of line: Event and Memory are only declared here.
  Command(Command &&) noexcept;
  Command &operator=(Command &&) noexcept;
  ~Command();

  cl_command_type type() const { return type_; }

  // Records what the command touches. Where only the object is known (a
  // kernel's buffer argument), leave the range whole; where it is not known
  // whether the command writes, record a write.
  void reads(Memory &memory, size_t offset = 0,
             size_t size = MemoryAccess::kToEnd);
  void writes(Memory &memory, size_t offset = 0,
              size_t size = MemoryAccess::kToEnd);
  // The same with a reference the caller holds, which the command takes
  // over (no count changes on the enqueue path).
  void reads(Ref<Memory> memory, size_t offset = 0,
             size_t size = MemoryAccess::kToEnd);
  void writes(Ref<Memory> memory, size_t offset = 0,
              size_t size = MemoryAccess::kToEnd);
  // The same for host memory addressed directly: SVM allocations, or any
  // host pointer with fine-grained system SVM.
  void readsHost(const void *address, size_t size);
  void writesHost(const void *address, size_t size);
  // A command that may write any host memory (a kernel following SVM
  // pointers): it conflicts with every command that touches memory.
  void writesAnyHostMemory() { writesHost(nullptr, MemoryAccess::kToEnd); }
  const std::vector<MemoryAccess> &accesses() const { return accesses_; }

  // Whether the two commands must run in the order they were queued: one
  // writes bytes the other reads or writes (the same buffer, or sub-buffers
  // and buffers over the same bytes), or either is a barrier.
  bool conflictsWith(const Command &other) const;

  cl_int execute() const { return work_ ? work_() : CL_SUCCESS; }

  // Gives the command `data`, which its work uses: `release(data)` runs
  // when the command is destroyed. Work that captures only such a pointer
  // fits in the std::function itself, where a capture that owns (a
  // shared_ptr) costs an allocation per command.
  void own(void *data, void (*release)(void *)) {
    owned_ = Owned(data, release);
  }
  // Room for `count` memory accesses, recorded without reallocating.
  void reserveAccesses(size_t count);

  // Filled by the queue (Queue::submit).
  std::vector<Ref<Event>> wait_list;
  Ref<Event> event;

private:
  using Owned = std::unique_ptr<void, void (*)(void *)>;

  cl_command_type type_;
  std::vector<MemoryAccess> accesses_;
  // Destroyed after work_ (declared before it), which may point into it.
  Owned owned_{nullptr, nullptr};
  Work work_;
};

} // namespace weft
