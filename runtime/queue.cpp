#include "runtime/queue.h"

#include "device/ndrange.h"
#include "device/thread_pool.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/event.h"

namespace weft {

Queue::Queue(Context &context, Device &device,
             cl_command_queue_properties flags,
             std::vector<cl_queue_properties> properties)
    : context_(&context), device_(device), flags_(flags),
      properties_(std::move(properties)) {}

cl_int Queue::submit(Command command, std::vector<Ref<Event>> wait_list,
                     bool blocking, Ref<Event> &event) {
  if (context_->lost())
    return CL_OUT_OF_RESOURCES; // a kernel faulted: see Context::markLost
  event = Ref<Event>(new Event(*context_, this, command.type()),
                     /*adopt=*/true);
  command.event = event;
  command.wait_list = std::move(wait_list);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.push_back({std::move(command), false});
  }
  if (blocking && event->wait() < 0)
    return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return CL_SUCCESS;
}

void Queue::flush() {
  if (submitPending())
    scheduleRun();
}

bool Queue::submitPending() {
  std::vector<Ref<Event>> submitted;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Pending &pending : pending_)
      if (!pending.submitted) {
        pending.submitted = true;
        submitted.push_back(pending.command.event);
      }
  }
  for (Ref<Event> &event : submitted)
    event->setStatus(CL_SUBMITTED);
  return !submitted.empty();
}

cl_int Queue::finish() {
  // Run here rather than wake a worker: the caller waits anyway.
  submitPending();
  runHere();
  // Done when every submitted command has run. Submitted commands are a
  // prefix of pending_ (submitPending marks all there are); commands
  // another thread queues meanwhile stay unsubmitted until it flushes, and
  // waiting for them too (pending_.empty()) waited forever.
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] {
    return !executing_ && (pending_.empty() || !pending_.front().submitted);
  });
  return CL_SUCCESS;
}

void Queue::scheduleRun() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (running_ || pending_.empty() || !pending_.front().submitted)
      return;
    running_ = true;
  }
  Ref<Queue> self(this);
  device_.pool().runOnOwnThread([self] { self->runCommands(); });
}

void Queue::runHere() {
  submitPending();
  // During process exit the caller's own per-thread state may be gone:
  // the pool's threads run the commands instead (device/ndrange.h).
  if (!threadCanRunLaunches()) {
    scheduleRun();
    return;
  }
  noteThreadRunsLaunches();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (running_)
      return;
    running_ = true;
  }
  runCommands();
}

void Queue::runCommands() {
  for (;;) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (pending_.empty() || !pending_.front().submitted) {
      running_ = false;
      return;
    }
    Command &front = pending_.front().command;
    bool failed_dependency = false;
    Event *blocker = nullptr;
    for (Ref<Event> &e : front.wait_list) {
      cl_int s = e->status();
      if (s < 0)
        failed_dependency = true;
      else if (s != CL_COMPLETE && !blocker)
        blocker = e.get();
    }
    if (blocker && !failed_dependency) {
      // Resume when the blocking event completes; make sure its own queue
      // runs so a cross-queue dependency cannot stall forever.
      running_ = false;
      Ref<Event> waiting_on(blocker);
      lock.unlock();
      if (Queue *other = waiting_on->queue(); other && other != this)
        other->flush();
      Ref<Queue> self(this);
      waiting_on->onComplete([self] { self->scheduleRun(); });
      return;
    }
    Command command = std::move(pending_.front().command);
    pending_.pop_front();
    executing_ = true;
    lock.unlock();
    if (failed_dependency) {
      command.event->setStatus(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    } else {
      command.event->setStatus(CL_RUNNING);
      cl_int result = command.execute();
      command.event->setStatus(result == CL_SUCCESS ? CL_COMPLETE : result);
    }
    lock.lock();
    executing_ = false;
    idle_.notify_all();
  }
}

} // namespace weft
