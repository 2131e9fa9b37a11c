// The host's own streaming loops, on every core the process may use: the
// reference a streaming kernel's bandwidth is read against
// (Benchmark::host_references in kernel_bench.h).
#pragma once
#include <cstddef>

// Threads the host loops split their range over: the CPUs this process may
// run on (its affinity mask, so `taskset` narrows it).
unsigned hostStreamThreads();

// STREAM's triad, a[i] = b[i] + s * c[i]; STREAM counts 12 bytes per element.
void hostTriad(float *a, const float *b, const float *c, float s, size_t n);

// SAXPY in place, y[i] = a * x[i] + y[i]: 12 bytes per element.
void hostSaxpy(float a, const float *x, float *y, size_t n);
