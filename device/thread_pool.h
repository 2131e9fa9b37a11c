// The worker threads that run work-groups. A launch is split into chunks of
// work-groups that idle workers take with one atomic increment each, so an
// uneven kernel still keeps every core busy; the thread that submits a launch
// works on it too. A launch its last run showed to be small (a few
// microseconds in all) runs on that thread alone until it has taken longer
// than a helper costs, so it wakes no one however many workers there are;
// any other wakes the workers it has chunks for at once, in one system call
// (a futex), and they find the launch without taking a lock: on a machine of
// many cores, waking them one by one and letting them queue for a lock held
// the last helper back by tens of microseconds. A worker that ran out of work
// watches for more for a few tens of microseconds before it sleeps, so a
// stream of launches finds its workers awake instead of paying a wake-up
// each; the submitter watches for its helpers' last chunks the same way
// before it sleeps.
#pragma once
#include "device/cpu_topology.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace weft {

class ThreadPool {
public:
  // Runs item(first, last) over [0, count) in chunks; blocks until all ran.
  using RangeFunction = void (*)(void *state, uint64_t first, uint64_t last);

  // With `cpus`, every thread of the pool (workers and runners) runs on
  // those CPUs only: a sub-device's pool stays on its own cores.
  explicit ThreadPool(unsigned workers, CpuSet cpus = {});
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  unsigned workerCount() const {
    return static_cast<unsigned>(threads_.size());
  }

  // `index_nanoseconds`, when given, holds what one index took at the last
  // such call (and is updated): an index cheap enough runs here alone.
  void parallelFor(uint64_t count, RangeFunction function, void *state,
                   std::atomic<uint64_t> *index_nanoseconds = nullptr);

  // Runs `task` on a worker, in the background (event callbacks, off the
  // application's thread).
  void post(std::function<void()> task);

  // Runs `task` in the background on a thread that takes no work-groups of
  // other launches: an idle runner, or a new one. Queues run their commands
  // there, so kernels on two queues always progress together, even when one
  // of them keeps every worker busy waiting for the other (a producer on a
  // full pipe and its consumer).
  void runOnOwnThread(std::function<void()> task);

  // Whether the calling thread is one of this pool's: such a thread must not
  // destroy the pool (it cannot join itself).
  bool ownsCurrentThread() const;

  // How many times a sleeping worker has woken up (for tests).
  uint64_t wakeUps() const { return wake_ups_.load(std::memory_order_relaxed); }

private:
  struct Job;
  // How many launches can be shared with the workers at once; a launch
  // that finds every slot taken runs on its submitter alone.
  static constexpr unsigned kJobSlots = 32;
  void workerLoop();
  Job *claimSlot();
  void publish(Job &job);
  void close(Job &job);
  bool takeJob();
  bool takeTask();
  bool hasWork() const;
  void wakeWorkers(unsigned count);
  static bool runNextChunk(Job &job, uint64_t &last);
  static void addBusyTime(Job &job,
                          std::chrono::steady_clock::time_point start);
  static void runChunks(Job &job);
  static void leave(Job &job);

  const CpuSet cpus_; // empty: wherever the process may run
  // The launches being shared, in slots the pool owns: a worker may still
  // look at a slot after its launch ended (it then sees another tag).
  std::unique_ptr<Job[]> slots_;
  std::atomic<uint64_t> open_slots_{0}; // a bit per slot with a launch
  std::atomic<uint64_t> generation_{0}; // tags of launches, never reused
  // Sleeping workers wait for this word to change (a futex, so that one
  // system call wakes as many as a launch wants, and none of them then
  // queues for a lock on the way to the work).
  std::atomic<uint32_t> wake_word_{0};
  std::atomic<unsigned> sleeping_{0};
  // Bumped whenever a job or task is added: what watching workers watch.
  std::atomic<uint64_t> work_added_{0};
  std::atomic<unsigned> watching_{0}; // workers watching for work
  std::atomic<uint64_t> wake_ups_{0};
  std::atomic<bool> stopping_{false};
  bool watchForWork();
  std::mutex mutex_;                        // tasks and runners
  std::deque<std::function<void()>> tasks_; // guarded by mutex_
  std::atomic<size_t> tasks_waiting_{0};    // tasks_.size()
  std::vector<std::thread> threads_;

  void runnerLoop();
  std::condition_variable runner_wake_; // runners wait here, on mutex_
  std::deque<std::function<void()>> runner_tasks_; // guarded by mutex_
  unsigned idle_runners_ = 0;                      // guarded by mutex_
  std::vector<std::thread> runners_;               // guarded by mutex_
};

} // namespace weft
