// A command queue, in order or out of order.
//
// In order, commands run one after another once flushed; whoever needs a
// result first runs them: the thread in clFinish or a blocking call runs
// them itself (no wake-up on the hot path), otherwise a runner thread of the
// pool does after clFlush: one per queue that runs, so kernels on different
// queues run at the same time (ThreadPool::runOnOwnThread).
//
// Out of order, a command runs once its wait list has completed and every
// barrier queued before it has; nothing else orders it (the spec leaves
// ordering to the application). Ready commands run at the same time, each
// on a runner thread of its own, up to a few per queue: two kernels share
// the pool's workers, and a copy runs beside a kernel.
#pragma once
#include "runtime/command.h"
#include "runtime/object.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
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
  bool outOfOrder() const {
    return flags_ & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  }

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

protected:
  void destroy() override; // leaves the context's list of queues

private:
  struct Pending {
    Command command;
    bool submitted = false;
    // Out of order: the commands this one is queued after (an earlier
    // barrier; for a barrier or a marker without a wait list, every
    // earlier command). Unlike the wait list, they only order: their
    // failure does not fail this command, as in an in-order queue.
    std::vector<Ref<Event>> after;
    // The event of another queue (or a user event) that was last seen
    // holding this command back, and is watched to run it when it
    // completes; compared only, never dereferenced.
    const Event *watching = nullptr;
  };

  bool submitPending(); // marks commands submitted; true if any were new
  void scheduleRun();
  void runCommands();

  // Out of order (see the file comment).
  void orderAfterBarriers(Pending &pending); // mutex_ held
  enum class Readiness { Ready, Failed, Blocked };
  Readiness readiness(const Pending &pending, Event *&blocker) const;
  struct Taken {
    Command command;
    bool failed; // an event of its wait list failed
  };
  // Takes the first ready command out of pending_ into `taken` and says
  // whether another is ready; events of other queues that hold commands
  // back are added to `to_watch`. mutex_ held.
  bool takeReady(std::optional<Taken> &taken,
                 std::vector<Ref<Event>> &to_watch);
  void watch(std::vector<Ref<Event>> &events);
  void startRunner(); // runners_ already counts it
  void runReadyCommands();
  void forgetCompleted(const Event *event); // mutex_ held
  unsigned maxRunners() const;

  Ref<Context> context_;
  Device &device_;
  cl_command_queue_properties flags_;
  std::vector<cl_queue_properties> properties_;

  std::mutex mutex_;
  std::condition_variable idle_; // signalled after each command, on mutex_
  std::deque<Pending> pending_;  // guarded by mutex_
  bool running_ = false;         // a thread is in runCommands; by mutex_
  unsigned executing_ = 0;       // popped commands still running; by mutex_

  // Out of order, guarded by mutex_: the events of commands queued since
  // the last barrier that have not completed, the last barrier's event
  // while it has not, and the threads in runReadyCommands.
  std::vector<Ref<Event>> since_barrier_;
  Ref<Event> last_barrier_;
  unsigned runners_ = 0;
};

} // namespace weft
