// weft-plain-private-volatiles: loads and stores of a work-item's own
// private variables lose `volatile`. No other work-item, and not the host,
// can see a private variable whose address never leaves its loads and
// stores, so volatile orders nothing there; but it keeps the variable in
// memory and the kernel off the widened paths. Libraries write it to dodge
// other compilers' bugs (CLBlast's `volatile int tid`, read at every tile
// load of its GEMM).
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class PlainPrivateVolatilesPass
    : public llvm::PassInfoMixin<PlainPrivateVolatilesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
