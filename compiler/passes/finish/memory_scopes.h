// Tells LLVM that __local memory never overlaps __global or __constant
// memory. On x86 every address space is one flat memory, so without this the
// optimizer must assume a store to a buffer may change a local tile, and the
// loop vectorizer, which cannot compare pointers of different address
// spaces at run time, gives up on loops that touch both.
#pragma once
#include <llvm/IR/PassManager.h>

namespace llvm {
class Module;
}

namespace weft::compiler {

// Tags every load, store and atomic through an address-space 1, 2 or 3
// pointer with scoped-noalias metadata that separates local memory from the
// other two. Accesses through private or generic pointers stay untagged (the
// device's own code reaches local memory through plain pointers).
void separateLocalMemory(llvm::Module &module);

// weft-separate-local-memory: separateLocalMemory as a pass.
class SeparateLocalMemoryPass
    : public llvm::PassInfoMixin<SeparateLocalMemoryPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
