#include "compiler/passes/optimizer/plain_local_atomics.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/LowerAtomic.h>

#include <vector>

namespace weft::compiler {
namespace {

constexpr unsigned kLocalAddressSpace = 3;

bool onLocalMemory(llvm::Value *pointer) {
  return pointer->getType()->getPointerAddressSpace() == kLocalAddressSpace;
}

} // namespace

llvm::PreservedAnalyses
PlainLocalAtomicsPass::run(llvm::Function &function,
                           llvm::FunctionAnalysisManager &) {
  std::vector<llvm::AtomicRMWInst *> updates;
  std::vector<llvm::AtomicCmpXchgInst *> exchanges;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst)) {
      if (onLocalMemory(rmw->getPointerOperand()))
        updates.push_back(rmw);
    } else if (auto *cmpxchg = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst)) {
      if (onLocalMemory(cmpxchg->getPointerOperand()))
        exchanges.push_back(cmpxchg);
    }
  }
  if (updates.empty() && exchanges.empty())
    return llvm::PreservedAnalyses::all();
  for (llvm::AtomicRMWInst *rmw : updates)
    llvm::lowerAtomicRMWInst(rmw);
  for (llvm::AtomicCmpXchgInst *cmpxchg : exchanges)
    llvm::lowerAtomicCmpXchgInst(cmpxchg);
  llvm::PreservedAnalyses kept;
  kept.preserveSet<llvm::CFGAnalyses>();
  return kept;
}

} // namespace weft::compiler
