// Reads the host CPU's facts from the OS and CPUID. Every source can be
// missing (containers hide sysfs, non-x86 has no CPUID), so each has a
// fallback that is still true of the machine or plainly "unknown".
#include "device/cpu_info.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sched.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <cstdio>
#define WEFT_X86 1
#endif

namespace weft {
namespace {

std::string trim(const std::string &text) {
  const char *space = " \t\r\n";
  size_t first = text.find_first_not_of(space);
  if (first == std::string::npos)
    return {};
  size_t last = text.find_last_not_of(space);
  return text.substr(first, last - first + 1);
}

bool readFirstLine(const std::string &path, std::string &line) {
  std::ifstream file(path);
  if (!file || !std::getline(file, line))
    return false;
  line = trim(line);
  return true;
}

uint64_t parseUnsigned(const std::string &text) {
  return std::strtoull(text.c_str(), nullptr, 10);
}

// The value of the first "key : value" line of /proc/cpuinfo, or "".
std::string procCpuinfoField(const char *key) {
  std::ifstream file("/proc/cpuinfo");
  std::string line;
  size_t key_length = std::strlen(key);
  while (std::getline(file, line)) {
    if (line.compare(0, key_length, key) != 0)
      continue;
    size_t colon = line.find(':', key_length);
    // Only blanks may follow the key, so "model" does not match "model name".
    if (colon == std::string::npos ||
        !trim(line.substr(key_length, colon - key_length)).empty())
      continue;
    return trim(line.substr(colon + 1));
  }
  return {};
}

unsigned countAffinityCpus() {
  // The mask may be wider than cpu_set_t on very large machines: grow it
  // until the kernel accepts it.
  for (size_t cpus = CPU_SETSIZE; cpus <= (size_t{1} << 20); cpus *= 2) {
    cpu_set_t *set = CPU_ALLOC(cpus);
    if (!set)
      break;
    size_t bytes = CPU_ALLOC_SIZE(cpus);
    CPU_ZERO_S(bytes, set);
    int status = sched_getaffinity(0, bytes, set);
    int saved_errno = errno;
    int count = status == 0 ? CPU_COUNT_S(bytes, set) : 0;
    CPU_FREE(set);
    if (count > 0)
      return static_cast<unsigned>(count);
    if (status == 0 || saved_errno != EINVAL)
      break;
  }
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<unsigned>(online) : 1;
}

uint64_t physicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0)
    return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

// sysfs writes sizes as "32K", "1024K", "32768K" (or "M" on some kernels).
uint64_t parseCacheSize(const std::string &text) {
  char *end = nullptr;
  uint64_t value = std::strtoull(text.c_str(), &end, 10);
  switch (end ? *end : '\0') {
  case 'K':
  case 'k':
    return value << 10;
  case 'M':
  case 'm':
    return value << 20;
  case 'G':
  case 'g':
    return value << 30;
  default:
    return value;
  }
}

[[maybe_unused]] uint64_t sysconfOrZero(int name) {
  long value = sysconf(name);
  return value > 0 ? static_cast<uint64_t>(value) : 0;
}

void readCaches(CpuInfo &info) {
  const std::string base = "/sys/devices/system/cpu/cpu0/cache/index";
  unsigned largest_level = 0;
  for (int index = 0; index < 32; ++index) {
    std::string dir = base + std::to_string(index) + "/";
    std::string level_text, size_text, type, line_text;
    if (!readFirstLine(dir + "level", level_text))
      break;
    readFirstLine(dir + "type", type);
    if (type == "Instruction" || !readFirstLine(dir + "size", size_text))
      continue;
    unsigned level = static_cast<unsigned>(parseUnsigned(level_text));
    uint64_t size = parseCacheSize(size_text);
    if (size == 0)
      continue;
    if (level == 1)
      info.l1d_cache_size = size;
    else if (level == 2)
      info.l2_cache_size = size;
    else if (level == 3)
      info.l3_cache_size = size;
    if (level >= largest_level) {
      largest_level = level;
      info.last_level_cache_size = size;
    }
    if (readFirstLine(dir + "coherency_line_size", line_text) &&
        parseUnsigned(line_text) > 0 && level == 1)
      info.cacheline_size = static_cast<unsigned>(parseUnsigned(line_text));
  }
  if (info.last_level_cache_size)
    return;

    // No sysfs (some containers): glibc answers from CPUID on x86.
#ifdef _SC_LEVEL1_DCACHE_SIZE
  info.l1d_cache_size = sysconfOrZero(_SC_LEVEL1_DCACHE_SIZE);
  info.l2_cache_size = sysconfOrZero(_SC_LEVEL2_CACHE_SIZE);
  info.l3_cache_size = sysconfOrZero(_SC_LEVEL3_CACHE_SIZE);
  if (uint64_t line = sysconfOrZero(_SC_LEVEL1_DCACHE_LINESIZE))
    info.cacheline_size = static_cast<unsigned>(line);
#endif
  if (!info.l1d_cache_size)
    info.l1d_cache_size = 32 << 10; // every x86 and arm64 core since 2010
  info.last_level_cache_size = info.l3_cache_size   ? info.l3_cache_size
                               : info.l2_cache_size ? info.l2_cache_size
                                                    : info.l1d_cache_size;
}

unsigned maxClockMhz() {
  std::string text;
  if (readFirstLine("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
                    text)) {
    if (uint64_t khz = parseUnsigned(text))
      return static_cast<unsigned>((khz + 500) / 1000);
  }
  // VMs often have no cpufreq; the current clock is the best they say.
  std::string mhz = procCpuinfoField("cpu MHz");
  double value = mhz.empty() ? 0.0 : std::strtod(mhz.c_str(), nullptr);
  return value > 0 ? static_cast<unsigned>(value + 0.5) : 0;
}

#ifdef WEFT_X86
std::string cpuidVendor() {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
    return {};
  char vendor[12];
  std::memcpy(vendor, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  return std::string(vendor, sizeof(vendor));
}

std::string cpuidBrand() {
  if (static_cast<unsigned>(__get_cpuid_max(0x80000000, nullptr)) < 0x80000004)
    return {};
  unsigned words[12] = {};
  for (unsigned leaf = 0; leaf < 3; ++leaf)
    __get_cpuid(0x80000002 + leaf, &words[4 * leaf], &words[4 * leaf + 1],
                &words[4 * leaf + 2], &words[4 * leaf + 3]);
  char brand[sizeof(words) + 1] = {};
  std::memcpy(brand, words, sizeof(words));
  return trim(brand); // padded with spaces and NULs
}

std::string cpuidCodeSignature() {
  // Leaf 1 EBX is left out: it holds the APIC id of the CPU we run on.
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  std::string signature;
  auto append = [&signature](unsigned word) {
    char text[10];
    std::snprintf(text, sizeof(text), "%08x.", word);
    signature += text;
  };
  if (__get_cpuid_count(1, 0, &eax, &ebx, &ecx, &edx)) {
    append(eax);
    append(ecx);
    append(edx);
  }
  if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
    append(ebx);
    append(ecx);
    append(edx);
  }
  if (__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx))
    append(eax);
  if (__get_cpuid_count(0xd, 1, &eax, &ebx, &ecx, &edx))
    append(eax);
  if (__get_cpuid_count(0x80000001, 0, &eax, &ebx, &ecx, &edx)) {
    append(ecx);
    append(edx);
  }
  return signature;
}

void readFeatures(CpuInfo &info) {
  info.code_signature = cpuidCodeSignature();
  __builtin_cpu_init(); // needed if we run before libgcc's constructor
  info.has_avx = __builtin_cpu_supports("avx");
  info.has_avx2 = __builtin_cpu_supports("avx2");
  info.has_fma = __builtin_cpu_supports("fma");
  info.has_avx512f = __builtin_cpu_supports("avx512f");
  info.has_vnni = __builtin_cpu_supports("avx512vnni") ||
                  __builtin_cpu_supports("avxvnni");
}
#else
std::string cpuidVendor() { return procCpuinfoField("vendor_id"); }
std::string cpuidBrand() { return procCpuinfoField("model name"); }
void readFeatures(CpuInfo &info) {
  info.code_signature = procCpuinfoField("flags");
}
#endif

CpuInfo detect() {
  CpuInfo info;
  info.cores = countAffinityCpus();
  info.physical_memory = physicalMemory();
  readCaches(info);
  info.max_clock_mhz = maxClockMhz();
  info.vendor = cpuidVendor();
  info.brand = cpuidBrand();
  if (info.brand.empty())
    info.brand = procCpuinfoField("model name");
  if (info.brand.empty())
    info.brand = "Unknown CPU";
  if (info.vendor.empty())
    info.vendor = "Unknown";
  readFeatures(info);
  return info;
}

} // namespace

const CpuInfo &hostCpuInfo() {
  // C++11 guarantees one thread runs it; never destroyed (usable during
  // exit).
  static const CpuInfo &info = *new CpuInfo(detect());
  return info;
}

} // namespace weft
