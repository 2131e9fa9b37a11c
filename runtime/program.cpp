#include "runtime/program.h"

#include "runtime/compiler_loader.h"
#include "runtime/context.h"
#include "runtime/device.h"

namespace weft {

Program::Program(Context &context, std::string source)
    : context_(&context), source_(std::move(source)) {}

cl_int Program::build(const std::string &options) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (status_ == CL_BUILD_IN_PROGRESS || hasKernels())
      return CL_INVALID_OPERATION;
    status_ = CL_BUILD_IN_PROGRESS;
    options_ = options;
  }
  std::string error;
  compiler::Compiler *compiler = loadCompiler(error);
  if (!compiler) {
    std::lock_guard<std::mutex> lock(mutex_);
    status_ = CL_BUILD_ERROR;
    log_ = "error: " + error + "\n";
    return CL_COMPILER_NOT_AVAILABLE;
  }

  compiler::BuildResult result = compiler->buildFromSource(
      source_, options, context_->device().compilerDescription());
  std::lock_guard<std::mutex> lock(mutex_);
  log_ = result.log;
  switch (result.status) {
  case compiler::BuildResult::Status::Success:
    status_ = CL_BUILD_SUCCESS;
    compiled_ = std::move(result.program);
    return CL_SUCCESS;
  case compiler::BuildResult::Status::InvalidOptions:
    status_ = CL_BUILD_ERROR;
    compiled_.reset();
    return CL_INVALID_BUILD_OPTIONS;
  default:
    status_ = CL_BUILD_ERROR;
    compiled_.reset();
    return CL_BUILD_PROGRAM_FAILURE;
  }
}

cl_build_status Program::buildStatus() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

std::string Program::buildLog() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return log_;
}

std::string Program::buildOptions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return options_;
}

cl_program_binary_type Program::binaryType() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return compiled_ ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                   : CL_PROGRAM_BINARY_TYPE_NONE;
}

std::shared_ptr<const compiler::CompiledProgram> Program::compiled() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return compiled_;
}

const compiler::KernelDescription *
Program::findKernel(const std::string &name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!compiled_)
    return nullptr;
  for (const compiler::KernelDescription &k : compiled_->kernels())
    if (k.name == name)
      return &k;
  return nullptr;
}

} // namespace weft
