#include "compiler/passes/optimizer/parallel_work_item_loops.h"

#include "compiler/analysis/work_item_loops.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace weft::compiler {
namespace {

// Intrinsics that reach memory only through their pointer operands, as a
// load or store would.
bool plainAccess(const llvm::IntrinsicInst &intrinsic) {
  switch (intrinsic.getIntrinsicID()) {
  case llvm::Intrinsic::masked_load:
  case llvm::Intrinsic::masked_store:
  case llvm::Intrinsic::masked_gather:
  case llvm::Intrinsic::masked_scatter:
  case llvm::Intrinsic::memcpy:
  case llvm::Intrinsic::memmove:
  case llvm::Intrinsic::memset:
  case llvm::Intrinsic::prefetch:
  case llvm::Intrinsic::assume:
  case llvm::Intrinsic::experimental_noalias_scope_decl:
    return true;
  default:
    return false;
  }
}

// The loop's accesses to memory, or nothing where one of them may be how
// work-items rightly see each other (or is not a plain access).
bool collectAccesses(const llvm::Loop &loop,
                     llvm::SmallVectorImpl<llvm::Instruction *> &accesses) {
  for (llvm::BasicBlock *block : loop.blocks())
    for (llvm::Instruction &inst : *block) {
      if (!inst.mayReadOrWriteMemory())
        continue;
      if (inst.isAtomic() || llvm::isa<llvm::FenceInst>(inst))
        return false;
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
        auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(call);
        if (!intrinsic || !plainAccess(*intrinsic))
          return false;
      } else if (!llvm::isa<llvm::LoadInst, llvm::StoreInst>(inst)) {
        return false;
      }
      accesses.push_back(&inst);
    }
  return true;
}

} // namespace

llvm::PreservedAnalyses
ParallelWorkItemLoopsPass::run(llvm::Function &function,
                               llvm::FunctionAnalysisManager &) {
  if (!hasWorkItemLoop(function))
    return llvm::PreservedAnalyses::all();
  // Private memory the inliner left is one alloca for every work-item.
  for (llvm::Instruction &inst : llvm::instructions(function))
    if (llvm::isa<llvm::AllocaInst>(inst))
      return llvm::PreservedAnalyses::all();
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  bool changed = false;
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    llvm::BasicBlock *latch = loop->getLoopLatch();
    if (!isWorkItemLoop(*loop) || !loop->isInnermost() || !latch ||
        !llvm::isa<llvm::BranchInst>(latch->getTerminator()) ||
        loop->isAnnotatedParallel() || runsWorkItemsInTurn(*loop))
      continue;
    llvm::SmallVector<llvm::Instruction *, 32> accesses;
    if (!collectAccesses(*loop, accesses) || accesses.empty())
      continue;
    markParallelAccesses(
        *llvm::cast<llvm::BranchInst>(latch->getTerminator()), accesses);
    changed = true;
  }
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses kept;
  kept.preserveSet<llvm::CFGAnalyses>();
  return kept;
}

} // namespace weft::compiler
