// The engine behind the async work-group copies (async_copy.cl): one bulk
// transfer per work-group, done by the first work-item that reaches the call.
// Written in C because it works on the device's WorkGroupContext.
//
// The functions that read the group context (__weft_group_context and the
// work-item queries) are inlined into each kernel by the compiler, which then
// answers those queries; the bulk transfer itself is an ordinary function.
#include "device/launch_abi.h"

#include <stddef.h>
#include <stdint.h>

// Answered by the compiler inside each kernel
// (compiler/workgroup_function.cpp).
struct WorkGroupContext *__weft_group_context(void);
uint64_t _Z19get_local_linear_idv(void);

// Element types that only promise byte alignment: the CTS copies packed
// structs of any size.
typedef uint16_t u16_unaligned __attribute__((aligned(1)));
typedef uint32_t u32_unaligned __attribute__((aligned(1)));
typedef uint64_t u64_unaligned __attribute__((aligned(1)));
typedef struct {
  uint64_t half[2];
} __attribute__((packed, aligned(1))) u128_unaligned;

// Element-by-element gather/scatter: lines of one element each, which is
// what async_work_group_strided_copy is. Typed loops for the common element
// sizes so LLVM emits plain (vectorizable) loads and stores.
#define STRIDED_LOOP(T)                                                        \
  for (uint64_t i = 0; i < count; ++i)                                         \
    ((T *)dst)[i * dst_step] = ((const T *)src)[i * src_step];                 \
  return;

static void copyElements(char *dst, const char *src, uint64_t element_bytes,
                         uint64_t count, uint64_t src_step, uint64_t dst_step) {
  switch (element_bytes) {
  case 1:
    STRIDED_LOOP(uint8_t)
  case 2:
    STRIDED_LOOP(u16_unaligned)
  case 4:
    STRIDED_LOOP(u32_unaligned)
  case 8:
    STRIDED_LOOP(u64_unaligned)
  case 16:
    STRIDED_LOOP(u128_unaligned)
  default:
    for (uint64_t i = 0; i < count; ++i)
      __builtin_memcpy(dst + i * dst_step * element_bytes,
                       src + i * src_step * element_bytes, element_bytes);
  }
}

// Tiles are copied a short line from each of many rows, and the group that
// runs next on this thread usually takes the next tile along those rows (a
// transpose's, a 2-D stencil's): the continuation of each short source line
// is fetched now, so the next copy's many rows are not each a cache miss the
// hardware prefetcher, which follows a few streams only, did not foresee.
enum { kShortLine = 256, kCacheLine = 64 };

static void prefetchContinuation(const char *line, uint64_t line_bytes,
                                 int source_is_global) {
  if (!source_is_global || line_bytes > kShortLine)
    return;
  for (uint64_t b = 0; b < line_bytes; b += kCacheLine)
    __builtin_prefetch(line + line_bytes + b, 0, 3);
}

// Copies `planes` planes of `lines` lines of `per_line` elements. Strides are
// in elements. Source and destination never overlap: one is local memory
// (the source, unless `source_is_global`).
__attribute__((noinline)) void
__weft_copy_bulk(char *dst, const char *src, uint64_t element_bytes,
                 uint64_t per_line, uint64_t lines, uint64_t planes,
                 uint64_t src_line, uint64_t src_plane, uint64_t dst_line,
                 uint64_t dst_plane, int source_is_global) {
  if (per_line == 0 || lines == 0 || planes == 0 || element_bytes == 0)
    return;
  uint64_t line_bytes = per_line * element_bytes;
  int lines_packed =
      lines == 1 || (src_line == per_line && dst_line == per_line);
  int planes_packed = planes == 1 || (src_plane == lines * src_line &&
                                      dst_plane == lines * dst_line);
  if (lines_packed && planes_packed) {
    uint64_t bytes = line_bytes * lines * planes;
    __builtin_memcpy(dst, src, bytes);
    prefetchContinuation(src, bytes, source_is_global);
    return;
  }
  for (uint64_t p = 0; p < planes; ++p) {
    char *dst_plane_start = dst + p * dst_plane * element_bytes;
    const char *src_plane_start = src + p * src_plane * element_bytes;
    if (per_line == 1) {
      copyElements(dst_plane_start, src_plane_start, element_bytes, lines,
                   src_line, dst_line);
      continue;
    }
    for (uint64_t l = 0; l < lines; ++l) {
      const char *line = src_plane_start + l * src_line * element_bytes;
      __builtin_memcpy(dst_plane_start + l * dst_line * element_bytes, line,
                       line_bytes);
      prefetchContinuation(line, line_bytes, source_is_global);
    }
  }
}

// The bytes one side of a copy spans from its first element (strides in
// elements), or UINT64_MAX when that does not fit in 64 bits.
static uint64_t spanBytes(uint64_t element_bytes, uint64_t per_line,
                          uint64_t lines, uint64_t planes, uint64_t line,
                          uint64_t plane) {
  uint64_t across_planes, across_lines, elements, bytes;
  if (__builtin_mul_overflow(planes - 1, plane, &across_planes) ||
      __builtin_mul_overflow(lines - 1, line, &across_lines) ||
      __builtin_add_overflow(across_planes, across_lines, &elements) ||
      __builtin_add_overflow(elements, per_line, &elements) ||
      __builtin_mul_overflow(elements, element_bytes, &bytes))
    return UINT64_MAX;
  return bytes;
}

// Whether [address, address + bytes) lies inside the group's local memory.
static int insideLocalMemory(const struct WorkGroupContext *context,
                             uint64_t address, uint64_t bytes) {
  uint64_t base = (uint64_t)(uintptr_t)context->local_memory;
  uint64_t size = context->local_memory_size;
  return address >= base && address - base <= size &&
         bytes <= size - (address - base);
}

// The memory checking mode (WEFT_CHECK_MEMORY): whether the global side of
// a copy, `bytes` from `address`, lies inside an object the launch may
// reach; if not, the group's first violation describes it (work-item
// `item`, reading or writing) and the copy is not made.
static int globalSideChecked(struct WorkGroupContext *context, uint64_t item,
                             uint64_t address, uint64_t bytes, int write) {
  if (__builtin_expect(context->memory_check_address == 0, 1) ||
      context->memory_check_address(context, address, bytes))
    return 1;
  struct MemoryViolation *violation = context->memory_violation;
  if (!violation->found) {
    uint64_t x = context->local_size[0], y = context->local_size[1];
    violation->address = address;
    violation->bytes = bytes;
    violation->object_begin = 0;
    violation->object_bytes = 0;
    violation->local_id[0] = item % x;
    violation->local_id[1] = item / x % y;
    violation->local_id[2] = item / (x * y);
    violation->is_write = write;
    violation->object_kind = kMemoryUnknownObject;
    violation->object_index = 0;
    violation->found = 1;
  }
  return 0;
}

// Work-item `item` of the group of `context` reaches an async copy. Returns
// the event the copy belongs to: the one passed in, or a new one naming this
// copy. The compiler knows this function by name: in kernels without
// barriers it runs only in work-item (0,0,0), which performs every copy of
// the group, and the other work-items only take the event value. Kept a call
// until then (the compiler lifts the noinline once it has looked).
__attribute__((noinline)) void *
__weft_async_copy_for(struct WorkGroupContext *context, uint64_t item,
                      uint64_t dst, uint64_t src, uint64_t element_bytes,
                      uint64_t per_line, uint64_t lines, uint64_t planes,
                      uint64_t src_line, uint64_t src_plane, uint64_t dst_line,
                      uint64_t dst_plane, void *event, uint32_t function) {
  struct AsyncCopyState *state = &context->async_copies;
  if (!state->issued)
    state->issued = context->async_copy_counters(context);
  // Without counters (out of memory) every work-item copies: slower, and
  // still correct for a program that follows the spec.
  uint64_t sequence = state->performed;
  if (state->issued) {
    uint64_t entry = state->issued[item];
    uint32_t made =
        (uint32_t)(entry >> 32) == state->generation ? (uint32_t)entry : 0;
    state->issued[item] = (uint64_t)state->generation << 32 | (made + 1);
    sequence = made;
  }
  if (__builtin_expect(context->async_copy_check != 0, 0)) {
    struct AsyncCopyCall call = {function, 0,         item,          sequence,
                                 dst,      src,       element_bytes, per_line,
                                 lines,    planes,    src_line,      src_plane,
                                 dst_line, dst_plane, event,         0};
    context->async_copy_check(context, &call);
  }
  if (sequence >= state->performed) {
    // One side of every copy is local memory, whose bounds are known here: a
    // copy that runs past them (a wrong count, a wrong tile) is not made,
    // and the launch fails, instead of the group writing over the host
    // process's memory.
    int empty = !per_line || !lines || !planes || !element_bytes;
    uint64_t src_bytes = spanBytes(element_bytes, per_line, lines, planes,
                                   src_line, src_plane);
    uint64_t dst_bytes = spanBytes(element_bytes, per_line, lines, planes,
                                   dst_line, dst_plane);
    int local_source = !empty && insideLocalMemory(context, src, src_bytes);
    if (empty)
      ;
    else if (!local_source && !insideLocalMemory(context, dst, dst_bytes))
      context->status = kWorkGroupAsyncCopyOutsideLocal;
    else if (local_source
                 ? globalSideChecked(context, item, dst, dst_bytes, 1)
                 : globalSideChecked(context, item, src, src_bytes, 0))
      __weft_copy_bulk((char *)dst, (const char *)src, element_bytes, per_line,
                       lines, planes, src_line, src_plane, dst_line, dst_plane,
                       !local_source);
    state->performed = sequence + 1;
  }
  return event ? event : (void *)(uintptr_t)(sequence + 1);
}

// Every async copy builtin ends here (inlined into the kernel, which answers
// the context and id questions).
void *__weft_async_copy(uint64_t dst, uint64_t src, uint64_t element_bytes,
                        uint64_t per_line, uint64_t lines, uint64_t planes,
                        uint64_t src_line, uint64_t src_plane,
                        uint64_t dst_line, uint64_t dst_plane, void *event,
                        uint32_t function) {
  return __weft_async_copy_for(__weft_group_context(),
                               _Z19get_local_linear_idv(), dst, src,
                               element_bytes, per_line, lines, planes, src_line,
                               src_plane, dst_line, dst_plane, event, function);
}

// Copies are complete once issued, so waiting only matters to the checking
// mode. Known to the compiler by name, like __weft_async_copy_for.
__attribute__((noinline)) void
__weft_wait_group_events_for(struct WorkGroupContext *context, uint64_t item,
                             int num_events, void *const *event_list) {
  if (__builtin_expect(context->async_copy_check != 0, 0)) {
    struct AsyncCopyCall call = {0};
    call.function = kWaitGroupEvents;
    call.num_events = num_events < 0 ? 0 : (uint32_t)num_events;
    call.work_item = item;
    call.events = event_list;
    context->async_copy_check(context, &call);
  }
}

// wait_group_events(int, event_t *) with its generic-address-space pointer,
// under its mangled name.
void _Z17wait_group_eventsiPU9CLgeneric9ocl_event(
    int num_events, void *__attribute__((address_space(4))) * event_list) {
  __weft_wait_group_events_for(__weft_group_context(),
                               _Z19get_local_linear_idv(), num_events,
                               (void *const *)event_list);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

// prefetch(): hints for the cache lines of the range. Prefetch instructions
// never fault, so any range is safe; past a few hundred KiB more hints would
// only evict what the first ones brought in.
void __weft_prefetch(uint64_t address, uint64_t bytes) {
  const uint64_t kLine = 64, kMostBytes = 256 * 1024;
  if (bytes > kMostBytes)
    bytes = kMostBytes;
  uint64_t first = address & ~(kLine - 1);
  for (uint64_t line = first; line - first < bytes + (address - first);
       line += kLine)
    __builtin_prefetch((const void *)line, 0, 3);
}
