// A program: its source or binary, the build, the build log, and the loaded
// kernels. Building from source goes through the on-disk cache first and
// loads the compiler library only on a miss; a program from a binary never
// needs it.
#pragma once
#include "compiler/interface/compiler_interface.h"
#include "runtime/object.h"
#include "runtime/program_binary.h"
#include "runtime/program_executable.h"
#include "runtime/spirv_module.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace weft {

class Context;

class Program : public Object<_cl_program, ObjectKind::Program> {
public:
  Program(Context &context, std::string source);
  // From a SPIR-V module that readSpirvModule accepted.
  Program(Context &context, std::vector<unsigned char> il,
          SpirvModuleInfo il_info);
  // From a binary that parseProgramImage accepted.
  Program(Context &context, ProgramImage image,
          std::vector<unsigned char> binary);
  static Program *fromHandle(cl_program handle) {
    return checkedCast<Program>(handle);
  }

  Context &context() const { return *context_; }
  const std::string &source() const { return source_; }
  const std::vector<unsigned char> &il() const { return il_; }
  bool fromIl() const { return !il_.empty(); }

  // clSetProgramSpecializationConstant: CL_SUCCESS, CL_INVALID_PROGRAM
  // (not created from IL), CL_INVALID_SPEC_ID or CL_INVALID_VALUE (wrong
  // size or no value). Used by the next build or compile.
  cl_int setSpecializationConstant(cl_uint id, size_t size, const void *value);

  // Builds synchronously; returns CL_SUCCESS, CL_BUILD_PROGRAM_FAILURE,
  // CL_INVALID_BUILD_OPTIONS, CL_COMPILER_NOT_AVAILABLE, CL_INVALID_BINARY
  // or CL_INVALID_OPERATION (kernels are attached or a build is running).
  cl_int build(const std::string &options);

  // clCompileProgram: source (with embedded headers) to a compiled object.
  // Returns CL_SUCCESS, CL_COMPILE_PROGRAM_FAILURE,
  // CL_INVALID_COMPILER_OPTIONS, CL_COMPILER_NOT_AVAILABLE or
  // CL_INVALID_OPERATION.
  cl_int compile(const std::string &options,
                 const std::vector<compiler::EmbeddedHeader> &headers);

  // clLinkProgram: a new program from compiled objects and libraries.
  // `error` is CL_SUCCESS, CL_LINK_PROGRAM_FAILURE (the program is still
  // returned, with the log), CL_INVALID_LINKER_OPTIONS,
  // CL_LINKER_NOT_AVAILABLE or CL_INVALID_OPERATION (an input is not
  // compiled); null for the last three.
  static Program *link(Context &context, const std::vector<Program *> &inputs,
                       const std::string &options, cl_int &error);

  cl_build_status buildStatus() const;
  std::string buildLog() const;
  // A kernel compiled on first use failed: the log says why.
  void appendToBuildLog(const std::string &text);
  std::string buildOptions() const;
  // Whether the kernels' argument names may be queried: not for a program
  // built from source without -cl-kernel-arg-info (the spec makes them
  // available only with it; piglit checks that they are not otherwise).
  bool keepsArgumentNames() const;
  // Whether the last build, compile or link had `option` among its options.
  bool builtWithOption(const std::string &option) const;
  cl_program_binary_type binaryType() const;
  // The binary of the built (or loaded) program; empty when there is none
  // (or its kernels compiled on first use fail to compile: the build log
  // then says why).
  std::vector<unsigned char> binary();
  // Null until a build succeeded.
  std::shared_ptr<const ProgramExecutable> executable() const;

  void kernelCreated() { ++attached_kernels_; }
  void kernelReleased() { --attached_kernels_; }
  bool hasKernels() const { return attached_kernels_ > 0; }

private:
  cl_int buildFromSource(const std::string &options, std::string &log,
                         std::shared_ptr<ProgramExecutable> &executable);
  std::vector<compiler::SpecializationConstant> specializations() const;
  // What the program cache keys a build on besides the options: the source,
  // or the IL with its specialization values (behind a NUL, which no
  // source has, so the two never meet).
  std::string cacheSource() const;
  cl_int finishBuild(cl_int status, std::string log,
                     std::shared_ptr<ProgramExecutable> executable);
  // The bitcode of a compiled object or library, if this is one.
  bool bitcode(std::vector<unsigned char> &out) const;

  Ref<Context> context_;
  const std::string source_;
  const std::vector<unsigned char> il_; // a SPIR-V module, or empty
  const SpirvModuleInfo il_info_;
  const bool from_binary_;
  // The image given to clCreateProgramWithBinary, loaded by clBuildProgram.
  const ProgramImage binary_image_;
  const std::vector<unsigned char> given_binary_;
  std::atomic<int> attached_kernels_{0};

  mutable std::mutex mutex_;
  cl_build_status status_ = CL_BUILD_NONE;              // guarded by mutex_
  std::string log_;                                     // guarded by mutex_
  std::string options_;                                 // guarded by mutex_
  std::shared_ptr<const ProgramExecutable> executable_; // by mutex_
  cl_program_binary_type binary_type_ =
      CL_PROGRAM_BINARY_TYPE_NONE;     // by mutex_
  std::vector<unsigned char> bitcode_; // compiled object or library, by mutex_
  std::map<cl_uint, uint64_t> spec_values_; // by SpecId, guarded by mutex_
};

} // namespace weft
