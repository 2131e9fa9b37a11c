// weft-whole-runs-in-loops: where widened work-items each hold a run of N
// neighbouring elements (a register tile of N consecutive results, as
// CLBlast's XgemmDirect keeps: `cpd[_mi]` for `m = _mi + lid * MWID`), the
// widener loads the runs of all lanes as one wide vector and takes it apart
// into N vectors, element k of every work-item's run in each. A loop that
// only ever combines those parts lane by lane with values the same in
// every lane (a GEMM's k loop: `c[_mi] += a[_mi] * b`) can keep them
// together in memory order instead: one vector of N x lanes elements, no
// shuffles. Its accumulators are carried round the loop in that order,
// put in order once before the loop and taken apart once after it.
// XgemmDirectNN's k loop took a 32-float row of A apart with four
// permutes a step and ran sixteen 8-lane FMAs (AVX-512: half the width of
// the FMA units; with AVX2 code, four lanes wide and more shuffles than
// FMAs); kept whole, the same step is eight 16-lane FMAs on rows loaded as
// they lie. Runs just before LLVM's loop vectorizer, on innermost loops.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class WholeRunsInLoopsPass : public llvm::PassInfoMixin<WholeRunsInLoopsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

} // namespace weft::compiler
