#include "compiler/passes/optimizer/constant_trip_counts.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Local.h>

namespace weft::compiler {

llvm::PreservedAnalyses
ConstantTripCountsPass::run(llvm::Loop &loop, llvm::LoopAnalysisManager &,
                            llvm::LoopStandardAnalysisResults &results,
                            llvm::LPMUpdater &) {
  llvm::ScalarEvolution &scev = results.SE;
  llvm::BasicBlock *header = loop.getHeader();
  llvm::BasicBlock *latch = loop.getLoopLatch();
  llvm::BasicBlock *preheader = loop.getLoopPreheader();
  // One way out, at the latch: the count of back edges is the number of
  // times the latch's branch goes back.
  if (!latch || !preheader || loop.getExitingBlock() != latch)
    return llvm::PreservedAnalyses::all();
  auto *branch = llvm::dyn_cast<llvm::BranchInst>(latch->getTerminator());
  if (!branch || !branch->isConditional())
    return llvm::PreservedAnalyses::all();
  const llvm::SCEV *back_edges = scev.getBackedgeTakenCount(&loop);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(back_edges) ||
      llvm::isa<llvm::SCEVConstant>(back_edges))
    return llvm::PreservedAnalyses::all();
  llvm::ConstantRange range = scev.getUnsignedRange(back_edges);
  const llvm::APInt *only = range.getSingleElement();
  if (!only)
    return llvm::PreservedAnalyses::all();

  // A counter of the back edges taken, and the latch goes back while it is
  // below the one possible count. The old test stays for whatever else
  // uses it; LLVM drops it when nothing does.
  llvm::Type *type = back_edges->getType();
  llvm::IRBuilder<> b(header, header->getFirstInsertionPt());
  llvm::PHINode *taken = b.CreatePHI(type, 2, "back_edges_taken");
  b.SetInsertPoint(branch);
  llvm::Value *next =
      b.CreateAdd(taken, llvm::ConstantInt::get(type, 1), "", true, true);
  taken->addIncoming(llvm::ConstantInt::get(type, 0), preheader);
  taken->addIncoming(next, latch);
  llvm::Value *old_condition = branch->getCondition();
  llvm::Constant *count = llvm::ConstantInt::get(type, *only);
  branch->setCondition(
      branch->getSuccessor(0) == header
          ? b.CreateICmpNE(taken, count, "constant_trip_count")
          : b.CreateICmpEQ(taken, count, "constant_trip_count"));
  llvm::RecursivelyDeleteTriviallyDeadInstructions(old_condition);
  scev.forgetLoop(&loop);
  return llvm::getLoopPassPreservedAnalyses();
}

} // namespace weft::compiler
