// The interface between the runtime and the compiler library. The compiler
// library (libweft-compiler.so) links LLVM and Clang and is loaded with
// dlopen only when a program is built, so this header must stay free of LLVM
// and of cl_* objects. It is stable within one Weft build, not across builds.
#pragma once
#include "device/launch_abi.h"

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace weft::compiler {

// Settings the runtime reads once (runtime/settings.def) and hands to the
// compiler library when it loads it: the compiler reads no environment.
struct CompilerSettings {
  // WEFT_DUMP_IR: where each program's module is written before and after
  // optimization (empty: nowhere).
  std::string dump_ir_directory;
  // TMPDIR: where the scratch directories of the linker and of embedded
  // headers go.
  std::string temporary_directory = "/tmp";
  // WEFT_TARGET_CPU: the CPU kernels are compiled for, by LLVM's name
  // (empty: the host's); less the instruction sets this machine lacks when
  // the code is to run here (not for weft-opt, which writes IR).
  std::string target_cpu;
  bool target_cpu_runs_here = true;
  // WEFT_COMPILE_THREADS: the most threads one build compiles its kernels
  // on (1: the build's own thread only).
  size_t compile_threads = 1;
  // WEFT_CHECK_MEMORY: every kernel's memory accesses are checked
  // (compiler/passes/kernels/memory_checks.h).
  bool check_memory = false;
};

// What the compiler needs to know of the device it compiles for.
struct DeviceDescription {
  std::string cpu_name;     // LLVM's name of the host CPU, e.g. "znver4"
  std::string cpu_features; // LLVM feature string, "+avx2,+fma,..."
  std::vector<std::string>
      opencl_c_features; // "__opencl_c_fp64", "cl_khr_fp64", ...
  // CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE (0: unchecked).
  uint64_t max_global_variable_size = 0;
};

enum class AddressSpace : uint32_t { Private, Global, Constant, Local };
enum class AccessQualifier : uint32_t { None, ReadOnly, WriteOnly, ReadWrite };
enum TypeQualifier : uint32_t {
  TypeQualifierNone = 0,
  TypeQualifierConst = 1,
  TypeQualifierRestrict = 2,
  TypeQualifierVolatile = 4,
  TypeQualifierPipe = 8,
};

enum class ArgumentKind : uint32_t {
  Value,       // scalar, vector or struct passed by value
  Buffer,      // __global or __constant pointer
  LocalBuffer, // __local pointer: the block holds an offset into local memory
  Sampler,
  Image,
  Pipe,
};

struct KernelArgument {
  std::string name;
  std::string type_name;
  ArgumentKind kind = ArgumentKind::Value;
  AddressSpace address_space = AddressSpace::Private;
  AccessQualifier access = AccessQualifier::None;
  uint32_t type_qualifiers = TypeQualifierNone;
  uint32_t size = 0;      // bytes clSetKernelArg must be given
  uint32_t alignment = 1; // of the value inside the argument block
  uint32_t offset = 0;    // inside the argument block
};

// How the work-groups of a kernel run. compiler/analysis/execution_plan.h
// chooses it from the kernel's features; the passes that carry it out record
// where they had to fall back.
enum class ExecutionPath : uint32_t {
  // No barrier: one loop over the group's work-items, which LLVM's loop
  // vectorizer widens.
  WorkItemLoop,
  // No barrier, and work-items that run loops of their own: the loop steps
  // several work-items at a time through a body widened under masks
  // (compiler/passes/kernels/work_item_vectorizer.h).
  Widened,
  // Barriers: the kernel is cut at them into regions, each a loop over the
  // work-items (compiler/passes/kernels/barrier_regions.h).
  Regions,
  // Barriers, in a shape the regions do not handle: each work-item runs on a
  // fiber that switches at every barrier.
  Fibers,
};
inline constexpr uint32_t kLastExecutionPath =
    static_cast<uint32_t>(ExecutionPath::Fibers);

struct ExecutionPlan {
  ExecutionPath path = ExecutionPath::WorkItemLoop;
  // Why `path` is not the one preferred for the kernel's features (the
  // vectorizer or the region splitting declined), or why LLVM vectorizes.
  std::string fallback;
  // Add-ons of a barrier-free loop. Work-item (0,0,0) makes the group's
  // async copies (and pipe reservations); the others run a follower body in
  // which copies are done (compiler/passes/kernels/async_copy_followers.h).
  bool group_leader = false;
  // The copies come first: (0,0,0) runs only them, then every work-item
  // the follower body, so the loop starts at work-item 0.
  bool copy_prologue = false;
  // Work-group pipe reservations made by (0,0,0), committed by the group
  // entry after the last work-item
  // (compiler/passes/kernels/work_group_pipes.h).
  bool pipe_leader = false;
  // A second group entry that reads copied tiles from global memory
  // (compiler/passes/kernels/async_copy_read_through.h); `read_through_note`
  // says when it runs, or why there is none.
  bool read_through = false;
  std::string read_through_note;
  // A function per work-item: the fibers run it, and so does the async copy
  // checking mode.
  bool work_item_entry = false;
  // Widened: how many work-items run at once, and why so many.
  std::string lanes;

  bool reachesBarrier() const {
    return path == ExecutionPath::Regions || path == ExecutionPath::Fibers;
  }
};

inline const char *executionPathName(ExecutionPath path) {
  switch (path) {
  case ExecutionPath::WorkItemLoop:
    return "work-item loop";
  case ExecutionPath::Widened:
    return "widened";
  case ExecutionPath::Regions:
    return "regions";
  case ExecutionPath::Fibers:
    return "fibers";
  }
  return "?";
}

// One line for WEFT_DEBUG and the compiler's IR tests.
inline std::string describePlan(const ExecutionPlan &plan) {
  std::string text = executionPathName(plan.path);
  if (!plan.lanes.empty())
    text += ", " + plan.lanes;
  if (!plan.fallback.empty())
    text += " (" + plan.fallback + ")";
  if (plan.group_leader)
    text += plan.copy_prologue
                ? ", work-item 0 makes the group's async copies first"
                : ", work-item 0 leads the group";
  if (plan.pipe_leader)
    text += ", work-group pipe reservations made by work-item 0";
  if (plan.read_through)
    text += ", read-through entry";
  if (plan.work_item_entry)
    text += ", work-item entry";
  return text;
}

// The sub-group sizes a kernel may require (CL_DEVICE_SUB_GROUP_SIZES_INTEL):
// a size wider than the registers runs as several vectors.
inline constexpr uint32_t kSubGroupSizes[] = {1, 2, 4, 8, 16, 32, 64};

struct KernelDescription {
  std::string name;
  std::string attributes; // source attributes, as CL_KERNEL_ATTRIBUTES wants
  std::vector<KernelArgument> arguments;
  uint32_t argument_block_size = 0;
  uint64_t reqd_work_group_size[3] = {0, 0, 0};
  uint64_t work_group_size_hint[3] = {0, 0, 0};
  // SPIR-V's SubgroupsPerWorkgroup: work-groups of exactly this many
  // sub-groups (0: any number).
  uint64_t required_sub_groups = 0;
  // How many work-items a sub-group has: runs of this many consecutive
  // work-items along dimension 0 of each row of the group, the last run of
  // a row shorter when the row's length is not a multiple
  // (builtins/subgroups.cl). The required size (intel_reqd_sub_group_size,
  // SPIR-V's SubgroupSize; 0: none) or the CPU's own
  // (compiler/analysis/kernel_signature.h, subGroupSizeFor).
  uint32_t sub_group_size = 1;
  uint32_t required_sub_group_size = 0;
  uint64_t static_local_memory = 0; // kernel-scope __local variables
  // Stack frames of the entry points (every call is inlined into them, but
  // for calls into libm): a work-item's private memory, and what the loop
  // over a group's work-items needs on the worker's stack.
  uint64_t private_memory = 0;
  uint64_t group_entry_frame = 0;
  uint32_t preferred_work_group_multiple = 1;
  // Launches must divide the global size evenly (OpenCL C 1.x programs and
  // -cl-uniform-work-group-size).
  bool uniform_work_group_size = false;
  // The kernel calls printf: its launches get a printf buffer
  // (device/printf_abi.h), formatted when they end.
  bool uses_printf = false;
  // The kernel can tell its work-groups apart: it asks for a local id, a
  // group id, a group's size or their number (directly or through a
  // builtin), reaches a barrier or a work-group function, or has __local
  // memory. When it cannot, a launch may run in larger groups than it asked
  // for (runtime/kernel.cpp), with fewer of them to dispatch.
  bool sees_work_groups = true;
  ExecutionPlan plan;
  // With plan.read_through: the entry reads the copies' sources, and may
  // run for launches where no buffer in `read_through_sources` overlaps one
  // in `written_buffers` (argument indices), and, without
  // reqd_work_group_size, whose work-groups are at most
  // `read_through_max_local_size` in each dimension (0: no limit).
  std::vector<uint32_t> read_through_sources;
  std::vector<uint32_t> written_buffers;
  uint64_t read_through_max_local_size = 0;
  // A variant of kernel `variant_of` compiled for images all of one format
  // (compiler/passes/kernels/image_format_variants.h): the runtime folds it
  // into that kernel's image_variants and runs it when every image argument has
  // this channel order and type.
  std::string variant_of;
  uint32_t variant_channel_order = 0;
  uint32_t variant_channel_type = 0;
  // Or a variant compiled with these integer arguments (indices) 1
  // (compiler/passes/kernels/unit_stride_variants.h): the runtime folds it
  // into unit_stride_variants and runs it when each of them is 1.
  std::vector<uint32_t> variant_unit_arguments;
  // Filled by the runtime from the loaded shared object.
  WorkGroupFunction entry = nullptr; // loop over the work-items
  WorkGroupFunction read_through_entry = nullptr;
  // Set when plan.work_item_entry.
  WorkItemFunction work_item_entry = nullptr;
  // The variants of this kernel for image formats, with their entries.
  struct ImageVariant {
    uint32_t channel_order, channel_type;
    WorkGroupFunction entry;
    WorkItemFunction work_item_entry;
  };
  std::vector<ImageVariant> image_variants;
  // The variants of this kernel for strides of 1, with their entries.
  struct UnitStrideVariant {
    std::vector<uint32_t> arguments;
    WorkGroupFunction entry;
    WorkItemFunction work_item_entry;
  };
  std::vector<UnitStrideVariant> unit_stride_variants;
};

// The fields of the structures above, each listed once: the program
// binary's writer and reader (runtime/program_binary.cpp) and the
// compiler's IR metadata (compiler/analysis/kernel_metadata.cpp) walk these
// lists, so a new field is one line here. `visit(name, field)` sees strings,
// integers, booleans, enumerations, uint64_t[3], vectors of uint32_t and the
// nested KernelArgument vector and ExecutionPlan.
template <typename Argument, typename Visitor>
void forEachField(
    Argument &a, Visitor &&visit,
    std::enable_if_t<std::is_same_v<std::remove_const_t<Argument>,
                                    KernelArgument>> * = nullptr) {
  visit("name", a.name);
  visit("type_name", a.type_name);
  visit("kind", a.kind);
  visit("address_space", a.address_space);
  visit("access", a.access);
  visit("type_qualifiers", a.type_qualifiers);
  visit("size", a.size);
  visit("alignment", a.alignment);
  visit("offset", a.offset);
}

template <typename Plan, typename Visitor>
void forEachField(
    Plan &p, Visitor &&visit,
    std::enable_if_t<std::is_same_v<std::remove_const_t<Plan>, ExecutionPlan>>
        * = nullptr) {
  visit("path", p.path);
  visit("fallback", p.fallback);
  visit("group_leader", p.group_leader);
  visit("copy_prologue", p.copy_prologue);
  visit("pipe_leader", p.pipe_leader);
  visit("read_through", p.read_through);
  visit("read_through_note", p.read_through_note);
  visit("work_item_entry", p.work_item_entry);
  visit("lanes", p.lanes);
}

template <typename Description, typename Visitor>
void forEachField(
    Description &k, Visitor &&visit,
    std::enable_if_t<std::is_same_v<std::remove_const_t<Description>,
                                    KernelDescription>> * = nullptr) {
  visit("name", k.name);
  visit("attributes", k.attributes);
  visit("arguments", k.arguments);
  visit("argument_block_size", k.argument_block_size);
  visit("reqd_work_group_size", k.reqd_work_group_size);
  visit("work_group_size_hint", k.work_group_size_hint);
  visit("required_sub_groups", k.required_sub_groups);
  visit("sub_group_size", k.sub_group_size);
  visit("required_sub_group_size", k.required_sub_group_size);
  visit("static_local_memory", k.static_local_memory);
  visit("private_memory", k.private_memory);
  visit("group_entry_frame", k.group_entry_frame);
  visit("preferred_work_group_multiple", k.preferred_work_group_multiple);
  visit("uniform_work_group_size", k.uniform_work_group_size);
  visit("uses_printf", k.uses_printf);
  visit("sees_work_groups", k.sees_work_groups);
  visit("plan", k.plan);
  visit("read_through_sources", k.read_through_sources);
  visit("written_buffers", k.written_buffers);
  visit("read_through_max_local_size", k.read_through_max_local_size);
  visit("variant_of", k.variant_of);
  visit("variant_channel_order", k.variant_channel_order);
  visit("variant_channel_type", k.variant_channel_type);
  visit("variant_unit_arguments", k.variant_unit_arguments);
}

// The symbols a program's shared object exports for each kernel.
inline std::string groupEntrySymbol(const std::string &kernel) {
  return "__weft_group_" + kernel;
}
inline std::string workItemEntrySymbol(const std::string &kernel) {
  return "__weft_item_" + kernel;
}
inline std::string readThroughEntrySymbol(const std::string &kernel) {
  return "__weft_read_through_" + kernel;
}

// The result of clCompileProgram, or of clLinkProgram with -create-library:
// LLVM bitcode, linked into an executable later.
struct CompileResult {
  enum class Status { Success, InvalidOptions, CompileError, LinkError };
  Status status = Status::CompileError;
  std::string log;
  std::vector<unsigned char> bitcode; // set on success
};

// Where Debian's SPIR-V/LLVM translator (package llvm-spirv-15) may be, which
// SPIR-V programs need (compiler/frontend/spirv_translator.h): the runtime
// reports IL support only when one is there.
inline constexpr const char *kSpirvTranslatorPaths[] = {
    "/usr/bin/llvm-spirv-15", "/usr/lib/llvm-15/bin/llvm-spirv"};

// A specialization constant of a SPIR-V program, as the application set it
// (clSetProgramSpecializationConstant), with its type from the module.
struct SpecializationConstant {
  enum class Kind { Bool, Int, Float };
  uint32_t id = 0;
  Kind kind = Kind::Int;
  uint32_t bits = 32;
  uint64_t value_bits = 0; // the value's bytes, zero-extended
};

// An embedded header of clCompileProgram: the name #include uses.
struct EmbeddedHeader {
  std::string include_name;
  std::string source;
};

// Kernels of a program whose native code is made when one of them is first
// used (Compiler::compileDeferred), each part into a shared object of its
// own: most of a build is optimization and code generation, and an
// application often runs a few of a program's kernels.
struct DeferredPart {
  // Whose entry points it defines: a kernel and its image format variants.
  std::vector<std::string> kernels;
  std::vector<unsigned char> bitcode; // ready for optimization
  bool optimize = true;               // false: -cl-opt-disable
};

struct BuildResult {
  enum class Status { Success, InvalidOptions, CompileError, LinkError };
  Status status = Status::CompileError;
  std::string log;
  // Set on success. The descriptions have no entry addresses yet: the
  // runtime finds them in the shared object once it has loaded it.
  std::vector<KernelDescription> kernels;
  // The native code of every kernel, or, when `deferred` is not empty,
  // none: each part is compiled when first used, and its kernels' frame
  // sizes (private_memory, group_entry_frame) are known from then on.
  std::vector<unsigned char> shared_object; // an ELF shared object
  std::vector<DeferredPart> deferred;
  uint64_t global_variable_bytes = 0; // program-scope __global variables
};

// A deferred part compiled: its shared object, or, empty, the reason in
// `log`.
struct PartCode {
  std::vector<unsigned char> shared_object;
  std::string log;
};

class Compiler {
public:
  virtual ~Compiler() = default;
  // Compiles OpenCL C source with build options to a shared object.
  virtual BuildResult buildFromSource(const std::string &source,
                                      const std::string &options,
                                      const DeviceDescription &device) = 0;
  // clCompileProgram: source to bitcode, with its embedded headers.
  virtual CompileResult
  compileToBitcode(const std::string &source, const std::string &options,
                   const std::vector<EmbeddedHeader> &headers,
                   const DeviceDescription &device) = 0;
  // clLinkProgram: links compiled objects and libraries; with
  // -create-library the result is bitcode again (in `library`), otherwise a
  // shared object as from buildFromSource.
  virtual BuildResult
  linkBitcode(const std::vector<std::vector<unsigned char>> &objects,
              const std::string &options, const DeviceDescription &device,
              CompileResult &library) = 0;
  // A SPIR-V module (clCreateProgramWithIL) built like source, and compiled
  // to bitcode for clLinkProgram like clCompileProgram's source.
  virtual BuildResult
  buildFromSpirv(const std::vector<unsigned char> &il,
                 const std::vector<SpecializationConstant> &constants,
                 const std::string &options,
                 const DeviceDescription &device) = 0;
  virtual CompileResult
  compileSpirv(const std::vector<unsigned char> &il,
               const std::vector<SpecializationConstant> &constants,
               const std::string &options, const DeviceDescription &device) = 0;
  // Compiles deferred parts (several on threads): one PartCode each, in
  // order. Fills in the frame sizes of the parts' kernels among `kernels`.
  virtual std::vector<PartCode>
  compileDeferred(const std::vector<DeferredPart> &parts,
                  std::vector<KernelDescription> &kernels) = 0;
  // Whether `il` is a valid SPIR-V module (clCreateProgramWithIL refuses
  // others with CL_INVALID_VALUE); the validator's message in `why`.
  virtual bool validateSpirv(const std::vector<unsigned char> &il,
                             std::string &why) = 0;
};

} // namespace weft::compiler

// The one symbol the compiler library exports. Returns null and sets
// `error` when the compiler cannot run (e.g. its builtin library is missing).
extern "C" weft::compiler::Compiler *
weft_compiler_create(const weft::compiler::CompilerSettings *settings,
                     std::string *error);
#define WEFT_COMPILER_CREATE_SYMBOL "weft_compiler_create"
