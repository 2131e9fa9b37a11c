#include "device/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <system_error>

namespace weft {
namespace {
// The pool the calling thread works for, if any.
thread_local const ThreadPool *current_pool = nullptr;
// The work a launch may have for its submitter alone, and how long such a
// launch runs alone before the workers are asked in after all: about what
// waking one and sharing the work with it costs.
constexpr auto kRunAlone = std::chrono::microseconds(10);
} // namespace

bool ThreadPool::ownsCurrentThread() const { return current_pool == this; }

struct ThreadPool::Job {
  uint64_t count = 0;
  uint64_t chunk = 1;
  RangeFunction function = nullptr;
  void *state = nullptr;
  std::atomic<uint64_t> next{0};     // first index not yet taken
  std::atomic<uint64_t> finished{0}; // indices whose work has returned
  // The time the threads spent taking and running chunks.
  std::atomic<uint64_t> busy_nanoseconds{0};
  // Workers that hold a pointer to this job; it lives on the submitter's
  // stack, so the submitter waits for them to let go before returning.
  uint32_t users = 0; // guarded by done_mutex
  std::mutex done_mutex;
  std::condition_variable done;
};

ThreadPool::ThreadPool(unsigned workers, CpuSet cpus) : cpus_(std::move(cpus)) {
  workers = std::max(1u, workers);
  threads_.reserve(workers);
  for (unsigned i = 0; i < workers; ++i)
    threads_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  runner_wake_.notify_all();
  for (std::thread &t : threads_)
    t.join();
  // No runner is added once stopping_ is set.
  for (std::thread &t : runners_)
    t.join();
}

// Runs the next chunk of `job`; false when none was left. `last` is where
// the chunk ended.
bool ThreadPool::runNextChunk(Job &job, uint64_t &last) {
  uint64_t first = job.next.fetch_add(job.chunk, std::memory_order_relaxed);
  if (first >= job.count)
    return false;
  last = std::min(job.count, first + job.chunk);
  job.function(job.state, first, last);
  job.finished.fetch_add(last - first, std::memory_order_acq_rel);
  return true;
}

// Adds the time since `start` to the job's busy time.
void ThreadPool::addBusyTime(Job &job,
                             std::chrono::steady_clock::time_point start) {
  job.busy_nanoseconds.fetch_add(
      static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(
              std::chrono::steady_clock::now() - start)
              .count()),
      std::memory_order_relaxed);
}

// Takes chunks until none is left.
void ThreadPool::runChunks(Job &job) {
  auto start = std::chrono::steady_clock::now();
  for (uint64_t last; runNextChunk(job, last);) {
  }
  addBusyTime(job, start);
}

void ThreadPool::parallelFor(uint64_t count, RangeFunction function,
                             void *state,
                             std::atomic<uint64_t> *index_nanoseconds) {
  if (count == 0)
    return;
  // One index runs here without waking anyone: the common tiny launch.
  if (count == 1 || threads_.empty()) {
    function(state, 0, count);
    return;
  }
  Job job;
  job.count = count;
  job.function = function;
  job.state = state;
  // Small chunks keep uneven kernels balanced; bounding their number keeps
  // the shared counter from becoming the bottleneck.
  uint64_t threads = threads_.size() + 1;
  job.chunk = std::max<uint64_t>(1, count / (threads * 16));

  // A launch known to be small runs here alone: it wakes no one and shares
  // no cache lines with other cores, whatever the number of workers. Should
  // it run longer than a helper costs after all, the workers are asked in.
  // Any other launch asks them at once (a few long work-groups must not
  // wait for one another).
  uint64_t per_index = index_nanoseconds
                           ? index_nanoseconds->load(std::memory_order_relaxed)
                           : 0;
  constexpr uint64_t kRunAloneNanoseconds =
      std::chrono::duration_cast<std::chrono::nanoseconds>(kRunAlone).count();
  bool published =
      !(per_index != 0 && count < kRunAloneNanoseconds / per_index);
  if (published)
    publish(job);
  auto start = std::chrono::steady_clock::now();
  for (uint64_t last; runNextChunk(job, last);) {
    if (published || last >= job.count ||
        std::chrono::steady_clock::now() - start < kRunAlone)
      continue;
    published = true;
    publish(job);
  }
  addBusyTime(job, start);
  if (published) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));
    }
    // No new worker can find the job now; wait for the ones that did.
    std::unique_lock<std::mutex> lock(job.done_mutex);
    job.done.wait(lock, [&] {
      return job.users == 0 &&
             job.finished.load(std::memory_order_acquire) == job.count;
    });
  }
  if (index_nanoseconds)
    index_nanoseconds->store(
        std::max<uint64_t>(
            1, job.busy_nanoseconds.load(std::memory_order_relaxed) / count),
        std::memory_order_relaxed);
}

// Lets the workers take chunks of `job`: watching workers see it at once,
// and as many sleeping ones as chunks remain for are woken.
void ThreadPool::publish(Job &job) {
  uint64_t left =
      job.count - std::min(job.count, job.next.load(std::memory_order_relaxed));
  uint64_t wanted = (left + job.chunk - 1) / job.chunk;
  unsigned to_wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(&job);
    work_added_.fetch_add(1, std::memory_order_release);
    unsigned watching = watching_.load(std::memory_order_relaxed);
    to_wake = wanted > watching ? static_cast<unsigned>(std::min<uint64_t>(
                                      sleeping_, wanted - watching))
                                : 0;
  }
  for (unsigned i = 0; i < to_wake; ++i)
    wake_.notify_one();
}

void ThreadPool::post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(std::move(task));
    work_added_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_one();
}

// Watches for new work for a short while without the lock; true if some was
// added. Yields between looks, so a watching worker gives way to the
// application's and the queues' threads on a busy machine.
bool ThreadPool::watchForWork() {
  constexpr auto kWatch = std::chrono::microseconds(50);
  uint64_t seen = work_added_.load(std::memory_order_acquire);
  auto until = std::chrono::steady_clock::now() + kWatch;
  do {
    for (int i = 0; i < 16; ++i) {
      std::this_thread::yield();
      if (work_added_.load(std::memory_order_acquire) != seen)
        return true;
    }
  } while (std::chrono::steady_clock::now() < until);
  return false;
}

void ThreadPool::runOnOwnThread(std::function<void()> task) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_)
    return;
  runner_tasks_.push_back(std::move(task));
  if (idle_runners_ >= runner_tasks_.size()) {
    runner_wake_.notify_one();
    return;
  }
  try {
    runners_.emplace_back([this] { runnerLoop(); });
  } catch (const std::system_error &) {
    // No thread to be had: a busy runner comes back for it, or else a
    // worker takes it.
    if (!runners_.empty())
      return;
    std::function<void()> orphan = std::move(runner_tasks_.back());
    runner_tasks_.pop_back();
    tasks_.push_back(std::move(orphan));
    wake_.notify_one();
  }
}

void ThreadPool::runnerLoop() {
  current_pool = this;
  pinCurrentThread(cpus_);
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    ++idle_runners_;
    runner_wake_.wait(lock,
                      [this] { return stopping_ || !runner_tasks_.empty(); });
    --idle_runners_;
    if (stopping_)
      return;
    std::function<void()> task = std::move(runner_tasks_.front());
    runner_tasks_.pop_front();
    lock.unlock();
    task();
    lock.lock();
  }
}

void ThreadPool::workerLoop() {
  current_pool = this;
  pinCurrentThread(cpus_);
  std::unique_lock<std::mutex> lock(mutex_);
  auto hasWork = [this] {
    if (stopping_ || !tasks_.empty())
      return true;
    for (Job *job : jobs_)
      if (job->next.load(std::memory_order_relaxed) < job->count)
        return true;
    return false;
  };
  for (;;) {
    if (!hasWork()) {
      lock.unlock();
      watching_.fetch_add(1, std::memory_order_relaxed);
      bool added = watchForWork();
      watching_.fetch_sub(1, std::memory_order_relaxed);
      lock.lock();
      if (!added || !hasWork()) {
        ++sleeping_;
        wake_.wait(lock, hasWork);
        wake_ups_.fetch_add(1, std::memory_order_relaxed);
        --sleeping_;
      }
    }
    if (stopping_)
      return;
    Job *job = nullptr;
    for (Job *candidate : jobs_)
      if (candidate->next.load(std::memory_order_relaxed) < candidate->count) {
        job = candidate;
        break;
      }
    if (job) {
      {
        std::lock_guard<std::mutex> done_lock(job->done_mutex);
        ++job->users;
      }
      lock.unlock();
      runChunks(*job);
      {
        std::lock_guard<std::mutex> done_lock(job->done_mutex);
        --job->users;
        job->done.notify_all();
      }
      lock.lock();
      continue;
    }
    // The job that woke this worker may have had its last chunk taken since
    // (chunks are taken without the lock); then there is nothing to do.
    if (tasks_.empty())
      continue;
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    task();
    lock.lock();
  }
}

} // namespace weft
