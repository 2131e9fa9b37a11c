// OpenCL C source to LLVM IR with Clang, in process, for x86-64.
#pragma once
#include "compiler/frontend/build_options.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace weft::compiler {

struct FrontendResult {
  std::unique_ptr<llvm::Module> module; // null when the source has errors
  std::string log;                      // Clang's diagnostics
};

FrontendResult compileOpenCLC(const std::string &source,
                              const BuildOptions &options,
                              const std::vector<std::string> &extensions,
                              const std::string &cpu_name,
                              llvm::LLVMContext &context);

} // namespace weft::compiler
