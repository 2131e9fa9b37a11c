// weft-group-entries: the entry points each kernel's plan calls for, besides
// the regions' (weft-barrier-regions): the loop over the group's work-items
// (through body.simd when Widened, with the copy and pipe leaders and
// followers when the plan has them), the read-through entry, and the
// work-item entry. Then the bodies have served their purpose: the records
// lose them, and the engine calls kept out of line for the passes before may
// be inlined.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class GroupEntriesPass : public llvm::PassInfoMixin<GroupEntriesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
