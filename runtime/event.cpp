#include "runtime/event.h"

#include "device/clock.h"

#include "runtime/block_pool.h"
#include "runtime/context.h"
#include "runtime/queue.h"

namespace weft {

namespace {

BlockPool &eventBlocks() {
  // Never destroyed: events may be released from static destructors.
  static BlockPool *pool = new BlockPool(sizeof(Event));
  return *pool;
}

} // namespace

void *Event::operator new(size_t bytes, const std::nothrow_t &) noexcept {
  if (bytes > eventBlocks().blockSize())
    return nullptr;
  return eventBlocks().take();
}

void *Event::operator new(size_t bytes) {
  if (void *block = operator new(bytes, std::nothrow))
    return block;
  throw std::bad_alloc();
}

void Event::operator delete(void *block) noexcept {
  if (block)
    eventBlocks().give(block);
}

void Event::operator delete(void *block, const std::nothrow_t &) noexcept {
  operator delete(block);
}

Event::Event(Context &context, Queue *queue, cl_command_type type)
    : context_(&context), queue_(queue), type_(type),
      timed_(queue && queue->profiling()),
      status_(queue ? CL_QUEUED : CL_SUBMITTED) {
  if (queue_)
    queue_->retain();
  if (timed_)
    times_[0] = monotonicNanoseconds();
}

Event::~Event() {
  if (queue_)
    queue_->release();
}

cl_int Event::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

void Event::setStatus(cl_int status) {
  std::vector<PendingCallback> due;
  std::vector<std::function<void()>> continuations;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (status_ <= CL_COMPLETE || status >= status_)
      return; // final already, or not a step forward
    if (timed_) {
      cl_ulong now = monotonicNanoseconds();
      // Filling skipped states keeps the profiling times ordered.
      for (cl_int s = CL_SUBMITTED; s >= std::max(status, CL_COMPLETE); --s)
        if (s < status_)
          times_[CL_QUEUED - s] = now;
    }
    status_ = status;
    for (auto it = callbacks_.begin(); it != callbacks_.end();) {
      if (status <= it->trigger) {
        due.push_back(*it);
        it = callbacks_.erase(it);
      } else {
        ++it;
      }
    }
    if (status <= CL_COMPLETE)
      continuations.swap(continuations_);
  }
  if (status <= CL_COMPLETE)
    changed_.notify_all();
  // Outside the lock: a callback may call back into the API on this event.
  for (const PendingCallback &c : due)
    c.callback(this, status < 0 ? status : c.trigger, c.user_data);
  for (auto &continuation : continuations)
    continuation();
}

cl_int Event::wait() {
  if (queue_ && !isComplete())
    queue_->runHere();
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return status_ <= CL_COMPLETE; });
  return status_;
}

void Event::addCallback(cl_int trigger, Callback callback, void *user_data) {
  cl_int now;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (status_ > trigger) {
      callbacks_.push_back({trigger, callback, user_data});
      return;
    }
    now = status_;
  }
  callback(this, now < 0 ? now : trigger, user_data);
}

void Event::onComplete(std::function<void()> continuation) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (status_ > CL_COMPLETE) {
      continuations_.push_back(std::move(continuation));
      return;
    }
  }
  continuation();
}

cl_ulong Event::profilingTime(cl_profiling_info which) const {
  std::lock_guard<std::mutex> lock(mutex_);
  switch (which) {
  case CL_PROFILING_COMMAND_QUEUED:
    return times_[0];
  case CL_PROFILING_COMMAND_SUBMIT:
    return times_[1];
  case CL_PROFILING_COMMAND_START:
    return times_[2];
  default: // END and COMPLETE: no child commands on a CPU
    return times_[3];
  }
}

} // namespace weft
