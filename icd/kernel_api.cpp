// Kernel entry points: creation, arguments, queries, and launching.
#include "icd/command_target.h"
#include "icd/entry_points.h"
#include "icd/info_query.h"
#include "icd/usm_api.h"
#include "icd/validation.h"
#include "runtime/device.h"
#include "runtime/kernel.h"
#include "runtime/memory.h"
#include "runtime/program.h"
#include "runtime/queue.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <new>
#include <optional>

using namespace weft;
using compiler::AccessQualifier;
using compiler::AddressSpace;
using weft::icd::setError;

namespace {

cl_kernel makeKernel(Program &program,
                     std::shared_ptr<const ProgramExecutable> executable,
                     size_t index, cl_int *errcode_ret) {
  auto *kernel =
      new (std::nothrow) Kernel(program, std::move(executable), index);
  setError(errcode_ret, kernel ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return kernel;
}

} // namespace

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program handle,
                                                  const char *kernel_name,
                                                  cl_int *errcode_ret) {
  Program *program = Program::fromHandle(handle);
  if (!program) {
    setError(errcode_ret, CL_INVALID_PROGRAM);
    return nullptr;
  }
  if (!kernel_name) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  auto executable = program->executable();
  if (!executable) {
    setError(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE);
    return nullptr;
  }
  for (size_t i = 0; i < executable->kernels().size(); ++i)
    if (executable->kernels()[i].name == kernel_name)
      return makeKernel(*program, executable, i, errcode_ret);
  setError(errcode_ret, CL_INVALID_KERNEL_NAME);
  return nullptr;
}

CL_API_ENTRY cl_int CL_API_CALL
clCreateKernelsInProgram(cl_program handle, cl_uint num_kernels,
                         cl_kernel *kernels, cl_uint *num_kernels_ret) {
  Program *program = Program::fromHandle(handle);
  if (!program)
    return CL_INVALID_PROGRAM;
  auto executable = program->executable();
  if (!executable)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  const auto &descriptions = executable->kernels();
  if (kernels && num_kernels < descriptions.size())
    return CL_INVALID_VALUE;
  if (kernels) {
    for (size_t i = 0; i < descriptions.size(); ++i) {
      cl_int err;
      kernels[i] = makeKernel(*program, executable, i, &err);
      if (err != CL_SUCCESS) {
        for (size_t j = 0; j < i; ++j)
          Kernel::fromHandle(kernels[j])->releaseApi();
        return err;
      }
    }
  }
  if (num_kernels_ret)
    *num_kernels_ret = static_cast<cl_uint>(descriptions.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel handle) {
  Kernel *kernel = Kernel::fromHandle(handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  kernel->retainApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel handle) {
  Kernel *kernel = Kernel::fromHandle(handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  kernel->releaseApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel handle,
                                               cl_uint arg_index,
                                               size_t arg_size,
                                               const void *arg_value) {
  Kernel *kernel = Kernel::fromHandle(handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  return kernel->setArgument(arg_index, arg_size, arg_value);
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel handle,
                                                cl_kernel_info param_name,
                                                size_t param_value_size,
                                                void *param_value,
                                                size_t *param_value_size_ret) {
  Kernel *kernel = Kernel::fromHandle(handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  const auto &d = kernel->description();
  switch (param_name) {
  case CL_KERNEL_FUNCTION_NAME:
    return out.string(d.name);
  case CL_KERNEL_NUM_ARGS:
    return out.value(static_cast<cl_uint>(d.arguments.size()));
  case CL_KERNEL_REFERENCE_COUNT:
    return out.value(kernel->apiReferenceCount());
  case CL_KERNEL_CONTEXT:
    return out.value(static_cast<cl_context>(&kernel->program().context()));
  case CL_KERNEL_PROGRAM:
    return out.value(static_cast<cl_program>(&kernel->program()));
  case CL_KERNEL_ATTRIBUTES:
    return out.string(d.attributes);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(
    cl_kernel handle, cl_uint arg_index, cl_kernel_arg_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  Kernel *kernel = Kernel::fromHandle(handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  const auto &arguments = kernel->description().arguments;
  if (arg_index >= arguments.size())
    return CL_INVALID_ARG_INDEX;
  const compiler::KernelArgument &arg = arguments[arg_index];
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
    static constexpr cl_kernel_arg_address_qualifier kByAddressSpace[] = {
        CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ADDRESS_GLOBAL,
        CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_ADDRESS_LOCAL};
    return out.value(kByAddressSpace[static_cast<int>(arg.address_space)]);
  }
  case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
    static constexpr cl_kernel_arg_access_qualifier kByAccess[] = {
        CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_ACCESS_READ_ONLY,
        CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_ACCESS_READ_WRITE};
    return out.value(kByAccess[static_cast<int>(arg.access)]);
  }
  case CL_KERNEL_ARG_TYPE_NAME:
    return out.string(arg.type_name);
  case CL_KERNEL_ARG_TYPE_QUALIFIER: {
    cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
    if (arg.type_qualifiers & compiler::TypeQualifierConst)
      q |= CL_KERNEL_ARG_TYPE_CONST;
    if (arg.type_qualifiers & compiler::TypeQualifierRestrict)
      q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (arg.type_qualifiers & compiler::TypeQualifierVolatile)
      q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (arg.type_qualifiers & compiler::TypeQualifierPipe)
      q |= CL_KERNEL_ARG_TYPE_PIPE;
    return out.value(q);
  }
  case CL_KERNEL_ARG_NAME:
    if (!kernel->program().keepsArgumentNames())
      return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
    return out.string(arg.name);
  default:
    return CL_INVALID_VALUE;
  }
}

namespace {

// The kernel and device checks of the per-device kernel queries; a null
// device means the context's only one, and is wrong with several.
cl_int checkKernelAndDevice(Kernel *kernel, cl_device_id device) {
  if (!kernel)
    return CL_INVALID_KERNEL;
  Context &context = kernel->program().context();
  if (device ? !Device::fromHandle(device) || !context.hasDevice(device)
             : context.devices().size() > 1)
    return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

} // namespace

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(
    cl_kernel handle, cl_device_id device, cl_kernel_work_group_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  Kernel *kernel = Kernel::fromHandle(handle);
  if (cl_int err = checkKernelAndDevice(kernel, device))
    return err;
  Context &context = kernel->program().context();
  const DeviceProperties &props = context.device().properties();
  const auto &d = kernel->description();
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  switch (param_name) {
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    return CL_INVALID_VALUE; // only for custom devices and built-in kernels
  case CL_KERNEL_WORK_GROUP_SIZE:
    return out.value(kernel->maxWorkGroupSize(props.max_work_group_size));
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t sizes[3] = {d.reqd_work_group_size[0], d.reqd_work_group_size[1],
                       d.reqd_work_group_size[2]};
    return out.array(sizes, 3);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE:
    return out.value(cl_ulong{kernel->localMemorySize()});
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return out.value(size_t{d.preferred_work_group_multiple});
  case CL_KERNEL_PRIVATE_MEM_SIZE: {
    uint64_t bytes = 0;
    if (cl_int err = kernel->privateMemorySize(bytes))
      return err;
    return out.value(cl_ulong{bytes});
  }
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int icd::ndRangeKernel(CommandTarget &target, cl_kernel kernel_handle,
                          cl_uint work_dim, const size_t *global_work_offset,
                          const size_t *global_work_size,
                          const size_t *local_work_size, cl_uint num_events,
                          const cl_event *events, cl_event *event) {
  Queue *queue = target.queue;
  Kernel *kernel = Kernel::fromHandle(kernel_handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  if (&kernel->program().context() != &queue->context())
    return CL_INVALID_CONTEXT;
  if (work_dim < 1 || work_dim > 3)
    return CL_INVALID_WORK_DIMENSION;
  const DeviceProperties &props = queue->device().properties();
  // A NULL global size, or 0 in any dimension, is valid since OpenCL 2.1:
  // the command runs no work-item but still completes its event in order.
  static const size_t kNoWorkItems[3] = {0, 0, 0};
  if (!global_work_size)
    global_work_size = kNoWorkItems;
  for (cl_uint d = 0; d < work_dim; ++d) {
    if (global_work_offset &&
        global_work_offset[d] > SIZE_MAX - global_work_size[d])
      return CL_INVALID_GLOBAL_OFFSET;
  }
  // A mutable launch may be recorded before its arguments are set: an
  // update sets them (cl_khr_command_buffer_mutable_dispatch).
  bool deferred = false;
  if (!kernel->allArgumentsSet()) {
    if (!target.defer_arguments)
      return CL_INVALID_KERNEL_ARGS;
    deferred = true;
  }

  size_t local[3] = {1, 1, 1};
  const auto &required = kernel->description().reqd_work_group_size;
  if (local_work_size) {
    size_t total = 1;
    for (cl_uint d = 0; d < work_dim; ++d) {
      if (local_work_size[d] == 0)
        return CL_INVALID_WORK_GROUP_SIZE;
      if (local_work_size[d] > props.max_work_item_sizes[d])
        return CL_INVALID_WORK_ITEM_SIZE;
      if (required[0] && local_work_size[d] != required[d])
        return CL_INVALID_WORK_GROUP_SIZE;
      local[d] = local_work_size[d];
      total *= local[d];
    }
    if (total > kernel->maxWorkGroupSize(props.max_work_group_size))
      return CL_INVALID_WORK_GROUP_SIZE;
    uint64_t sub_groups = kernel->description().required_sub_groups;
    if (sub_groups && kernel->subGroupCount(local, work_dim) != sub_groups)
      return CL_INVALID_WORK_GROUP_SIZE;
  } else {
    kernel->chooseLocalSize(work_dim, global_work_size, local,
                            props.compute_units);
  }
  // Non-uniform work-groups are for OpenCL C 2.0+ programs built without
  // -cl-uniform-work-group-size.
  if (kernel->description().uniform_work_group_size)
    for (cl_uint d = 0; d < work_dim; ++d)
      if (global_work_size[d] % local[d] != 0)
        return CL_INVALID_WORK_GROUP_SIZE;
  if (kernel->localMemorySize() > props.local_mem_launch_limit)
    return CL_OUT_OF_RESOURCES;

  if (cl_int err = icd::collectWaitList(queue->context(), num_events, events,
                                        target.wait_list))
    return err;
  std::optional<Command> launch;
  target.incomplete = deferred;
  if (deferred)
    launch.emplace(CL_COMMAND_NDRANGE_KERNEL,
                   [] { return static_cast<cl_int>(CL_INVALID_KERNEL_ARGS); });
  else if (cl_int err = kernel->makeLaunch(*queue, work_dim, global_work_offset,
                                           global_work_size, local, launch))
    return err;
  return icd::submit(target, std::move(*launch), /*blocking=*/false, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue queue_handle, cl_kernel kernel_handle, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    const size_t *local_work_size, cl_uint num_events, const cl_event *events,
    cl_event *event) {
  icd::CommandTarget target;
  target.queue = Queue::fromHandle(queue_handle);
  if (!target.queue)
    return CL_INVALID_COMMAND_QUEUE;
  return icd::ndRangeKernel(target, kernel_handle, work_dim, global_work_offset,
                            global_work_size, local_work_size, num_events,
                            events, event);
}

// cl_khr_suggested_local_work_size: the local size clEnqueueNDRangeKernel
// would choose for this launch without one (Kernel::chooseLocalSize), after
// the same checks, except that a missing or zero global size is an error
// here.
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSizeKHR(
    cl_command_queue queue_handle, cl_kernel kernel_handle, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    size_t *suggested_local_work_size) {
  Queue *queue = Queue::fromHandle(queue_handle);
  if (!queue)
    return CL_INVALID_COMMAND_QUEUE;
  Kernel *kernel = Kernel::fromHandle(kernel_handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  if (&kernel->program().context() != &queue->context())
    return CL_INVALID_CONTEXT;
  if (!kernel->allArgumentsSet())
    return CL_INVALID_KERNEL_ARGS;
  if (work_dim < 1 || work_dim > 3)
    return CL_INVALID_WORK_DIMENSION;
  if (!global_work_size)
    return CL_INVALID_GLOBAL_WORK_SIZE;
  for (cl_uint d = 0; d < work_dim; ++d) {
    if (global_work_size[d] == 0)
      return CL_INVALID_GLOBAL_WORK_SIZE;
    if (global_work_offset &&
        global_work_offset[d] > SIZE_MAX - global_work_size[d])
      return CL_INVALID_GLOBAL_OFFSET;
  }
  if (!suggested_local_work_size)
    return CL_INVALID_VALUE;
  if (kernel->localMemorySize() >
      queue->device().properties().local_mem_launch_limit)
    return CL_OUT_OF_RESOURCES;
  size_t local[3] = {1, 1, 1};
  kernel->chooseLocalSize(work_dim, global_work_size, local,
                          queue->device().properties().compute_units);
  std::copy(local, local + work_dim, suggested_local_work_size);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel,
                                                 cl_int *errcode_ret) {
  Kernel *source = Kernel::fromHandle(source_kernel);
  if (!source) {
    setError(errcode_ret, CL_INVALID_KERNEL);
    return nullptr;
  }
  Kernel *copy = source->clone();
  setError(errcode_ret, copy ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return copy;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue queue,
                                              cl_kernel kernel,
                                              cl_uint num_events,
                                              const cl_event *events,
                                              cl_event *event) {
  static const size_t one = 1;
  return clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &one, &one,
                                num_events, events, event);
}

// The answers follow from the kernel's sub-group size and the group's
// shape (Kernel::subGroupCount).
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(
    cl_kernel handle, cl_device_id device, cl_kernel_sub_group_info param_name,
    size_t input_value_size, const void *input_value, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret) {
  Kernel *kernel = Kernel::fromHandle(handle);
  if (cl_int err = checkKernelAndDevice(kernel, device))
    return err;
  Context &context = kernel->program().context();
  size_t max_group = kernel->maxWorkGroupSize(
      context.device().properties().max_work_group_size);
  size_t width = kernel->description().sub_group_size;
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  // The NDRange queries take the local size, one size_t per dimension.
  size_t local[3] = {1, 1, 1}, dims = 0;
  auto localSize = [&] {
    if (!input_value || input_value_size == 0 ||
        input_value_size % sizeof(size_t) != 0 ||
        input_value_size > 3 * sizeof(size_t))
      return false;
    dims = input_value_size / sizeof(size_t);
    for (size_t d = 0; d < dims; ++d)
      local[d] = static_cast<const size_t *>(input_value)[d];
    return true;
  };
  switch (param_name) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
    if (!localSize())
      return CL_INVALID_VALUE;
    return out.value(kernel->maxSubGroupSize(local, dims));
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE:
    if (!localSize())
      return CL_INVALID_VALUE;
    return out.value(kernel->subGroupCount(local, dims));
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    if (!input_value || input_value_size != sizeof(size_t) ||
        param_value_size % sizeof(size_t) != 0 ||
        param_value_size > 3 * sizeof(size_t) ||
        (param_value && param_value_size == 0))
      return CL_INVALID_VALUE;
    size_t count = *static_cast<const size_t *>(input_value);
    size_t dims_out = param_value ? param_value_size / sizeof(size_t) : 3;
    size_t answer[3] = {0, 0, 0};
    // count full sub-groups along dimension 0, or rows of one work-item
    // (one sub-group each) along dimension 1, or no local size at all when
    // the kernel cannot run that many.
    size_t rows = context.device().properties().max_work_item_sizes[1];
    if (count >= 1 && count <= max_group / width)
      answer[0] = count * width, answer[1] = answer[2] = 1;
    else if (count >= 1 && dims_out >= 2 && count <= max_group &&
             count <= rows)
      answer[0] = 1, answer[1] = count, answer[2] = 1;
    return out.array(answer, dims_out);
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS: // rows of one work-item each
    return out.value(max_group);
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: // SPIR-V's SubgroupsPerWorkgroup
    return out.value(
        static_cast<size_t>(kernel->description().required_sub_groups));
  case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL:
    return out.value(
        static_cast<size_t>(kernel->description().required_sub_group_size));
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(
    cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
    size_t input_value_size, const void *input_value, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret) {
  return clGetKernelSubGroupInfo(kernel, device, param_name, input_value_size,
                                 input_value, param_value_size, param_value,
                                 param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(
    cl_kernel handle, cl_uint arg_index, const void *arg_value) {
  Kernel *kernel = Kernel::fromHandle(handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  // Any pointer is valid: the device has fine-grained system SVM, so also
  // memory clSVMAlloc did not make (and null) may be passed.
  return kernel->setSvmArgument(arg_index, arg_value);
}

// cl_ext_buffer_device_address: a device address (of a buffer made with
// CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT, or anywhere: the device reaches all
// host memory) as a __global pointer argument.
cl_int CL_API_CALL clSetKernelArgDevicePointerEXT(cl_kernel handle,
                                                  cl_uint arg_index,
                                                  cl_ulong arg_value) {
  Kernel *kernel = Kernel::fromHandle(handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  if (!kernel->isGlobalPointerArgument(arg_index))
    return CL_INVALID_ARG_INDEX;
  return kernel->setSvmArgument(
      arg_index, reinterpret_cast<const void *>(uintptr_t(arg_value)));
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel handle,
                                                    cl_kernel_exec_info name,
                                                    size_t size,
                                                    const void *value) {
  Kernel *kernel = Kernel::fromHandle(handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  switch (name) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS: {
    // An array of pointers; an empty one (size 0, the value may then be
    // null, as the CTS does it) clears the list.
    if (size % sizeof(void *) || (size && !value))
      return CL_INVALID_VALUE;
    auto *pointers = static_cast<void *const *>(value);
    kernel->setExecSvmPointers(
        std::vector<void *>(pointers, pointers + size / sizeof(void *)));
    return CL_SUCCESS;
  }
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
    if (size != sizeof(cl_bool) || !value)
      return CL_INVALID_VALUE;
    kernel->setExecFineGrainSystem(*static_cast<const cl_bool *>(value));
    return CL_SUCCESS;
  case kExecDevicePointers: { // cl_ext_buffer_device_address
    if (size % sizeof(cl_ulong) || (size && !value))
      return CL_INVALID_VALUE;
    auto *addresses = static_cast<const cl_ulong *>(value);
    std::vector<void *> pointers;
    for (size_t i = 0; i < size / sizeof(cl_ulong); ++i)
      pointers.push_back(reinterpret_cast<void *>(uintptr_t(addresses[i])));
    kernel->setExecDevicePointers(std::move(pointers));
    return CL_SUCCESS;
  }
  default: // cl_intel_unified_shared_memory's, or none
    return icd::setKernelUsmExecInfo(*kernel, name, size, value);
  }
}
