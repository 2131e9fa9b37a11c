// weft-internalize-entries: everything but the kernels' entry points
// becomes internal, so O3 can drop or inline it and the shared object
// exports nothing else.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class InternalizeEntriesPass
    : public llvm::PassInfoMixin<InternalizeEntriesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
