// The CPU's measured floating-point peak, the yardstick of the compute rows
// in bench/RESULTS.md: every thread runs independent chains of vector FMAs,
// enough of them to cover the FMA latency on both units (12 chains of 4-8
// cycles' latency), in the widest registers the CPU has (AVX-512 when
// present, else AVX2). Nothing here is OpenCL: it is what the hardware does
// when nothing stands in the way.
//
// A third row is half precision on CPUs without AVX-512 FP16: each FMA
// done in float and rounded to half as OpenCL requires of every half
// operation, with F16C's conversions (vcvtps2ph, then vcvtph2ps back), the
// way Weft runs half arithmetic there. It bounds what any kernel computing
// in half can reach on such a CPU.
//
//   fma_peak [threads]      (default: every hardware thread)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include <immintrin.h>

namespace {

constexpr long kRounds = 1 << 24;
constexpr int kChains = 12;

// Each round is kChains independent FMAs on vectors `V` of `T` (GCC's
// vector extensions; with contraction, a * b + c is one FMA); returns a
// value so that the compiler keeps them. Inlined into each function below,
// whose target attribute decides the registers and instructions.
template <typename V, typename T>
__attribute__((always_inline)) inline double chains(long rounds) {
  V acc[kChains];
  for (int c = 0; c < kChains; ++c)
    for (size_t e = 0; e < sizeof(V) / sizeof(T); ++e)
      acc[c][e] = T(1) + T(0.001) * T(c);
  V a, b;
  for (size_t e = 0; e < sizeof(V) / sizeof(T); ++e)
    a[e] = T(0.999999), b[e] = T(1e-7);
  for (long r = 0; r < rounds; ++r)
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c)
      acc[c] = acc[c] * a + b;
  V sum = acc[0];
  for (int c = 1; c < kChains; ++c)
    sum += acc[c];
  return double(sum[0]);
}

typedef float FloatAvx2 __attribute__((vector_size(32)));
typedef double DoubleAvx2 __attribute__((vector_size(32)));
typedef float FloatAvx512 __attribute__((vector_size(64)));
typedef double DoubleAvx512 __attribute__((vector_size(64)));

__attribute__((target("avx2,fma"))) double floatChainsAvx2(long rounds) {
  return chains<FloatAvx2, float>(rounds);
}
__attribute__((target("avx2,fma"))) double doubleChainsAvx2(long rounds) {
  return chains<DoubleAvx2, double>(rounds);
}
__attribute__((target("avx512f"))) double floatChainsAvx512(long rounds) {
  return chains<FloatAvx512, float>(rounds);
}
__attribute__((target("avx512f"))) double doubleChainsAvx512(long rounds) {
  return chains<DoubleAvx512, double>(rounds);
}

// The chains of `chains`, each FMA's result rounded to half and back.
__attribute__((target("avx2,fma,f16c"))) double halfChainsF16c(long rounds) {
  __m256 acc[kChains];
  for (int c = 0; c < kChains; ++c)
    acc[c] = _mm256_set1_ps(1.0f + 0.001f * float(c));
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  for (long r = 0; r < rounds; ++r)
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c)
      acc[c] = _mm256_cvtph_ps(_mm256_cvtps_ph(
          _mm256_fmadd_ps(acc[c], a, b), _MM_FROUND_TO_NEAREST_INT));
  __m256 sum = acc[0];
  for (int c = 1; c < kChains; ++c)
    sum = _mm256_add_ps(sum, acc[c]);
  return double(_mm256_cvtss_f32(sum));
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
      {"half, F16C", halfChainsF16c, 8},
  };
  for (const Kind &kind : kinds) {
    if (kind.chains == halfChainsF16c && !__builtin_cpu_supports("f16c"))
      continue;
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
