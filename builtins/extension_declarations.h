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
event_t __attribute__((overloadable))
async_work_group_copy_3D3D(__local void *dst, size_t dst_offset,
                           const __global void *src, size_t src_offset,
                           size_t num_bytes_per_element,
                           size_t num_elements_per_line, size_t num_lines,
                           size_t num_planes, size_t src_total_line_length,
                           size_t src_total_plane_area,
                           size_t dst_total_line_length,
                           size_t dst_total_plane_area, event_t event);
event_t __attribute__((overloadable))
async_work_group_copy_3D3D(__global void *dst, size_t dst_offset,
                           const __local void *src, size_t src_offset,
                           size_t num_bytes_per_element,
                           size_t num_elements_per_line, size_t num_lines,
                           size_t num_planes, size_t src_total_line_length,
                           size_t src_total_plane_area,
                           size_t dst_total_line_length,
                           size_t dst_total_plane_area, event_t event);
#endif

#ifdef cl_khr_async_work_group_copy_fence
void __attribute__((overloadable))
async_work_group_copy_fence(cl_mem_fence_flags flags);
#endif
