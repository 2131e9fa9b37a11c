// weft-demanded-id-bits: an index put together from bit fields
// (`tid = x + 8 * y`, then `tid % 8` and `tid / 8`, as CLBlast spreads its
// work-items over a tile) is read one field at a time. Where a use demands
// only bits that one part of a disjoint `or` (or carry-free `add`) can set,
// it reads that part: `tid % 8` becomes `x`, `tid / 8` becomes `y`. The
// widener then sees neighbouring work-items at neighbouring addresses, not
// a gather.
#pragma once
#include <llvm/IR/PassManager.h>

namespace llvm {
class Function;
} // namespace llvm

namespace weft::compiler {

// Rewrites the uses of `f` that demand only one part of a value made of
// disjoint parts to read that part; returns whether `f` changed. Run
// InstCombine after it: what is left (`x & 7` with x below 8) folds there.
bool readDemandedIdBits(llvm::Function &f);

// readDemandedIdBits on every function of a module (weft-opt, for IR tests;
// the widener calls it on the copy it reads).
class DemandedIdBitsPass : public llvm::PassInfoMixin<DemandedIdBitsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
