// cl_khr_command_buffer 0.9.8 entry points, handed out by
// clGetExtensionFunctionAddress (icd/dispatch.cpp). Debian's headers declare
// an older version of the extension, so these are defined under names of
// Weft's own, with 0.9.8's signatures. Recording goes through the same
// checks as queuing (icd/command_target.h); the command buffer
// (runtime/command_buffer.h) replays what it recorded.
#include "icd/command_buffer_api.h"

#include "icd/command_target.h"
#include "icd/entry_points.h"
#include "icd/info_query.h"
#include "icd/validation.h"
#include "runtime/command_buffer.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/kernel.h"
#include "runtime/mutable_command.h"
#include "runtime/queue.h"

#include <cstring>
#include <new>
#include <optional>

namespace weft::icd {
namespace {

// The queue properties a command buffer's queue may have.
constexpr cl_command_queue_properties kSupportedQueueProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

// The checks every clCommand*KHR shares, and the target it records into:
// the buffer, its queue, properties, sync points, and the command's memory
// operands (buffers, then images), of the buffer's context.
cl_int prepareRecording(cl_command_buffer_khr handle, cl_command_queue queue,
                        const cl_command_properties_khr *properties,
                        cl_uint num_sync_points, const cl_uint *sync_points,
                        cl_uint *sync_point,
                        cl_mutable_command_khr *mutable_handle,
                        CommandTarget &target,
                        std::initializer_list<cl_mem> buffers = {},
                        std::initializer_list<cl_mem> images = {},
                        bool kernel_command = false) {
  CommandBuffer *buffer = CommandBuffer::fromHandle(handle);
  if (!buffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  // Commands go to the buffer's one queue (no multiple-queue extension).
  if (queue)
    return CL_INVALID_COMMAND_QUEUE;
  // Only kernel launches take properties and can be mutable (their
  // properties are read by commandNDRangeKernel).
  if (!kernel_command && ((properties && properties[0] != 0) || mutable_handle))
    return CL_INVALID_VALUE;
  if (buffer->finalized())
    return CL_INVALID_OPERATION;
  if ((num_sync_points == 0) != (sync_points == nullptr) ||
      !buffer->validSyncPoints(sync_points, num_sync_points))
    return CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
  target.queue = &buffer->queue();
  target.recording = buffer;
  target.sync_point = sync_point;
  if (cl_int err =
          checkMemoryOperands(*target.queue, buffers, MemoryOperand::Buffer))
    return err;
  return checkMemoryOperands(*target.queue, images, MemoryOperand::Image);
}

} // namespace

cl_command_buffer_khr CL_API_CALL createCommandBuffer(
    cl_uint num_queues, const cl_command_queue *queues,
    const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret) {
  if (num_queues != 1 || !queues) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  Queue *queue = Queue::fromHandle(queues[0]);
  if (!queue) {
    setError(errcode_ret, CL_INVALID_COMMAND_QUEUE);
    return nullptr;
  }
  std::vector<cl_properties> list;
  if (properties) {
    bool seen_flags = false;
    for (const cl_command_buffer_properties_khr *p = properties; *p; p += 2) {
      if (p[0] == CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR) {
        list.push_back(p[0]); // assertions about updates: nothing to check
        list.push_back(p[1]);
        continue;
      }
      if (p[0] != CL_COMMAND_BUFFER_FLAGS_KHR || seen_flags) {
        setError(errcode_ret, CL_INVALID_VALUE);
        return nullptr;
      }
      seen_flags = true;
      // Bits that are no flag are invalid; simultaneous use and
      // device-side sync are valid flags this device does not support;
      // mutable commands are supported.
      constexpr cl_command_buffer_flags_khr kKnownFlags =
          CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR |
          CL_COMMAND_BUFFER_MUTABLE_KHR | (1 << 2); // DEVICE_SIDE_SYNC
      if (p[1] & ~kKnownFlags) {
        setError(errcode_ret, CL_INVALID_VALUE);
        return nullptr;
      }
      if (p[1] & ~cl_command_buffer_flags_khr(CL_COMMAND_BUFFER_MUTABLE_KHR)) {
        setError(errcode_ret, CL_INVALID_PROPERTY);
        return nullptr;
      }
      list.push_back(p[0]);
      list.push_back(p[1]);
    }
    list.push_back(0);
  }
  if (queue->flags() & ~kSupportedQueueProperties) {
    setError(errcode_ret, CL_INCOMPATIBLE_COMMAND_QUEUE_KHR);
    return nullptr;
  }
  auto *buffer = new (std::nothrow) CommandBuffer(*queue, std::move(list));
  setError(errcode_ret, buffer ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return buffer;
}

cl_int CL_API_CALL finalizeCommandBuffer(cl_command_buffer_khr handle) {
  CommandBuffer *buffer = CommandBuffer::fromHandle(handle);
  if (!buffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  return buffer->finalize();
}

cl_int CL_API_CALL retainCommandBuffer(cl_command_buffer_khr handle) {
  CommandBuffer *buffer = CommandBuffer::fromHandle(handle);
  if (!buffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  buffer->retainApi();
  return CL_SUCCESS;
}

cl_int CL_API_CALL releaseCommandBuffer(cl_command_buffer_khr handle) {
  CommandBuffer *buffer = CommandBuffer::fromHandle(handle);
  if (!buffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  buffer->releaseApi();
  return CL_SUCCESS;
}

cl_int CL_API_CALL enqueueCommandBuffer(
    cl_uint num_queues, cl_command_queue *queues, cl_command_buffer_khr handle,
    cl_uint num_events, const cl_event *events, cl_event *event) {
  CommandBuffer *buffer = CommandBuffer::fromHandle(handle);
  if (!buffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  if (buffer->state() != CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR)
    return CL_INVALID_OPERATION;
  if ((num_queues == 0) != (queues == nullptr) || num_queues > 1)
    return CL_INVALID_VALUE;
  // Another queue may stand in for the recorded one: same device, and
  // queue properties command buffers support (either order: a replay runs
  // its commands in order on any queue).
  Queue *queue = &buffer->queue();
  if (num_queues == 1) {
    queue = Queue::fromHandle(queues[0]);
    if (!queue)
      return CL_INVALID_COMMAND_QUEUE;
    if (&queue->context() != &buffer->queue().context())
      return CL_INVALID_CONTEXT;
    if (&queue->device() != &buffer->queue().device() ||
        (queue->flags() & ~kSupportedQueueProperties))
      return CL_INCOMPATIBLE_COMMAND_QUEUE_KHR;
  }
  std::vector<Ref<Event>> wait_list;
  if (cl_int err =
          collectWaitList(queue->context(), num_events, events, wait_list))
    return err;
  Ref<Event> done;
  cl_int err = buffer->enqueue(*queue, std::move(wait_list), done);
  returnEvent(done, event);
  return err;
}

cl_int CL_API_CALL commandBarrierWithWaitList(
    cl_command_buffer_khr handle, cl_command_queue queue,
    const cl_command_properties_khr *properties, cl_uint num_sync_points,
    const cl_sync_point_khr *sync_points, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle) {
  CommandTarget target;
  if (cl_int err =
          prepareRecording(handle, queue, properties, num_sync_points,
                           sync_points, sync_point, mutable_handle, target))
    return err;
  // Recorded commands run in order: a barrier only takes a sync point.
  return submit(target, Command(CL_COMMAND_BARRIER), false, nullptr);
}

cl_int CL_API_CALL commandCopyBuffer(
    cl_command_buffer_khr handle, cl_command_queue queue,
    const cl_command_properties_khr *properties, cl_mem src, cl_mem dst,
    size_t src_offset, size_t dst_offset, size_t size, cl_uint num_sync_points,
    const cl_sync_point_khr *sync_points, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle) {
  CommandTarget target;
  if (cl_int err = prepareRecording(handle, queue, properties, num_sync_points,
                                    sync_points, sync_point, mutable_handle,
                                    target, {src, dst}))
    return err;
  return copyBuffer(target, src, dst, src_offset, dst_offset, size, nullptr);
}

cl_int CL_API_CALL commandCopyBufferRect(
    cl_command_buffer_khr handle, cl_command_queue queue,
    const cl_command_properties_khr *properties, cl_mem src, cl_mem dst,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_sync_points,
    const cl_sync_point_khr *sync_points, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle) {
  CommandTarget target;
  if (cl_int err = prepareRecording(handle, queue, properties, num_sync_points,
                                    sync_points, sync_point, mutable_handle,
                                    target, {src, dst}))
    return err;
  return copyBufferRect(target, src, dst, src_origin, dst_origin, region,
                        src_row_pitch, src_slice_pitch, dst_row_pitch,
                        dst_slice_pitch, nullptr);
}

cl_int CL_API_CALL commandCopyBufferToImage(
    cl_command_buffer_khr handle, cl_command_queue queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer,
    cl_mem dst_image, size_t src_offset, const size_t *dst_origin,
    const size_t *region, cl_uint num_sync_points,
    const cl_sync_point_khr *sync_points, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle) {
  CommandTarget target;
  if (cl_int err = prepareRecording(handle, queue, properties, num_sync_points,
                                    sync_points, sync_point, mutable_handle,
                                    target, {src_buffer}, {dst_image}))
    return err;
  return copyImageAndBuffer(target, dst_image, src_buffer, dst_origin, region,
                            src_offset, /*to_buffer=*/false, nullptr);
}

cl_int CL_API_CALL commandCopyImage(
    cl_command_buffer_khr handle, cl_command_queue queue,
    const cl_command_properties_khr *properties, cl_mem src_image,
    cl_mem dst_image, const size_t *src_origin, const size_t *dst_origin,
    const size_t *region, cl_uint num_sync_points,
    const cl_sync_point_khr *sync_points, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle) {
  CommandTarget target;
  if (cl_int err = prepareRecording(handle, queue, properties, num_sync_points,
                                    sync_points, sync_point, mutable_handle,
                                    target, {}, {src_image, dst_image}))
    return err;
  return copyImage(target, src_image, dst_image, src_origin, dst_origin, region,
                   nullptr);
}

cl_int CL_API_CALL commandCopyImageToBuffer(
    cl_command_buffer_khr handle, cl_command_queue queue,
    const cl_command_properties_khr *properties, cl_mem src_image,
    cl_mem dst_buffer, const size_t *src_origin, const size_t *region,
    size_t dst_offset, cl_uint num_sync_points,
    const cl_sync_point_khr *sync_points, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle) {
  CommandTarget target;
  if (cl_int err = prepareRecording(handle, queue, properties, num_sync_points,
                                    sync_points, sync_point, mutable_handle,
                                    target, {dst_buffer}, {src_image}))
    return err;
  return copyImageAndBuffer(target, src_image, dst_buffer, src_origin, region,
                            dst_offset, /*to_buffer=*/true, nullptr);
}

cl_int CL_API_CALL commandFillBuffer(
    cl_command_buffer_khr handle, cl_command_queue queue,
    const cl_command_properties_khr *properties, cl_mem buffer,
    const void *pattern, size_t pattern_size, size_t offset, size_t size,
    cl_uint num_sync_points, const cl_sync_point_khr *sync_points,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  CommandTarget target;
  if (cl_int err = prepareRecording(handle, queue, properties, num_sync_points,
                                    sync_points, sync_point, mutable_handle,
                                    target, {buffer}))
    return err;
  return fillBuffer(target, buffer, pattern, pattern_size, offset, size,
                    nullptr);
}

cl_int CL_API_CALL commandFillImage(
    cl_command_buffer_khr handle, cl_command_queue queue,
    const cl_command_properties_khr *properties, cl_mem image,
    const void *fill_color, const size_t *origin, const size_t *region,
    cl_uint num_sync_points, const cl_sync_point_khr *sync_points,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  CommandTarget target;
  if (cl_int err = prepareRecording(handle, queue, properties, num_sync_points,
                                    sync_points, sync_point, mutable_handle,
                                    target, {}, {image}))
    return err;
  return fillImage(target, image, fill_color, origin, region, nullptr);
}

cl_int CL_API_CALL commandNDRangeKernel(
    cl_command_buffer_khr handle, cl_command_queue queue,
    const cl_command_properties_khr *properties, cl_kernel kernel,
    cl_uint work_dim, const size_t *global_work_offset,
    const size_t *global_work_size, const size_t *local_work_size,
    cl_uint num_sync_points, const cl_sync_point_khr *sync_points,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  CommandTarget target;
  if (cl_int err = prepareRecording(handle, queue, properties, num_sync_points,
                                    sync_points, sync_point, mutable_handle,
                                    target, {}, {}, /*kernel_command=*/true))
    return err;
  // Which fields an update may change (all by default), and assertions
  // about updates to come, which need no checking here.
  cl_bitfield updatable = kMutableDispatchFields;
  std::vector<cl_properties> list;
  if (properties && properties[0]) {
    bool seen_fields = false, seen_asserts = false;
    for (const cl_command_properties_khr *p = properties; *p; p += 2) {
      bool &seen = p[0] == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR
                       ? seen_fields
                       : seen_asserts;
      if ((p[0] != CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR &&
           p[0] != CL_MUTABLE_DISPATCH_ASSERTS_KHR) ||
          seen)
        return CL_INVALID_VALUE;
      seen = true;
      if (p[0] == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR) {
        if (p[1] & ~kMutableDispatchFields)
          return CL_INVALID_VALUE;
        updatable = p[1];
      }
      list.push_back(p[0]);
      list.push_back(p[1]);
    }
    list.push_back(0);
  }
  // The command's place in the buffer, for updates: its sync point - 1.
  cl_uint point = 0;
  target.sync_point = &point;
  target.defer_arguments =
      mutable_handle && (updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR);
  if (cl_int err =
          ndRangeKernel(target, kernel, work_dim, global_work_offset,
                        global_work_size, local_work_size, 0, nullptr, nullptr))
    return err;
  if (sync_point)
    *sync_point = point;
  if (!mutable_handle)
    return CL_SUCCESS;
  // The recorded launch ran with the kernel's arguments of now: a clone
  // keeps them, for updates to change.
  Kernel &recorded = *Kernel::fromHandle(kernel);
  Kernel *copy = recorded.clone();
  if (!copy)
    return CL_OUT_OF_HOST_MEMORY;
  DispatchShape shape;
  shape.work_dim = work_dim;
  for (cl_uint d = 0; d < work_dim; ++d) {
    shape.global[d] = global_work_size ? global_work_size[d] : 0;
    if (global_work_offset)
      shape.offset[d] = global_work_offset[d];
    if (local_work_size)
      shape.local[d] = local_work_size[d];
  }
  shape.has_offset = global_work_offset != nullptr;
  shape.has_local = local_work_size != nullptr;
  CommandBuffer &buffer = *target.recording;
  auto *command = new (std::nothrow)
      MutableCommand(buffer, point - 1, recorded, Ref<Kernel>(copy, true),
                     shape, updatable, std::move(list));
  if (!command)
    return CL_OUT_OF_HOST_MEMORY;
  buffer.adopt(Ref<MutableCommand>(command, /*adopt=*/true));
  *mutable_handle = command;
  return CL_SUCCESS;
}

cl_int CL_API_CALL commandSVMMemcpy(
    cl_command_buffer_khr handle, cl_command_queue queue,
    const cl_command_properties_khr *properties, void *dst, const void *src,
    size_t size, cl_uint num_sync_points, const cl_sync_point_khr *sync_points,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  CommandTarget target;
  if (cl_int err =
          prepareRecording(handle, queue, properties, num_sync_points,
                           sync_points, sync_point, mutable_handle, target))
    return err;
  return svmMemcpy(target, false, dst, src, size, nullptr);
}

cl_int CL_API_CALL commandSVMMemFill(
    cl_command_buffer_khr handle, cl_command_queue queue,
    const cl_command_properties_khr *properties, void *svm_ptr,
    const void *pattern, size_t pattern_size, size_t size,
    cl_uint num_sync_points, const cl_sync_point_khr *sync_points,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  CommandTarget target;
  if (cl_int err =
          prepareRecording(handle, queue, properties, num_sync_points,
                           sync_points, sync_point, mutable_handle, target))
    return err;
  return svmMemFill(target, svm_ptr, pattern, pattern_size, size, nullptr);
}

cl_int CL_API_CALL getCommandBufferInfo(cl_command_buffer_khr handle,
                                        cl_command_buffer_info_khr param_name,
                                        size_t param_value_size,
                                        void *param_value,
                                        size_t *param_value_size_ret) {
  CommandBuffer *buffer = CommandBuffer::fromHandle(handle);
  if (!buffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  InfoWriter out(param_value_size, param_value, param_value_size_ret);
  switch (param_name) {
  case CL_COMMAND_BUFFER_QUEUES_KHR:
    return out.value(static_cast<cl_command_queue>(&buffer->queue()));
  case CL_COMMAND_BUFFER_NUM_QUEUES_KHR:
    return out.value(cl_uint{1});
  case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR:
    return out.value(buffer->apiReferenceCount());
  case CL_COMMAND_BUFFER_STATE_KHR:
    return out.value<cl_command_buffer_state_khr>(buffer->state());
  case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR:
    return out.array(buffer->properties());
  case CL_COMMAND_BUFFER_CONTEXT_KHR:
    return out.value(static_cast<cl_context>(&buffer->queue().context()));
  default:
    return CL_INVALID_VALUE;
  }
}

// One update (a cl_mutable_dispatch_config_khr) checked and built, not yet
// applied: the new launch and what it was built from.
struct Update {
  MutableCommand *command;
  Ref<Kernel> kernel;
  DispatchShape shape;
  std::optional<Command> launch;
};

cl_int prepareUpdate(CommandBuffer &buffer, const MutableDispatchConfig *config,
                     Update &out) {
  if (!config)
    return CL_INVALID_VALUE;
  MutableCommand *command = MutableCommand::fromHandle(config->command);
  if (!command || &command->buffer() != &buffer)
    return CL_INVALID_MUTABLE_COMMAND_KHR;
  const cl_bitfield fields = command->updatable();
  auto allowed = [&](bool asked, cl_bitfield field) {
    return !asked || (fields & field);
  };
  if (!allowed(config->num_args || config->num_svm_args,
               CL_MUTABLE_DISPATCH_ARGUMENTS_KHR) ||
      !allowed(config->num_exec_infos, CL_MUTABLE_DISPATCH_EXEC_INFO_KHR) ||
      !allowed(config->global_work_offset,
               CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR) ||
      !allowed(config->global_work_size, CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR) ||
      !allowed(config->local_work_size, CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR))
    return CL_INVALID_OPERATION;
  if ((config->num_args == 0) != (config->arg_list == nullptr) ||
      (config->num_svm_args == 0) != (config->arg_svm_list == nullptr) ||
      (config->num_exec_infos == 0) != (config->exec_info_list == nullptr))
    return CL_INVALID_VALUE;
  // The changes go to a copy of the command's kernel, through the checks of
  // clSetKernelArg and its kin; nothing changes unless all of them pass.
  Kernel *copy = command->kernel()->clone();
  if (!copy)
    return CL_OUT_OF_HOST_MEMORY;
  out.kernel = Ref<Kernel>(copy, /*adopt=*/true);
  for (cl_uint i = 0; i < config->num_args; ++i) {
    const cl_mutable_dispatch_arg_khr &a = config->arg_list[i];
    if (cl_int err = clSetKernelArg(copy, a.arg_index, a.arg_size, a.arg_value))
      return err;
  }
  for (cl_uint i = 0; i < config->num_svm_args; ++i) {
    const cl_mutable_dispatch_arg_khr &a = config->arg_svm_list[i];
    if (cl_int err = clSetKernelArgSVMPointer(copy, a.arg_index, a.arg_value))
      return err;
  }
  for (cl_uint i = 0; i < config->num_exec_infos; ++i) {
    const cl_mutable_dispatch_exec_info_khr &e = config->exec_info_list[i];
    if (cl_int err = clSetKernelExecInfo(copy, e.param_name, e.param_value_size,
                                         e.param_value))
      return err;
  }
  DispatchShape shape = command->shape();
  if (config->work_dim && config->work_dim != shape.work_dim) {
    // Other dimensions need every size given anew.
    if (!config->global_work_size)
      return CL_INVALID_VALUE;
    shape.work_dim = config->work_dim;
    shape.has_offset = shape.has_local = false;
  }
  for (cl_uint d = 0; d < shape.work_dim && d < 3; ++d) {
    if (config->global_work_offset)
      shape.offset[d] = config->global_work_offset[d];
    if (config->global_work_size)
      shape.global[d] = config->global_work_size[d];
    if (config->local_work_size)
      shape.local[d] = config->local_work_size[d];
  }
  shape.has_offset = shape.has_offset || config->global_work_offset;
  shape.has_local = shape.has_local || config->local_work_size;
  CommandTarget target;
  target.queue = &buffer.queue();
  target.capture = &out.launch;
  if (cl_int err = ndRangeKernel(
          target, copy, shape.work_dim,
          shape.has_offset ? shape.offset : nullptr, shape.global,
          shape.has_local ? shape.local : nullptr, 0, nullptr, nullptr))
    return err;
  out.command = command;
  out.shape = shape;
  return CL_SUCCESS;
}

cl_int CL_API_CALL updateMutableCommands(cl_command_buffer_khr handle,
                                         cl_uint num_configs,
                                         const cl_uint *config_types,
                                         const void **configs) {
  CommandBuffer *buffer = CommandBuffer::fromHandle(handle);
  if (!buffer)
    return CL_INVALID_COMMAND_BUFFER_KHR;
  if (!buffer->finalized() || !buffer->mutableCommands())
    return CL_INVALID_OPERATION;
  if (num_configs == 0 || !config_types || !configs)
    return CL_INVALID_VALUE;
  std::vector<Update> updates(num_configs);
  for (cl_uint i = 0; i < num_configs; ++i) {
    if (config_types[i] != kMutableDispatchConfigType)
      return CL_INVALID_VALUE;
    if (cl_int err = prepareUpdate(
            *buffer, static_cast<const MutableDispatchConfig *>(configs[i]),
            updates[i]))
      return err;
  }
  // All checked: now they take effect, for the enqueues to come.
  for (Update &u : updates) {
    buffer->replace(u.command->index(), std::move(*u.launch));
    u.command->update(std::move(u.kernel), u.shape);
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL getMutableCommandInfo(cl_mutable_command_khr handle,
                                         cl_mutable_command_info_khr param,
                                         size_t param_value_size,
                                         void *param_value,
                                         size_t *param_value_size_ret) {
  MutableCommand *command = MutableCommand::fromHandle(handle);
  if (!command)
    return CL_INVALID_MUTABLE_COMMAND_KHR;
  InfoWriter out(param_value_size, param_value, param_value_size_ret);
  const DispatchShape &shape = command->shape();
  switch (param) {
  case CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR:
    return out.value(static_cast<cl_command_queue>(&command->buffer().queue()));
  case CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR:
    return out.value(static_cast<cl_command_buffer_khr>(&command->buffer()));
  case CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR:
    return out.value<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL);
  case CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR:
    return out.array(command->properties());
  case CL_MUTABLE_DISPATCH_KERNEL_KHR:
    return out.value(static_cast<cl_kernel>(&command->recordedKernel()));
  case CL_MUTABLE_DISPATCH_DIMENSIONS_KHR:
    return out.value(shape.work_dim);
  case CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR:
    return out.array(shape.offset, shape.work_dim);
  case CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR:
    return out.array(shape.global, shape.work_dim);
  case CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR:
    return out.array(shape.local, shape.work_dim);
  default:
    return CL_INVALID_VALUE;
  }
}

void *commandBufferFunction(const char *name) {
  struct Entry {
    const char *name;
    void *function;
  };
  static const Entry kEntries[] = {
      {"clCreateCommandBufferKHR",
       reinterpret_cast<void *>(&createCommandBuffer)},
      {"clFinalizeCommandBufferKHR",
       reinterpret_cast<void *>(&finalizeCommandBuffer)},
      {"clRetainCommandBufferKHR",
       reinterpret_cast<void *>(&retainCommandBuffer)},
      {"clReleaseCommandBufferKHR",
       reinterpret_cast<void *>(&releaseCommandBuffer)},
      {"clEnqueueCommandBufferKHR",
       reinterpret_cast<void *>(&enqueueCommandBuffer)},
      {"clCommandBarrierWithWaitListKHR",
       reinterpret_cast<void *>(&commandBarrierWithWaitList)},
      {"clCommandCopyBufferKHR", reinterpret_cast<void *>(&commandCopyBuffer)},
      {"clCommandCopyBufferRectKHR",
       reinterpret_cast<void *>(&commandCopyBufferRect)},
      {"clCommandCopyBufferToImageKHR",
       reinterpret_cast<void *>(&commandCopyBufferToImage)},
      {"clCommandCopyImageKHR", reinterpret_cast<void *>(&commandCopyImage)},
      {"clCommandCopyImageToBufferKHR",
       reinterpret_cast<void *>(&commandCopyImageToBuffer)},
      {"clCommandFillBufferKHR", reinterpret_cast<void *>(&commandFillBuffer)},
      {"clCommandFillImageKHR", reinterpret_cast<void *>(&commandFillImage)},
      {"clCommandNDRangeKernelKHR",
       reinterpret_cast<void *>(&commandNDRangeKernel)},
      {"clCommandSVMMemcpyKHR", reinterpret_cast<void *>(&commandSVMMemcpy)},
      {"clCommandSVMMemFillKHR", reinterpret_cast<void *>(&commandSVMMemFill)},
      {"clGetCommandBufferInfoKHR",
       reinterpret_cast<void *>(&getCommandBufferInfo)},
      {"clUpdateMutableCommandsKHR",
       reinterpret_cast<void *>(&updateMutableCommands)},
      {"clGetMutableCommandInfoKHR",
       reinterpret_cast<void *>(&getMutableCommandInfo)},
  };
  for (const Entry &entry : kEntries)
    if (std::strcmp(name, entry.name) == 0)
      return entry.function;
  return nullptr;
}

} // namespace weft::icd
