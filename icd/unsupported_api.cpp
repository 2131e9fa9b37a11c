// Entry points of features Weft does not offer (yet): programs from IL,
// native kernels, and the graphics-interop extensions. Each validates
// what it can and returns the error the spec names for an unsupported
// operation; none crashes.
#include "icd/validation.h"
#include "runtime/kernel.h"
#include "runtime/memory.h"
#include "runtime/program.h"
#include "runtime/queue.h"

#include <CL/cl_gl.h>

using namespace weft;
using weft::icd::setError;

namespace {

// Returns the handle's validation error, or `unsupported` if it is valid.
cl_int contextOr(cl_context handle, cl_int unsupported) {
  return Context::fromHandle(handle) ? unsupported : CL_INVALID_CONTEXT;
}
cl_int queueOr(cl_command_queue handle, cl_int unsupported) {
  return Queue::fromHandle(handle) ? unsupported : CL_INVALID_COMMAND_QUEUE;
}
template <typename T> T *failWith(cl_int *errcode_ret, cl_int code) {
  setError(errcode_ret, code);
  return nullptr;
}

} // namespace

// --- Built-in kernels. ---
CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
    cl_context context, cl_uint, const cl_device_id *, const char *,
    cl_int *errcode_ret) {
  // CL_DEVICE_BUILT_IN_KERNELS is empty: no name can be valid.
  return failWith<_cl_program>(errcode_ret,
                               contextOr(context, CL_INVALID_VALUE));
}
CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(
    cl_program program, void(CL_CALLBACK *)(cl_program, void *), void *) {
  // Deprecated in 3.0; allowed to fail when no global destructors exist.
  return Program::fromHandle(program) ? CL_INVALID_OPERATION
                                      : CL_INVALID_PROGRAM;
}
// --- Kernels: native kernels. ---
CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(
    cl_command_queue q, void(CL_CALLBACK *)(void *), void *, size_t, cl_uint,
    const cl_mem *, const void **, cl_uint, const cl_event *, cl_event *) {
  // CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL.
  return queueOr(q, CL_INVALID_OPERATION);
}
CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(
    cl_context context, cl_device_id, cl_command_queue) {
  return contextOr(context, CL_INVALID_OPERATION);
}

// --- Graphics interop: no cl_khr_gl_sharing, EGL or D3D extensions. ---
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLBuffer(cl_context context,
                                                     cl_mem_flags, cl_GLuint,
                                                     cl_int *errcode_ret) {
  return failWith<_cl_mem>(errcode_ret, contextOr(context, CL_INVALID_CONTEXT));
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture(cl_context context,
                                                      cl_mem_flags, cl_GLenum,
                                                      cl_GLint, cl_GLuint,
                                                      cl_int *errcode_ret) {
  return failWith<_cl_mem>(errcode_ret, contextOr(context, CL_INVALID_CONTEXT));
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture2D(cl_context context,
                                                        cl_mem_flags, cl_GLenum,
                                                        cl_GLint, cl_GLuint,
                                                        cl_int *errcode_ret) {
  return failWith<_cl_mem>(errcode_ret, contextOr(context, CL_INVALID_CONTEXT));
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture3D(cl_context context,
                                                        cl_mem_flags, cl_GLenum,
                                                        cl_GLint, cl_GLuint,
                                                        cl_int *errcode_ret) {
  return failWith<_cl_mem>(errcode_ret, contextOr(context, CL_INVALID_CONTEXT));
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLRenderbuffer(
    cl_context context, cl_mem_flags, cl_GLuint, cl_int *errcode_ret) {
  return failWith<_cl_mem>(errcode_ret, contextOr(context, CL_INVALID_CONTEXT));
}
CL_API_ENTRY cl_int CL_API_CALL clGetGLObjectInfo(cl_mem, cl_gl_object_type *,
                                                  cl_GLuint *) {
  return CL_INVALID_MEM_OBJECT;
}
CL_API_ENTRY cl_int CL_API_CALL clGetGLTextureInfo(cl_mem, cl_gl_texture_info,
                                                   size_t, void *, size_t *) {
  return CL_INVALID_MEM_OBJECT;
}
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueAcquireGLObjects(cl_command_queue q, cl_uint, const cl_mem *, cl_uint,
                          const cl_event *, cl_event *) {
  return queueOr(q, CL_INVALID_MEM_OBJECT);
}
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReleaseGLObjects(cl_command_queue q, cl_uint, const cl_mem *, cl_uint,
                          const cl_event *, cl_event *) {
  return queueOr(q, CL_INVALID_MEM_OBJECT);
}
CL_API_ENTRY cl_int CL_API_CALL
clGetGLContextInfoKHR(const cl_context_properties *, cl_gl_context_info, size_t,
                      void *, size_t *) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_event CL_API_CALL
clCreateEventFromGLsyncKHR(cl_context context, cl_GLsync, cl_int *errcode_ret) {
  return failWith<_cl_event>(errcode_ret,
                             contextOr(context, CL_INVALID_CONTEXT));
}
