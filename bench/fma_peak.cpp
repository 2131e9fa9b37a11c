// The CPU's measured floating-point peak, the yardstick of the compute rows
// in bench/RESULTS.md: every thread runs independent chains of vector FMAs,
// enough of them to cover the FMA latency on both units (12 chains of 4-8
// cycles' latency), in the widest registers the CPU has (AVX-512 when
// present, else AVX2). Nothing here is OpenCL: it is what the hardware does
// when nothing stands in the way.
//
//   fma_peak [threads]      (default: every hardware thread)
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr long kRounds = 1 << 24;
constexpr int kChains = 12;

// Each round is kChains independent FMAs; returns a value so that the
// compiler keeps them.
__attribute__((target("avx2,fma"))) double floatChainsAvx2(long rounds) {
  __m256 acc[kChains];
  for (int c = 0; c < kChains; ++c)
    acc[c] = _mm256_set1_ps(1.0f + 0.001f * c);
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  for (long r = 0; r < rounds; ++r)
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c)
      acc[c] = _mm256_fmadd_ps(acc[c], a, b);
  float out[8];
  __m256 sum = acc[0];
  for (int c = 1; c < kChains; ++c)
    sum = _mm256_add_ps(sum, acc[c]);
  _mm256_storeu_ps(out, sum);
  return out[0];
}

__attribute__((target("avx2,fma"))) double doubleChainsAvx2(long rounds) {
  __m256d acc[kChains];
  for (int c = 0; c < kChains; ++c)
    acc[c] = _mm256_set1_pd(1.0 + 0.001 * c);
  const __m256d a = _mm256_set1_pd(0.999999), b = _mm256_set1_pd(1e-7);
  for (long r = 0; r < rounds; ++r)
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c)
      acc[c] = _mm256_fmadd_pd(acc[c], a, b);
  double out[4];
  __m256d sum = acc[0];
  for (int c = 1; c < kChains; ++c)
    sum = _mm256_add_pd(sum, acc[c]);
  _mm256_storeu_pd(out, sum);
  return out[0];
}

__attribute__((target("avx512f"))) double floatChainsAvx512(long rounds) {
  __m512 acc[kChains];
  for (int c = 0; c < kChains; ++c)
    acc[c] = _mm512_set1_ps(1.0f + 0.001f * c);
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  for (long r = 0; r < rounds; ++r)
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c)
      acc[c] = _mm512_fmadd_ps(acc[c], a, b);
  __m512 sum = acc[0];
  for (int c = 1; c < kChains; ++c)
    sum = _mm512_add_ps(sum, acc[c]);
  return _mm512_reduce_add_ps(sum);
}

__attribute__((target("avx512f"))) double doubleChainsAvx512(long rounds) {
  __m512d acc[kChains];
  for (int c = 0; c < kChains; ++c)
    acc[c] = _mm512_set1_pd(1.0 + 0.001 * c);
  const __m512d a = _mm512_set1_pd(0.999999), b = _mm512_set1_pd(1e-7);
  for (long r = 0; r < rounds; ++r)
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c)
      acc[c] = _mm512_fmadd_pd(acc[c], a, b);
  __m512d sum = acc[0];
  for (int c = 1; c < kChains; ++c)
    sum = _mm512_add_pd(sum, acc[c]);
  return _mm512_reduce_add_pd(sum);
}

struct Kind {
  const char *name;
  double (*chains)(long);
  int lanes; // elements per FMA
};

// GFLOP/s of `threads` threads running `kind` at once (2 flops per lane).
double measure(const Kind &kind, unsigned threads) {
  std::atomic<unsigned> ready{0};
  std::atomic<bool> go{false};
  std::atomic<double> sink{0};
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t)
    workers.emplace_back([&] {
      ready.fetch_add(1);
      while (!go.load())
        std::this_thread::yield();
      double v = kind.chains(kRounds);
      sink.store(sink.load() + v);
    });
  while (ready.load() < threads)
    std::this_thread::yield();
  auto start = std::chrono::steady_clock::now();
  go.store(true);
  for (std::thread &w : workers)
    w.join();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (sink.load() == 12345.678) // never: keeps the result alive
    std::puts("");
  return 2.0 * kind.lanes * kChains * double(kRounds) * threads / seconds /
         1e9;
}

} // namespace

int main(int argc, char **argv) {
  unsigned threads = std::thread::hardware_concurrency();
  if (argc > 1)
    threads = unsigned(std::max(1, std::atoi(argv[1])));
  __builtin_cpu_init();
  bool avx512 = __builtin_cpu_supports("avx512f");
  if (!avx512 && !__builtin_cpu_supports("fma")) {
    std::puts("fma_peak: this CPU has no FMA instructions");
    return 1;
  }
  Kind kinds[] = {
      {avx512 ? "float, AVX-512" : "float, AVX2",
       avx512 ? floatChainsAvx512 : floatChainsAvx2, avx512 ? 16 : 8},
      {avx512 ? "double, AVX-512" : "double, AVX2",
       avx512 ? doubleChainsAvx512 : doubleChainsAvx2, avx512 ? 8 : 4},
  };
  for (const Kind &kind : kinds) {
    // Best of 5: the peak is what the machine can do when left alone.
    double best = 0;
    for (int i = 0; i < 5; ++i)
      best = std::max(best, measure(kind, threads));
    double one = 0;
    for (int i = 0; i < 3; ++i)
      one = std::max(one, measure(kind, 1));
    std::printf("%-16s %3u threads: %8.1f GFLOP/s   1 thread: %7.1f GFLOP/s\n",
                kind.name, threads, best, one);
  }
  return 0;
}
