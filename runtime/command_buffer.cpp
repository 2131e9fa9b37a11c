#include "runtime/command_buffer.h"

#include "runtime/event.h"
#include "runtime/queue.h"

#include <CL/cl_ext.h>

// cl_khr_command_buffer 0.9.8's command type (Debian's headers have it too,
// from an older version of the extension).
#ifndef CL_COMMAND_COMMAND_BUFFER_KHR
#define CL_COMMAND_COMMAND_BUFFER_KHR 0x12A8
#endif

namespace weft {

CommandBuffer::CommandBuffer(Queue &queue,
                             std::vector<cl_properties> properties)
    : queue_(&queue), properties_(std::move(properties)) {}

bool CommandBuffer::finalized() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return finalized_;
}

cl_int CommandBuffer::record(Command command, cl_uint *sync_point) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finalized_)
    return CL_INVALID_OPERATION;
  commands_.push_back(std::move(command));
  // Sync points count from 1, so 0 is never one.
  if (sync_point)
    *sync_point = static_cast<cl_uint>(commands_.size());
  return CL_SUCCESS;
}

bool CommandBuffer::validSyncPoints(const cl_uint *points,
                                    cl_uint count) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (cl_uint i = 0; i < count; ++i)
    if (points[i] == 0 || points[i] > commands_.size())
      return false;
  return true;
}

cl_int CommandBuffer::finalize() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finalized_)
    return CL_INVALID_OPERATION;
  finalized_ = true;
  return CL_SUCCESS;
}

cl_int CommandBuffer::enqueue(Queue &queue, std::vector<Ref<Event>> wait_list,
                              Ref<Event> &event) {
  if (!finalized())
    return CL_INVALID_OPERATION;
  // Finalized, the recorded commands never change: replays read them
  // without the lock, and may overlap (on an out-of-order queue, or two
  // queues), as each command's work keeps its state per run.
  Ref<CommandBuffer> self(this);
  Command replay(CL_COMMAND_COMMAND_BUFFER_KHR, [self] {
    for (const Command &command : self->commands_)
      if (cl_int status = command.execute(); status != CL_SUCCESS)
        return status;
    return static_cast<cl_int>(CL_SUCCESS);
  });
  return queue.submit(std::move(replay), std::move(wait_list),
                      /*blocking=*/false, event);
}

} // namespace weft
