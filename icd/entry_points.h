// The OpenCL entry points Weft defines that <CL/cl.h> does not declare
// (the cl_gl.h ones come from that header), so the dispatch table can name
// them. They have hidden visibility: only the loader reaches them.
#pragma once
#include <CL/cl.h>
#include <CL/cl_gl.h>

extern "C" {
CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint,
                                                       cl_platform_id *,
                                                       cl_uint *);
CL_API_ENTRY cl_int CL_API_CALL
clGetKernelSubGroupInfoKHR(cl_kernel, cl_device_id, cl_kernel_sub_group_info,
                           size_t, const void *, size_t, void *, size_t *);
CL_API_ENTRY cl_int CL_API_CALL
clGetGLContextInfoKHR(const cl_context_properties *, cl_gl_context_info, size_t,
                      void *, size_t *);
CL_API_ENTRY cl_event CL_API_CALL clCreateEventFromGLsyncKHR(cl_context,
                                                             cl_GLsync,
                                                             cl_int *);
// cl_ext_buffer_device_address (newer than Debian's headers).
cl_int CL_API_CALL clSetKernelArgDevicePointerEXT(cl_kernel, cl_uint, cl_ulong);
}
