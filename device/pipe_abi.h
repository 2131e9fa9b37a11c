// The in-memory layout of an OpenCL pipe, shared by the runtime (which
// allocates and initializes it in clCreatePipe) and the pipe builtins
// (builtins/pipe_engine.c, which read and write it from kernels).
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
namespace weft {
#endif

// A pipe is one allocation, aligned to WEFT_PIPE_ALIGNMENT:
//
//   struct WeftPipe                       header; the counters on two lines
//   uint64_t write_ends[max_packets]      see below
//   uint64_t read_ends[max_packets]
//   (padding to WEFT_PIPE_ALIGNMENT)
//   packets[max_packets]                  packet_size bytes each, no padding
//
// The packet stride is packet_size. In OpenCL C, as in C, a type's size is a
// multiple of its alignment and no alignment exceeds 128 bytes, so with the
// packet area aligned to 128 every packet is aligned for the kernel's type.
// The builtins copy packets with memcpy anyway, so they rely on no alignment.
#define WEFT_PIPE_ALIGNMENT 128u
#define WEFT_PIPE_MAX_PACKETS 0x7fffffffu

// The pipe is a ring of max_packets packets addressed by 64-bit positions
// that only grow (position p lives in packet p % max_packets), with
//   released <= reserved_reads <= published <= reserved_writes
//            <= released + max_packets.
// Reservations take positions from reserved_writes / reserved_reads with a
// compare-and-swap. Committing a reservation publishes (or releases) it only
// in reservation order: a commit that finds an earlier reservation still open
// leaves the end position of its own reservation in write_ends (read_ends) at
// the index of its first packet, and whoever moves the counter up to that
// packet later also moves it over the recorded reservation. A value in
// those arrays counts only when it is greater than the counter's position,
// which tells a record from an older trip round the ring.
struct WeftPipeCounter {
  uint64_t position;
};

// The writers' two counters share a cache line, as do the readers'. A
// thread running work-groups one after another commits one group's
// reservation and then makes the next group's: with both counters on one
// line, that is one transfer of the line between cores instead of two.
// Readers and writers stay on lines of their own.
struct WeftPipe {
  uint32_t packet_size;
  uint32_t max_packets;
  uint64_t packets_offset; // from the start of the pipe, aligned
  uint64_t padding[6];
  struct WeftPipeCounter reserved_writes; // end of the positions writers hold
  struct WeftPipeCounter published;       // end of the readable positions
  struct WeftPipeCounter write_records;   // records in write_ends not yet used
  uint64_t writers_padding[5];
  struct WeftPipeCounter reserved_reads; // end of the positions readers hold
  struct WeftPipeCounter released;       // end of the positions read for good
  struct WeftPipeCounter read_records;   // records in read_ends not yet used
  uint64_t readers_padding[5];
};

static inline uint64_t weft_pipe_packets_offset(uint32_t max_packets) {
  uint64_t records = sizeof(struct WeftPipe) + 2u * 8u * (uint64_t)max_packets;
  return (records + WEFT_PIPE_ALIGNMENT - 1) &
         ~(uint64_t)(WEFT_PIPE_ALIGNMENT - 1);
}

// Bytes to allocate for a pipe; 1 <= max_packets <= WEFT_PIPE_MAX_PACKETS and
// packet_size >= 1, which the runtime checks (CL_INVALID_PIPE_SIZE).
static inline uint64_t weft_pipe_allocation_size(uint32_t packet_size,
                                                 uint32_t max_packets) {
  return weft_pipe_packets_offset(max_packets) +
         (uint64_t)packet_size * max_packets;
}

// Prepares an empty pipe in `memory` of weft_pipe_allocation_size bytes,
// aligned to WEFT_PIPE_ALIGNMENT. Packet contents are left as they are.
static inline void weft_pipe_init(void *memory, uint32_t packet_size,
                                  uint32_t max_packets) {
  struct WeftPipe *pipe = (struct WeftPipe *)memory;
  __builtin_memset(memory, 0, weft_pipe_packets_offset(max_packets));
  pipe->packet_size = packet_size;
  pipe->max_packets = max_packets;
  pipe->packets_offset = weft_pipe_packets_offset(max_packets);
}

#ifdef __cplusplus
} // namespace weft
#endif
