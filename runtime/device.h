// The CPU device: what this machine is (from the OS and CPUID, never made
// up), the thread pool that runs launches, and how the compiler sees it.
// The root device is every CPU of the process; a sub-device
// (clCreateSubDevices) is some of them, with a pool of its own pinned there.
// All of them run the same native code.
#pragma once
#include "compiler/interface/compiler_interface.h"
#include "device/cpu_topology.h"
#include "runtime/object.h"

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace weft {

class Platform;
class ThreadPool;

// Facts about the device that the info queries and the runtime read.
struct DeviceProperties {
  std::string name;          // the host CPU's brand string
  std::string vendor;        // the CPU vendor, e.g. "AuthenticAMD"
  cl_uint vendor_id = 0;     // PCI vendor id of the CPU maker
  cl_uint compute_units = 1; // the device's CPUs (process affinity for root)
  cl_uint max_clock_mhz = 0;
  cl_ulong global_mem_size = 0; // physical memory
  cl_ulong max_mem_alloc_size = 0;
  cl_ulong global_cache_size = 0; // last-level cache
  cl_uint global_cacheline_size = 64;
  cl_ulong local_mem_size = 0; // CL_DEVICE_LOCAL_MEM_SIZE: what is promised
  // What a launch may use: more than promised (see device.cpp).
  cl_ulong local_mem_launch_limit = 0;
  size_t max_work_group_size = 0;
  size_t max_work_item_sizes[3] = {0, 0, 0};
  size_t max_parameter_size = 0;
  cl_ulong max_constant_buffer_size = 0;
  cl_uint max_constant_args = 0;
  cl_uint mem_base_addr_align_bits = 0;
  cl_uint native_vector_width_float = 4; // SIMD lanes of 32 bits
  bool has_avx512 = false;
  bool has_vnni = false; // 8-bit dot products in one instruction
  std::vector<std::string> extensions;        // cl_khr_*
  std::vector<std::string> opencl_c_features; // __opencl_c_*
};

// A name-based UUID (RFC 9562's version 8, "custom") from `name`'s 128-bit
// hash: the same name gives the same UUID in every process.
std::array<unsigned char, 16> nameBasedUuid(const std::string &name);

class Device : public Object<_cl_device_id, ObjectKind::Device> {
public:
  static Device &instance(); // the root device
  static Device *fromHandle(cl_device_id handle) {
    return checkedCast<Device>(handle);
  }

  // A sub-device of `parent` over `cpus`, made as `partition_type` says
  // (CL_DEVICE_PARTITION_TYPE, 0-terminated). It holds its parent.
  static Device *
  createSubDevice(Device &parent, CpuSet cpus,
                  std::vector<cl_device_partition_property> partition_type);
  bool isRoot() const { return !parent_; }
  Device *parent() const { return parent_.get(); }
  const CpuSet &cpus() const { return cpus_; }
  const std::vector<cl_device_partition_property> &partitionType() const {
    return partition_type_;
  }
  // Whether its pool keeps to its CPUs, so no application thread may run
  // its work-groups (runtime/queue.cpp runs them on the pool instead).
  bool pinned() const { return !isRoot(); }

  Platform &platform();
  const DeviceProperties &properties() const { return properties_; }
  std::string extensionString() const;
  // CL_DEVICE_EXTENSIONS_WITH_VERSION and CL_PLATFORM_EXTENSIONS_WITH_VERSION:
  // the same extensions as extensionString(), with their versions.
  std::vector<cl_name_version> extensionsWithVersion() const;
  compiler::DeviceDescription compilerDescription() const;
  // Identifies the CPU native code is generated for; program binaries and
  // cache entries carry it and load only where it matches.
  std::string codeTarget() const;
  // cl_khr_device_uuid: the same for this device (the host CPU's vendor and
  // model, and the CPUs a sub-device covers) in every process and driver
  // version.
  using Uuid = std::array<unsigned char, 16>;
  Uuid uuid() const;
  // The pool is created on first use, so queries never start threads.
  ThreadPool &pool();

  ~Device() override;

private:
  Device();
  Device(Device &parent, CpuSet cpus,
         std::vector<cl_device_partition_property> partition_type);
  DeviceProperties properties_;
  Ref<Device> parent_; // null for the root
  CpuSet cpus_;
  std::vector<cl_device_partition_property> partition_type_; // 0-terminated
  std::once_flag pool_once_;
  std::unique_ptr<ThreadPool> pool_; // created under pool_once_
};

} // namespace weft
