// OpenCL C declarations of the extension builtins Clang 19 does not know.
// The compiler includes this file ahead of every program, and the builtin
// library is compiled with it, so both agree on each function's mangled name.
// Each group is declared exactly when the device reports its extension (the
// compiler defines the macro then).
#pragma once

#ifdef cl_khr_extended_async_copies
event_t __attribute__((overloadable))
async_work_group_copy_2D2D(__local void *dst, size_t dst_offset,
                           const __global void *src, size_t src_offset,
                           size_t num_bytes_per_element,
                           size_t num_elements_per_line, size_t num_lines,
                           size_t src_total_line_length,
                           size_t dst_total_line_length, event_t event);
event_t __attribute__((overloadable))
async_work_group_copy_2D2D(__global void *dst, size_t dst_offset,
                           const __local void *src, size_t src_offset,
                           size_t num_bytes_per_element,
                           size_t num_elements_per_line, size_t num_lines,
                           size_t src_total_line_length,
                           size_t dst_total_line_length, event_t event);
event_t __attribute__((overloadable)) async_work_group_copy_3D3D(
    __local void *dst, size_t dst_offset, const __global void *src,
    size_t src_offset, size_t num_bytes_per_element,
    size_t num_elements_per_line, size_t num_lines, size_t num_planes,
    size_t src_total_line_length, size_t src_total_plane_area,
    size_t dst_total_line_length, size_t dst_total_plane_area, event_t event);
event_t __attribute__((overloadable)) async_work_group_copy_3D3D(
    __global void *dst, size_t dst_offset, const __local void *src,
    size_t src_offset, size_t num_bytes_per_element,
    size_t num_elements_per_line, size_t num_lines, size_t num_planes,
    size_t src_total_line_length, size_t src_total_plane_area,
    size_t dst_total_line_length, size_t dst_total_plane_area, event_t event);
#endif

#ifdef cl_khr_async_work_group_copy_fence
void __attribute__((overloadable))
async_work_group_copy_fence(cl_mem_fence_flags flags);
#endif

#ifdef cl_khr_work_group_uniform_arithmetic
// The operations beyond add, min and max: mul for every type of the core
// collectives, the bitwise ones for the integer types, the logical ones for
// int.
#define WEFT_WG_UNIFORM(T, OP)                                                 \
  T __attribute__((overloadable)) work_group_reduce_##OP(T x);                 \
  T __attribute__((overloadable)) work_group_scan_inclusive_##OP(T x);         \
  T __attribute__((overloadable)) work_group_scan_exclusive_##OP(T x);
#define WEFT_WG_UNIFORM_INTEGER(T)                                             \
  WEFT_WG_UNIFORM(T, mul)                                                      \
  WEFT_WG_UNIFORM(T, and)                                                      \
  WEFT_WG_UNIFORM(T, or)                                                       \
  WEFT_WG_UNIFORM(T, xor)
WEFT_WG_UNIFORM_INTEGER(int)
WEFT_WG_UNIFORM_INTEGER(uint)
WEFT_WG_UNIFORM_INTEGER(long)
WEFT_WG_UNIFORM_INTEGER(ulong)
WEFT_WG_UNIFORM(float, mul)
#ifdef cl_khr_fp64
WEFT_WG_UNIFORM(double, mul)
#endif
WEFT_WG_UNIFORM(int, logical_and)
WEFT_WG_UNIFORM(int, logical_or)
WEFT_WG_UNIFORM(int, logical_xor)
#undef WEFT_WG_UNIFORM_INTEGER
#undef WEFT_WG_UNIFORM
#endif

#ifdef cl_intel_subgroups
// Shuffles of any value between a sub-group's work-items, and block reads
// and writes of uints in global memory and 2-D images.
#define WEFT_INTEL_SHUFFLES(T)                                                 \
  T __attribute__((overloadable)) intel_sub_group_shuffle(T data, uint c);     \
  T __attribute__((overloadable))                                              \
  intel_sub_group_shuffle_down(T current, T next, uint delta);                 \
  T __attribute__((overloadable))                                              \
  intel_sub_group_shuffle_up(T previous, T current, uint delta);               \
  T __attribute__((overloadable))                                              \
  intel_sub_group_shuffle_xor(T data, uint value);
#define WEFT_INTEL_SHUFFLES_AND_VECTORS(T)                                     \
  WEFT_INTEL_SHUFFLES(T)                                                       \
  WEFT_INTEL_SHUFFLES(T##2)                                                    \
  WEFT_INTEL_SHUFFLES(T##3)                                                    \
  WEFT_INTEL_SHUFFLES(T##4)                                                    \
  WEFT_INTEL_SHUFFLES(T##8)                                                    \
  WEFT_INTEL_SHUFFLES(T##16)
WEFT_INTEL_SHUFFLES_AND_VECTORS(float)
WEFT_INTEL_SHUFFLES_AND_VECTORS(int)
WEFT_INTEL_SHUFFLES_AND_VECTORS(uint)
WEFT_INTEL_SHUFFLES(long)
WEFT_INTEL_SHUFFLES(ulong)
#ifdef cl_khr_fp16
// half needs its extension enabled (this comes before the program's own
// pragmas, which then hold).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
WEFT_INTEL_SHUFFLES(half)
#pragma OPENCL EXTENSION cl_khr_fp16 : disable
#endif
#ifdef cl_khr_fp64
WEFT_INTEL_SHUFFLES(double)
#endif
// Block reads and writes: SUFFIX names the element (none or _ui for uint,
// _uc, _us, _ul with cl_intel_subgroups_char, _short, _long) and the
// width; E is the element type, T the value's.
#define WEFT_INTEL_BLOCK_IO(SUFFIX, E, T)                                      \
  T __attribute__((overloadable))                                              \
  intel_sub_group_block_read##SUFFIX(const __global E *p);                     \
  void __attribute__((overloadable))                                           \
  intel_sub_group_block_write##SUFFIX(__global E *p, T data);                  \
  T __attribute__((overloadable)) intel_sub_group_block_read##SUFFIX(          \
      read_only image2d_t image, int2 byte_coord);                             \
  void __attribute__((overloadable)) intel_sub_group_block_write##SUFFIX(      \
      write_only image2d_t image, int2 byte_coord, T data);                    \
  WEFT_INTEL_BLOCK_IO_READ_WRITE(SUFFIX, T)
#if __OPENCL_C_VERSION__ >= 200 && defined(__opencl_c_read_write_images)
#define WEFT_INTEL_BLOCK_IO_READ_WRITE(SUFFIX, T)                              \
  T __attribute__((overloadable)) intel_sub_group_block_read##SUFFIX(          \
      read_write image2d_t image, int2 byte_coord);                            \
  void __attribute__((overloadable)) intel_sub_group_block_write##SUFFIX(      \
      read_write image2d_t image, int2 byte_coord, T data);
#else
#define WEFT_INTEL_BLOCK_IO_READ_WRITE(SUFFIX, T)
#endif
#define WEFT_INTEL_BLOCK_IO_TO_8(SUFFIX, E)                                    \
  WEFT_INTEL_BLOCK_IO(SUFFIX, E, E)                                            \
  WEFT_INTEL_BLOCK_IO(SUFFIX##2, E, E##2)                                      \
  WEFT_INTEL_BLOCK_IO(SUFFIX##4, E, E##4)                                      \
  WEFT_INTEL_BLOCK_IO(SUFFIX##8, E, E##8)
WEFT_INTEL_BLOCK_IO_TO_8(, uint)
#endif

// Only with the base extension, whose macros these use (Clang offers it
// from OpenCL C 1.2).
#if defined(cl_intel_subgroups) && defined(cl_intel_subgroups_char)
WEFT_INTEL_SHUFFLES_AND_VECTORS(char)
WEFT_INTEL_SHUFFLES_AND_VECTORS(uchar)
WEFT_INTEL_BLOCK_IO_TO_8(_ui, uint)
WEFT_INTEL_BLOCK_IO_TO_8(_uc, uchar)
WEFT_INTEL_BLOCK_IO(_uc16, uchar, uchar16)
#endif
#if defined(cl_intel_subgroups) && defined(cl_intel_subgroups_short)
WEFT_INTEL_SHUFFLES_AND_VECTORS(short)
WEFT_INTEL_SHUFFLES_AND_VECTORS(ushort)
WEFT_INTEL_BLOCK_IO_TO_8(_ui, uint)
WEFT_INTEL_BLOCK_IO_TO_8(_us, ushort)
WEFT_INTEL_BLOCK_IO(_us16, ushort, ushort16)
#endif
#if defined(cl_intel_subgroups) && defined(cl_intel_subgroups_long)
WEFT_INTEL_BLOCK_IO_TO_8(_ui, uint)
WEFT_INTEL_BLOCK_IO_TO_8(_ul, ulong)
#endif
// The 3.0 collectives under Intel's names for 8- and 16-bit integers.
#define WEFT_INTEL_COLLECTIVES(T)                                              \
  T __attribute__((overloadable)) intel_sub_group_broadcast(T x, uint id);     \
  T __attribute__((overloadable)) intel_sub_group_reduce_add(T x);             \
  T __attribute__((overloadable)) intel_sub_group_reduce_min(T x);             \
  T __attribute__((overloadable)) intel_sub_group_reduce_max(T x);             \
  T __attribute__((overloadable)) intel_sub_group_scan_exclusive_add(T x);     \
  T __attribute__((overloadable)) intel_sub_group_scan_exclusive_min(T x);     \
  T __attribute__((overloadable)) intel_sub_group_scan_exclusive_max(T x);     \
  T __attribute__((overloadable)) intel_sub_group_scan_inclusive_add(T x);     \
  T __attribute__((overloadable)) intel_sub_group_scan_inclusive_min(T x);     \
  T __attribute__((overloadable)) intel_sub_group_scan_inclusive_max(T x);
// Only with the base extension, whose macros these use (Clang offers it
// from OpenCL C 1.2).
#if defined(cl_intel_subgroups) && defined(cl_intel_subgroups_char)
WEFT_INTEL_COLLECTIVES(char)
WEFT_INTEL_COLLECTIVES(uchar)
#endif
#if defined(cl_intel_subgroups) && defined(cl_intel_subgroups_short)
WEFT_INTEL_COLLECTIVES(short)
WEFT_INTEL_COLLECTIVES(ushort)
#endif
