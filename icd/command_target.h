// The queue and wait list of a command once its entry point has validated
// them, and its submission: what the buffer, image, SVM and kernel entry
// points share. A command buffer (cl_khr_command_buffer) records through
// the same code: its target records instead of queuing.
#pragma once
#include "icd/validation.h"
#include "runtime/command.h"
#include "runtime/command_buffer.h"
#include "runtime/device.h"
#include "runtime/memory.h"
#include "runtime/queue.h"

#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

namespace weft::icd {

struct CommandTarget {
  Queue *queue = nullptr;
  std::vector<Ref<Event>> wait_list;
  // Recording into a command buffer: the command goes there, and its sync
  // point to `sync_point`.
  CommandBuffer *recording = nullptr;
  cl_uint *sync_point = nullptr;
  // Building a command without queuing or recording it (a mutable dispatch
  // updated): it goes here.
  std::optional<Command> *capture = nullptr;
  // A mutable kernel launch whose arguments an update may set later: with
  // some unset, it records a launch that fails until then.
  bool defer_arguments = false;
  bool incomplete = false; // set for such a launch
};

// The memory operands of a command: each a live object of the queue's
// context, of the kind the command takes.
enum class MemoryOperand { Buffer, Image };
inline cl_int checkMemoryOperands(const Queue &queue,
                                  std::initializer_list<cl_mem> handles,
                                  MemoryOperand kind) {
  for (cl_mem handle : handles) {
    Memory *memory = Memory::fromHandle(handle);
    // Pipes hold packets only kernels may touch: no command applies.
    if (!memory || memory->isPipe() ||
        memory->isImage() != (kind == MemoryOperand::Image))
      return CL_INVALID_MEM_OBJECT;
    if (&memory->context() != &queue.context())
      return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

// The queue and wait list of a command that takes host pointers, not
// memory objects (SVM's and USM's commands).
inline cl_int prepareHostPointerCommand(cl_command_queue queue_handle,
                                        cl_uint num_events,
                                        const cl_event *events,
                                        CommandTarget &out) {
  out.queue = Queue::fromHandle(queue_handle);
  if (!out.queue)
    return CL_INVALID_COMMAND_QUEUE;
  return collectWaitList(out.queue->context(), num_events, events,
                         out.wait_list);
}

// The workers that share a command's large copies and fills: the pool of
// the queue's device (a sub-device's keeps to its own cores).
inline ThreadPool *copyHelpers(const CommandTarget &target) {
  return &target.queue->device().pool();
}

// Queues `command` and hands out its event; a blocking command is waited
// for.
inline cl_int submit(CommandTarget &target, Command command, bool blocking,
                     cl_event *event_out) {
  if (target.capture) {
    target.capture->emplace(std::move(command));
    return CL_SUCCESS;
  }
  if (target.recording)
    return target.recording->record(std::move(command), target.sync_point,
                                    target.incomplete);
  Ref<Event> event;
  cl_int err = target.queue->submit(
      std::move(command), std::move(target.wait_list), blocking, event);
  returnEvent(event, event_out);
  return err;
}

// The commands a command buffer records as well as queues
// (icd/command_buffer_api.cpp). Each checks the rest of its arguments and
// submits to `target`, whose queue, memory operands and wait list the
// caller has checked.
cl_int copyBuffer(CommandTarget &target, cl_mem src, cl_mem dst,
                  size_t src_offset, size_t dst_offset, size_t size,
                  cl_event *event);
cl_int copyBufferRect(CommandTarget &target, cl_mem src, cl_mem dst,
                      const size_t *src_origin, const size_t *dst_origin,
                      const size_t *region, size_t src_row_pitch,
                      size_t src_slice_pitch, size_t dst_row_pitch,
                      size_t dst_slice_pitch, cl_event *event);
cl_int fillBuffer(CommandTarget &target, cl_mem buffer, const void *pattern,
                  size_t pattern_size, size_t offset, size_t size,
                  cl_event *event);
cl_int copyImage(CommandTarget &target, cl_mem src, cl_mem dst,
                 const size_t *src_origin, const size_t *dst_origin,
                 const size_t *region, cl_event *event);
// Between an image and a buffer, either way.
cl_int copyImageAndBuffer(CommandTarget &target, cl_mem image, cl_mem buffer,
                          const size_t *origin, const size_t *region,
                          size_t offset, bool to_buffer, cl_event *event);
cl_int fillImage(CommandTarget &target, cl_mem image, const void *fill_color,
                 const size_t *origin, const size_t *region, cl_event *event);
// `type`: also USM's CL_COMMAND_MEMCPY_INTEL and CL_COMMAND_MEMFILL_INTEL
// (icd/usm_api.cpp), the same commands.
cl_int svmMemcpy(CommandTarget &target, bool blocking, void *dst,
                 const void *src, size_t size, cl_event *event,
                 cl_command_type type = CL_COMMAND_SVM_MEMCPY);
cl_int svmMemFill(CommandTarget &target, void *svm_ptr, const void *pattern,
                  size_t pattern_size, size_t size, cl_event *event,
                  cl_command_type type = CL_COMMAND_SVM_MEMFILL);
// Checks the kernel and the NDRange against target.queue, and collects the
// wait list itself (after those checks, as clEnqueueNDRangeKernel orders
// its errors).
cl_int ndRangeKernel(CommandTarget &target, cl_kernel kernel, cl_uint work_dim,
                     const size_t *global_work_offset,
                     const size_t *global_work_size,
                     const size_t *local_work_size, cl_uint num_events,
                     const cl_event *events, cl_event *event);

} // namespace weft::icd
