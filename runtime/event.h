// Events: the status of one command (or a user event), its profiling
// timestamps, the callbacks waiting for it, and the wait that makes the queue
// progress when nobody else does.
#pragma once
#include "runtime/object.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <new>
#include <vector>

namespace weft {

class Context;
class Queue;

class Event : public Object<_cl_event, ObjectKind::Event> {
public:
  using Callback = void(CL_CALLBACK *)(cl_event, cl_int, void *);

  // A command's event (queue set) or a user event (queue null).
  Event(Context &context, Queue *queue, cl_command_type type);
  ~Event() override;
  static Event *fromHandle(cl_event handle) {
    return checkedCast<Event>(handle);
  }

  // Every command has an event: their memory comes from a pool
  // (runtime/block_pool.h) rather than from the allocator's slow path.
  static void *operator new(size_t bytes);
  static void *operator new(size_t bytes, const std::nothrow_t &) noexcept;
  static void operator delete(void *block) noexcept;
  static void operator delete(void *block, const std::nothrow_t &) noexcept;

  Context &context() const { return *context_; }
  Queue *queue() const { return queue_; }
  cl_command_type commandType() const { return type_; }
  cl_int status() const;
  bool isComplete() const { return status() <= CL_COMPLETE; }

  // Moves to a later state; a negative status is an error and final.
  void setStatus(cl_int status);
  // Blocks until complete; drives the queue when no one else runs it.
  // Returns the final status (CL_COMPLETE or a negative error).
  cl_int wait();

  // Runs `callback` when the status reaches `trigger` (or runs it now if it
  // already has). Callbacks run on whichever thread moves the event.
  void addCallback(cl_int trigger, Callback callback, void *user_data);
  // Internal continuation run once complete (used by queues).
  void onComplete(std::function<void()> continuation);

  cl_ulong profilingTime(cl_profiling_info which) const;

private:
  void (*deallocator() const)(void *) override { return &operator delete; }

  struct PendingCallback {
    cl_int trigger;
    Callback callback;
    void *user_data;
  };

  Ref<Context> context_;
  Queue *queue_; // retained by the constructor when set, released in ~Event
  cl_command_type type_;
  // Whether it keeps profiling times: those of a profiling queue's commands
  // (reading the clock four times costs a command more than the rest of
  // its event).
  const bool timed_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;        // waits on status_
  cl_int status_;                          // guarded by mutex_
  cl_ulong times_[4] = {0, 0, 0, 0};       // queued/submit/start/end, by mutex_
  std::vector<PendingCallback> callbacks_; // guarded by mutex_
  std::vector<std::function<void()>> continuations_; // guarded by mutex_
};

} // namespace weft
