// Built with -O3 (bench/CMakeLists.txt) so that GCC vectorizes the loops for
// the baseline x86-64 target; a memory-bound loop needs no wider vectors to
// reach the memory's bandwidth.
#include "host_streams.h"

#include <sched.h>

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

// Runs body(begin, end) on hostStreamThreads() threads over [0, n), in
// chunks of whole 64-byte lines of floats. Threads are started per call,
// as an OpenCL launch wakes its workers per launch: tens of microseconds
// against milliseconds of streaming.
template <typename Body> void splitOverThreads(size_t n, Body body) {
  unsigned threads = hostStreamThreads();
  size_t chunk = (n + threads - 1) / threads;
  chunk = (chunk + 15) / 16 * 16;
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads; ++t) {
    size_t begin = t * chunk;
    if (begin >= n)
      break;
    size_t end = begin + chunk < n ? begin + chunk : n;
    workers.emplace_back([=] { body(begin, end); });
  }
  body(0, chunk < n ? chunk : n);
  for (std::thread &worker : workers)
    worker.join();
}

} // namespace

void hostTriad(float *a, const float *b, const float *c, float s, size_t n) {
  splitOverThreads(n, [=](size_t begin, size_t end) {
    float *__restrict out = a;
    const float *__restrict in1 = b;
    const float *__restrict in2 = c;
    for (size_t i = begin; i < end; ++i)
      out[i] = in1[i] + s * in2[i];
  });
}

void hostSaxpy(float a, const float *x, float *y, size_t n) {
  splitOverThreads(n, [=](size_t begin, size_t end) {
    const float *__restrict in = x;
    float *__restrict inout = y;
    for (size_t i = begin; i < end; ++i)
      inout[i] = a * in[i] + inout[i];
  });
}
