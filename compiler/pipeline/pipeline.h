// Assembles Weft's passes (compiler/pipeline/passes.def) into the build's
// stages, and registers them by name for weft-opt.
#pragma once
#include <llvm/IR/PassManager.h>

#include <string>

namespace llvm {
class PassBuilder;
}

namespace weft::compiler {

enum class PassStage { Prepare, Kernels, Finish, Tool };

// Runs the passes of `stage`, in the order passes.def lists them. Returns
// false, with the errors the passes reported, when one failed.
bool runPassStage(llvm::Module &module, PassStage stage, std::string &errors);

// Adds the passes of `stage` to `passes`.
void addPassStage(llvm::ModulePassManager &passes, PassStage stage);

// Adds the function passes of passes.def to the optimizer pipelines
// `builder` makes, each at its extension point.
void registerOptimizerPasses(llvm::PassBuilder &builder);

// Makes every pass of passes.def, and "weft-kernel-pipeline" (the Kernels
// stage), known to `builder`'s pipeline parser.
void registerWeftPasses(llvm::PassBuilder &builder);

} // namespace weft::compiler
