// weft-safe-division: OpenCL C says an integer division by zero, and
// INT_MIN / -1, give an unspecified value and raise no exception; x86's
// div and idiv trap, and a trap in a kernel kills the application. Each
// division or remainder whose divisor LLVM cannot prove safe divides by 1
// instead: a compare and an or (and, for INT_MIN / -1, an xor).
// Divisions by constants and by values known non-zero are left alone, so
// kernels that cannot trap pay nothing. Runs last in the optimizer, once
// constants have been folded in.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class SafeDivisionPass : public llvm::PassInfoMixin<SafeDivisionPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace weft::compiler
