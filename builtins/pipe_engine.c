// The storage engine behind the OpenCL pipe builtins: a lock-free ring of
// packets whose layout and invariants are in device/pipe_abi.h. Clang lowers
// read_pipe, reserve_write_pipe, ... to calls of the __*_pipe functions here.
//
// Work-items run on many threads and, within a work-group, as fibers of one
// thread, so no operation here ever waits for another work-item: each one
// finishes in bounded time or fails with its return value. The only loops
// retry a compare-and-swap that failed because another work-item's succeeded.
#include "device/pipe_abi.h"

#include <stddef.h>
#include <stdint.h>

_Static_assert(sizeof(void *) == 8, "reservation ids are 64 bits");

// Kernels pass the pipe as a __global pointer and packet data as a generic
// one (Clang's calls: __read_pipe_2(ptr addrspace(1), ptr addrspace(4), ...));
// the host build for the tests has no address spaces.
#ifdef WEFT_DEVICE_CODE
#define PIPE __attribute__((address_space(1))) void *
#define DATA __attribute__((address_space(4))) void *
#define CONST_DATA const __attribute__((address_space(4))) void *
#else
#define PIPE void *
#define DATA void *
#define CONST_DATA const void *
#endif

// Every access to a counter or a record is sequentially consistent: a commit
// stores its record and then reads the counter, while the work-item that
// moves the counter then reads the record, and one of the two must see the
// other's store (finishPositions). Each counter is also moved only by a
// work-item that read its previous value, so the release/acquire chain
// carries the packet contents from writers to readers and back.
static inline uint64_t load(const uint64_t *at) {
  return __atomic_load_n(at, __ATOMIC_SEQ_CST);
}
static inline void store(uint64_t *at, uint64_t value) {
  __atomic_store_n(at, value, __ATOMIC_SEQ_CST);
}
static inline int compareAndSwap(uint64_t *at, uint64_t *expected,
                                 uint64_t desired) {
  return __atomic_compare_exchange_n(at, expected, desired, /*weak=*/0,
                                     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

static inline uint64_t *writeEnds(struct WeftPipe *pipe) {
  return (uint64_t *)(pipe + 1);
}
static inline uint64_t *readEnds(struct WeftPipe *pipe) {
  return writeEnds(pipe) + pipe->max_packets;
}
static inline char *packetAt(struct WeftPipe *pipe, uint64_t index) {
  return (char *)pipe + pipe->packets_offset + index * pipe->packet_size;
}

// The kernel's packet type may not be larger than the pipe's packets.
static inline int sizeFits(const struct WeftPipe *pipe, unsigned size) {
  return size <= pipe->packet_size;
}

// Packets of the common sizes are moved as one value of a type used for
// nothing else. Its type-based alias information tells LLVM that storing a
// packet cannot change the pipe's header or a work-group's reservation
// state. Without that, a work-item loop reloads every header field for every
// packet.
#define WEFT_PACKET_TYPES(X)                                                   \
  X(1, uint8_t)                                                                \
  X(2, uint16_t)                                                               \
  X(4, uint32_t)                                                               \
  X(8, uint64_t)                                                               \
  X(16, __uint128_t)
#define WEFT_DECLARE_PACKET(size, type)                                        \
  struct WeftPacket##size {                                                    \
    type value;                                                                \
  } __attribute__((packed));
WEFT_PACKET_TYPES(WEFT_DECLARE_PACKET)

// Into the pipe: a typed store. The kernel's data is read bytewise.
static inline void writePacket(char *packet, const char *data, unsigned size) {
  switch (size) {
#define WEFT_WRITE_PACKET(n, type)                                             \
  case n: {                                                                    \
    type value;                                                                \
    __builtin_memcpy(&value, data, n);                                         \
    ((struct WeftPacket##n *)packet)->value = value;                           \
    return;                                                                    \
  }
    WEFT_PACKET_TYPES(WEFT_WRITE_PACKET)
  default:
    __builtin_memcpy(packet, data, size);
  }
}

// Out of the pipe: a typed load. The kernel's data is written bytewise.
static inline void readPacket(char *data, const char *packet, unsigned size) {
  switch (size) {
#define WEFT_READ_PACKET(n, type)                                              \
  case n: {                                                                    \
    type value = ((const struct WeftPacket##n *)packet)->value;                \
    __builtin_memcpy(data, &value, n);                                         \
    return;                                                                    \
  }
    WEFT_PACKET_TYPES(WEFT_READ_PACKET)
  default:
    __builtin_memcpy(data, packet, size);
  }
}

// Takes the next `count` positions for writing (free ones) or reading
// (published ones). Returns 0 when fewer than `count` are available now.
static int takePositions(struct WeftPipe *pipe, uint32_t count, int is_write,
                         uint64_t *start) {
  uint64_t capacity = pipe->max_packets;
  if (count == 0 || count > capacity)
    return 0;
  uint64_t *next = is_write ? &pipe->reserved_writes.position
                            : &pipe->reserved_reads.position;
  uint64_t first = load(next);
  for (;;) {
    // Loaded after `first`, so never below it (pipe_abi.h invariants); a
    // stale value only makes the check stricter.
    uint64_t limit = is_write ? load(&pipe->released.position) + capacity
                              : load(&pipe->published.position);
    if (first + count > limit)
      return 0;
    if (compareAndSwap(next, &first, first + count)) {
      *start = first;
      return 1;
    }
  }
}

// Commits positions [start, end): publishes them to readers (writes) or frees
// them for writers (reads), in reservation order. Only the owner of `start`
// may move the counter away from it, so if the counter is there, the commit
// moves it itself; otherwise it records `end` for whoever brings the counter
// to `start`. Then it moves the counter over every recorded reservation that
// follows, and stops when one is still open or another work-item moved the
// counter first (that one goes on with the same loop).
//
// The records in use are also counted: with none, there is nothing to look
// for, and the record array (8 bytes per packet, mostly out of cache) is not
// read at all. A commit that records counts its record first and looks at
// the counter after storing it, so a mover that found the count at zero, or
// did not see the record yet, moved the counter before that look, and the
// recording commit finds the counter at its start and moves on itself.
static void finishPositions(struct WeftPipe *pipe, uint64_t start, uint64_t end,
                            int is_write) {
  uint64_t capacity = pipe->max_packets;
  uint64_t *counter =
      is_write ? &pipe->published.position : &pipe->released.position;
  uint64_t *records =
      is_write ? &pipe->write_records.position : &pipe->read_records.position;
  uint64_t *ends = is_write ? writeEnds(pipe) : readEnds(pipe);
  if (load(counter) == start) {
    store(counter, end);
  } else {
    __atomic_fetch_add(records, 1, __ATOMIC_SEQ_CST);
    store(&ends[start % capacity], end);
  }
  for (;;) {
    if (load(records) == 0)
      return;
    uint64_t position = load(counter);
    uint64_t recorded = load(&ends[position % capacity]);
    // A record not above the counter is from an earlier trip round the ring.
    if (recorded <= position || !compareAndSwap(counter, &position, recorded))
      return;
    __atomic_fetch_sub(records, 1, __ATOMIC_SEQ_CST);
  }
}

// A reservation id: bit 0 always set, so no id is CLK_NULL_RESERVE_ID;
// bits 1-31 the ring index of its first packet; bits 32-62 its packet count;
// bit 63 set for a write reservation. The full position of the first packet
// is recovered at commit time from the counter, which cannot have passed it.
static void *makeId(const struct WeftPipe *pipe, uint64_t start, uint32_t count,
                    int is_write) {
  uint64_t first = start % pipe->max_packets;
  uint64_t bits =
      1u | first << 1 | (uint64_t)count << 32 | (uint64_t)(is_write != 0) << 63;
  return (void *)(uintptr_t)bits;
}

// Returns 0 for CLK_NULL_RESERVE_ID and for ids this pipe cannot have made.
static int decodeId(const struct WeftPipe *pipe, const void *id, int is_write,
                    uint32_t *first, uint32_t *count) {
  uint64_t bits = (uint64_t)(uintptr_t)id;
  if (!(bits & 1) || (int)(bits >> 63) != (is_write != 0))
    return 0;
  *first = (uint32_t)(bits >> 1) & WEFT_PIPE_MAX_PACKETS;
  *count = (uint32_t)(bits >> 32) & WEFT_PIPE_MAX_PACKETS;
  return *count != 0 && *count <= pipe->max_packets &&
         *first < pipe->max_packets;
}

// Internal entry points, also for the work-group and sub-group reservations
// (one work-item reserves or commits for the group).

void *__weft_pipe_reserve(void *pipe, unsigned count, int is_write) {
  struct WeftPipe *p = (struct WeftPipe *)pipe;
  uint64_t start;
  if (!takePositions(p, count, is_write, &start))
    return NULL;
  return makeId(p, start, count, is_write);
}

void __weft_pipe_commit(void *pipe, void *id, int is_write) {
  struct WeftPipe *p = (struct WeftPipe *)pipe;
  uint32_t first, count;
  if (!decodeId(p, id, is_write, &first, &count))
    return;
  uint64_t capacity = p->max_packets;
  // The counter is at most `capacity` positions behind the reservation.
  uint64_t counter =
      load(is_write ? &p->published.position : &p->released.position);
  uint64_t start = counter + (first + capacity - counter % capacity) % capacity;
  finishPositions(p, start, start + count, is_write);
}

// The packet `index` of a reservation of `size`-byte packets, or null for a
// bad id, index or size. The header is read first and unconditionally: in a
// loop of work-items writing the packets of one reservation, LLVM then reads
// it once before the loop instead of once per packet.
static char *packetFor(struct WeftPipe *p, void *id, unsigned index,
                       unsigned size, int is_write) {
  uint32_t packet_size = p->packet_size;
  uint64_t max_packets = p->max_packets;
  char *packets = (char *)p + p->packets_offset;
  uint32_t first, count;
  if (!decodeId(p, id, is_write, &first, &count) || index >= count ||
      size > packet_size)
    return NULL;
  // first < max_packets and index < count <= max_packets: one wrap at most,
  // without a division per packet.
  uint64_t slot = (uint64_t)first + index;
  if (slot >= max_packets)
    slot -= max_packets;
  return packets + slot * packet_size;
}

// The OpenCL C builtins. `size` and `align` are those of the kernel's packet
// type; the packets are copied bytewise, so `align` does not matter.

int __write_pipe_2(PIPE pipe, CONST_DATA data, unsigned size, unsigned align) {
  struct WeftPipe *p = (struct WeftPipe *)(void *)pipe;
  uint64_t start;
  if (!sizeFits(p, size) || !takePositions(p, 1, /*is_write=*/1, &start))
    return -1;
  writePacket(packetAt(p, start % p->max_packets),
              (const char *)(const void *)data, size);
  finishPositions(p, start, start + 1, /*is_write=*/1);
  return 0;
}

int __read_pipe_2(PIPE pipe, DATA data, unsigned size, unsigned align) {
  struct WeftPipe *p = (struct WeftPipe *)(void *)pipe;
  uint64_t start;
  if (!sizeFits(p, size) || !takePositions(p, 1, /*is_write=*/0, &start))
    return -1;
  readPacket((char *)(void *)data, packetAt(p, start % p->max_packets), size);
  finishPositions(p, start, start + 1, /*is_write=*/0);
  return 0;
}

void *__reserve_write_pipe(PIPE pipe, unsigned num_packets, unsigned size,
                           unsigned align) {
  if (!sizeFits((struct WeftPipe *)(void *)pipe, size))
    return NULL;
  return __weft_pipe_reserve((void *)pipe, num_packets, /*is_write=*/1);
}

void *__reserve_read_pipe(PIPE pipe, unsigned num_packets, unsigned size,
                          unsigned align) {
  if (!sizeFits((struct WeftPipe *)(void *)pipe, size))
    return NULL;
  return __weft_pipe_reserve((void *)pipe, num_packets, /*is_write=*/0);
}

int __write_pipe_4(PIPE pipe, void *reserve_id, unsigned index, CONST_DATA data,
                   unsigned size, unsigned align) {
  char *packet = packetFor((struct WeftPipe *)(void *)pipe, reserve_id, index,
                           size, /*is_write=*/1);
  if (!packet)
    return -1;
  writePacket(packet, (const char *)(const void *)data, size);
  return 0;
}

int __read_pipe_4(PIPE pipe, void *reserve_id, unsigned index, DATA data,
                  unsigned size, unsigned align) {
  char *packet = packetFor((struct WeftPipe *)(void *)pipe, reserve_id, index,
                           size, /*is_write=*/0);
  if (!packet)
    return -1;
  readPacket((char *)(void *)data, packet, size);
  return 0;
}

void __commit_write_pipe(PIPE pipe, void *reserve_id, unsigned size,
                         unsigned align) {
  __weft_pipe_commit((void *)pipe, reserve_id, /*is_write=*/1);
}

void __commit_read_pipe(PIPE pipe, void *reserve_id, unsigned size,
                        unsigned align) {
  __weft_pipe_commit((void *)pipe, reserve_id, /*is_write=*/0);
}

// Packets published and not yet reserved by a reader: a snapshot that may be
// stale by the time the kernel uses it, as the spec allows.
static unsigned readablePackets(PIPE pipe) {
  struct WeftPipe *p = (struct WeftPipe *)(void *)pipe;
  uint64_t reserved = load(&p->reserved_reads.position);
  // Loaded second, so never below `reserved`.
  uint64_t published = load(&p->published.position);
  return (unsigned)(published - reserved);
}

unsigned __get_pipe_num_packets_ro(PIPE pipe, unsigned size, unsigned align) {
  return readablePackets(pipe);
}

unsigned __get_pipe_num_packets_wo(PIPE pipe, unsigned size, unsigned align) {
  return readablePackets(pipe);
}

unsigned __get_pipe_max_packets_ro(PIPE pipe, unsigned size, unsigned align) {
  return ((struct WeftPipe *)(void *)pipe)->max_packets;
}

unsigned __get_pipe_max_packets_wo(PIPE pipe, unsigned size, unsigned align) {
  return ((struct WeftPipe *)(void *)pipe)->max_packets;
}

// is_valid_reserve_id(reserve_id_t): ids are never 0 (CLK_NULL_RESERVE_ID).
_Bool _Z19is_valid_reserve_id13ocl_reserveid(void *reserve_id) {
  return reserve_id != NULL;
}
