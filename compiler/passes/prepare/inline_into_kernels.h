// weft-inline-into-kernels: OpenCL C has no recursion, and work-item queries
// must end up in the kernel that owns the context: every function of the
// program is inlined into its kernels (before the builtin library is
// linked; its builtins are inlined later, by kernel-bodies and O3).
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class InlineIntoKernelsPass
    : public llvm::PassInfoMixin<InlineIntoKernelsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
};

} // namespace weft::compiler
