// Pipe entry points: clCreatePipe with every error case of the spec, and
// clGetPipeInfo. Buffer commands refuse pipes (icd/memory_api.cpp).
#include "device/pipe_abi.h"
#include "icd/info_query.h"
#include "icd/validation.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/device_features.h"
#include "runtime/memory.h"

using namespace weft;
using weft::icd::setError;

CL_API_ENTRY cl_mem CL_API_CALL
clCreatePipe(cl_context context_handle, cl_mem_flags flags,
             cl_uint pipe_packet_size, cl_uint pipe_max_packets,
             const cl_pipe_properties *properties, cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    setError(errcode_ret, CL_INVALID_CONTEXT);
    return nullptr;
  }
  // Only these two flags; 0 means both (the spec's default).
  if (flags & ~cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS)) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  // No pipe property is defined: only an empty list is valid.
  if (properties && properties[0] != 0) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  if (pipe_packet_size == 0 || pipe_packet_size > kPipeMaxPacketSize ||
      pipe_max_packets == 0 || pipe_max_packets > WEFT_PIPE_MAX_PACKETS) {
    setError(errcode_ret, CL_INVALID_PIPE_SIZE);
    return nullptr;
  }
  if (weft_pipe_allocation_size(pipe_packet_size, pipe_max_packets) >
      context->device().properties().max_mem_alloc_size) {
    setError(errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE);
    return nullptr;
  }
  if (flags == 0)
    flags = CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS;
  Memory *pipe = Memory::createPipe(*context, flags, pipe_packet_size,
                                    pipe_max_packets, properties != nullptr);
  setError(errcode_ret, pipe ? CL_SUCCESS : CL_MEM_OBJECT_ALLOCATION_FAILURE);
  return pipe;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem handle,
                                              cl_pipe_info param_name,
                                              size_t param_value_size,
                                              void *param_value,
                                              size_t *param_value_size_ret) {
  Memory *pipe = Memory::fromHandle(handle);
  if (!pipe || !pipe->isPipe())
    return CL_INVALID_MEM_OBJECT;
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  switch (param_name) {
  case CL_PIPE_PACKET_SIZE:
    return out.value(pipe->pipePacketSize());
  case CL_PIPE_MAX_PACKETS:
    return out.value(pipe->pipeMaxPackets());
  case CL_PIPE_PROPERTIES:
    return out.array(pipe->properties());
  default:
    return CL_INVALID_VALUE;
  }
}
