// The one list of what the device supports beyond the core API: extensions,
// OpenCL C features and OpenCL C versions. Device properties, the info
// queries and the compiler all read these tables, so adding one is one line.
#pragma once
#include <CL/cl.h>

#include <array>
#include <cstddef>

namespace weft {

struct ExtensionEntry {
  const char *name;
  cl_version version;
  bool opencl_c; // the compiler defines it for OpenCL C sources
};

struct FeatureEntry {
  const char *name;
  cl_version version;
};

inline constexpr ExtensionEntry kDeviceExtensions[] = {
    // 2.0: loader-managed dispatch (icd/dispatch.cpp).
    {"cl_khr_icd", CL_MAKE_VERSION(2, 0, 0), false},
    {"cl_khr_byte_addressable_store", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_fp64", CL_MAKE_VERSION(1, 0, 0), true},
    // half arithmetic (in float, rounded once), every builtin for half,
    // conversions in every rounding mode (builtins/, half_rounding.h).
    {"cl_khr_fp16", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_global_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_global_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_local_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_local_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_int64_base_atomics", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_int64_extended_atomics", CL_MAKE_VERSION(1, 0, 0), true},
    // add, min and max on float and double, in global and local memory
    // (builtins/atomics.cl; its feature macros are in kOpenClCFeatures); no
    // half atomics.
    {"cl_ext_float_atomics", CL_MAKE_VERSION(1, 0, 0), true},
    // mul, and, or, xor and the logical operations for work-group
    // reductions and scans (builtins/work_group_collectives.cl).
    {"cl_khr_work_group_uniform_arithmetic", CL_MAKE_VERSION(1, 0, 0), true},
    // __builtin_expect and __builtin_assume are Clang's own (SPIR-V's
    // OpExpectKHR and OpAssumeTrueKHR become the same LLVM intrinsics).
    {"cl_khr_expect_assume", CL_MAKE_VERSION(1, 0, 0), true},
    // Weft declares their builtins itself (builtins/extension_declarations.h).
    {"cl_khr_extended_async_copies", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_async_work_group_copy_fence", CL_MAKE_VERSION(1, 0, 0), true},
    // Images (runtime/image.cpp, builtins/images.cl): 3-D images kernels
    // write, depth images, and 2-D images over buffers.
    {"cl_khr_3d_image_writes", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_depth_images", CL_MAKE_VERSION(1, 0, 0), true},
    // write_imagef to sRGB images, linear values converted to sRGB.
    {"cl_khr_srgb_image_writes", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_image2d_from_buffer", CL_MAKE_VERSION(1, 0, 0), false},
    // Mipmapped images: levels packed after level 0 in the image's storage,
    // host commands on a level named by the origin, reads at a level of
    // detail or from gradients with the sampler's mip filter, and writes to
    // a level (runtime/image.cpp, builtins/images.cl).
    {"cl_khr_mipmap_image", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_mipmap_image_writes", CL_MAKE_VERSION(1, 0, 0), true},
    // A context property for a callback that receives printf's output, and
    // one for the printf buffer's size (runtime/context.h).
    {"cl_arm_printf", CL_MAKE_VERSION(2, 0, 0), false},
    // Commands recorded once and replayed as one (runtime/command_buffer.h,
    // icd/command_buffer_api.cpp), at the provisional version 0.9.8.
    {"cl_khr_command_buffer", CL_MAKE_VERSION(0, 9, 8), false},
    // Launches in a finalized command buffer updated in place: arguments,
    // SVM arguments, exec info, offsets and sizes (icd/command_buffer_api.cpp).
    {"cl_khr_command_buffer_mutable_dispatch", CL_MAKE_VERSION(0, 9, 5), false},
    // clGetKernelSuggestedLocalWorkSizeKHR (icd/kernel_api.cpp).
    {"cl_khr_suggested_local_work_size", CL_MAKE_VERSION(1, 0, 0), false},
    // The device's and the driver's UUIDs (runtime/device.h); no LUID.
    {"cl_khr_device_uuid", CL_MAKE_VERSION(1, 0, 0), false},
    // Unified shared memory: host, device and shared allocations, all host
    // memory in the context's SVM registry (runtime/usm.h,
    // icd/usm_api.cpp).
    {"cl_intel_unified_shared_memory", CL_MAKE_VERSION(1, 1, 0), false},
    // Buffers with a fixed device address: their storage, which never
    // moves (runtime/memory.h), passed as pointers
    // (clSetKernelArgDevicePointerEXT) or reached through memory.
    {"cl_ext_buffer_device_address", CL_MAKE_VERSION(1, 0, 2), false},
    // C++ for OpenCL 1.0 and 2021 sources (-cl-std=CLC++, CLC++1.0,
    // CLC++2021; compiler/frontend/build_options.h), compiled by Clang.
    {"cl_ext_cxx_for_opencl", CL_MAKE_VERSION(1, 0, 0), false},
    // Clocks of every scope, all the CPU's cycle counter
    // (builtins/kernel_clock.cl).
    {"cl_khr_kernel_clock", CL_MAKE_VERSION(1, 0, 0), true},
    // Sub-groups are runs of 4 to 64 work-items along dimension 0
    // (KernelDescription::sub_group_size; builtins/subgroups.cl): every
    // function that exchanges values between them is written with two
    // primitives, lanes of one vector on the widened path, a sub-group
    // scheduler on fibers (device/fiber_group.cpp).
    // The OpenCL 2.0 extension, which requires independent forward progress
    // of sub-groups: a loop in which a work-item waits for another runs on
    // fibers that yield at its back edge (compiler/analysis/waiting_loops.h).
    {"cl_khr_subgroups", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_subgroup_rotate", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_subgroup_extended_types", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_subgroup_non_uniform_vote", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_subgroup_ballot", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_subgroup_non_uniform_arithmetic", CL_MAKE_VERSION(1, 0, 0),
     true},
    {"cl_khr_subgroup_shuffle", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_subgroup_shuffle_relative", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_khr_subgroup_clustered_reduce", CL_MAKE_VERSION(1, 0, 0), true},
    // Intel's shuffles and block reads and writes (global memory and 2-D
    // images; 8-, 16- and 64-bit elements too) (builtins/subgroups.cl,
    // builtins/images.cl), and required sizes (kSubGroupSizes).
    {"cl_intel_subgroups", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_intel_subgroups_char", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_intel_subgroups_short", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_intel_subgroups_long", CL_MAKE_VERSION(1, 0, 0), true},
    {"cl_intel_required_subgroup_size", CL_MAKE_VERSION(1, 0, 0), true},
    // Bitfield insert and extract, bit reverse
    // (builtins/extended_bit_ops.cl).
    {"cl_khr_extended_bit_ops", CL_MAKE_VERSION(1, 0, 0), true},
    // Dot products of four 8-bit integers, as vectors and packed
    // (builtins/integer_dot_product.cl); both input forms are features.
    {"cl_khr_integer_dot_product", CL_MAKE_VERSION(2, 0, 0), true},
};

inline constexpr FeatureEntry kOpenClCFeatures[] = {
    {"__opencl_c_fp64", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_fp16", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_int64", CL_MAKE_VERSION(3, 0, 0)},
    // Program-scope variables live in each program's own loaded copy of its
    // shared object.
    {"__opencl_c_program_scope_global_variables", CL_MAKE_VERSION(3, 0, 0)},
    // A generic pointer is a plain address; to_global/to_local/to_private
    // ask the device which range it is in (builtins/generic_address_space.c).
    {"__opencl_c_generic_address_space", CL_MAKE_VERSION(3, 0, 0)},
    // Pipes need the generic address space (Clang refuses one without it).
    {"__opencl_c_pipes", CL_MAKE_VERSION(3, 0, 0)},
    // Sub-groups (builtins/subgroups.cl).
    {"__opencl_c_subgroups", CL_MAKE_VERSION(3, 0, 0)},
    // Every atomic is a real atomic instruction of the host CPU, coherent
    // across all its cores, so every order and scope holds
    // (builtins/atomics.cl).
    {"__opencl_c_atomic_order_acq_rel", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_atomic_order_seq_cst", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_atomic_scope_device", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_atomic_scope_all_devices", CL_MAKE_VERSION(3, 0, 0)},
    // The feature macros of cl_ext_float_atomics.
    {"__opencl_c_ext_fp32_global_atomic_add", CL_MAKE_VERSION(1, 0, 0)},
    {"__opencl_c_ext_fp32_local_atomic_add", CL_MAKE_VERSION(1, 0, 0)},
    {"__opencl_c_ext_fp32_global_atomic_min_max", CL_MAKE_VERSION(1, 0, 0)},
    {"__opencl_c_ext_fp32_local_atomic_min_max", CL_MAKE_VERSION(1, 0, 0)},
    {"__opencl_c_ext_fp64_global_atomic_add", CL_MAKE_VERSION(1, 0, 0)},
    {"__opencl_c_ext_fp64_local_atomic_add", CL_MAKE_VERSION(1, 0, 0)},
    {"__opencl_c_ext_fp64_global_atomic_min_max", CL_MAKE_VERSION(1, 0, 0)},
    {"__opencl_c_ext_fp64_local_atomic_min_max", CL_MAKE_VERSION(1, 0, 0)},
    // Images of every type, read with and without samplers and written,
    // also by kernels that both read and write one (builtins/images.cl).
    {"__opencl_c_images", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_read_write_images", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_3d_image_writes", CL_MAKE_VERSION(3, 0, 0)},
    // builtins/work_group_collectives.cl, on every execution path.
    {"__opencl_c_work_group_collective_functions", CL_MAKE_VERSION(3, 0, 0)},
    // cl_khr_kernel_clock's scopes (CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR).
    {"__opencl_c_kernel_clock_scope_device", CL_MAKE_VERSION(1, 0, 0)},
    {"__opencl_c_kernel_clock_scope_work_group", CL_MAKE_VERSION(1, 0, 0)},
    {"__opencl_c_kernel_clock_scope_sub_group", CL_MAKE_VERSION(1, 0, 0)},
    // cl_khr_integer_dot_product's two input forms
    // (CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR reports both).
    {"__opencl_c_integer_dot_product_input_4x8bit", CL_MAKE_VERSION(2, 0, 0)},
    {"__opencl_c_integer_dot_product_input_4x8bit_packed",
     CL_MAKE_VERSION(2, 0, 0)},
};

// Pipes (device/pipe_abi.h, builtins/pipe_engine.c).
inline constexpr cl_uint kMaxPipeArguments = 16;
// Work-group reservations a group can hold open at once; the engine itself
// has no limit on work-item reservations.
inline constexpr cl_uint kPipeMaxActiveReservations = 16;
inline constexpr cl_uint kPipeMaxPacketSize = 64 * 1024;

// Images (runtime/image.cpp, builtins/images.cl). Texels are plain host
// memory read a byte at a time, so neither pitches nor base addresses need
// more alignment than a texel (1 pixel). The sizes are generous multiples of
// the spec's minimums; an image is also bounded by
// CL_DEVICE_MAX_MEM_ALLOC_SIZE.
inline constexpr size_t kImage2dMaxSize = 65536;
inline constexpr size_t kImage3dMaxSize = 8192;
inline constexpr size_t kImageMaxArraySize = 8192;
inline constexpr size_t kImageMaxBufferTexels = size_t{1} << 27;
inline constexpr cl_uint kMaxReadImageArgs = 128;
inline constexpr cl_uint kMaxWriteImageArgs = 64;
inline constexpr cl_uint kMaxReadWriteImageArgs = 64;
inline constexpr cl_uint kMaxSamplers = 32;
inline constexpr cl_uint kImagePitchAlignmentPixels = 1;
inline constexpr cl_uint kImageBaseAddressAlignmentPixels = 1;

// Largest program-scope variable (the spec's minimum), and what a program
// should stay under in total.
inline constexpr size_t kMaxGlobalVariableSize = size_t{64} << 10;
inline constexpr size_t kPreferredGlobalVariablesTotal = size_t{1} << 20;

inline constexpr FeatureEntry kOpenClCVersions[] = {
    {"OpenCL C", CL_MAKE_VERSION(1, 0, 0)},
    {"OpenCL C", CL_MAKE_VERSION(1, 1, 0)},
    {"OpenCL C", CL_MAKE_VERSION(1, 2, 0)},
    {"OpenCL C", CL_MAKE_VERSION(3, 0, 0)},
};
// A 3.0 device names the newest version whose optional features it all
// supports; ours lacks many 2.0 features, so 1.2.
inline constexpr const char *kOpenClCVersionString = "OpenCL C 1.2 Weft";

// Bytes of printf records one launch may produce before the rest is
// dropped. Generous: a launch maps this much, but only the pages its
// records fill cost memory (device/printf_output.h).
inline constexpr size_t kPrintfBufferSize = size_t{16} << 20;

// The cl_name_version arrays the *_WITH_VERSION queries return, built at
// compile time so answering them cannot fail.
template <typename Entry, size_t N>
constexpr std::array<cl_name_version, N>
toNameVersions(const Entry (&table)[N]) {
  std::array<cl_name_version, N> list{};
  for (size_t i = 0; i < N; ++i) {
    list[i].version = table[i].version;
    for (size_t c = 0;
         table[i].name[c] != '\0' && c + 1 < CL_NAME_VERSION_MAX_NAME_SIZE; ++c)
      list[i].name[c] = table[i].name[c];
  }
  return list;
}

// Reported besides kDeviceExtensions only when SPIR-V programs can be built
// (runtime/compiler_loader.h): IL programs, SPIR-V extensions the
// translator reads (SPV_KHR_no_integer_wrap_decoration, SPV_KHR_linkonce_odr),
// and the queries of what a module may use (below).
inline constexpr ExtensionEntry kSpirvExtensions[] = {
    {"cl_khr_il_program", CL_MAKE_VERSION(1, 0, 0), false},
    {"cl_khr_spirv_no_integer_wrap_decoration", CL_MAKE_VERSION(1, 0, 0),
     false},
    {"cl_khr_spirv_linkonce_odr", CL_MAKE_VERSION(1, 0, 0), false},
    {"cl_khr_spirv_queries", CL_MAKE_VERSION(1, 0, 0), false},
};

// cl_khr_spirv_queries: what a SPIR-V module built on this device may use.
// Each entry is read by llvm-spirv-15 (or rewritten first,
// compiler/frontend/spirv_legalize.h) into something Weft runs; the tests named
// check that it does.
inline constexpr const char *kSpirvExtendedInstructionSets[] = {
    "OpenCL.std", // every OpenCL C builtin (test_spirv_new)
};
inline constexpr const char *kSpirvModuleExtensions[] = {
    "SPV_KHR_no_integer_wrap_decoration", // test_spirv_new
    "SPV_KHR_linkonce_odr",               // test_spirv_new
    // cl_khr_work_group_uniform_arithmetic, and cl_ext_float_atomics'
    // add, min and max (tests/api/spirv_program_test.cpp).
    "SPV_KHR_uniform_group_instructions", "SPV_EXT_shader_atomic_float_add",
    "SPV_EXT_shader_atomic_float_min_max",
    "SPV_KHR_expect_assume", // cl_khr_expect_assume (test_spirv_new)
    // cl_khr_extended_bit_ops, cl_khr_integer_dot_product (the translator
    // reads both) and cl_khr_kernel_clock (its clock reads rewritten first,
    // compiler/frontend/spirv_legalize.h);
    // conformance/spec_tests/spirv_test.cpp.
    "SPV_KHR_bit_instructions", "SPV_KHR_integer_dot_product",
    "SPV_KHR_shader_clock",
    "SPV_KHR_subgroup_rotate", // cl_khr_subgroup_rotate, which it reads
    "SPV_INTEL_subgroups",     // cl_intel_subgroups, which it reads
};
// SPIR-V capability numbers (SPIR-V specification, 3.31).
// clang-format off
inline constexpr cl_uint kSpirvCapabilities[] = {
    4, 5, 6, 7,  // Addresses, Linkage, Kernel, Vector16
    8, 9, 10,    // Float16Buffer, Float16 (cl_khr_fp16), Float64
    11, 12,      // Int64, Int64Atomics
    22, 39,      // Int16, Int8
    38,          // GenericPointer
    13, 14, 20,  // ImageBasic, ImageReadWrite, LiteralSampler
    15,          // ImageMipmap (cl_khr_mipmap_image)
    43, 44,      // Sampled1D, Image1D
    46, 47,      // SampledBuffer, ImageBuffer
    17,          // Pipes
    18,          // Groups (work-group collectives)
    58,          // SubgroupDispatch (sub-groups of one work-item)
    6400,        // GroupUniformArithmeticKHR
    6033, 6034,  // AtomicFloat32AddEXT, AtomicFloat64AddEXT
    5612, 5613,  // AtomicFloat32MinMaxEXT, AtomicFloat64MinMaxEXT
    5629,        // ExpectAssumeKHR
    6025,        // BitInstructions
    6019, 6017, 6018, // DotProduct, DotProductInput4x8Bit(Packed)
    5055,        // ShaderClockKHR
    71,          // UniformDecoration (SPIR-V 1.6; a hint, dropped)
    6026,        // GroupNonUniformRotateKHR (cl_khr_subgroup_rotate)
    61, 62,      // GroupNonUniform, GroupNonUniformVote
    63, 64,      // GroupNonUniformArithmetic, GroupNonUniformBallot
    65, 66,      // GroupNonUniformShuffle, GroupNonUniformShuffleRelative
    67,          // GroupNonUniformClustered
    5568, 5569,  // SubgroupShuffleINTEL, SubgroupBufferBlockIOINTEL
    5570,        // SubgroupImageBlockIOINTEL
};
// clang-format on

inline constexpr auto kDeviceExtensionsWithVersion =
    toNameVersions(kDeviceExtensions);
inline constexpr auto kOpenClCFeaturesWithVersion =
    toNameVersions(kOpenClCFeatures);
inline constexpr auto kOpenClCVersionsWithVersion =
    toNameVersions(kOpenClCVersions);

} // namespace weft
