#include "compiler/analysis/waiting_loops.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace weft::compiler {
namespace {

bool waitingLoad(const llvm::Instruction &inst) {
  auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
  return load && (load->isAtomic() || load->isVolatile());
}

// Whether a call of `f` returns what an atomic or volatile load read: a
// builtin (atomic_load, atomic_load_explicit) not inlined yet, or a
// function of the program's.
bool loadsForCaller(const llvm::Function *f, unsigned depth = 0) {
  if (!f || f->isDeclaration() || f->getReturnType()->isVoidTy() || depth > 3)
    return false;
  for (const llvm::Instruction &inst : llvm::instructions(*f)) {
    if (waitingLoad(inst))
      return true;
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (loadsForCaller(call->getCalledFunction(), depth + 1))
        return true;
  }
  return false;
}

// Whether `value`, computed in `loop`, depends on a waiting load made in it.
bool dependsOnWaitingLoad(llvm::Value *value, const llvm::Loop &loop) {
  llvm::SmallPtrSet<llvm::Value *, 32> seen;
  std::vector<llvm::Value *> work{value};
  while (!work.empty()) {
    auto *inst = llvm::dyn_cast<llvm::Instruction>(work.back());
    work.pop_back();
    if (!inst || !loop.contains(inst) || !seen.insert(inst).second)
      continue;
    if (waitingLoad(*inst))
      return true;
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(inst)) {
      if (loadsForCaller(call->getCalledFunction()))
        return true;
      continue; // an opaque result: its arguments are not what it returns
    }
    for (llvm::Value *operand : inst->operands())
      work.push_back(operand);
  }
  return false;
}

} // namespace

std::vector<llvm::Loop *> loopsWaitingOnOthers(llvm::LoopInfo &loops) {
  std::vector<llvm::Loop *> waiting;
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
    loop->getExitingBlocks(exiting);
    for (llvm::BasicBlock *block : exiting) {
      auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
      if (branch && branch->isConditional() &&
          dependsOnWaitingLoad(branch->getCondition(), *loop)) {
        waiting.push_back(loop);
        break;
      }
    }
  }
  return waiting;
}

bool waitsOnOtherWorkItems(llvm::Function &body) {
  llvm::DominatorTree dominators(body);
  llvm::LoopInfo loops(dominators);
  return !loopsWaitingOnOthers(loops).empty();
}

} // namespace weft::compiler
