// weft-invariant-branch-versions: a loop over a group's work-items whose
// body branches on values the loop does not change (`j < n` for the other
// dimension in `if (i < m && j < n)`, once weft-split-work-item-ranges has
// taken `i < m` out) gets a second copy for the usual case, every such
// branch going the way that does the work, chosen before the loop runs;
// the original runs otherwise. LLVM unswitches such a branch itself only
// while the loop is small: CLBlast's Xger (16 updates of A a work-item
// under four checks of j) kept them, and the loop vectorizer would make
// each guarded load and store masked, which AMD's Zen runs so slowly that
// its cost model left the loop scalar. Runs after the range split, just
// before the loop vectorizer, only on loops with no other branch left.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class InvariantBranchVersionsPass
    : public llvm::PassInfoMixin<InvariantBranchVersionsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

} // namespace weft::compiler
