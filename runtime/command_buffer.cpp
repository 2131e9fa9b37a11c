#include "runtime/command_buffer.h"

#include "runtime/event.h"
#include "runtime/mutable_command.h"
#include "runtime/queue.h"

#include <CL/cl_ext.h>

#include <algorithm>

// cl_khr_command_buffer 0.9.8's command type (Debian's headers have it too,
// from an older version of the extension).
#ifndef CL_COMMAND_COMMAND_BUFFER_KHR
#define CL_COMMAND_COMMAND_BUFFER_KHR 0x12A8
#endif
#ifndef CL_COMMAND_BUFFER_MUTABLE_KHR
#define CL_COMMAND_BUFFER_MUTABLE_KHR (1 << 1)
#endif

namespace weft {

CommandBuffer::CommandBuffer(Queue &queue,
                             std::vector<cl_properties> properties)
    : queue_(&queue), properties_(std::move(properties)) {}

CommandBuffer::~CommandBuffer() = default;

bool CommandBuffer::finalized() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return finalized_;
}

cl_int CommandBuffer::record(Command command, cl_uint *sync_point,
                             bool incomplete) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finalized_)
    return CL_INVALID_OPERATION;
  if (incomplete)
    incomplete_.push_back(commands_.size());
  commands_.push_back(std::make_shared<const Command>(std::move(command)));
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

void CommandBuffer::replace(size_t index, Command command) {
  std::lock_guard<std::mutex> lock(mutex_);
  commands_.at(index) = std::make_shared<const Command>(std::move(command));
  incomplete_.erase(std::remove(incomplete_.begin(), incomplete_.end(), index),
                    incomplete_.end());
}

cl_uint CommandBuffer::state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!finalized_)
    return CL_COMMAND_BUFFER_STATE_RECORDING_KHR;
  // 0.9.5's "finalized" (2; Debian's older header names 2 otherwise).
  constexpr cl_uint kFinalized = 2;
  return incomplete_.empty() ? CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR
                             : kFinalized;
}

void CommandBuffer::adopt(Ref<MutableCommand> command) {
  std::lock_guard<std::mutex> lock(mutex_);
  mutable_commands_.push_back(std::move(command));
}

bool CommandBuffer::mutableCommands() const {
  for (size_t i = 0; i + 1 < properties_.size(); i += 2)
    if (properties_[i] == CL_COMMAND_BUFFER_FLAGS_KHR &&
        (properties_[i + 1] & CL_COMMAND_BUFFER_MUTABLE_KHR))
      return true;
  return false;
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
  if (state() != CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR)
    return CL_INVALID_OPERATION;
  // The commands as they are now: a later update of a mutable dispatch
  // does not reach this replay. Replays may overlap (on an out-of-order
  // queue, or two queues): each command's work keeps its state per run.
  std::vector<std::shared_ptr<const Command>> commands;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    commands = commands_;
  }
  Command replay(CL_COMMAND_COMMAND_BUFFER_KHR, [commands] {
    for (const auto &command : commands)
      if (cl_int status = command->execute(); status != CL_SUCCESS)
        return status;
    return static_cast<cl_int>(CL_SUCCESS);
  });
  return queue.submit(std::move(replay), std::move(wait_list),
                      /*blocking=*/false, event);
}

} // namespace weft
