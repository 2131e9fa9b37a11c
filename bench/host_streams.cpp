// Built with -O3 (bench/CMakeLists.txt) so that GCC vectorizes the loops for
// the baseline x86-64 target; a memory-bound loop needs no wider vectors to
// reach the memory's bandwidth.
#include "host_streams.h"

#include <sched.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

unsigned hostStreamThreads() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
    return unsigned(CPU_COUNT(&set));
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

namespace {

// The host loops' threads, started once and woken per run, as an OpenCL
// driver wakes its workers per launch: a run pays a wake-up, not a thread's
// creation. Thread t runs chunk t of the range.
class StreamThreads {
public:
  using Body = std::function<void(size_t, size_t)>;

  static StreamThreads &get() {
    static StreamThreads threads;
    return threads;
  }

  // Runs body(begin, end) over [0, n) in chunks of whole 64-byte lines of
  // floats, one per thread; returns when all ran.
  void run(size_t n, const Body &body) {
    size_t chunk = (n + count_ - 1) / count_;
    chunk = (chunk + 15) / 16 * 16;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      body_ = &body;
      n_ = n;
      chunk_ = chunk;
      pending_ = count_ - 1;
      ++generation_;
    }
    wake_.notify_all();
    body(0, std::min(chunk, n));
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
  }

private:
  StreamThreads() : count_(hostStreamThreads()) {
    for (unsigned t = 1; t < count_; ++t)
      threads_.emplace_back([this, t] { work(t); });
  }
  ~StreamThreads() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread &thread : threads_)
      thread.join();
  }

  void work(unsigned index) {
    uint64_t seen = 0;
    for (;;) {
      const Body *body;
      size_t begin, end;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_)
          return;
        seen = generation_;
        body = body_;
        begin = std::min(n_, index * chunk_);
        end = std::min(n_, begin + chunk_);
      }
      if (begin < end)
        (*body)(begin, end);
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0)
        done_.notify_one();
    }
  }

  const unsigned count_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_; // on mutex_
  // The current run, guarded by mutex_.
  const Body *body_ = nullptr;
  size_t n_ = 0, chunk_ = 0;
  unsigned pending_ = 0;
  uint64_t generation_ = 0;
  bool stopping_ = false;
};

} // namespace

void hostTriad(float *a, const float *b, const float *c, float s, size_t n) {
  StreamThreads::get().run(n, [=](size_t begin, size_t end) {
    float *__restrict out = a;
    const float *__restrict in1 = b;
    const float *__restrict in2 = c;
    for (size_t i = begin; i < end; ++i)
      out[i] = in1[i] + s * in2[i];
  });
}

void hostSaxpy(float a, const float *x, float *y, size_t n) {
  StreamThreads::get().run(n, [=](size_t begin, size_t end) {
    const float *__restrict in = x;
    float *__restrict inout = y;
    for (size_t i = begin; i < end; ++i)
      inout[i] = a * in[i] + inout[i];
  });
}
