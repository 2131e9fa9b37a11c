#include "runtime/command.h"

#include "runtime/event.h"
#include "runtime/memory.h"

#include <algorithm>

namespace weft {
namespace {

// The host addresses an access covers. The device works in host memory, so
// two accesses touch the same bytes exactly when their address ranges meet:
// that covers one buffer, sub-buffers of one parent, and a sub-buffer and
// its parent alike.
struct AddressRange {
  uintptr_t begin, end;
};

AddressRange addressesOf(const MemoryAccess &access) {
  if (!access.memory) {
    uintptr_t begin = access.offset;
    size_t room = UINTPTR_MAX - begin;
    return {begin, begin + std::min(access.size, room)};
  }
  const Memory &memory = *access.memory;
  size_t offset = std::min(access.offset, memory.size());
  size_t size = std::min(access.size, memory.size() - offset);
  auto begin = reinterpret_cast<uintptr_t>(memory.data()) + offset;
  return {begin, begin + size};
}

bool overlap(const MemoryAccess &a, const MemoryAccess &b) {
  AddressRange x = addressesOf(a), y = addressesOf(b);
  return x.begin < y.end && y.begin < x.end;
}

} // namespace

Command::Command(cl_command_type type, Work work)
    : type_(type), work_(std::move(work)) {}
Command::Command(Command &&) noexcept = default;
Command &Command::operator=(Command &&) noexcept = default;
Command::~Command() = default;

void Command::reserveAccesses(size_t count) { accesses_.reserve(count); }

void Command::reads(Memory &memory, size_t offset, size_t size) {
  reads(Ref<Memory>(&memory), offset, size);
}

void Command::writes(Memory &memory, size_t offset, size_t size) {
  writes(Ref<Memory>(&memory), offset, size);
}

void Command::reads(Ref<Memory> memory, size_t offset, size_t size) {
  accesses_.push_back({std::move(memory), offset, size, false});
}

void Command::writes(Ref<Memory> memory, size_t offset, size_t size) {
  accesses_.push_back({std::move(memory), offset, size, true});
}

void Command::readsHost(const void *address, size_t size) {
  accesses_.push_back(
      {Ref<Memory>(), reinterpret_cast<uintptr_t>(address), size, false});
}

void Command::writesHost(const void *address, size_t size) {
  accesses_.push_back(
      {Ref<Memory>(), reinterpret_cast<uintptr_t>(address), size, true});
}

bool Command::conflictsWith(const Command &other) const {
  // A barrier orders every command before it against every one after it.
  if (type_ == CL_COMMAND_BARRIER || other.type_ == CL_COMMAND_BARRIER)
    return true;
  for (const MemoryAccess &mine : accesses_)
    for (const MemoryAccess &theirs : other.accesses_)
      if ((mine.writes || theirs.writes) && overlap(mine, theirs))
        return true;
  return false;
}

} // namespace weft
