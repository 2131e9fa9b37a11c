// weft-drop-redundant-barriers: removes the barriers in the entry block of a
// kernel body that follow nothing but async copies, waits and the
// work-item's own private work. Such a barrier orders nothing: the copies
// are complete once waited for, and no work-item touched memory another can
// see. Kernels that open with "copy, wait, barrier" then run as
// barrier-free loops.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class DropRedundantBarriersPass
    : public llvm::PassInfoMixin<DropRedundantBarriersPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
