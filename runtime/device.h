// The CPU device: what this machine is (from the OS and CPUID, never made
// up), the thread pool that runs launches, and how the compiler sees it.
#pragma once
#include "compiler/compiler_interface.h"
#include "runtime/object.h"

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
  cl_uint compute_units = 1; // cores in the process's CPU affinity
  cl_uint max_clock_mhz = 0;
  cl_ulong global_mem_size = 0; // physical memory
  cl_ulong max_mem_alloc_size = 0;
  cl_ulong global_cache_size = 0; // last-level cache
  cl_uint global_cacheline_size = 64;
  cl_ulong local_mem_size = 0;
  size_t max_work_group_size = 0;
  size_t max_work_item_sizes[3] = {0, 0, 0};
  size_t max_parameter_size = 0;
  cl_ulong max_constant_buffer_size = 0;
  cl_uint max_constant_args = 0;
  cl_uint mem_base_addr_align_bits = 0;
  cl_uint native_vector_width_float = 4; // SIMD lanes of 32 bits
  bool has_avx512 = false;
  std::vector<std::string> extensions;        // cl_khr_*
  std::vector<std::string> opencl_c_features; // __opencl_c_*
};

class Device : public Object<_cl_device_id, ObjectKind::Device> {
public:
  static Device &instance();
  static Device *fromHandle(cl_device_id handle) {
    return checkedCast<Device>(handle);
  }

  Platform &platform();
  const DeviceProperties &properties() const { return properties_; }
  std::string extensionString() const;
  compiler::DeviceDescription compilerDescription() const;
  // Identifies the CPU native code is generated for; program binaries and
  // cache entries carry it and load only where it matches.
  std::string codeTarget() const;
  // The pool is created on first use, so queries never start threads.
  ThreadPool &pool();

private:
  Device();
  DeviceProperties properties_;
  std::once_flag pool_once_;
  std::unique_ptr<ThreadPool> pool_; // created under pool_once_
};

} // namespace weft
