// Optimizes a module for the host CPU and turns it into native code with ORC
// LLJIT; the code lives as long as the JitProgram.
#pragma once
#include "compiler/compiler_interface.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace weft::compiler {

struct HostTarget {
  std::string cpu_name;
  std::string cpu_features;
};
const HostTarget &hostTarget();

// Prepares `module` (target, optimization) and JIT-compiles it. On success
// fills the entry addresses of `kernels`.
std::unique_ptr<CompiledProgram>
jitCompile(std::unique_ptr<llvm::LLVMContext> context,
           std::unique_ptr<llvm::Module> module,
           std::vector<KernelDescription> kernels, bool optimize,
           std::string &error);

} // namespace weft::compiler
