// Context entry points.
#include "icd/info_query.h"
#include "icd/validation.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/platform.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <new>

using namespace weft;
using weft::icd::setError;

namespace {

// The largest CL_PRINTF_BUFFERSIZE_ARM: a launch maps this much address
// space (only the pages printf writes cost memory).
constexpr cl_context_properties kMaxPrintfBufferSize = cl_context_properties{1}
                                                       << 32;

// Validates the property list and copies it (0-terminated) for queries.
cl_int parseContextProperties(const cl_context_properties *properties,
                              std::vector<cl_context_properties> &out) {
  if (!properties)
    return CL_SUCCESS;
  bool seen_platform = false, seen_sync = false, seen_printf_callback = false,
       seen_printf_size = false;
  for (const cl_context_properties *p = properties; *p; p += 2) {
    switch (p[0]) {
    case CL_CONTEXT_PLATFORM:
      if (seen_platform)
        return CL_INVALID_PROPERTY;
      seen_platform = true;
      if (!Platform::fromHandle(reinterpret_cast<cl_platform_id>(p[1])))
        return CL_INVALID_PLATFORM;
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      if (seen_sync || (p[1] != CL_TRUE && p[1] != CL_FALSE))
        return CL_INVALID_PROPERTY;
      seen_sync = true;
      break;
    case CL_PRINTF_CALLBACK_ARM: // cl_arm_printf
      if (seen_printf_callback || !p[1])
        return CL_INVALID_PROPERTY;
      seen_printf_callback = true;
      break;
    case CL_PRINTF_BUFFERSIZE_ARM:
      if (seen_printf_size || p[1] <= 0 || p[1] > kMaxPrintfBufferSize)
        return CL_INVALID_PROPERTY;
      seen_printf_size = true;
      break;
    default:
      return CL_INVALID_PROPERTY;
    }
    out.push_back(p[0]);
    out.push_back(p[1]);
  }
  out.push_back(0);
  return CL_SUCCESS;
}

// user_data without pfn_notify is CL_INVALID_VALUE, unless a printf callback
// (cl_arm_printf) is there to receive it.
bool strayUserData(const cl_context_properties *properties,
                   Context::ErrorCallback pfn_notify, void *user_data) {
  if (pfn_notify || !user_data)
    return false;
  for (const cl_context_properties *p = properties; p && *p; p += 2)
    if (p[0] == CL_PRINTF_CALLBACK_ARM)
      return false;
  return true;
}

cl_context makeContext(const cl_context_properties *properties,
                       const std::vector<Device *> &devices,
                       Context::ErrorCallback notify, void *user_data,
                       cl_int *errcode_ret) {
  std::vector<cl_context_properties> list;
  if (cl_int err = parseContextProperties(properties, list)) {
    setError(errcode_ret, err);
    return nullptr;
  }
  auto *context = new (std::nothrow) Context(devices, list, notify, user_data);
  setError(errcode_ret, context ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return context;
}

} // namespace

CL_API_ENTRY cl_context CL_API_CALL
clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                const cl_device_id *devices, Context::ErrorCallback pfn_notify,
                void *user_data, cl_int *errcode_ret) {
  if (!devices || num_devices == 0 ||
      strayUserData(properties, pfn_notify, user_data)) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  // Repeats are ignored (spec).
  std::vector<Device *> members;
  for (cl_uint i = 0; i < num_devices; ++i) {
    Device *device = Device::fromHandle(devices[i]);
    if (!device) {
      setError(errcode_ret, CL_INVALID_DEVICE);
      return nullptr;
    }
    if (std::find(members.begin(), members.end(), device) == members.end())
      members.push_back(device);
  }
  return makeContext(properties, members, pfn_notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(
    const cl_context_properties *properties, cl_device_type device_type,
    Context::ErrorCallback pfn_notify, void *user_data, cl_int *errcode_ret) {
  if (strayUserData(properties, pfn_notify, user_data)) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  constexpr cl_device_type kKnown =
      CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
      CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  if (device_type == 0 ||
      (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~kKnown))) {
    setError(errcode_ret, CL_INVALID_DEVICE_TYPE);
    return nullptr;
  }
  if (!(device_type & (CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU))) {
    setError(errcode_ret, CL_DEVICE_NOT_FOUND);
    return nullptr;
  }
  return makeContext(properties, {&Device::instance()}, pfn_notify, user_data,
                     errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context handle) {
  Context *context = Context::fromHandle(handle);
  if (!context)
    return CL_INVALID_CONTEXT;
  context->retainApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context handle) {
  Context *context = Context::fromHandle(handle);
  if (!context)
    return CL_INVALID_CONTEXT;
  context->releaseApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context handle,
                                                 cl_context_info param_name,
                                                 size_t param_value_size,
                                                 void *param_value,
                                                 size_t *param_value_size_ret) {
  Context *context = Context::fromHandle(handle);
  if (!context)
    return CL_INVALID_CONTEXT;
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  switch (param_name) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return out.value(context->apiReferenceCount());
  case CL_CONTEXT_NUM_DEVICES:
    return out.value(static_cast<cl_uint>(context->devices().size()));
  case CL_CONTEXT_DEVICES:
    return out.array(context->deviceHandles());
  case CL_CONTEXT_PROPERTIES: {
    const auto &properties = context->properties();
    return out.bytes(properties.data(),
                     properties.size() * sizeof(cl_context_properties));
  }
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(
    cl_context handle, void(CL_CALLBACK *pfn_notify)(cl_context, void *),
    void *user_data) {
  Context *context = Context::fromHandle(handle);
  if (!context)
    return CL_INVALID_CONTEXT;
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  context->addDestructorCallback(pfn_notify, user_data);
  return CL_SUCCESS;
}
