// The ICD dispatch table and the three functions the ICD loader looks up
// by name. Every slot points at a real function: the loader jumps through
// slots without checking, so a NULL slot would crash the application.
#include "runtime/object.h"
#include "runtime/platform.h"

#include <CL/cl_gl.h>

#include <cstring>
#include <type_traits>

// Defined in the other icd/*_api.cpp files under their OpenCL names.
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

// Direct3D slots are untyped on this platform and never reached.
cl_int CL_API_CALL unsupportedInterop() { return CL_INVALID_OPERATION; }

cl_icd_dispatch makeDispatchTable() {
  cl_icd_dispatch t{};
  t.clGetPlatformIDs = clGetPlatformIDs;
  t.clGetPlatformInfo = clGetPlatformInfo;
  t.clGetDeviceIDs = clGetDeviceIDs;
  t.clGetDeviceInfo = clGetDeviceInfo;
  t.clCreateContext = clCreateContext;
  t.clCreateContextFromType = clCreateContextFromType;
  t.clRetainContext = clRetainContext;
  t.clReleaseContext = clReleaseContext;
  t.clGetContextInfo = clGetContextInfo;
  t.clCreateCommandQueue = clCreateCommandQueue;
  t.clRetainCommandQueue = clRetainCommandQueue;
  t.clReleaseCommandQueue = clReleaseCommandQueue;
  t.clGetCommandQueueInfo = clGetCommandQueueInfo;
  t.clSetCommandQueueProperty = clSetCommandQueueProperty;
  t.clCreateBuffer = clCreateBuffer;
  t.clCreateImage2D = clCreateImage2D;
  t.clCreateImage3D = clCreateImage3D;
  t.clRetainMemObject = clRetainMemObject;
  t.clReleaseMemObject = clReleaseMemObject;
  t.clGetSupportedImageFormats = clGetSupportedImageFormats;
  t.clGetMemObjectInfo = clGetMemObjectInfo;
  t.clGetImageInfo = clGetImageInfo;
  t.clCreateSampler = clCreateSampler;
  t.clRetainSampler = clRetainSampler;
  t.clReleaseSampler = clReleaseSampler;
  t.clGetSamplerInfo = clGetSamplerInfo;
  t.clCreateProgramWithSource = clCreateProgramWithSource;
  t.clCreateProgramWithBinary = clCreateProgramWithBinary;
  t.clRetainProgram = clRetainProgram;
  t.clReleaseProgram = clReleaseProgram;
  t.clBuildProgram = clBuildProgram;
  t.clUnloadCompiler = clUnloadCompiler;
  t.clGetProgramInfo = clGetProgramInfo;
  t.clGetProgramBuildInfo = clGetProgramBuildInfo;
  t.clCreateKernel = clCreateKernel;
  t.clCreateKernelsInProgram = clCreateKernelsInProgram;
  t.clRetainKernel = clRetainKernel;
  t.clReleaseKernel = clReleaseKernel;
  t.clSetKernelArg = clSetKernelArg;
  t.clGetKernelInfo = clGetKernelInfo;
  t.clGetKernelWorkGroupInfo = clGetKernelWorkGroupInfo;
  t.clWaitForEvents = clWaitForEvents;
  t.clGetEventInfo = clGetEventInfo;
  t.clRetainEvent = clRetainEvent;
  t.clReleaseEvent = clReleaseEvent;
  t.clGetEventProfilingInfo = clGetEventProfilingInfo;
  t.clFlush = clFlush;
  t.clFinish = clFinish;
  t.clEnqueueReadBuffer = clEnqueueReadBuffer;
  t.clEnqueueWriteBuffer = clEnqueueWriteBuffer;
  t.clEnqueueCopyBuffer = clEnqueueCopyBuffer;
  t.clEnqueueReadImage = clEnqueueReadImage;
  t.clEnqueueWriteImage = clEnqueueWriteImage;
  t.clEnqueueCopyImage = clEnqueueCopyImage;
  t.clEnqueueCopyImageToBuffer = clEnqueueCopyImageToBuffer;
  t.clEnqueueCopyBufferToImage = clEnqueueCopyBufferToImage;
  t.clEnqueueMapBuffer = clEnqueueMapBuffer;
  t.clEnqueueMapImage = clEnqueueMapImage;
  t.clEnqueueUnmapMemObject = clEnqueueUnmapMemObject;
  t.clEnqueueNDRangeKernel = clEnqueueNDRangeKernel;
  t.clEnqueueTask = clEnqueueTask;
  t.clEnqueueNativeKernel = clEnqueueNativeKernel;
  t.clEnqueueMarker = clEnqueueMarker;
  t.clEnqueueWaitForEvents = clEnqueueWaitForEvents;
  t.clEnqueueBarrier = clEnqueueBarrier;
  t.clGetExtensionFunctionAddress = clGetExtensionFunctionAddress;
  t.clCreateFromGLBuffer = clCreateFromGLBuffer;
  t.clCreateFromGLTexture2D = clCreateFromGLTexture2D;
  t.clCreateFromGLTexture3D = clCreateFromGLTexture3D;
  t.clCreateFromGLRenderbuffer = clCreateFromGLRenderbuffer;
  t.clGetGLObjectInfo = clGetGLObjectInfo;
  t.clGetGLTextureInfo = clGetGLTextureInfo;
  t.clEnqueueAcquireGLObjects = clEnqueueAcquireGLObjects;
  t.clEnqueueReleaseGLObjects = clEnqueueReleaseGLObjects;
  t.clGetGLContextInfoKHR = clGetGLContextInfoKHR;
  t.clGetDeviceIDsFromD3D10KHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D10BufferKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D10Texture2DKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D10Texture3DKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueAcquireD3D10ObjectsKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueReleaseD3D10ObjectsKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clSetEventCallback = clSetEventCallback;
  t.clCreateSubBuffer = clCreateSubBuffer;
  t.clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback;
  t.clCreateUserEvent = clCreateUserEvent;
  t.clSetUserEventStatus = clSetUserEventStatus;
  t.clEnqueueReadBufferRect = clEnqueueReadBufferRect;
  t.clEnqueueWriteBufferRect = clEnqueueWriteBufferRect;
  t.clEnqueueCopyBufferRect = clEnqueueCopyBufferRect;
  t.clCreateSubDevicesEXT = unsupportedSlot<decltype(t.clCreateSubDevicesEXT)>::call;
  t.clRetainDeviceEXT = unsupportedSlot<decltype(t.clRetainDeviceEXT)>::call;
  t.clReleaseDeviceEXT = unsupportedSlot<decltype(t.clReleaseDeviceEXT)>::call;
  t.clCreateEventFromGLsyncKHR = clCreateEventFromGLsyncKHR;
  t.clCreateSubDevices = clCreateSubDevices;
  t.clRetainDevice = clRetainDevice;
  t.clReleaseDevice = clReleaseDevice;
  t.clCreateImage = clCreateImage;
  t.clCreateProgramWithBuiltInKernels = clCreateProgramWithBuiltInKernels;
  t.clCompileProgram = clCompileProgram;
  t.clLinkProgram = clLinkProgram;
  t.clUnloadPlatformCompiler = clUnloadPlatformCompiler;
  t.clGetKernelArgInfo = clGetKernelArgInfo;
  t.clEnqueueFillBuffer = clEnqueueFillBuffer;
  t.clEnqueueFillImage = clEnqueueFillImage;
  t.clEnqueueMigrateMemObjects = clEnqueueMigrateMemObjects;
  t.clEnqueueMarkerWithWaitList = clEnqueueMarkerWithWaitList;
  t.clEnqueueBarrierWithWaitList = clEnqueueBarrierWithWaitList;
  t.clGetExtensionFunctionAddressForPlatform = clGetExtensionFunctionAddressForPlatform;
  t.clCreateFromGLTexture = clCreateFromGLTexture;
  t.clGetDeviceIDsFromD3D11KHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D11BufferKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D11Texture2DKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromD3D11Texture3DKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromDX9MediaSurfaceKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueAcquireD3D11ObjectsKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueReleaseD3D11ObjectsKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clGetDeviceIDsFromDX9MediaAdapterKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueAcquireDX9MediaSurfacesKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clEnqueueReleaseDX9MediaSurfacesKHR = reinterpret_cast<void *>(&unsupportedInterop);
  t.clCreateFromEGLImageKHR = unsupportedSlot<decltype(t.clCreateFromEGLImageKHR)>::call;
  t.clEnqueueAcquireEGLObjectsKHR = unsupportedSlot<decltype(t.clEnqueueAcquireEGLObjectsKHR)>::call;
  t.clEnqueueReleaseEGLObjectsKHR = unsupportedSlot<decltype(t.clEnqueueReleaseEGLObjectsKHR)>::call;
  t.clCreateEventFromEGLSyncKHR = unsupportedSlot<decltype(t.clCreateEventFromEGLSyncKHR)>::call;
  t.clCreateCommandQueueWithProperties = clCreateCommandQueueWithProperties;
  t.clCreatePipe = clCreatePipe;
  t.clGetPipeInfo = clGetPipeInfo;
  t.clSVMAlloc = clSVMAlloc;
  t.clSVMFree = clSVMFree;
  t.clEnqueueSVMFree = clEnqueueSVMFree;
  t.clEnqueueSVMMemcpy = clEnqueueSVMMemcpy;
  t.clEnqueueSVMMemFill = clEnqueueSVMMemFill;
  t.clEnqueueSVMMap = clEnqueueSVMMap;
  t.clEnqueueSVMUnmap = clEnqueueSVMUnmap;
  t.clCreateSamplerWithProperties = clCreateSamplerWithProperties;
  t.clSetKernelArgSVMPointer = clSetKernelArgSVMPointer;
  t.clSetKernelExecInfo = clSetKernelExecInfo;
  t.clGetKernelSubGroupInfoKHR = clGetKernelSubGroupInfoKHR;
  t.clCloneKernel = clCloneKernel;
  t.clCreateProgramWithIL = clCreateProgramWithIL;
  t.clEnqueueSVMMigrateMem = clEnqueueSVMMigrateMem;
  t.clGetDeviceAndHostTimer = clGetDeviceAndHostTimer;
  t.clGetHostTimer = clGetHostTimer;
  t.clGetKernelSubGroupInfo = clGetKernelSubGroupInfo;
  t.clSetDefaultDeviceCommandQueue = clSetDefaultDeviceCommandQueue;
  t.clSetProgramReleaseCallback = clSetProgramReleaseCallback;
  t.clSetProgramSpecializationConstant = clSetProgramSpecializationConstant;
  t.clCreateBufferWithProperties = clCreateBufferWithProperties;
  t.clCreateImageWithProperties = clCreateImageWithProperties;
  t.clSetContextDestructorCallback = clSetContextDestructorCallback;  return t;
}

} // namespace

const cl_icd_dispatch weft::kDispatchTable = makeDispatchTable();

extern "C" {

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
  if (name && std::strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
    return reinterpret_cast<void *>(&clIcdGetPlatformIDsKHR);
  return nullptr; // Weft exposes no other extension functions
}

CL_API_ENTRY __attribute__((visibility("default"))) void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                         const char *name) {
  if (!weft::Platform::fromHandle(platform))
    return nullptr;
  return clGetExtensionFunctionAddress(name);
}

} // extern "C"
