// cl_khr_command_buffer 0.9.8 (icd/command_buffer_api.cpp): its entry
// points by name, and what Debian's headers (an older version of the
// extension) lack of it.
#pragma once
#include <CL/cl.h>
#include <CL/cl_ext.h>

#ifndef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#endif
#ifndef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#endif

// 0.9.5 renamed it (the value is the same).
#ifndef CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR
#define CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR 0x12A2
#endif
#ifndef CL_MUTABLE_DISPATCH_ASSERTS_KHR
#define CL_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B8
#endif
#ifndef CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR
#define CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B7
#endif

namespace weft::icd {

// cl_command_properties_khr, new in 0.9.5.
using cl_command_properties_khr = cl_properties;

// cl_khr_command_buffer_mutable_dispatch 0.9.5's update record (Debian's
// headers have an older one, with a type and a next pointer first), and
// its structure type.
struct MutableDispatchConfig {
  cl_mutable_command_khr command;
  cl_uint num_args;
  cl_uint num_svm_args;
  cl_uint num_exec_infos;
  cl_uint work_dim;
  const cl_mutable_dispatch_arg_khr *arg_list;
  const cl_mutable_dispatch_arg_khr *arg_svm_list;
  const cl_mutable_dispatch_exec_info_khr *exec_info_list;
  const size_t *global_work_offset;
  const size_t *global_work_size;
  const size_t *local_work_size;
};
inline constexpr cl_uint kMutableDispatchConfigType = 0;

// What a mutable dispatch may change: every field.
inline constexpr cl_bitfield kMutableDispatchFields =
    CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR |
    CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR | CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR |
    CL_MUTABLE_DISPATCH_ARGUMENTS_KHR | CL_MUTABLE_DISPATCH_EXEC_INFO_KHR;

// The extension's function `name`, or null.
void *commandBufferFunction(const char *name);

} // namespace weft::icd
