// Facts about the host CPU, read once from the OS (affinity, sysfs, sysconf)
// and CPUID. No LLVM here: the runtime must describe the device even when the
// compiler library is absent.
#pragma once
#include <cstdint>
#include <string>

namespace weft {

struct CpuInfo {
  std::string brand;  // CPUID brand string, e.g. "AMD EPYC 9B14"
  std::string vendor; // CPUID vendor string, e.g. "AuthenticAMD"
  unsigned cores = 1; // CPUs in this process's affinity mask
  uint64_t physical_memory = 0;
  uint64_t l1d_cache_size = 0;
  uint64_t l2_cache_size = 0;
  uint64_t l3_cache_size = 0;
  uint64_t last_level_cache_size = 0; // largest-level data/unified cache
  unsigned cacheline_size = 64;
  unsigned max_clock_mhz = 0; // 0 when the OS does not say
  bool has_avx = false;
  bool has_avx2 = false;
  bool has_fma = false;
  bool has_avx512f = false;
  // vpdpbusd, 8-bit dot products (AVX-512 VNNI or AVX-VNNI).
  bool has_vnni = false;
  // The CPU model and every instruction-set feature word (CPUID), as hex:
  // native code built for one signature runs on any CPU with the same one.
  std::string code_signature;
};

// Detected on first call; safe to call from any thread.
const CpuInfo &hostCpuInfo();

} // namespace weft
