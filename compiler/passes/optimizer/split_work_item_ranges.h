// weft-split-work-item-ranges: a loop over a group's work-items whose body
// branches on the work-item's id against a bound the loop does not change
// (`if (lid < step)` in a tree reduction, `if (gid < n)` in a kernel
// launched on a rounded-up range) runs as two loops, one over the ids for
// which the branch goes one way and one over the rest, each with the branch
// gone. `if (gid == k)` (or !=) splits twice: the ids below k, then from k
// on, where == is <=, k alone and the ids past it. LLVM's loop vectorizer
// would otherwise if-convert the branch into
// masked loads and stores on every iteration: vmaskmov on AVX2, which AMD's
// Zen 2/3 run many times slower than plain moves (bench/RESULTS.md, session
// 16), and lanes of wasted work wherever few ids take the branch. Runs just
// before the loop vectorizer, on the loops Weft built (work_item_loops.h).
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class SplitWorkItemRangesPass
    : public llvm::PassInfoMixin<SplitWorkItemRangesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

} // namespace weft::compiler
