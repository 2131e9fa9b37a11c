// cl_intel_unified_shared_memory (icd/usm_api.cpp). Its entry points are
// declared by <CL/cl_ext.h> and handed out by clGetExtensionFunctionAddress
// (icd/dispatch.cpp).
#pragma once
#include <CL/cl.h>

#include <cstddef>

namespace weft {
class Kernel;
}

namespace weft::icd {

// clSetKernelExecInfo's USM names: the indirect-access switches and the
// list of USM pointers the kernel reaches through memory.
// CL_INVALID_VALUE for any other name.
cl_int setKernelUsmExecInfo(Kernel &kernel, cl_kernel_exec_info name,
                            size_t size, const void *value);

} // namespace weft::icd
