// A program: its source, the build (done by the compiler library, loaded on
// the first build), the build log, and the compiled kernels.
#pragma once
#include "compiler/compiler_interface.h"
#include "runtime/object.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace weft {

class Context;

class Program : public Object<_cl_program, ObjectKind::Program> {
public:
  Program(Context &context, std::string source);
  static Program *fromHandle(cl_program handle) {
    auto *p = static_cast<Program *>(handle);
    return p && p->isValid() ? p : nullptr;
  }

  Context &context() const { return *context_; }
  const std::string &source() const { return source_; }

  // Builds synchronously; returns CL_SUCCESS, CL_BUILD_PROGRAM_FAILURE,
  // CL_INVALID_BUILD_OPTIONS, CL_COMPILER_NOT_AVAILABLE or CL_INVALID_OPERATION
  // (kernels are attached or a build is running).
  cl_int build(const std::string &options);

  cl_build_status buildStatus() const;
  std::string buildLog() const;
  std::string buildOptions() const;
  cl_program_binary_type binaryType() const;
  // Null until a build succeeded; kernels keep it alive.
  std::shared_ptr<const compiler::CompiledProgram> compiled() const;
  const compiler::KernelDescription *findKernel(const std::string &name) const;

  void kernelCreated() { ++attached_kernels_; }
  void kernelReleased() { --attached_kernels_; }
  bool hasKernels() const { return attached_kernels_ > 0; }

private:
  Ref<Context> context_;
  std::string source_;
  std::atomic<int> attached_kernels_{0};

  mutable std::mutex mutex_;
  cl_build_status status_ = CL_BUILD_NONE; // guarded by mutex_
  std::string log_;                        // guarded by mutex_
  std::string options_;                    // guarded by mutex_
  std::shared_ptr<const compiler::CompiledProgram> compiled_; // by mutex_
};

} // namespace weft
