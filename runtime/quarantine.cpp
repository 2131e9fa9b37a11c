#include "runtime/quarantine.h"

#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>

namespace weft {
namespace {

struct QuarantinedBlock {
  void *block = nullptr;
  void (*deallocate)(void *) = nullptr;
};

struct Quarantine {
  std::mutex mutex;
  QuarantinedBlock blocks[kQuarantinedObjects]; // guarded by mutex; a ring
  size_t next = 0;                              // guarded by mutex
};

// Never destroyed: objects may be released from static destructors after
// Weft's own would have run (see README, "during process exit").
Quarantine &theQuarantine() {
  static Quarantine *q = new Quarantine();
  return *q;
}

} // namespace

void quarantine(void *block, void *handle, const void *dispatch, void *magic,
                unsigned dead_magic, void (*deallocate)(void *)) {
  // Raw stores into storage whose object has ended: nothing may treat them
  // as dead.
  std::memcpy(handle, &dispatch, sizeof(dispatch));
  uint32_t value = dead_magic;
  std::memcpy(magic, &value, sizeof(value));
  QuarantinedBlock evicted;
  {
    Quarantine &q = theQuarantine();
    std::lock_guard<std::mutex> lock(q.mutex);
    evicted = q.blocks[q.next];
    q.blocks[q.next] = {block, deallocate};
    q.next = (q.next + 1) % kQuarantinedObjects;
  }
  if (evicted.block)
    evicted.deallocate(evicted.block);
}

} // namespace weft
