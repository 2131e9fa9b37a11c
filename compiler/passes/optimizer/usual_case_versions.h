// weft-usual-case-versions: a loop over a group's work-items whose
// branches are bounds checks (`if (i < m && j < n)`: `i` the loop's id
// against a bound, `j` the other dimension's, the same for the whole loop)
// gets a copy for the usual case, a group inside the bounds: before the
// loop runs, one check that every such branch goes the way that does the
// work for all of the loop's ids; then the copy runs with the branches
// gone, else the original (which weft-split-work-item-ranges, next, may
// still split). CLBlast's Xger and CopyPadMatrix test four and eight
// such bounds a work-item: splitting at each took more copies than a
// function is allowed, and LLVM unswitches a branch on an invariant only
// while the loop is small, so the loop vectorizer made each guarded load
// and store masked, which AMD's Zen runs so slowly that its cost model
// left the loops scalar. Runs just before the loop vectorizer, on loops
// whose every branch is such a check.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class UsualCaseVersionsPass
    : public llvm::PassInfoMixin<UsualCaseVersionsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

} // namespace weft::compiler
