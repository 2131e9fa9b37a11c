// The interface between the runtime and the compiler library. The compiler
// library (libweft-compiler.so) links LLVM and Clang and is loaded with
// dlopen only when a program is built, so this header must stay free of LLVM
// and of cl_* objects. It is stable within one Weft build, not across builds.
#pragma once
#include "device/launch_abi.h"

#include <cstdint>
#include <memory>
#include <string>
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
};

// What the compiler needs to know of the device it compiles for.
struct DeviceDescription {
  std::string cpu_name;     // LLVM's name of the host CPU, e.g. "znver4"
  std::string cpu_features; // LLVM feature string, "+avx2,+fma,..."
  std::vector<std::string>
      opencl_c_features; // "__opencl_c_fp64", "cl_khr_fp64", ...
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

struct KernelDescription {
  std::string name;
  std::string attributes; // source attributes, as CL_KERNEL_ATTRIBUTES wants
  std::vector<KernelArgument> arguments;
  uint32_t argument_block_size = 0;
  uint64_t reqd_work_group_size[3] = {0, 0, 0};
  uint64_t work_group_size_hint[3] = {0, 0, 0};
  uint64_t static_local_memory = 0; // kernel-scope __local variables
  // Stack frames of the entry points (every call is inlined into them, but
  // for calls into libm): a work-item's private memory, and what the loop
  // over a group's work-items needs on the worker's stack.
  uint64_t private_memory = 0;
  uint64_t group_entry_frame = 0;
  uint32_t preferred_work_group_multiple = 1;
  bool reaches_barrier = false;
  // The group entry runs the kernel's barriers itself, region by region
  // (compiler/barrier_regions.h); otherwise the work-items of a group with
  // barriers run on fibers, and split_failure says why.
  bool split_at_barriers = false;
  std::string split_failure;
  // Kernels without barriers: how the loop over work-items is vectorized
  // (compiler/work_item_vectorizer.h), for the debug log.
  std::string work_item_vectorization;
  // Launches must divide the global size evenly (OpenCL C 1.x programs and
  // -cl-uniform-work-group-size).
  bool uniform_work_group_size = false;
  // Kernels whose async copies only stage data
  // (compiler/async_copy_read_through.h) have a second group entry that
  // reads the copies' sources instead, for launches where no buffer in
  // `read_through_sources` overlaps one in `written_buffers` (argument
  // indices). The debug log says why a kernel has none.
  std::vector<uint32_t> read_through_sources;
  std::vector<uint32_t> written_buffers;
  // Without reqd_work_group_size, the read-through entry is also limited to
  // work-groups no larger than this in any dimension (0: no limit).
  uint64_t read_through_max_local_size = 0;
  std::string async_copy_read_through;
  // Filled by the runtime from the loaded shared object.
  WorkGroupFunction entry = nullptr; // loop over the work-items
  WorkGroupFunction read_through_entry = nullptr;
  // Set when reaches_barrier, and for kernels with async copies.
  WorkItemFunction work_item_entry = nullptr;
};

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

// An embedded header of clCompileProgram: the name #include uses.
struct EmbeddedHeader {
  std::string include_name;
  std::string source;
};

struct BuildResult {
  enum class Status { Success, InvalidOptions, CompileError, LinkError };
  Status status = Status::CompileError;
  std::string log;
  // Set on success. The descriptions have no entry addresses yet: the
  // runtime finds them in the shared object once it has loaded it.
  std::vector<KernelDescription> kernels;
  std::vector<unsigned char> shared_object; // an ELF shared object
  uint64_t global_variable_bytes = 0;       // program-scope __global variables
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
};

} // namespace weft::compiler

// The one symbol the compiler library exports. Returns null and sets
// `error` when the compiler cannot run (e.g. its builtin library is missing).
extern "C" weft::compiler::Compiler *
weft_compiler_create(const weft::compiler::CompilerSettings *settings,
                     std::string *error);
#define WEFT_COMPILER_CREATE_SYMBOL "weft_compiler_create"
