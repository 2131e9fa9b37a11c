// A command buffer (cl_khr_command_buffer): commands recorded once, against
// one queue, and replayed by each enqueue as a single command that runs them
// in the order they were recorded, with no validation left to do. That
// order satisfies every sync point: a command's sync points name commands
// recorded before it.
#pragma once
#include "runtime/command.h"
#include "runtime/object.h"

#include <mutex>
#include <vector>

namespace weft {

class Event;
class Queue;

class CommandBuffer
    : public Object<_cl_command_buffer_khr, ObjectKind::CommandBuffer> {
public:
  CommandBuffer(Queue &queue, std::vector<cl_properties> properties);
  static CommandBuffer *fromHandle(cl_command_buffer_khr handle) {
    return checkedCast<CommandBuffer>(handle);
  }

  Queue &queue() const { return *queue_; }
  const std::vector<cl_properties> &properties() const { return properties_; }
  bool finalized() const;

  // Appends `command`; `sync_point` gets its sync point. CL_SUCCESS, or
  // CL_INVALID_OPERATION once finalized.
  cl_int record(Command command, cl_uint *sync_point);
  // Whether every sync point in `points` names a recorded command.
  bool validSyncPoints(const cl_uint *points, cl_uint count) const;
  // CL_SUCCESS, or CL_INVALID_OPERATION if already finalized.
  cl_int finalize();

  // Queues one command on `queue` that runs the recorded ones in order.
  cl_int enqueue(Queue &queue, std::vector<Ref<Event>> wait_list,
                 Ref<Event> &event);

private:
  Ref<Queue> queue_;
  const std::vector<cl_properties> properties_; // as given, 0-terminated
  mutable std::mutex mutex_;
  // Each holds the memory objects it touches; written until finalized, then
  // only read (by replays, without the lock). Guarded by mutex_.
  std::vector<Command> commands_;
  bool finalized_ = false; // guarded by mutex_
};

} // namespace weft
