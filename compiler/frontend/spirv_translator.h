// SPIR-V programs (clCreateProgramWithIL): Debian's SPIR-V/LLVM translator
// (llvm-spirv-15, run as a process: it links LLVM 15, which must not meet
// this library's LLVM 19) reads the module into LLVM 15 bitcode, with
// SPIR-V's builtins and OpenCL.std instructions as calls of the OpenCL C
// builtins by their mangled names (--spirv-target-env=CL2.0), which are
// Weft's own. LLVM 19 reads that bitcode; what remains is to make it look
// like the frontend's output for the host (triple, data layout, calling
// conventions).
#pragma once
#include "compiler/interface/compiler_interface.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace weft::compiler {

// The translator the build runs; empty when none is installed.
std::string spirvTranslatorPath();

// `il` read into a module of `context` with `constants` specialized; null,
// with the translator's messages in `log`, when it cannot be read.
std::unique_ptr<llvm::Module>
translateSpirv(const std::vector<unsigned char> &il,
               const std::vector<SpecializationConstant> &constants,
               const std::string &temporary_directory,
               llvm::LLVMContext &context, std::string &log);

// The frontend's conventions for a translated module: the host triple and
// data layout, the C calling convention for every function but kernels.
void adoptFrontendConventions(llvm::Module &module);

} // namespace weft::compiler
