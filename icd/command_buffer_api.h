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

namespace weft::icd {

// cl_command_properties_khr, new in 0.9.5.
using cl_command_properties_khr = cl_properties;

// The version clGetDeviceInfo reports: the one whose signatures are
// implemented here.
inline constexpr cl_version kCommandBufferVersion = CL_MAKE_VERSION(0, 9, 8);

// The extension's function `name`, or null.
void *commandBufferFunction(const char *name);

} // namespace weft::icd
