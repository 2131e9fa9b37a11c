// weft-wide-indices: an array index computed in `int` (OpenCL C's usual
// `a[k * ld + i]`) reaches its address as a sign extension of 32-bit
// arithmetic. The front end marks that arithmetic as never overflowing
// (nsw), which is what lets LLVM move the extension to the leaves and
// step a pointer through a loop instead of recomputing each address; but
// the optimizations that run before the loops are looked at (instruction
// combining's `(x + 1) * 33` -> `x * 33 + 33`, reassociation) drop the
// marks, and the extension then stays on the sum. CLBlast's direct GEMM
// read its local tiles in a k loop that spent an add and a sign
// extension on every element it broadcast: more integer instructions
// than FMAs. Here, while the marks are still there, each such index is
// computed in 64 bits instead (the same value: the 32-bit arithmetic was
// promised not to overflow), the extension moved to the index's leaves.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class WideIndicesPass : public llvm::PassInfoMixin<WideIndicesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
