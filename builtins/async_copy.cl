// Async work-group copies, strided copies, the cl_khr_extended_async_copies
// 2D/3D copies, the copy fence and prefetch. Each is one bulk transfer per
// work-group, done by async_copy_engine.c; these overloads only turn their
// arguments into its geometry (in elements, offsets applied).
#include "builtin_macros.h"

event_t __weft_async_copy(ulong dst, ulong src, ulong element_bytes,
                          ulong per_line, ulong lines, ulong planes,
                          ulong src_line, ulong src_plane, ulong dst_line,
                          ulong dst_plane, event_t event, uint function);
void __weft_prefetch(ulong address, ulong bytes);

// The function codes of device/launch_abi.h's AsyncCopyFunction.
#define COPY_CONTIGUOUS 0
#define COPY_STRIDED 1
#define COPY_2D2D 2
#define COPY_3D3D 3

// A 3-component vector occupies four components (sizeof says so), which is
// the element size the spec asks these copies to move.
#define ASYNC_COPIES(T, N)                                                     \
  OVERLOADABLE event_t async_work_group_copy(                                  \
      __local T##N *dst, const __global T##N *src, size_t n, event_t event) { \
    return __weft_async_copy((ulong)dst, (ulong)src, sizeof(T##N), n, 1, 1,   \
                             n, n, n, n, event, COPY_CONTIGUOUS);              \
  }                                                                            \
  OVERLOADABLE event_t async_work_group_copy(                                  \
      __global T##N *dst, const __local T##N *src, size_t n, event_t event) { \
    return __weft_async_copy((ulong)dst, (ulong)src, sizeof(T##N), n, 1, 1,   \
                             n, n, n, n, event, COPY_CONTIGUOUS);              \
  }                                                                            \
  OVERLOADABLE event_t async_work_group_strided_copy(                          \
      __local T##N *dst, const __global T##N *src, size_t n,                   \
      size_t src_stride, event_t event) {                                      \
    return __weft_async_copy((ulong)dst, (ulong)src, sizeof(T##N), 1, n, 1,   \
                             src_stride, 0, 1, 0, event, COPY_STRIDED);        \
  }                                                                            \
  OVERLOADABLE event_t async_work_group_strided_copy(                          \
      __global T##N *dst, const __local T##N *src, size_t n,                   \
      size_t dst_stride, event_t event) {                                      \
    return __weft_async_copy((ulong)dst, (ulong)src, sizeof(T##N), 1, n, 1,   \
                             1, 0, dst_stride, 0, event, COPY_STRIDED);        \
  }                                                                            \
  OVERLOADABLE void prefetch(const __global T##N *p, size_t n) {               \
    __weft_prefetch((ulong)p, n * sizeof(T##N));                               \
  }

#define ASYNC_COPIES_ALL_WIDTHS(T) FOR_EACH_WIDTH(ASYNC_COPIES, T)
ASYNC_COPIES_ALL_WIDTHS(char)
ASYNC_COPIES_ALL_WIDTHS(uchar)
ASYNC_COPIES_ALL_WIDTHS(short)
ASYNC_COPIES_ALL_WIDTHS(ushort)
ASYNC_COPIES_ALL_WIDTHS(int)
ASYNC_COPIES_ALL_WIDTHS(uint)
ASYNC_COPIES_ALL_WIDTHS(long)
ASYNC_COPIES_ALL_WIDTHS(ulong)
ASYNC_COPIES_ALL_WIDTHS(float)
ASYNC_COPIES_ALL_WIDTHS(double)
ASYNC_COPIES_ALL_WIDTHS(half)

// cl_khr_extended_async_copies: both directions of 2D2D and 3D3D.
#define EXTENDED_COPIES(DST_AS, SRC_AS)                                        \
  OVERLOADABLE event_t async_work_group_copy_2D2D(                             \
      DST_AS void *dst, size_t dst_offset, const SRC_AS void *src,             \
      size_t src_offset, size_t element_bytes, size_t per_line,                \
      size_t lines, size_t src_line, size_t dst_line, event_t event) {         \
    return __weft_async_copy(                                                  \
        (ulong)dst + dst_offset * element_bytes,                               \
        (ulong)src + src_offset * element_bytes, element_bytes, per_line,      \
        lines, 1, src_line, src_line * lines, dst_line, dst_line * lines,      \
        event, COPY_2D2D);                                                     \
  }                                                                            \
  OVERLOADABLE event_t async_work_group_copy_3D3D(                             \
      DST_AS void *dst, size_t dst_offset, const SRC_AS void *src,             \
      size_t src_offset, size_t element_bytes, size_t per_line,                \
      size_t lines, size_t planes, size_t src_line, size_t src_plane,          \
      size_t dst_line, size_t dst_plane, event_t event) {                      \
    return __weft_async_copy((ulong)dst + dst_offset * element_bytes,          \
                             (ulong)src + src_offset * element_bytes,          \
                             element_bytes, per_line, lines, planes,           \
                             src_line, src_plane, dst_line, dst_plane, event,  \
                             COPY_3D3D);                                       \
  }
EXTENDED_COPIES(__local, __global)
EXTENDED_COPIES(__global, __local)

// Copies are complete when issued and run in program order, so the fence
// only has to keep the compiler from moving memory accesses across it.
OVERLOADABLE void async_work_group_copy_fence(cl_mem_fence_flags flags) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
