#include "compiler/passes/optimizer/half_fma_in_float.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

#include <vector>

namespace weft::compiler {

llvm::PreservedAnalyses
HalfFmaInFloatPass::run(llvm::Function &function,
                        llvm::FunctionAnalysisManager &) {
  if (function.getFnAttribute("target-features")
          .getValueAsString()
          .contains("+avx512fp16"))
    return llvm::PreservedAnalyses::all();
  std::vector<llvm::IntrinsicInst *> half_fmas;
  for (llvm::Instruction &inst : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
      if (call->getIntrinsicID() == llvm::Intrinsic::fma &&
          call->getType()->getScalarType()->isHalfTy())
        half_fmas.push_back(call);
  for (llvm::IntrinsicInst *fma : half_fmas) {
    llvm::IRBuilder<> b(fma);
    llvm::Type *half = fma->getType();
    llvm::Type *single = half->getWithNewType(b.getFloatTy());
    llvm::Value *operands[3];
    for (unsigned i = 0; i < 3; ++i)
      operands[i] = b.CreateFPExt(fma->getArgOperand(i), single);
    llvm::Value *sum =
        b.CreateIntrinsic(llvm::Intrinsic::fma, {single}, operands);
    llvm::Value *rounded = b.CreateFPTrunc(sum, half, fma->getName());
    fma->replaceAllUsesWith(rounded);
    fma->eraseFromParent();
  }
  return half_fmas.empty() ? llvm::PreservedAnalyses::all()
                           : llvm::PreservedAnalyses::none();
}

} // namespace weft::compiler
