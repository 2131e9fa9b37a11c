// The one clock of Weft: event profiling and the device/host timers both
// read CLOCK_MONOTONIC in nanoseconds, so their values compare.
#pragma once
#include <cstdint>
#include <ctime>

namespace weft {

inline uint64_t monotonicNanoseconds() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return uint64_t(now.tv_sec) * 1000000000u + uint64_t(now.tv_nsec);
}

inline uint64_t monotonicResolutionNanoseconds() {
  timespec resolution{};
  clock_getres(CLOCK_MONOTONIC, &resolution);
  uint64_t ns = uint64_t(resolution.tv_sec) * 1000000000u +
                uint64_t(resolution.tv_nsec);
  return ns ? ns : 1;
}

} // namespace weft
