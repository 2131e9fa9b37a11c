// Device entry points: discovery, the info queries, sub-devices and the
// device/host timers.
#include "compiler/interface/compiler_interface.h"
#include "device/clock.h"
#include "icd/command_buffer_api.h"
#include "icd/info_query.h"
#include "runtime/compiler_loader.h"
#include "runtime/device.h"
#include "runtime/device_features.h"
#include "runtime/device_partition.h"
#include "runtime/platform.h"
#include "runtime/spirv_module.h"
#include "runtime/usm.h"

#include <CL/cl_ext.h>

#include <iterator>

#include <cstring>
#include <string>

using weft::Device;
using weft::DeviceProperties;
using weft::Platform;
using weft::icd::InfoWriter;

namespace {

constexpr const char *kDriverVersion = "0.1.0";
// No conformance run has been submitted.
constexpr const char *kConformanceVersion = "v0000-01-01-00";

constexpr cl_device_type kKnownDeviceTypes =
    CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
    CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
// The types our one device answers to (CL_DEVICE_TYPE_ALL has these bits).
constexpr cl_device_type kOurDeviceTypes =
    CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU;

// IEEE-754 behaviour the x86/arm64 FPU gives for every mode; fp32 divide and
// sqrt are correctly rounded instructions, so the build option is honoured.
constexpr cl_device_fp_config kDoubleFpConfig =
    CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
    CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
// Half arithmetic runs in float and rounds once to half (F16C), so its
// results are those of round-to-nearest half with subnormals; fma is
// correctly rounded (builtins/math.cl).
constexpr cl_device_fp_config kHalfFpConfig =
    CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA;
constexpr cl_device_fp_config kSingleFpConfig =
    kDoubleFpConfig | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;

// Every order and scope: kernel atomics are the host CPU's own atomic
// instructions and fences, coherent across every core and with the host
// (builtins/atomics.cl). Matches the __opencl_c_atomic_* features.
constexpr cl_device_atomic_capabilities kAtomicOrders =
    CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
    CL_DEVICE_ATOMIC_ORDER_SEQ_CST;
constexpr cl_device_atomic_capabilities kAtomicMemoryCapabilities =
    kAtomicOrders | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
    CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
constexpr cl_device_atomic_capabilities kAtomicFenceCapabilities =
    kAtomicMemoryCapabilities | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;

// cl_khr_spirv_queries (newer than Debian's headers too).
#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif
// cl_ext_float_atomics (its constants are newer than Debian's headers).
// cl_khr_kernel_clock, newer than Debian's headers.
#ifndef CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR
#define CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR 0x1076
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR (1 << 0)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR (1 << 1)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR (1 << 2)
typedef cl_bitfield cl_device_kernel_clock_capabilities_khr;
#endif

#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#endif
// Load, store and exchange of float and double are core C11 atomics; add,
// min and max are builtins/atomics.cl's compare-exchange loops.
constexpr cl_bitfield kFloatAtomicCapabilities =
    CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT |
    CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
    CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT |
    CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
    CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;

// The schemes clCreateSubDevices takes (runtime/device_partition.h): by
// affinity domain only where the OS describes the CPUs' NUMA nodes or caches
// and one of those levels splits the device (the spec lists the schemes
// that give two sub-devices or more).
std::vector<cl_device_partition_property>
partitionProperties(const Device &device) {
  std::vector<cl_device_partition_property> schemes = {
      CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS};
  if (weft::supportedAffinityDomains(device.cpus(), weft::hostCpuTopology()))
    schemes.push_back(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
  return schemes;
}

constexpr cl_bool toClBool(bool value) { return value ? CL_TRUE : CL_FALSE; }

cl_name_version nameVersion(const char *name, cl_version version) {
  cl_name_version entry{};
  entry.version = version;
  std::strncpy(entry.name, name, CL_NAME_VERSION_MAX_NAME_SIZE - 1);
  return entry;
}

// cl_khr_spirv_queries, reported with the translator only.
cl_int spirvQuery(cl_device_info param, InfoWriter &out) {
  if (!weft::spirvProgramsSupported())
    return CL_INVALID_VALUE;
  switch (param) {
  case CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR:
    return out.array(weft::kSpirvExtendedInstructionSets,
                     std::size(weft::kSpirvExtendedInstructionSets));
  case CL_DEVICE_SPIRV_EXTENSIONS_KHR:
    return out.array(weft::kSpirvModuleExtensions,
                     std::size(weft::kSpirvModuleExtensions));
  default:
    return out.array(weft::kSpirvCapabilities,
                     std::size(weft::kSpirvCapabilities));
  }
}

// Each case answers once through `out`; queries sharing a type and value
// share a case, so unsupported features (images, pipes, SVM, device-side
// enqueue, sub-groups) read as one block each.
cl_int deviceInfo(Device &device, cl_device_info param, InfoWriter &out) {
  const DeviceProperties &p = device.properties();
  // Vector widths follow from the SIMD register size.
  const cl_uint simd_bytes = p.native_vector_width_float * 4;

  switch (param) {
  case CL_DEVICE_TYPE:
    return out.value<cl_device_type>(CL_DEVICE_TYPE_CPU);
  case CL_DEVICE_VENDOR_ID:
    return out.value<cl_uint>(p.vendor_id);
  case CL_DEVICE_NAME:
    return out.string(p.name);
  case CL_DEVICE_VENDOR:
    return out.string(p.vendor);
  case CL_DRIVER_VERSION:
    return out.string(kDriverVersion);
  case CL_DEVICE_PROFILE:
    return out.string(Platform::kProfile);
  case CL_DEVICE_VERSION:
    return out.string(Platform::kVersion);
  case CL_DEVICE_NUMERIC_VERSION:
    return out.value<cl_version>(Platform::kNumericVersion);
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
    return out.string(kConformanceVersion);
  case CL_DEVICE_PLATFORM:
    return out.value<cl_platform_id>(&device.platform());
  case CL_DEVICE_PARENT_DEVICE:
    return out.value<cl_device_id>(device.parent());
  case CL_DEVICE_REFERENCE_COUNT:
    return out.value<cl_uint>(device.apiReferenceCount());

  // Language and extensions.
  case CL_DEVICE_OPENCL_C_VERSION:
    return out.string(weft::kOpenClCVersionString);
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
    return out.array(weft::kOpenClCVersionsWithVersion.data(),
                     weft::kOpenClCVersionsWithVersion.size());
  case CL_DEVICE_OPENCL_C_FEATURES:
    return out.array(weft::kOpenClCFeaturesWithVersion.data(),
                     weft::kOpenClCFeaturesWithVersion.size());
  case CL_DEVICE_EXTENSIONS:
    return out.string(device.extensionString());
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    return out.array(device.extensionsWithVersion());
  // SPIR-V through the translator (compiler/frontend/spirv_translator.h), when
  // it is installed.
  case CL_DEVICE_IL_VERSION: {
    std::string versions;
    if (weft::spirvProgramsSupported())
      for (cl_uint minor = 0; minor <= weft::kSpirvMaxMinor; ++minor)
        versions +=
            (minor ? " SPIR-V_1." : "SPIR-V_1.") + std::to_string(minor);
    return out.string(versions);
  }
  case CL_DEVICE_ILS_WITH_VERSION: {
    std::vector<cl_name_version> list;
    if (weft::spirvProgramsSupported())
      for (cl_uint minor = 0; minor <= weft::kSpirvMaxMinor; ++minor)
        list.push_back(nameVersion("SPIR-V", CL_MAKE_VERSION(1, minor, 0)));
    return out.array(list);
  }
  case CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR:
  case CL_DEVICE_SPIRV_EXTENSIONS_KHR:
  case CL_DEVICE_SPIRV_CAPABILITIES_KHR:
    return spirvQuery(param, out);
  case CL_DEVICE_BUILT_IN_KERNELS:
    return out.string("");
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    return out.bytes(nullptr, 0);
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
    return out.value<cl_bool>(toClBool(weft::compilerLibraryPresent()));

  // Compute.
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    return out.value<cl_uint>(p.compute_units);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    return out.value<cl_uint>(p.max_clock_mhz);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    return out.value<cl_uint>(3);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES:
    return out.array(p.max_work_item_sizes, 3);
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    return out.value<size_t>(p.max_work_group_size);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return out.value<size_t>(p.native_vector_width_float);
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    return out.value<size_t>(p.max_parameter_size);
  case CL_DEVICE_ADDRESS_BITS:
    return out.value<cl_uint>(sizeof(void *) * 8);
  case CL_DEVICE_ENDIAN_LITTLE:
    return out.value<cl_bool>(
        toClBool(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__));
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    return out.value<cl_device_exec_capabilities>(CL_EXEC_KERNEL);
  // cl_khr_command_buffer: kernels that print may be recorded; queues of
  // either order, with profiling or not, may run command buffers.
  case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
    return out.value<cl_device_command_buffer_capabilities_khr>(
        CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR);
  case CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR:
    return out.value<cl_command_queue_properties>(
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR:
    return out.value<cl_command_queue_properties>(0);
  case CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR:
    return out.value<cl_bitfield>(weft::icd::kMutableDispatchFields);
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: // == CL_DEVICE_QUEUE_PROPERTIES
    return out.value<cl_command_queue_properties>(
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    return out.value<size_t>(weft::monotonicResolutionNanoseconds());
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    return out.value<size_t>(weft::kPrintfBufferSize);
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
  case CL_DEVICE_PIPE_SUPPORT:
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    return out.value<cl_bool>(CL_TRUE);
  case CL_DEVICE_MAX_NUM_SUB_GROUPS: // rows of one work-item each
    return out.value<cl_uint>(static_cast<cl_uint>(p.max_work_group_size));
  case CL_DEVICE_SUB_GROUP_SIZES_INTEL: { // cl_intel_required_subgroup_size
    std::vector<size_t> sizes(std::begin(weft::compiler::kSubGroupSizes),
                              std::end(weft::compiler::kSubGroupSizes));
    return out.array(sizes.data(), sizes.size());
  }
  case CL_DEVICE_MAX_PIPE_ARGS:
    return out.value<cl_uint>(weft::kMaxPipeArguments);
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    return out.value<cl_uint>(weft::kPipeMaxActiveReservations);
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    return out.value<cl_uint>(weft::kPipeMaxPacketSize);
  case CL_DEVICE_IMAGE_SUPPORT: // runtime/image.cpp, builtins/images.cl
    return out.value<cl_bool>(CL_TRUE);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    return out.value<cl_bool>(CL_FALSE);
  // A loop in which a work-item waits for another runs on fibers that
  // yield at its back edge (compiler/analysis/waiting_loops.h).
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
    return out.value<cl_bool>(CL_TRUE);
  // builtins/work_group_collectives.cl.
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    return out.value<cl_bool>(CL_TRUE);

  // Floating point and vectors.
  case CL_DEVICE_SINGLE_FP_CONFIG:
    return out.value<cl_device_fp_config>(kSingleFpConfig);
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    return out.value<cl_device_fp_config>(kDoubleFpConfig);
  case CL_DEVICE_HALF_FP_CONFIG:
    return out.value<cl_device_fp_config>(kHalfFpConfig);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    return out.value<cl_uint>(simd_bytes / sizeof(cl_char));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    return out.value<cl_uint>(simd_bytes / sizeof(cl_short));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    return out.value<cl_uint>(simd_bytes / sizeof(cl_int));
  // Half vectors compute as float vectors of the same length.
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    return out.value<cl_uint>(simd_bytes / sizeof(cl_float));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    return out.value<cl_uint>(simd_bytes / sizeof(cl_long));

  // Memory.
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    return out.value<cl_ulong>(p.global_mem_size);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    return out.value<cl_ulong>(p.max_mem_alloc_size);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    return out.value<cl_device_mem_cache_type>(CL_READ_WRITE_CACHE);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    return out.value<cl_ulong>(p.global_cache_size);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    return out.value<cl_uint>(p.global_cacheline_size);
  case CL_DEVICE_LOCAL_MEM_TYPE:
    return out.value<cl_device_local_mem_type>(CL_GLOBAL);
  case CL_DEVICE_LOCAL_MEM_SIZE:
    return out.value<cl_ulong>(p.local_mem_size);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    return out.value<cl_ulong>(p.max_constant_buffer_size);
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    return out.value<cl_uint>(p.max_constant_args);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    return out.value<cl_uint>(p.mem_base_addr_align_bits);
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    return out.value<cl_uint>(p.mem_base_addr_align_bits / 8);
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    return out.value<cl_device_atomic_capabilities>(kAtomicMemoryCapabilities);
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    return out.value<cl_device_atomic_capabilities>(kAtomicFenceCapabilities);
  case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT:
  case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT:
    return out.value<cl_bitfield>(kFloatAtomicCapabilities);
  case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT: // no half atomics
    return out.value<cl_bitfield>(0);

  // cl_khr_device_uuid. The driver's UUID changes with its version; no
  // LUID (a Windows adapter's identifier).
  case CL_DEVICE_UUID_KHR:
    return out.value(device.uuid());
  case CL_DRIVER_UUID_KHR:
    return out.value(
        weft::nameBasedUuid(std::string("weft driver|") + kDriverVersion));
  case CL_DEVICE_LUID_VALID_KHR:
    return out.value<cl_bool>(CL_FALSE);
  case CL_DEVICE_LUID_KHR:
    return out.value(std::array<cl_uchar, CL_LUID_SIZE_KHR>{});
  case CL_DEVICE_NODE_MASK_KHR:
    return out.value<cl_uint>(0);

  // cl_intel_unified_shared_memory: every kind of allocation is host
  // memory every device and the host use at once (runtime/usm.h).
  case CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL:
  case CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL:
  case CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
  case CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
  case CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL:
    return out.value<cl_device_unified_shared_memory_capabilities_intel>(
        weft::kUsmCapabilities);

  // cl_ext_cxx_for_opencl: the version -cl-std=CLC++ compiles (1.0, whose
  // __OPENCL_CPP_VERSION__ is 100); CLC++2021 is accepted too.
  case CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT:
    return out.value<cl_version>(CL_MAKE_VERSION(1, 0, 0));

  // cl_khr_kernel_clock: one counter for every scope
  // (builtins/kernel_clock.cl).
  case CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR:
    return out.value<cl_device_kernel_clock_capabilities_khr>(
        CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR |
        CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR |
        CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR);

  // cl_khr_integer_dot_product: both input forms. "Accelerated" is the
  // extension's word for faster than the same arithmetic written out: with
  // VNNI, a mixed-signedness dot product, plain or added with saturation,
  // is one vpdpbusd(s) per register of work-items
  // (compiler/passes/optimizer/vnni_dot_products.h); the other forms take
  // two and some fix-up, and without VNNI all are that arithmetic.
  case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
    return out.value<cl_device_integer_dot_product_capabilities_khr>(
        CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
        CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR);
  case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR:
  case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR: {
    cl_device_integer_dot_product_acceleration_properties_khr accelerated{};
    accelerated.mixed_signedness_accelerated = p.has_vnni;
    accelerated.accumulating_saturating_mixed_signedness_accelerated =
        p.has_vnni;
    return out.value(accelerated);
  }

  // Partitioning: a compute unit is a CPU.
  case CL_DEVICE_PARTITION_PROPERTIES:
    return out.array(partitionProperties(device));
  case CL_DEVICE_PARTITION_TYPE: // the root answers with size 0
    return out.array(device.partitionType());
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    return out.value<cl_uint>(p.compute_units);
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    return out.value<cl_device_affinity_domain>(
        weft::supportedAffinityDomains(device.cpus(), weft::hostCpuTopology()));

  // Images.
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    return out.value<cl_uint>(weft::kMaxReadImageArgs);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    return out.value<cl_uint>(weft::kMaxWriteImageArgs);
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    return out.value<cl_uint>(weft::kMaxReadWriteImageArgs);
  case CL_DEVICE_MAX_SAMPLERS:
    return out.value<cl_uint>(weft::kMaxSamplers);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    return out.value<cl_uint>(weft::kImagePitchAlignmentPixels);
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    return out.value<cl_uint>(weft::kImageBaseAddressAlignmentPixels);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    return out.value<size_t>(weft::kImage2dMaxSize);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    return out.value<size_t>(weft::kImage3dMaxSize);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    return out.value<size_t>(weft::kImageMaxBufferTexels);
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    return out.value<size_t>(weft::kImageMaxArraySize);

  // Unsupported features whose counts and sizes are 0: device-side queues,
  // atomic alignment hints (0 means natural alignment), program-scope
  // globals.
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    return out.value<cl_uint>(0);
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    return out.value(weft::kMaxGlobalVariableSize);
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    return out.value(weft::kPreferredGlobalVariablesTotal);
  // Host memory is device memory: every SVM level, and the host's atomics
  // and the kernels' act on the same cache-coherent words.
  case CL_DEVICE_SVM_CAPABILITIES:
    return out.value<cl_device_svm_capabilities>(
        CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
        CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS);
  // All cl_bitfield types.
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    return out.value<cl_bitfield>(0);

  default:
    return CL_INVALID_VALUE;
  }
}

} // namespace

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform,
                                               cl_device_type device_type,
                                               cl_uint num_entries,
                                               cl_device_id *devices,
                                               cl_uint *num_devices) {
  // NULL selects Weft's platform, the only one this library knows.
  Platform *target =
      platform ? Platform::fromHandle(platform) : &Platform::instance();
  if (!target)
    return CL_INVALID_PLATFORM;
  if (device_type != CL_DEVICE_TYPE_ALL &&
      (device_type == 0 || (device_type & ~kKnownDeviceTypes)))
    return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices) || (!devices && !num_devices))
    return CL_INVALID_VALUE;
  if (!(device_type & kOurDeviceTypes)) {
    if (num_devices)
      *num_devices = 0;
    return CL_DEVICE_NOT_FOUND;
  }
  if (devices)
    devices[0] = &target->device();
  if (num_devices)
    *num_devices = 1;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device,
                                                cl_device_info param_name,
                                                size_t param_value_size,
                                                void *param_value,
                                                size_t *param_value_size_ret) {
  Device *target = Device::fromHandle(device);
  if (!target)
    return CL_INVALID_DEVICE;
  InfoWriter out(param_value_size, param_value, param_value_size_ret);
  return deviceInfo(*target, param_name, out);
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(
    cl_device_id in_device, const cl_device_partition_property *properties,
    cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret) {
  Device *device = Device::fromHandle(in_device);
  if (!device)
    return CL_INVALID_DEVICE;
  std::vector<weft::CpuSet> parts;
  std::vector<cl_device_partition_property> type;
  if (cl_int err = weft::partitionCpus(device->cpus(), weft::hostCpuTopology(),
                                       properties, parts, type))
    return err;
  if (out_devices && num_devices < parts.size())
    return CL_INVALID_VALUE;
  if (out_devices) {
    std::vector<Device *> made;
    for (weft::CpuSet &cpus : parts) {
      Device *sub = Device::createSubDevice(*device, std::move(cpus), type);
      if (!sub) {
        for (Device *undo : made)
          undo->releaseApi();
        return CL_OUT_OF_HOST_MEMORY;
      }
      made.push_back(sub);
    }
    for (size_t i = 0; i < made.size(); ++i)
      out_devices[i] = made[i];
  }
  if (num_devices_ret)
    *num_devices_ret = static_cast<cl_uint>(parts.size());
  return CL_SUCCESS;
}

// The root device is never destroyed, so its reference count never moves;
// sub-devices are counted like any object.
CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id handle) {
  Device *device = Device::fromHandle(handle);
  if (!device)
    return CL_INVALID_DEVICE;
  if (!device->isRoot())
    device->retainApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id handle) {
  Device *device = Device::fromHandle(handle);
  if (!device)
    return CL_INVALID_DEVICE;
  if (!device->isRoot())
    device->releaseApi();
  return CL_SUCCESS;
}

// The device runs on the host, so one clock reading serves as both
// timestamps; it is the clock event profiling reads too.
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(
    cl_device_id device, cl_ulong *device_timestamp, cl_ulong *host_timestamp) {
  if (!Device::fromHandle(device))
    return CL_INVALID_DEVICE;
  if (!device_timestamp || !host_timestamp)
    return CL_INVALID_VALUE;
  *device_timestamp = *host_timestamp = weft::monotonicNanoseconds();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device,
                                               cl_ulong *host_timestamp) {
  if (!Device::fromHandle(device))
    return CL_INVALID_DEVICE;
  if (!host_timestamp)
    return CL_INVALID_VALUE;
  *host_timestamp = weft::monotonicNanoseconds();
  return CL_SUCCESS;
}
