#include "runtime/queue.h"

#include "device/ndrange.h"
#include "device/thread_pool.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/event.h"

#include <algorithm>

namespace weft {

Queue::Queue(Context &context, Device &device,
             cl_command_queue_properties flags,
             std::vector<cl_queue_properties> properties)
    : context_(&context), device_(device), flags_(flags),
      properties_(std::move(properties)) {
  context.addQueue(this);
}

void Queue::destroy() {
  context_->removeQueue(this);
  Object::destroy();
}

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
    pending_.push_back({std::move(command)});
    if (outOfOrder())
      orderAfterBarriers(pending_.back());
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
  if (outOfOrder() && threadCanRunLaunches() && !device_.pinned()) {
    noteThreadRunsLaunches();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++runners_; // may pass maxRunners: this thread waits anyway
    }
    runReadyCommands();
  } else {
    runHere();
  }
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
  if (outOfOrder()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (runners_ >= maxRunners() || pending_.empty() ||
          !pending_.front().submitted)
        return;
      ++runners_;
    }
    startRunner();
    return;
  }
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
  // Out of order, the commands ready first need not be the one the caller
  // waits for: runners run them all, at once.
  if (outOfOrder()) {
    scheduleRun();
    return;
  }
  // During process exit the caller's own per-thread state may be gone:
  // the pool's threads run the commands instead (device/ndrange.h). A
  // sub-device's commands run on its own cores, never the caller's.
  if (!threadCanRunLaunches() || device_.pinned()) {
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
    executing_ = 1;
    lock.unlock();
    if (failed_dependency) {
      command.event->setStatus(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    } else {
      command.event->setStatus(CL_RUNNING);
      cl_int result = command.execute();
      command.event->setStatus(result == CL_SUCCESS ? CL_COMPLETE : result);
    }
    lock.lock();
    executing_ = 0;
    idle_.notify_all();
  }
}

// Out of order.

unsigned Queue::maxRunners() const {
  // Enough for every core to run a command of its own (copies, small
  // kernels); a kernel's work-groups spread over the pool's workers anyway.
  return std::max(2u, device_.pool().workerCount());
}

void Queue::orderAfterBarriers(Pending &pending) {
  const cl_command_type type = pending.command.type();
  const bool barrier = type == CL_COMMAND_BARRIER;
  // A barrier or marker without a wait list waits for every command queued
  // before it (those still incomplete are in since_barrier_).
  if ((barrier || type == CL_COMMAND_MARKER) &&
      pending.command.wait_list.empty())
    pending.after = since_barrier_;
  if (last_barrier_)
    pending.after.push_back(last_barrier_);
  if (barrier) {
    last_barrier_ = pending.command.event;
    since_barrier_.clear();
  } else {
    since_barrier_.push_back(pending.command.event);
  }
}

Queue::Readiness Queue::readiness(const Pending &pending,
                                  Event *&blocker) const {
  blocker = nullptr;
  for (const Ref<Event> &e : pending.after)
    if (!e->isComplete()) {
      blocker = e.get();
      return Readiness::Blocked;
    }
  bool failed = false;
  for (const Ref<Event> &e : pending.command.wait_list) {
    cl_int s = e->status();
    if (s < 0)
      failed = true;
    else if (s != CL_COMPLETE && !blocker)
      blocker = e.get();
  }
  if (failed)
    return Readiness::Failed; // fails at once, as in order
  return blocker ? Readiness::Blocked : Readiness::Ready;
}

bool Queue::takeReady(std::optional<Taken> &taken,
                      std::vector<Ref<Event>> &to_watch) {
  bool another = false;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (!it->submitted)
      break; // the submitted commands are a prefix
    Event *blocker;
    Readiness state = readiness(*it, blocker);
    if (state == Readiness::Blocked) {
      // This queue's own commands run here; only another queue's events
      // and user events need a watcher to bring the command back.
      if (blocker->queue() != this && it->watching != blocker) {
        it->watching = blocker;
        to_watch.emplace_back(blocker);
      }
      ++it;
      continue;
    }
    if (taken) {
      another = true;
      ++it;
      continue;
    }
    taken.emplace(Taken{std::move(it->command), state == Readiness::Failed});
    it = pending_.erase(it);
  }
  return another;
}

void Queue::watch(std::vector<Ref<Event>> &events) {
  for (Ref<Event> &event : events) {
    // A cross-queue dependency must not wait for a flush that never comes.
    if (Queue *other = event->queue(); other && other != this)
      other->flush();
    Ref<Queue> self(this);
    event->onComplete([self] { self->scheduleRun(); });
  }
  events.clear();
}

void Queue::startRunner() {
  Ref<Queue> self(this);
  device_.pool().runOnOwnThread([self] { self->runReadyCommands(); });
}

void Queue::runReadyCommands() {
  std::vector<Ref<Event>> to_watch;
  for (;;) {
    std::optional<Taken> taken;
    bool helper = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      bool another = takeReady(taken, to_watch);
      helper = taken && another && runners_ < maxRunners();
      if (helper)
        ++runners_;
      if (taken)
        ++executing_;
      else
        --runners_;
    }
    watch(to_watch);
    if (helper)
      startRunner();
    if (!taken)
      return;
    Ref<Event> event = taken->command.event;
    if (taken->failed) {
      event->setStatus(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    } else {
      event->setStatus(CL_RUNNING);
      cl_int result = taken->command.execute();
      event->setStatus(result == CL_SUCCESS ? CL_COMPLETE : result);
    }
    // Dropped outside the lock: releasing a memory object may call the
    // application's destructor callback, which may queue more commands.
    taken.reset();
    std::lock_guard<std::mutex> lock(mutex_);
    forgetCompleted(event.get());
    --executing_;
    idle_.notify_all();
  }
}

void Queue::forgetCompleted(const Event *event) {
  // Completed events leave the barrier bookkeeping at once: it then holds
  // only what later commands may still wait for, and no event (which holds
  // its queue) outlives the queue's last use through it.
  if (last_barrier_.get() == event) {
    last_barrier_ = Ref<Event>();
    return;
  }
  for (size_t i = 0; i < since_barrier_.size(); ++i)
    if (since_barrier_[i].get() == event) {
      since_barrier_[i] = std::move(since_barrier_.back());
      since_barrier_.pop_back();
      return;
    }
}

} // namespace weft
