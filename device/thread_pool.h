// The worker threads that run work-groups. A launch is split into chunks of
// work-groups that idle workers take with one atomic increment each, so an
// uneven kernel still keeps every core busy; the thread that submits a launch
// works on it too. A launch its last run showed to be small (a few
// microseconds in all) runs on that thread alone until it has taken longer
// than a helper costs, so it wakes no one however many workers there are;
// any other wakes the workers it has chunks for at once. A worker that ran out
// of work watches for more for a few tens of microseconds before it sleeps, so
// a stream of launches finds its workers awake instead of paying a wake-up
// each.
#pragma once
#include "device/cpu_topology.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
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
  void workerLoop();
  void publish(Job &job);
  static bool runNextChunk(Job &job, uint64_t &last);
  static void addBusyTime(Job &job,
                          std::chrono::steady_clock::time_point start);
  static void runChunks(Job &job);

  const CpuSet cpus_; // empty: wherever the process may run
  std::mutex mutex_;
  std::condition_variable wake_; // workers wait here, guarded by mutex_
  std::vector<Job *> jobs_;      // active parallel ranges, guarded by mutex_
  unsigned sleeping_ = 0;        // workers waiting on wake_, guarded by mutex_
  // Bumped whenever a job or task is added: what watching workers watch.
  std::atomic<uint64_t> work_added_{0};
  std::atomic<unsigned> watching_{0}; // workers watching for work
  std::atomic<uint64_t> wake_ups_{0};
  bool watchForWork();
  std::deque<std::function<void()>> tasks_; // guarded by mutex_
  bool stopping_ = false;                   // guarded by mutex_
  std::vector<std::thread> threads_;

  void runnerLoop();
  std::condition_variable runner_wake_; // runners wait here, on mutex_
  std::deque<std::function<void()>> runner_tasks_; // guarded by mutex_
  unsigned idle_runners_ = 0;                      // guarded by mutex_
  std::vector<std::thread> runners_;               // guarded by mutex_
};

} // namespace weft
