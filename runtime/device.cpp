// The root CPU device: its properties come from hostCpuInfo() and the
// support tables in device_features.h, never from guesses.
#include "runtime/device.h"

#include "runtime/settings.h"

#include "device/cpu_info.h"
#include "device/thread_pool.h"
#include "runtime/compiler_loader.h"
#include "runtime/device_features.h"
#include "runtime/hash.h"
#include "runtime/platform.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <thread>

namespace weft {
namespace {

constexpr cl_ulong kMiB = cl_ulong{1} << 20;

cl_uint pciVendorId(const std::string &cpu_vendor) {
  if (cpu_vendor == "AuthenticAMD")
    return 0x1022;
  if (cpu_vendor == "GenuineIntel")
    return 0x8086;
  return 0;
}

// 32-bit lanes of the widest SIMD registers the compiler may use.
cl_uint floatLanes(const CpuInfo &cpu) {
  if (cpu.has_avx512f)
    return 16;
  if (cpu.has_avx)
    return 8;
  return 4;
}

DeviceProperties describeHost() {
  const CpuInfo &cpu = hostCpuInfo();
  DeviceProperties p;
  p.name = cpu.brand;
  p.vendor = cpu.vendor;
  p.vendor_id = pciVendorId(cpu.vendor);
  p.compute_units = cpu.cores;
  p.max_clock_mhz = cpu.max_clock_mhz;
  p.global_mem_size = cpu.physical_memory;
  // WEFT_MEMORY_LIMIT shrinks what the device offers (a machine shared with
  // other work), never grows it.
  if (uint64_t limit = settings().memory_limit.value)
    p.global_mem_size = std::min<uint64_t>(p.global_mem_size, limit);
  // The spec's minimum is max(global / 4, 128 MiB); a machine with less than
  // 128 MiB cannot give more than it has.
  p.max_mem_alloc_size =
      std::min(std::max(p.global_mem_size / 4, 128 * kMiB), p.global_mem_size);
  p.global_cache_size = cpu.last_level_cache_size;
  p.global_cacheline_size = cpu.cacheline_size;
  // Local memory is ordinary memory on a CPU (allocated per launch at the
  // size the kernel needs), so the limit is a promise, not a reservation.
  // 64 KiB is what GPUs offer (Intel's CPU runtime: 32 KiB), so
  // applications sized for them fit. It is also the most the CTS's 2-D/3-D
  // async copy tests accept with groups of 8192: they skip a case whose
  // local buffer / 4 exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE, and size that
  // buffer at half the local memory. At 64 KiB 162 of their 234 2-D cases
  // and 1170 of 2106 3-D cases run; the others need a single work-item's
  // lines to exceed 4 x 8192 bytes, whatever the local memory (at 256 KiB
  // none ran).
  // Work-groups of up to 8192 work-items, whatever the kernel, unless it
  // runs on fibers (Kernel::maxWorkGroupSize). test_basic's
  // work_item_functions_out_of_range launches up to the maximum group size
  // into a 10240-element buffer: above that the CTS itself writes past its
  // buffer and the process dies.
  p.local_mem_size = 64 * 1024;
  // A launch may use more than the 64 KiB promised: test_half's vstorea
  // tests declare a __local array of CL_DEVICE_MAX_WORK_GROUP_SIZE / 8
  // double16 (1024 of them, 128 KiB) and expect it to run, which no
  // promise both they and the async copy tests above accept can cover
  // (theirs need the local memory at least 16 times the group size, the
  // async copies' at most 8 times). Local memory is the running thread's
  // own, allocated per launch: 1 MiB per group thread is little.
  p.local_mem_launch_limit = 1024 * 1024;
  p.max_work_group_size = 8192;
  std::fill(std::begin(p.max_work_item_sizes), std::end(p.max_work_item_sizes),
            p.max_work_group_size);
  p.max_parameter_size = 1024;
  p.max_constant_buffer_size = 1 * kMiB;
  p.max_constant_args = 8;
  p.mem_base_addr_align_bits = 1024; // sizeof(long16) in bits
  p.native_vector_width_float = floatLanes(cpu);
  p.has_avx512 = cpu.has_avx512f;
  p.has_vnni = cpu.has_vnni;
  for (const ExtensionEntry &extension : kDeviceExtensions)
    p.extensions.emplace_back(extension.name);
  if (spirvProgramsSupported())
    for (const ExtensionEntry &extension : kSpirvExtensions)
      p.extensions.emplace_back(extension.name);
  for (const FeatureEntry &feature : kOpenClCFeatures)
    p.opencl_c_features.emplace_back(feature.name);
  return p;
}

} // namespace

Device &Device::instance() {
  // Never destroyed: the loader and applications keep the handle until exit.
  static Device *device = new Device();
  return *device;
}

Device::Device() : properties_(describeHost()), cpus_(hostCpuTopology().cpus) {}

Device::Device(Device &parent, CpuSet cpus,
               std::vector<cl_device_partition_property> partition_type)
    : properties_(parent.properties_), parent_(&parent), cpus_(std::move(cpus)),
      partition_type_(std::move(partition_type)) {
  properties_.compute_units = static_cast<cl_uint>(cpus_.size());
}

Device::~Device() {
  // A sub-device can go with the last command of its queue, on a thread of
  // its own pool, which cannot join itself: another thread takes the pool
  // down once that thread is back in its loop.
  if (pool_ && pool_->ownsCurrentThread())
    std::thread([pool = pool_.release()] { delete pool; }).detach();
}

Device *Device::createSubDevice(
    Device &parent, CpuSet cpus,
    std::vector<cl_device_partition_property> partition_type) {
  return new (std::nothrow)
      Device(parent, std::move(cpus), std::move(partition_type));
}

Platform &Device::platform() { return Platform::instance(); }

std::string Device::extensionString() const {
  std::string joined;
  for (const std::string &extension : properties_.extensions) {
    if (!joined.empty())
      joined += ' ';
    joined += extension;
  }
  return joined;
}

std::vector<cl_name_version> Device::extensionsWithVersion() const {
  std::vector<cl_name_version> list(kDeviceExtensionsWithVersion.begin(),
                                    kDeviceExtensionsWithVersion.end());
  if (spirvProgramsSupported())
    for (const ExtensionEntry &extension : kSpirvExtensions) {
      cl_name_version entry{};
      entry.version = extension.version;
      std::strncpy(entry.name, extension.name,
                   CL_NAME_VERSION_MAX_NAME_SIZE - 1);
      list.push_back(entry);
    }
  return list;
}

std::string Device::codeTarget() const {
  const CpuInfo &cpu = hostCpuInfo();
  std::string target = cpu.vendor + "|" + cpu.brand + "|" + cpu.code_signature;
  // Code compiled for another CPU (WEFT_TARGET_CPU) is cached apart.
  if (settings().target_cpu)
    target += "|" + *settings().target_cpu;
  // So is code with the memory checks (WEFT_CHECK_MEMORY).
  if (settings().check_memory)
    target += "|checked-memory";
  return target;
}

std::array<unsigned char, 16> nameBasedUuid(const std::string &name) {
  Hash128 hash;
  hash.add(name);
  std::array<unsigned char, 16> uuid{};
  const uint64_t halves[2] = {hash.high(), hash.low()};
  std::memcpy(uuid.data(), halves, sizeof(halves));
  uuid[6] = (uuid[6] & 0x0f) | 0x80; // version 8
  uuid[8] = (uuid[8] & 0x3f) | 0x80; // the RFC's variant
  return uuid;
}

Device::Uuid Device::uuid() const {
  const CpuInfo &cpu = hostCpuInfo();
  std::string identity = "weft device|" + cpu.vendor + "|" + cpu.brand;
  // The root device is the same device whichever CPUs the process may run
  // on; a sub-device is its CPUs.
  if (!isRoot())
    for (int number : cpus_)
      identity += "|" + std::to_string(number);
  return nameBasedUuid(identity);
}

compiler::DeviceDescription Device::compilerDescription() const {
  // cpu_name and cpu_features stay empty: the compiler library asks LLVM for
  // the host CPU itself, which knows LLVM's names for it.
  compiler::DeviceDescription description;
  description.max_global_variable_size = kMaxGlobalVariableSize;
  for (const FeatureEntry &feature : kOpenClCFeatures)
    description.opencl_c_features.emplace_back(feature.name);
  for (const ExtensionEntry &extension : kDeviceExtensions)
    if (extension.opencl_c)
      description.opencl_c_features.emplace_back(extension.name);
  return description;
}

ThreadPool &Device::pool() {
  std::call_once(pool_once_, [this] {
    // The root's pool goes wherever the process may run; a sub-device's
    // keeps to its CPUs. The thread that submits a launch works on it too,
    // so one worker fewer than CPUs keeps a launch at one thread per CPU:
    // one more would be preempted in the middle of its chunk of work-groups
    // and hold the whole launch up by a time slice.
    unsigned workers = std::max(1u, properties_.compute_units - 1);
    pool_ = std::make_unique<ThreadPool>(workers, isRoot() ? CpuSet{} : cpus_);
  });
  return *pool_;
}

} // namespace weft
