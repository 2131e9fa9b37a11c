// A command buffer (cl_khr_command_buffer): commands recorded once, against
// one queue, and replayed by each enqueue as a single command that runs them
// in the order they were recorded, with no validation left to do. That
// order satisfies every sync point: a command's sync points name commands
// recorded before it.
#pragma once
#include "runtime/command.h"
#include "runtime/object.h"

#include <memory>
#include <mutex>
#include <vector>

namespace weft {

class Event;
class MutableCommand;
class Queue;

class CommandBuffer
    : public Object<_cl_command_buffer_khr, ObjectKind::CommandBuffer> {
public:
  CommandBuffer(Queue &queue, std::vector<cl_properties> properties);
  ~CommandBuffer() override;
  static CommandBuffer *fromHandle(cl_command_buffer_khr handle) {
    return checkedCast<CommandBuffer>(handle);
  }

  Queue &queue() const { return *queue_; }
  const std::vector<cl_properties> &properties() const { return properties_; }
  bool finalized() const;

  // Appends `command`; `sync_point` gets its sync point (its index + 1).
  // An incomplete command (a mutable launch waiting for arguments) keeps
  // the buffer from running until it is replaced. CL_SUCCESS, or
  // CL_INVALID_OPERATION once finalized.
  cl_int record(Command command, cl_uint *sync_point, bool incomplete = false);
  // CL_COMMAND_BUFFER_STATE_KHR: recording, executable, or finalized
  // with a command still incomplete (state 2, "finalized", of 0.9.5).
  cl_uint state() const;
  // Replaces the command at `index` (a mutable dispatch updated): later
  // enqueues run the new one, those already queued the old.
  void replace(size_t index, Command command);
  // Whether CL_COMMAND_BUFFER_MUTABLE_KHR was asked for.
  bool mutableCommands() const;
  // Keeps `command` (a mutable dispatch of this buffer) as long as the
  // buffer lives.
  void adopt(Ref<MutableCommand> command);
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
  // Each holds the memory objects it touches. An enqueue takes a copy of
  // the list, so a replacement never meets a replay. Guarded by mutex_.
  std::vector<std::shared_ptr<const Command>> commands_;
  std::vector<Ref<MutableCommand>> mutable_commands_; // guarded by mutex_
  std::vector<size_t> incomplete_;                    // guarded by mutex_
  bool finalized_ = false;                            // guarded by mutex_
};

} // namespace weft
