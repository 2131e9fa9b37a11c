// cl_intel_unified_shared_memory entry points, handed out by
// clGetExtensionFunctionAddress (icd/dispatch.cpp). Each validates its
// arguments, then hands a checked call to runtime/usm.h (the allocations)
// or to the SVM commands, which USM's memcpy, fill and migrate are.
#include "icd/usm_api.h"

#include "icd/command_target.h"
#include "icd/info_query.h"
#include "icd/validation.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/kernel.h"
#include "runtime/queue.h"
#include "runtime/svm_commands.h"
#include "runtime/usm.h"

#include <CL/cl_ext.h>

#include <cstdint>

using namespace weft;
using icd::CommandTarget;
using icd::isPowerOfTwo;
using icd::submit;
using icd::wrapsAround;

namespace {

constexpr cl_mem_alloc_flags_intel kAllocFlags =
    CL_MEM_ALLOC_WRITE_COMBINED_INTEL |
    CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |
    CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;

// Reads the 0-terminated (name, value) list into `request`: only
// CL_MEM_ALLOC_FLAGS_INTEL is known, once, with known flags; the initial
// placements only for shared memory, and not both.
cl_int readProperties(const cl_mem_properties_intel *properties,
                      UsmRequest &request) {
  if (!properties)
    return CL_SUCCESS;
  bool flags_seen = false;
  for (size_t i = 0; properties[i] != 0; i += 2) {
    if (properties[i] != CL_MEM_ALLOC_FLAGS_INTEL || flags_seen)
      return CL_INVALID_PROPERTY;
    flags_seen = true;
    cl_mem_alloc_flags_intel flags = properties[i + 1];
    constexpr cl_mem_alloc_flags_intel kBothPlacements =
        CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |
        CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;
    if ((flags & ~kAllocFlags) ||
        (flags & kBothPlacements) == kBothPlacements ||
        ((flags & kBothPlacements) &&
         request.kind != AllocationKind::UsmShared))
      return CL_INVALID_PROPERTY;
    request.flags = flags;
  }
  return CL_SUCCESS;
}

// The checks all three allocators share, then the allocation.
void *allocate(cl_context context_handle, cl_device_id device_handle,
               bool device_required, AllocationKind kind,
               const cl_mem_properties_intel *properties, size_t size,
               cl_uint alignment, cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    icd::setError(errcode_ret, CL_INVALID_CONTEXT);
    return nullptr;
  }
  UsmRequest request;
  request.kind = kind;
  if (device_handle || device_required) {
    Device *device = Device::fromHandle(device_handle);
    if (!device || !context->hasDevice(device_handle)) {
      icd::setError(errcode_ret, CL_INVALID_DEVICE);
      return nullptr;
    }
    request.device = device;
  }
  if (cl_int err = readProperties(properties, request)) {
    icd::setError(errcode_ret, err);
    return nullptr;
  }
  if (size == 0 || size > context->device().properties().max_mem_alloc_size) {
    icd::setError(errcode_ret, CL_INVALID_BUFFER_SIZE);
    return nullptr;
  }
  if (alignment != 0 &&
      (!isPowerOfTwo(alignment) || alignment > kMaxUsmAlignment)) {
    icd::setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  request.size = size;
  request.alignment = alignment;
  void *memory = usmAllocate(*context, request);
  icd::setError(errcode_ret, memory ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return memory;
}

} // namespace

CL_API_ENTRY void *CL_API_CALL clHostMemAllocINTEL(
    cl_context context, const cl_mem_properties_intel *properties, size_t size,
    cl_uint alignment, cl_int *errcode_ret) {
  return allocate(context, nullptr, false, AllocationKind::UsmHost, properties,
                  size, alignment, errcode_ret);
}

CL_API_ENTRY void *CL_API_CALL
clDeviceMemAllocINTEL(cl_context context, cl_device_id device,
                      const cl_mem_properties_intel *properties, size_t size,
                      cl_uint alignment, cl_int *errcode_ret) {
  return allocate(context, device, true, AllocationKind::UsmDevice, properties,
                  size, alignment, errcode_ret);
}

// A shared allocation need not name a device: it is then shared by all.
CL_API_ENTRY void *CL_API_CALL
clSharedMemAllocINTEL(cl_context context, cl_device_id device,
                      const cl_mem_properties_intel *properties, size_t size,
                      cl_uint alignment, cl_int *errcode_ret) {
  return allocate(context, device, false, AllocationKind::UsmShared, properties,
                  size, alignment, errcode_ret);
}

// A null pointer frees nothing; any other must be where an allocation of
// this context starts (a foreign or freed pointer is refused, not freed).
CL_API_ENTRY cl_int CL_API_CALL clMemFreeINTEL(cl_context context_handle,
                                               void *ptr) {
  Context *context = Context::fromHandle(context_handle);
  if (!context)
    return CL_INVALID_CONTEXT;
  if (!ptr)
    return CL_SUCCESS;
  return usmFree(*context, ptr) ? CL_SUCCESS : CL_INVALID_VALUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clMemBlockingFreeINTEL(cl_context context_handle, void *ptr) {
  Context *context = Context::fromHandle(context_handle);
  if (!context)
    return CL_INVALID_CONTEXT;
  if (!ptr)
    return CL_SUCCESS;
  return usmBlockingFree(*context, ptr) ? CL_SUCCESS : CL_INVALID_VALUE;
}

// Any pointer may be asked about: one inside a USM allocation of the
// context is answered from it, any other (also an SVM allocation's) is of
// unknown type, with no base, size, device or flags.
CL_API_ENTRY cl_int CL_API_CALL clGetMemAllocInfoINTEL(
    cl_context context_handle, const void *ptr, cl_mem_info_intel param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context)
    return CL_INVALID_CONTEXT;
  std::optional<SvmAllocation> allocation;
  if (ptr)
    allocation = context->svm().find(ptr);
  if (allocation && usmTypeOf(*allocation) == CL_MEM_TYPE_UNKNOWN_INTEL)
    allocation.reset();
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  switch (param_name) {
  case CL_MEM_ALLOC_TYPE_INTEL:
    return out.value<cl_unified_shared_memory_type_intel>(
        allocation ? usmTypeOf(*allocation) : CL_MEM_TYPE_UNKNOWN_INTEL);
  case CL_MEM_ALLOC_BASE_PTR_INTEL:
    return out.value<void *>(allocation ? allocation->base : nullptr);
  case CL_MEM_ALLOC_SIZE_INTEL:
    return out.value<size_t>(allocation ? allocation->size : 0);
  case CL_MEM_ALLOC_DEVICE_INTEL:
    return out.value<cl_device_id>(allocation ? allocation->device : nullptr);
  case CL_MEM_ALLOC_FLAGS_INTEL:
    return out.value<cl_mem_alloc_flags_intel>(
        allocation ? allocation->usm_alloc_flags : 0);
  default:
    return CL_INVALID_VALUE;
  }
}

// As clSetKernelArgSVMPointer: the device reaches all host memory, so any
// pointer (and null) is a valid argument.
CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgMemPointerINTEL(
    cl_kernel handle, cl_uint arg_index, const void *arg_value) {
  Kernel *kernel = Kernel::fromHandle(handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  return kernel->setSvmArgument(arg_index, arg_value);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMemFillINTEL(
    cl_command_queue queue, void *dst_ptr, const void *pattern,
    size_t pattern_size, size_t size, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err =
          icd::prepareHostPointerCommand(queue, num_events, events, target))
    return err;
  return icd::svmMemFill(target, dst_ptr, pattern, pattern_size, size, event,
                         CL_COMMAND_MEMFILL_INTEL);
}

// Deprecated for clEnqueueMemFillINTEL: a fill with one byte.
CL_API_ENTRY cl_int CL_API_CALL clEnqueueMemsetINTEL(
    cl_command_queue queue, void *dst_ptr, cl_int value, size_t size,
    cl_uint num_events, const cl_event *events, cl_event *event) {
  const cl_uchar byte = static_cast<cl_uchar>(value);
  return clEnqueueMemFillINTEL(queue, dst_ptr, &byte, 1, size, num_events,
                               events, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMemcpyINTEL(cl_command_queue queue, cl_bool blocking, void *dst_ptr,
                     const void *src_ptr, size_t size, cl_uint num_events,
                     const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err =
          icd::prepareHostPointerCommand(queue, num_events, events, target))
    return err;
  return icd::svmMemcpy(target, blocking, dst_ptr, src_ptr, size, event,
                        CL_COMMAND_MEMCPY_INTEL);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMigrateMemINTEL(cl_command_queue queue, const void *ptr, size_t size,
                         cl_mem_migration_flags flags, cl_uint num_events,
                         const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err =
          icd::prepareHostPointerCommand(queue, num_events, events, target))
    return err;
  if (!ptr || wrapsAround(ptr, size) ||
      (flags &
       ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                               CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
    return CL_INVALID_VALUE;
  return submit(
      target,
      svmMigrateCommand({{ptr, size}}, flags, CL_COMMAND_MIGRATEMEM_INTEL),
      false, event);
}

// The extension defines no advice yet (0x4208-0x420F are reserved): only
// 0, "no advice", is accepted; the command orders like any other.
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMemAdviseINTEL(cl_command_queue queue, const void *ptr, size_t size,
                        cl_mem_advice_intel advice, cl_uint num_events,
                        const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err =
          icd::prepareHostPointerCommand(queue, num_events, events, target))
    return err;
  if (!ptr || wrapsAround(ptr, size) || advice != 0)
    return CL_INVALID_VALUE;
  return submit(target, usmAdviseCommand(ptr, size), false, event);
}

namespace weft::icd {

cl_int setKernelUsmExecInfo(Kernel &kernel, cl_kernel_exec_info name,
                            size_t size, const void *value) {
  switch (name) {
  case CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL:
  case CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL:
  case CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL:
    if (size != sizeof(cl_bool) || !value)
      return CL_INVALID_VALUE;
    kernel.setExecIndirectUsmAccess(
        1u << (name - CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL),
        *static_cast<const cl_bool *>(value) != CL_FALSE);
    return CL_SUCCESS;
  case CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL: {
    if (size % sizeof(void *) || (size && !value))
      return CL_INVALID_VALUE;
    auto *pointers = static_cast<void *const *>(value);
    kernel.setExecUsmPointers(
        std::vector<void *>(pointers, pointers + size / sizeof(void *)));
    return CL_SUCCESS;
  }
  default:
    return CL_INVALID_VALUE;
  }
}

} // namespace weft::icd
