// An in-order command queue. Commands run one after another once flushed;
// whoever needs a result first runs them: the thread in clFinish or a
// blocking call runs them itself (no wake-up on the hot path), otherwise a
// runner thread of the pool does after clFlush: one per queue that runs, so
// kernels on different queues run at the same time (ThreadPool::
// runOnOwnThread). Commands are records (runtime/command.h) that say what
// they touch, for the out-of-order scheduler to come.
#pragma once
#include "runtime/command.h"
#include "runtime/object.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

namespace weft {

class Context;
class Device;
class Event;

class Queue : public Object<_cl_command_queue, ObjectKind::Queue> {
public:
  Queue(Context &context, Device &device, cl_command_queue_properties flags,
        std::vector<cl_queue_properties> properties);
  static Queue *fromHandle(cl_command_queue handle) {
    return checkedCast<Queue>(handle);
  }

  Context &context() const { return *context_; }
  Device &device() const { return device_; }
  cl_command_queue_properties flags() const { return flags_; }
  const std::vector<cl_queue_properties> &properties() const {
    return properties_;
  }
  bool profiling() const { return flags_ & CL_QUEUE_PROFILING_ENABLE; }

  // Adds `command`, to run after `wait_list` and every earlier command, and
  // returns its event in `event` (an internal reference the caller owns).
  // A blocking command is waited for: then CL_SUCCESS, or
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it failed (its event
  // says why). A non-blocking one always returns CL_SUCCESS.
  cl_int submit(Command command, std::vector<Ref<Event>> wait_list,
                bool blocking, Ref<Event> &event);

  void flush();
  cl_int finish();
  // Submits and runs pending commands on the calling thread unless another
  // thread already runs them.
  void runHere();

private:
  struct Pending {
    Command command;
    bool submitted = false;
  };

  bool submitPending(); // marks commands submitted; true if any were new
  void scheduleRun();
  void runCommands();

  Ref<Context> context_;
  Device &device_;
  cl_command_queue_properties flags_;
  std::vector<cl_queue_properties> properties_;

  std::mutex mutex_;
  std::condition_variable idle_; // signalled after each command, on mutex_
  std::deque<Pending> pending_;  // guarded by mutex_
  bool running_ = false;         // a thread is in runCommands; by mutex_
  bool executing_ = false;       // a popped command still runs; by mutex_
};

} // namespace weft
