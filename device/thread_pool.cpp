#include "device/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <system_error>

#include <climits>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace weft {
namespace {
// The pool the calling thread works for, if any.
thread_local const ThreadPool *current_pool = nullptr;
// The work a launch may have for its submitter alone, and how long such a
// launch runs alone before the workers are asked in after all: about what
// waking one and sharing the work with it costs.
constexpr auto kRunAlone = std::chrono::microseconds(10);
// How long a thread with nothing to do watches for what it waits for (a
// worker for work, a submitter for its helpers' last chunks) before it
// sleeps: waking it would cost more than a few tens of microseconds.
constexpr auto kWatch = std::chrono::microseconds(50);
} // namespace

bool ThreadPool::ownsCurrentThread() const { return current_pool == this; }

namespace {
// Waits while `word` holds `seen` (or until a spurious wake-up).
void futexWait(std::atomic<uint32_t> &word, uint32_t seen) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAIT_PRIVATE,
          seen, nullptr, nullptr, 0);
}
// Wakes up to `count` threads waiting on `word`, in one system call.
void futexWake(std::atomic<uint32_t> &word, unsigned count) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAKE_PRIVATE,
          std::min<unsigned>(count, INT32_MAX), nullptr, nullptr, 0);
}
static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t),
              "futexes wait on the atomic's own word");
} // namespace

// A launch shared with the workers. It lives in a slot of the pool, not on
// the submitter's stack: a worker enters a launch by counting itself in
// `users` and then checking the tag, so it may touch a slot whose launch has
// just ended, and finds out only then.
struct ThreadPool::Job {
  std::atomic<bool> claimed{false}; // by a submitter, until users is 0
  // Nonzero while workers may take chunks; fields below are set before.
  std::atomic<uint64_t> tag{0};
  // Atomic so that a sleeping worker's look at an open slot (hasWork),
  // made without entering it, is no data race: a hint, checked again inside.
  std::atomic<uint64_t> count{0};
  uint64_t chunk = 1;
  RangeFunction function = nullptr;
  void *state = nullptr;
  unsigned slot = 0;
  std::atomic<uint64_t> next{0}; // first index not yet taken
  // The time the threads spent taking and running chunks.
  std::atomic<uint64_t> busy_nanoseconds{0};
  // Workers inside the launch; the submitter returns once none is.
  std::atomic<uint32_t> users{0};
  std::atomic<bool> submitter_sleeps{false}; // waiting on `users`
};

ThreadPool::ThreadPool(unsigned workers, CpuSet cpus)
    : cpus_(std::move(cpus)), slots_(new Job[kJobSlots]) {
  static_assert(kJobSlots <= 64, "open_slots_ has a bit per slot");
  for (unsigned i = 0; i < kJobSlots; ++i)
    slots_[i].slot = i;
  workers = std::max(1u, workers);
  threads_.reserve(workers);
  for (unsigned i = 0; i < workers; ++i)
    threads_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_.store(true);
  }
  wake_word_.fetch_add(1);
  futexWake(wake_word_, INT32_MAX);
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
  uint64_t count = job.count.load(std::memory_order_relaxed);
  if (first >= count)
    return false;
  last = std::min(count, first + job.chunk);
  job.function(job.state, first, last);
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

// A worker leaves a launch it entered; the last one out wakes a submitter
// that sleeps on it.
void ThreadPool::leave(Job &job) {
  if (job.users.fetch_sub(1) == 1 && job.submitter_sleeps.load())
    futexWake(job.users, 1);
}

ThreadPool::Job *ThreadPool::claimSlot() {
  for (unsigned i = 0; i < kJobSlots; ++i) {
    bool free = false;
    if (!slots_[i].claimed.load(std::memory_order_relaxed) &&
        slots_[i].claimed.compare_exchange_strong(free, true))
      return &slots_[i];
  }
  return nullptr;
}

void ThreadPool::parallelFor(uint64_t count, RangeFunction function,
                             void *state,
                             std::atomic<uint64_t> *index_nanoseconds) {
  if (count == 0)
    return;
  // One index runs here without waking anyone: the common tiny launch.
  Job *slot = count == 1 || threads_.empty() ? nullptr : claimSlot();
  if (!slot) {
    function(state, 0, count);
    return;
  }
  Job &job = *slot;
  job.count.store(count, std::memory_order_relaxed);
  job.function = function;
  job.state = state;
  job.next.store(0, std::memory_order_relaxed);
  job.busy_nanoseconds.store(0, std::memory_order_relaxed);
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
    if (published || last >= count ||
        std::chrono::steady_clock::now() - start < kRunAlone)
      continue;
    published = true;
    publish(job);
  }
  addBusyTime(job, start);
  if (published)
    close(job);
  if (index_nanoseconds)
    index_nanoseconds->store(
        std::max<uint64_t>(
            1, job.busy_nanoseconds.load(std::memory_order_relaxed) / count),
        std::memory_order_relaxed);
  job.claimed.store(false, std::memory_order_release);
}

// Lets the workers take chunks of `job`: watching workers see it at once,
// and as many sleeping ones as chunks remain for are woken, all in one
// system call.
void ThreadPool::publish(Job &job) {
  uint64_t count = job.count.load(std::memory_order_relaxed);
  uint64_t left =
      count - std::min(count, job.next.load(std::memory_order_relaxed));
  // The submitter takes one of the chunks itself.
  uint64_t chunks = (left + job.chunk - 1) / job.chunk;
  uint64_t wanted = chunks > 1 ? chunks - 1 : 0;
  job.tag.store(generation_.fetch_add(1) + 1);
  open_slots_.fetch_or(uint64_t{1} << job.slot);
  work_added_.fetch_add(1);
  unsigned watching = watching_.load();
  if (wanted > watching)
    wakeWorkers(static_cast<unsigned>(
        std::min<uint64_t>(wanted - watching, threads_.size())));
}

// Wakes up to `count` sleeping workers. A worker about to sleep either sees
// the work published before this, or is counted in sleeping_ here and then
// finds wake_word_ changed (futexWait returns at once).
void ThreadPool::wakeWorkers(unsigned count) {
  unsigned sleeping = sleeping_.load();
  if (sleeping == 0 || count == 0)
    return;
  wake_word_.fetch_add(1);
  futexWake(wake_word_, std::min(count, sleeping));
}

// Ends the sharing of `job`, whose chunks are all taken, and waits for the
// workers still inside. They are running their last chunks: this thread
// watches for them a while, then sleeps until the last one wakes it.
void ThreadPool::close(Job &job) {
  job.tag.store(0);
  open_slots_.fetch_and(~(uint64_t{1} << job.slot));
  auto until = std::chrono::steady_clock::now() + kWatch;
  while (job.users.load() != 0) {
    if (std::chrono::steady_clock::now() < until) {
      std::this_thread::yield();
      continue;
    }
    job.submitter_sleeps.store(true);
    for (uint32_t users; (users = job.users.load()) != 0;)
      futexWait(job.users, users);
    job.submitter_sleeps.store(false);
  }
}

void ThreadPool::post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(std::move(task));
    tasks_waiting_.fetch_add(1);
  }
  work_added_.fetch_add(1);
  if (watching_.load() == 0)
    wakeWorkers(1);
}

// Watches for new work for a short while; true if some was added. Yields
// between looks, so a watching worker gives way to the application's and
// the queues' threads on a busy machine.
bool ThreadPool::watchForWork() {
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

// Whether a launch has chunks left or a task waits (without entering the
// launches: a hint, checked again by takeJob and takeTask). A launch whose
// chunks are all taken is no work: its workers sleep rather than watch for
// as long as its slowest chunk runs.
bool ThreadPool::hasWork() const {
  if (stopping_.load() || tasks_waiting_.load() != 0)
    return true;
  for (uint64_t open = open_slots_.load(); open != 0; open &= open - 1) {
    const Job &job = slots_[static_cast<unsigned>(__builtin_ctzll(open))];
    if (job.next.load() < job.count.load())
      return true;
  }
  return false;
}

// Enters an open launch with chunks left and runs chunks until none is;
// false when no launch had any.
bool ThreadPool::takeJob() {
  for (uint64_t open = open_slots_.load(); open != 0; open &= open - 1) {
    Job &job = slots_[static_cast<unsigned>(__builtin_ctzll(open))];
    uint64_t tag = job.tag.load();
    if (tag == 0)
      continue;
    job.users.fetch_add(1);
    // Counted in before the tag is checked: the submitter, which clears the
    // tag before it waits for users, either waits for this worker or this
    // worker sees the tag changed and leaves without reading the fields.
    if (job.tag.load() != tag ||
        job.next.load(std::memory_order_relaxed) >=
            job.count.load(std::memory_order_relaxed)) {
      leave(job);
      continue;
    }
    runChunks(job);
    leave(job);
    return true;
  }
  return false;
}

bool ThreadPool::takeTask() {
  if (tasks_waiting_.load() == 0)
    return false;
  std::function<void()> task;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (tasks_.empty())
      return false;
    task = std::move(tasks_.front());
    tasks_.pop_front();
    tasks_waiting_.fetch_sub(1);
  }
  task();
  return true;
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
    tasks_waiting_.fetch_add(1);
    work_added_.fetch_add(1);
    wakeWorkers(1);
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
  while (!stopping_.load()) {
    if (takeJob() || takeTask())
      continue;
    watching_.fetch_add(1);
    bool added = watchForWork();
    watching_.fetch_sub(1);
    if (added)
      continue;
    uint32_t seen = wake_word_.load();
    sleeping_.fetch_add(1);
    if (!hasWork()) {
      futexWait(wake_word_, seen);
      if (wake_word_.load() != seen)
        wake_ups_.fetch_add(1, std::memory_order_relaxed);
    }
    sleeping_.fetch_sub(1);
  }
}

} // namespace weft
