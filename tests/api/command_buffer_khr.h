// cl_khr_command_buffer 0.9.8's entry points, as the tests and benchmarks
// call them: Debian's headers declare an older version of the extension
// with other signatures, so the function types are spelled out here once
// and looked up through clGetExtensionFunctionAddressForPlatform.
#pragma once
#include <type_traits>
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

namespace command_buffer_khr {

using CreateFn = cl_command_buffer_khr(CL_API_CALL *)(cl_uint,
                                                      const cl_command_queue *,
                                                      const cl_properties *,
                                                      cl_int *);
using BufferFn = cl_int(CL_API_CALL *)(cl_command_buffer_khr);
using EnqueueFn = cl_int(CL_API_CALL *)(cl_uint, cl_command_queue *,
                                        cl_command_buffer_khr, cl_uint,
                                        const cl_event *, cl_event *);
using FillFn = cl_int(CL_API_CALL *)(cl_command_buffer_khr, cl_command_queue,
                                     const cl_properties *, cl_mem,
                                     const void *, size_t, size_t, size_t,
                                     cl_uint, const cl_uint *, cl_uint *,
                                     void *);
using CopyFn = cl_int(CL_API_CALL *)(cl_command_buffer_khr, cl_command_queue,
                                     const cl_properties *, cl_mem, cl_mem,
                                     size_t, size_t, size_t, cl_uint,
                                     const cl_uint *, cl_uint *, void *);
using KernelFn = cl_int(CL_API_CALL *)(cl_command_buffer_khr, cl_command_queue,
                                       const cl_properties *, cl_kernel,
                                       cl_uint, const size_t *, const size_t *,
                                       const size_t *, cl_uint, const cl_uint *,
                                       cl_uint *, void *);
using InfoFn = cl_int(CL_API_CALL *)(cl_command_buffer_khr, cl_uint, size_t,
                                     void *, size_t *);

// The entry points of one platform; a member is null where the platform
// does not have that function.
struct Functions {
  CreateFn create = nullptr;
  BufferFn finalize = nullptr, release = nullptr;
  EnqueueFn enqueue = nullptr;
  FillFn fill = nullptr;
  CopyFn copy = nullptr;
  KernelFn ndrange = nullptr;
  InfoFn info = nullptr;

  explicit Functions(cl_platform_id platform) {
    auto get = [platform](auto &slot, const char *name) {
      slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
          clGetExtensionFunctionAddressForPlatform(platform, name));
    };
    get(create, "clCreateCommandBufferKHR");
    get(finalize, "clFinalizeCommandBufferKHR");
    get(release, "clReleaseCommandBufferKHR");
    get(enqueue, "clEnqueueCommandBufferKHR");
    get(fill, "clCommandFillBufferKHR");
    get(copy, "clCommandCopyBufferKHR");
    get(ndrange, "clCommandNDRangeKernelKHR");
    get(info, "clGetCommandBufferInfoKHR");
  }
  bool complete() const {
    return create && finalize && release && enqueue && fill && copy &&
           ndrange && info;
  }
};

} // namespace command_buffer_khr
