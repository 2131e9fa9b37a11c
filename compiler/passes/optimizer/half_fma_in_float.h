// weft-half-fma-in-float: OpenCL C's mad on half (and halfN) is an
// llvm.fma on half values (builtins/math.cl), which CPUs with AVX-512 FP16
// run natively, 32 lanes to a register. Without AVX-512 FP16, LLVM's x86
// code generator splits a half FMA into one scalar float FMA per element;
// this pass writes it instead as a float FMA of whole vectors with one
// conversion on each side (F16C's vcvtph2ps and vcvtps2ph), which mad's
// accuracy (it may round twice) allows. Weft's fma on half never becomes
// llvm.fma (it rounds once, in float: builtins/math.cl), so only mad's
// FMAs are rewritten; a contracted a * b + c (llvm.fmuladd) is left to
// LLVM, which rounds the product and the sum to half each. Runs with the
// early instruction combining, before LLVM's vectorizers.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class HalfFmaInFloatPass : public llvm::PassInfoMixin<HalfFmaInFloatPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace weft::compiler
