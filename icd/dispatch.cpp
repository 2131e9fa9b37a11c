// The ICD dispatch table and the three functions the ICD loader looks up
// by name. Every slot points at a real function: the loader jumps through
// slots without checking, so a NULL slot would crash the application.
#include "runtime/compiler_loader.h"
#include "runtime/device.h"
#include "runtime/object.h"
#include "runtime/platform.h"

#include <CL/cl_ext.h>
#include <CL/cl_gl.h>

#include <cstddef>
#include <cstring>
#include <tuple>
#include <type_traits>

// Defined in the other icd/*_api.cpp files under their OpenCL names.
#include "icd/command_buffer_api.h"
#include "icd/entry_points.h"

namespace {

// Slots of extensions Weft does not report (cl_ext_device_fission, EGL):
// the loader only reaches them if an application calls them anyway.
template <typename Slot> struct unsupportedSlot;
template <typename R, typename... Args>
struct unsupportedSlot<R(CL_API_CALL *)(Args...)> {
  static R CL_API_CALL call(Args...) {
    if constexpr (std::is_pointer_v<R>)
      return nullptr;
    else
      return CL_INVALID_OPERATION;
  }
};

// The application is C: an exception thrown inside Weft (std::bad_alloc when
// memory runs out, std::system_error when no thread can be started) must not
// unwind into it. Every slot goes through this guard, which turns one into
// the error for an exhausted host: CL_OUT_OF_HOST_MEMORY returned, or stored
// through the errcode_ret pointer that ends every creating call's parameters.
template <typename... Args> void reportOutOfHostMemory(Args... args) {
  if constexpr (sizeof...(Args) > 0) {
    auto last = std::get<sizeof...(Args) - 1>(std::make_tuple(args...));
    if constexpr (std::is_same_v<decltype(last), cl_int *>)
      if (last)
        *last = CL_OUT_OF_HOST_MEMORY;
  }
}

template <auto Function> struct Guarded;
template <typename R, typename... Args, R(CL_API_CALL *Function)(Args...)>
struct Guarded<Function> {
  static R CL_API_CALL call(Args... args) noexcept {
    try {
      return Function(args...);
    } catch (...) {
      if constexpr (std::is_void_v<R>) {
        return;
      } else if constexpr (std::is_pointer_v<R>) {
        reportOutOfHostMemory(args...);
        return nullptr;
      } else {
        return CL_OUT_OF_HOST_MEMORY;
      }
    }
  }
};

// Direct3D slots are untyped on this platform and never reached.
cl_int CL_API_CALL unsupportedInterop() { return CL_INVALID_OPERATION; }

// cl_khr_icd 2.0's tag, in the first slot: it tells a loader that supports
// loader-managed dispatch to take each handle's second word.
#ifndef CL_ICD2_TAG_KHR
#define CL_ICD2_TAG_KHR ((intptr_t)0x4F50454E434C3331)
#endif

cl_icd_dispatch makeDispatchTable() {
  cl_icd_dispatch t{};
  t.clGetPlatformIDs = Guarded<&clGetPlatformIDs>::call;
  t.clGetPlatformInfo = Guarded<&clGetPlatformInfo>::call;
  t.clGetDeviceIDs = Guarded<&clGetDeviceIDs>::call;
  t.clGetDeviceInfo = Guarded<&clGetDeviceInfo>::call;
  t.clCreateContext = Guarded<&clCreateContext>::call;
  t.clCreateContextFromType = Guarded<&clCreateContextFromType>::call;
  t.clRetainContext = Guarded<&clRetainContext>::call;
  t.clReleaseContext = Guarded<&clReleaseContext>::call;
  t.clGetContextInfo = Guarded<&clGetContextInfo>::call;
  t.clCreateCommandQueue = Guarded<&clCreateCommandQueue>::call;
  t.clRetainCommandQueue = Guarded<&clRetainCommandQueue>::call;
  t.clReleaseCommandQueue = Guarded<&clReleaseCommandQueue>::call;
  t.clGetCommandQueueInfo = Guarded<&clGetCommandQueueInfo>::call;
  t.clSetCommandQueueProperty = Guarded<&clSetCommandQueueProperty>::call;
  t.clCreateBuffer = Guarded<&clCreateBuffer>::call;
  t.clCreateImage2D = Guarded<&clCreateImage2D>::call;
  t.clCreateImage3D = Guarded<&clCreateImage3D>::call;
  t.clRetainMemObject = Guarded<&clRetainMemObject>::call;
  t.clReleaseMemObject = Guarded<&clReleaseMemObject>::call;
  t.clGetSupportedImageFormats = Guarded<&clGetSupportedImageFormats>::call;
  t.clGetMemObjectInfo = Guarded<&clGetMemObjectInfo>::call;
  t.clGetImageInfo = Guarded<&clGetImageInfo>::call;
  t.clCreateSampler = Guarded<&clCreateSampler>::call;
  t.clRetainSampler = Guarded<&clRetainSampler>::call;
  t.clReleaseSampler = Guarded<&clReleaseSampler>::call;
  t.clGetSamplerInfo = Guarded<&clGetSamplerInfo>::call;
  t.clCreateProgramWithSource = Guarded<&clCreateProgramWithSource>::call;
  t.clCreateProgramWithBinary = Guarded<&clCreateProgramWithBinary>::call;
  t.clRetainProgram = Guarded<&clRetainProgram>::call;
  t.clReleaseProgram = Guarded<&clReleaseProgram>::call;
  t.clBuildProgram = Guarded<&clBuildProgram>::call;
  t.clUnloadCompiler = Guarded<&clUnloadCompiler>::call;
  t.clGetProgramInfo = Guarded<&clGetProgramInfo>::call;
  t.clGetProgramBuildInfo = Guarded<&clGetProgramBuildInfo>::call;
  t.clCreateKernel = Guarded<&clCreateKernel>::call;
  t.clCreateKernelsInProgram = Guarded<&clCreateKernelsInProgram>::call;
  t.clRetainKernel = Guarded<&clRetainKernel>::call;
  t.clReleaseKernel = Guarded<&clReleaseKernel>::call;
  t.clSetKernelArg = Guarded<&clSetKernelArg>::call;
  t.clGetKernelInfo = Guarded<&clGetKernelInfo>::call;
  t.clGetKernelWorkGroupInfo = Guarded<&clGetKernelWorkGroupInfo>::call;
  t.clWaitForEvents = Guarded<&clWaitForEvents>::call;
  t.clGetEventInfo = Guarded<&clGetEventInfo>::call;
  t.clRetainEvent = Guarded<&clRetainEvent>::call;
  t.clReleaseEvent = Guarded<&clReleaseEvent>::call;
  t.clGetEventProfilingInfo = Guarded<&clGetEventProfilingInfo>::call;
  t.clFlush = Guarded<&clFlush>::call;
  t.clFinish = Guarded<&clFinish>::call;
  t.clEnqueueReadBuffer = Guarded<&clEnqueueReadBuffer>::call;
  t.clEnqueueWriteBuffer = Guarded<&clEnqueueWriteBuffer>::call;
  t.clEnqueueCopyBuffer = Guarded<&clEnqueueCopyBuffer>::call;
  t.clEnqueueReadImage = Guarded<&clEnqueueReadImage>::call;
  t.clEnqueueWriteImage = Guarded<&clEnqueueWriteImage>::call;
  t.clEnqueueCopyImage = Guarded<&clEnqueueCopyImage>::call;
  t.clEnqueueCopyImageToBuffer = Guarded<&clEnqueueCopyImageToBuffer>::call;
  t.clEnqueueCopyBufferToImage = Guarded<&clEnqueueCopyBufferToImage>::call;
  t.clEnqueueMapBuffer = Guarded<&clEnqueueMapBuffer>::call;
  t.clEnqueueMapImage = Guarded<&clEnqueueMapImage>::call;
  t.clEnqueueUnmapMemObject = Guarded<&clEnqueueUnmapMemObject>::call;
  t.clEnqueueNDRangeKernel = Guarded<&clEnqueueNDRangeKernel>::call;
  t.clEnqueueTask = Guarded<&clEnqueueTask>::call;
  t.clEnqueueNativeKernel = Guarded<&clEnqueueNativeKernel>::call;
  t.clEnqueueMarker = Guarded<&clEnqueueMarker>::call;
  t.clEnqueueWaitForEvents = Guarded<&clEnqueueWaitForEvents>::call;
  t.clEnqueueBarrier = Guarded<&clEnqueueBarrier>::call;
  t.clGetExtensionFunctionAddress =
      Guarded<&clGetExtensionFunctionAddress>::call;
  t.clCreateFromGLBuffer = Guarded<&clCreateFromGLBuffer>::call;
  t.clCreateFromGLTexture2D = Guarded<&clCreateFromGLTexture2D>::call;
  t.clCreateFromGLTexture3D = Guarded<&clCreateFromGLTexture3D>::call;
  t.clCreateFromGLRenderbuffer = Guarded<&clCreateFromGLRenderbuffer>::call;
  t.clGetGLObjectInfo = Guarded<&clGetGLObjectInfo>::call;
  t.clGetGLTextureInfo = Guarded<&clGetGLTextureInfo>::call;
  t.clEnqueueAcquireGLObjects = Guarded<&clEnqueueAcquireGLObjects>::call;
  t.clEnqueueReleaseGLObjects = Guarded<&clEnqueueReleaseGLObjects>::call;
  t.clGetGLContextInfoKHR = Guarded<&clGetGLContextInfoKHR>::call;
  t.clGetDeviceIDsFromD3D10KHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D10BufferKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D10Texture2DKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D10Texture3DKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueAcquireD3D10ObjectsKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueReleaseD3D10ObjectsKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clSetEventCallback = Guarded<&clSetEventCallback>::call;
  t.clCreateSubBuffer = Guarded<&clCreateSubBuffer>::call;
  t.clSetMemObjectDestructorCallback =
      Guarded<&clSetMemObjectDestructorCallback>::call;
  t.clCreateUserEvent = Guarded<&clCreateUserEvent>::call;
  t.clSetUserEventStatus = Guarded<&clSetUserEventStatus>::call;
  t.clEnqueueReadBufferRect = Guarded<&clEnqueueReadBufferRect>::call;
  t.clEnqueueWriteBufferRect = Guarded<&clEnqueueWriteBufferRect>::call;
  t.clEnqueueCopyBufferRect = Guarded<&clEnqueueCopyBufferRect>::call;
  t.clCreateSubDevicesEXT =
      unsupportedSlot<decltype(t.clCreateSubDevicesEXT)>::call;
  t.clRetainDeviceEXT = unsupportedSlot<decltype(t.clRetainDeviceEXT)>::call;
  t.clReleaseDeviceEXT = unsupportedSlot<decltype(t.clReleaseDeviceEXT)>::call;
  t.clCreateEventFromGLsyncKHR = Guarded<&clCreateEventFromGLsyncKHR>::call;
  t.clCreateSubDevices = Guarded<&clCreateSubDevices>::call;
  t.clRetainDevice = Guarded<&clRetainDevice>::call;
  t.clReleaseDevice = Guarded<&clReleaseDevice>::call;
  t.clCreateImage = Guarded<&clCreateImage>::call;
  t.clCreateProgramWithBuiltInKernels =
      Guarded<&clCreateProgramWithBuiltInKernels>::call;
  t.clCompileProgram = Guarded<&clCompileProgram>::call;
  t.clLinkProgram = Guarded<&clLinkProgram>::call;
  t.clUnloadPlatformCompiler = Guarded<&clUnloadPlatformCompiler>::call;
  t.clGetKernelArgInfo = Guarded<&clGetKernelArgInfo>::call;
  t.clEnqueueFillBuffer = Guarded<&clEnqueueFillBuffer>::call;
  t.clEnqueueFillImage = Guarded<&clEnqueueFillImage>::call;
  t.clEnqueueMigrateMemObjects = Guarded<&clEnqueueMigrateMemObjects>::call;
  t.clEnqueueMarkerWithWaitList = Guarded<&clEnqueueMarkerWithWaitList>::call;
  t.clEnqueueBarrierWithWaitList = Guarded<&clEnqueueBarrierWithWaitList>::call;
  t.clGetExtensionFunctionAddressForPlatform =
      Guarded<&clGetExtensionFunctionAddressForPlatform>::call;
  t.clCreateFromGLTexture = Guarded<&clCreateFromGLTexture>::call;
  t.clGetDeviceIDsFromD3D11KHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D11BufferKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D11Texture2DKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D11Texture3DKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromDX9MediaSurfaceKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueAcquireD3D11ObjectsKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueReleaseD3D11ObjectsKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clGetDeviceIDsFromDX9MediaAdapterKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueAcquireDX9MediaSurfacesKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueReleaseDX9MediaSurfacesKHR =
      reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromEGLImageKHR =
      unsupportedSlot<decltype(t.clCreateFromEGLImageKHR)>::call;
  t.clEnqueueAcquireEGLObjectsKHR =
      unsupportedSlot<decltype(t.clEnqueueAcquireEGLObjectsKHR)>::call;
  t.clEnqueueReleaseEGLObjectsKHR =
      unsupportedSlot<decltype(t.clEnqueueReleaseEGLObjectsKHR)>::call;
  t.clCreateEventFromEGLSyncKHR =
      unsupportedSlot<decltype(t.clCreateEventFromEGLSyncKHR)>::call;
  t.clCreateCommandQueueWithProperties =
      Guarded<&clCreateCommandQueueWithProperties>::call;
  t.clCreatePipe = Guarded<&clCreatePipe>::call;
  t.clGetPipeInfo = Guarded<&clGetPipeInfo>::call;
  t.clSVMAlloc = Guarded<&clSVMAlloc>::call;
  t.clSVMFree = Guarded<&clSVMFree>::call;
  t.clEnqueueSVMFree = Guarded<&clEnqueueSVMFree>::call;
  t.clEnqueueSVMMemcpy = Guarded<&clEnqueueSVMMemcpy>::call;
  t.clEnqueueSVMMemFill = Guarded<&clEnqueueSVMMemFill>::call;
  t.clEnqueueSVMMap = Guarded<&clEnqueueSVMMap>::call;
  t.clEnqueueSVMUnmap = Guarded<&clEnqueueSVMUnmap>::call;
  t.clCreateSamplerWithProperties =
      Guarded<&clCreateSamplerWithProperties>::call;
  t.clSetKernelArgSVMPointer = Guarded<&clSetKernelArgSVMPointer>::call;
  t.clSetKernelExecInfo = Guarded<&clSetKernelExecInfo>::call;
  t.clGetKernelSubGroupInfoKHR = Guarded<&clGetKernelSubGroupInfoKHR>::call;
  t.clCloneKernel = Guarded<&clCloneKernel>::call;
  t.clCreateProgramWithIL = Guarded<&clCreateProgramWithIL>::call;
  t.clEnqueueSVMMigrateMem = Guarded<&clEnqueueSVMMigrateMem>::call;
  t.clGetDeviceAndHostTimer = Guarded<&clGetDeviceAndHostTimer>::call;
  t.clGetHostTimer = Guarded<&clGetHostTimer>::call;
  t.clGetKernelSubGroupInfo = Guarded<&clGetKernelSubGroupInfo>::call;
  t.clSetDefaultDeviceCommandQueue =
      Guarded<&clSetDefaultDeviceCommandQueue>::call;
  t.clSetProgramReleaseCallback = Guarded<&clSetProgramReleaseCallback>::call;
  t.clSetProgramSpecializationConstant =
      Guarded<&clSetProgramSpecializationConstant>::call;
  t.clCreateBufferWithProperties = Guarded<&clCreateBufferWithProperties>::call;
  t.clCreateImageWithProperties = Guarded<&clCreateImageWithProperties>::call;
  t.clSetContextDestructorCallback = clSetContextDestructorCallback;
  // Loaders never call these two slots (clGetPlatformIDs is their own, a
  // driver being asked through clIcdGetPlatformIDsKHR; clUnloadCompiler
  // takes no object to dispatch on), so they carry the tag, which the
  // Khronos loader looks for in both.
  t.clGetPlatformIDs =
      reinterpret_cast<cl_api_clGetPlatformIDs>(CL_ICD2_TAG_KHR);
  t.clUnloadCompiler =
      reinterpret_cast<cl_api_clUnloadCompiler>(CL_ICD2_TAG_KHR);
  return t;
}

// A slot of the table by name (icd/dispatch_slots.def lists them), for
// clIcdGetFunctionAddressForPlatformKHR.
void *dispatchSlot(const char *name) {
  struct Slot {
    const char *name;
    size_t offset;
  };
  static const Slot kSlots[] = {
#define WEFT_DISPATCH_SLOT(slot) {#slot, offsetof(cl_icd_dispatch, slot)},
#include "icd/dispatch_slots.def"
#undef WEFT_DISPATCH_SLOT
  };
  // Two slots hold the tag: their functions are these.
  if (std::strcmp(name, "clGetPlatformIDs") == 0)
    return reinterpret_cast<void *>(&Guarded<&clGetPlatformIDs>::call);
  if (std::strcmp(name, "clUnloadCompiler") == 0)
    return reinterpret_cast<void *>(&Guarded<&clUnloadCompiler>::call);
  for (const Slot &slot : kSlots)
    if (std::strcmp(name, slot.name) == 0) {
      void *function;
      std::memcpy(&function,
                  reinterpret_cast<const char *>(&weft::kDispatchTable) +
                      slot.offset,
                  sizeof function);
      return function;
    }
  return nullptr;
}

} // namespace

const cl_icd_dispatch weft::kDispatchTable = makeDispatchTable();

extern "C" {

// cl_khr_icd 2.0's entry points (below).
void *CL_API_CALL clIcdGetFunctionAddressForPlatformKHR(cl_platform_id,
                                                        const char *);
cl_int CL_API_CALL clIcdSetPlatformDispatchDataKHR(cl_platform_id, void *);

CL_API_ENTRY __attribute__((visibility("default"))) cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                       cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
    return CL_INVALID_VALUE;
  if (platforms)
    platforms[0] = &weft::Platform::instance();
  if (num_platforms)
    *num_platforms = 1;
  return CL_SUCCESS;
}

CL_API_ENTRY __attribute__((visibility("default"))) void *CL_API_CALL
clGetExtensionFunctionAddress(const char *name) {
  if (!name)
    return nullptr;
  if (std::strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
    return reinterpret_cast<void *>(&clIcdGetPlatformIDsKHR);
  if (std::strcmp(name, "clIcdGetFunctionAddressForPlatformKHR") == 0)
    return reinterpret_cast<void *>(&clIcdGetFunctionAddressForPlatformKHR);
  if (std::strcmp(name, "clIcdSetPlatformDispatchDataKHR") == 0)
    return reinterpret_cast<void *>(&clIcdSetPlatformDispatchDataKHR);
  // cl_khr_il_program's entry point is the core one under another name.
  if (std::strcmp(name, "clCreateProgramWithILKHR") == 0 &&
      weft::spirvProgramsSupported())
    return reinterpret_cast<void *>(&Guarded<&clCreateProgramWithIL>::call);
  struct ExtensionFunction {
    const char *name;
    void *function;
  };
  static const ExtensionFunction kExtensionFunctions[] = {
      {"clGetKernelSuggestedLocalWorkSizeKHR",
       reinterpret_cast<void *>(
           &Guarded<&clGetKernelSuggestedLocalWorkSizeKHR>::call)},
      {"clSetKernelArgDevicePointerEXT",
       reinterpret_cast<void *>(
           &Guarded<&clSetKernelArgDevicePointerEXT>::call)},
      // cl_intel_unified_shared_memory (icd/usm_api.cpp).
      {"clHostMemAllocINTEL",
       reinterpret_cast<void *>(&Guarded<&clHostMemAllocINTEL>::call)},
      {"clDeviceMemAllocINTEL",
       reinterpret_cast<void *>(&Guarded<&clDeviceMemAllocINTEL>::call)},
      {"clSharedMemAllocINTEL",
       reinterpret_cast<void *>(&Guarded<&clSharedMemAllocINTEL>::call)},
      {"clMemFreeINTEL",
       reinterpret_cast<void *>(&Guarded<&clMemFreeINTEL>::call)},
      {"clMemBlockingFreeINTEL",
       reinterpret_cast<void *>(&Guarded<&clMemBlockingFreeINTEL>::call)},
      {"clGetMemAllocInfoINTEL",
       reinterpret_cast<void *>(&Guarded<&clGetMemAllocInfoINTEL>::call)},
      {"clSetKernelArgMemPointerINTEL",
       reinterpret_cast<void *>(
           &Guarded<&clSetKernelArgMemPointerINTEL>::call)},
      {"clEnqueueMemFillINTEL",
       reinterpret_cast<void *>(&Guarded<&clEnqueueMemFillINTEL>::call)},
      {"clEnqueueMemsetINTEL",
       reinterpret_cast<void *>(&Guarded<&clEnqueueMemsetINTEL>::call)},
      {"clEnqueueMemcpyINTEL",
       reinterpret_cast<void *>(&Guarded<&clEnqueueMemcpyINTEL>::call)},
      {"clEnqueueMigrateMemINTEL",
       reinterpret_cast<void *>(&Guarded<&clEnqueueMigrateMemINTEL>::call)},
      {"clEnqueueMemAdviseINTEL",
       reinterpret_cast<void *>(&Guarded<&clEnqueueMemAdviseINTEL>::call)},
  };
  for (const ExtensionFunction &entry : kExtensionFunctions)
    if (std::strcmp(name, entry.name) == 0)
      return entry.function;
  return weft::icd::commandBufferFunction(name); // or null
}

// cl_khr_icd 2.0: every function by name, and the loader's dispatch data,
// which the platform, its devices and every object made from now on carry
// in their second word.
CL_API_ENTRY __attribute__((visibility("default"))) void *CL_API_CALL
clIcdGetFunctionAddressForPlatformKHR(cl_platform_id platform,
                                      const char *name) {
  if (!weft::Platform::fromHandle(platform) || !name)
    return nullptr;
  if (void *slot = dispatchSlot(name))
    return slot;
  return clGetExtensionFunctionAddress(name);
}

CL_API_ENTRY __attribute__((visibility("default"))) cl_int CL_API_CALL
clIcdSetPlatformDispatchDataKHR(cl_platform_id platform, void *data) {
  weft::Platform *target = weft::Platform::fromHandle(platform);
  if (!target)
    return CL_INVALID_PLATFORM;
  weft::loaderDispatchData().store(data, std::memory_order_release);
  target->loader_data = data;
  target->device().loader_data = data;
  return CL_SUCCESS;
}

CL_API_ENTRY __attribute__((visibility("default"))) void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                         const char *name) {
  if (!weft::Platform::fromHandle(platform))
    return nullptr;
  return clGetExtensionFunctionAddress(name);
}

} // extern "C"
