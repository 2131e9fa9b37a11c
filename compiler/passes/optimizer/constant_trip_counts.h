// weft-constant-trip-counts: a loop whose trip count is an expression that
// can only take one value gets an exit test LLVM sees as that constant. The
// common case is a kernel loop over a work-item's share of a tile,
// `for (r = get_local_id(1); r < 32; r += 8)` in groups of 8 rows: its count,
// (31 - y) / 8 + 1, is 4 for every y below 8 (the group's bound,
// weft-barrier-regions). LLVM's unroller fully unrolls only loops whose trip
// count is a constant, so without this the kernel loop stays a loop, the
// work-item loop around it is not innermost, and the loop vectorizer leaves
// it scalar. Runs in LLVM's loop pipeline just before full unrolling.
#pragma once
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>

namespace weft::compiler {

class ConstantTripCountsPass
    : public llvm::PassInfoMixin<ConstantTripCountsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Loop &loop,
                              llvm::LoopAnalysisManager &analyses,
                              llvm::LoopStandardAnalysisResults &results,
                              llvm::LPMUpdater &updater);
};

} // namespace weft::compiler
