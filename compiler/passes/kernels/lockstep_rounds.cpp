// A barrier at the top of an outer loop whose inner loop's strided rows the
// group's work-items share (lockstep_rounds.h).
#include "compiler/passes/kernels/lockstep_rounds.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_features.h"
#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/kernels/next_tile_prefetches.h"
#include "compiler/passes/kernels/widening_checks.h"
#include "compiler/support/analysis_managers.h"
#include "compiler/support/standalone_evolution.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>

namespace weft::compiler {
namespace {

using llvm::Value;

// The values that depend on any of `ids` (a work-item's local ids), found
// forward from them through every use (loop cycles included), and from the
// calls other than intrinsics and the loads of private variables, whose
// results are taken to depend on them too (the group's context, read
// through a pointer argument, is the same for all).
class IdDependence {
public:
  IdDependence(llvm::Function &f, llvm::ArrayRef<Value *> ids) {
    std::vector<Value *> pending(ids.begin(), ids.end());
    for (llvm::Instruction &inst : llvm::instructions(f)) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
      auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
      if ((call && !llvm::isa<llvm::IntrinsicInst>(call)) ||
          (load && llvm::isa<llvm::AllocaInst>(
                       llvm::getUnderlyingObject(load->getPointerOperand()))))
        pending.push_back(&inst);
    }
    while (!pending.empty()) {
      Value *v = pending.back();
      pending.pop_back();
      if (!dependent_.insert(v).second)
        continue;
      for (llvm::User *user : v->users())
        if (llvm::isa<llvm::Instruction>(user) && !dependent_.count(user))
          pending.push_back(user);
    }
  }

  bool dependsOnId(Value *v) const { return dependent_.count(v) != 0; }

private:
  llvm::SmallPtrSet<Value *, 32> dependent_;
};

bool groupFeaturesAllowBarrier(llvm::Function &body) {
  KernelFeatures features = computeKernelFeatures(body);
  return !features.barriers() && !features.asyncCopies() &&
         !features.workGroupPipes() && !features.subGroupExchanges() &&
         !features.has(BuiltinFamily::WorkGroupPipeCall) &&
         !features.has(BuiltinFamily::WorkGroupCollective) &&
         !features.has(BuiltinFamily::Barrier) &&
         !features.has(BuiltinFamily::Printf) && !features.waits_on_work_items;
}

// Whether every work-item of a group reaches `block`: each branch on the way
// that some dominating block decides either is decided alike for all (no
// local id reaches its condition; a guard `k > 0` on the loop) or comes
// together again before `block`.
bool reachedByAll(llvm::BasicBlock &block, llvm::DominatorTree &dominators,
                  llvm::PostDominatorTree &post_dominators,
                  const IdDependence &ids) {
  for (llvm::DomTreeNode *node = dominators.getNode(&block); node;
       node = node->getIDom()) {
    llvm::BasicBlock *decider = node->getBlock();
    llvm::Instruction *terminator = decider->getTerminator();
    if (decider == &block || terminator->getNumSuccessors() < 2 ||
        post_dominators.dominates(&block, decider))
      continue;
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(terminator);
    if (!branch || ids.dependsOnId(branch->getCondition()))
      return false;
  }
  return true;
}

// Whether every work-item of a group goes round `loop` as often: each exit
// is decided by values no local id reaches.
bool sameRounds(llvm::Loop &loop, const IdDependence &ids) {
  llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
  loop.getExitingBlocks(exiting);
  for (llvm::BasicBlock *block : exiting) {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    if (!branch || !branch->isConditional() ||
        ids.dependsOnId(branch->getCondition()))
      return false;
  }
  return !exiting.empty();
}

// Whether an inner loop of `outer` loads a far-stepping row (stepsFar) that
// the group's rows share: its address does not depend on the y local id.
bool sharesStridedRows(llvm::Loop &outer, llvm::ScalarEvolution &evolution,
                       const IdDependence &rows) {
  for (llvm::Loop *inner : outer.getLoopsInPreorder()) {
    if (inner == &outer || !inner->isInnermost())
      continue;
    for (llvm::BasicBlock *block : inner->blocks())
      for (llvm::Instruction &inst : *block)
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
            load && !rows.dependsOnId(load->getPointerOperand()) &&
            stepsFar(*load, *inner, evolution))
          return true;
  }
  return false;
}

// The loop of `f` (a cleaned copy of a body) to go round in lockstep, or
// null.
llvm::Loop *lockstepLoop(llvm::Function &f, llvm::LoopInfo &loops,
                         llvm::DominatorTree &dominators) {
  unsigned n = f.arg_size() - 4;
  Value *x = f.getArg(n + 1), *y = f.getArg(n + 2), *z = f.getArg(n + 3);
  if (y->use_empty())
    return nullptr; // rows of one work-item: nothing to share across them
  llvm::PostDominatorTree post_dominators(f);
  StandaloneEvolution standalone(f, dominators, loops);
  llvm::ScalarEvolution &evolution = standalone.evolution;
  IdDependence any_id(f, {x, y, z});
  IdDependence rows(f, {y});
  for (llvm::Loop *loop : loops) { // outermost loops
    llvm::BasicBlock *preheader = loop->getLoopPreheader();
    if (!loop->isInnermost() && preheader &&
        reachedByAll(*preheader, dominators, post_dominators, any_id) &&
        sameRounds(*loop, any_id) && sharesStridedRows(*loop, evolution, rows))
      return loop;
  }
  return nullptr;
}

// Judged on a cleaned copy of the body (variables in registers, loops with
// preheaders; the front end's body keeps its counters in memory); when a
// loop qualifies, that copy, the barrier added, becomes the body.
bool addLockstepBarrier(llvm::Function &body, llvm::Function &marker) {
  if (!groupFeaturesAllowBarrier(body) ||
      body.getArg(body.arg_size() - 2)->use_empty())
    return false;
  llvm::ValueToValueMapTy map;
  llvm::Function *copy = llvm::CloneFunction(&body, map);
  {
    llvm::PassBuilder builder;
    AnalysisManagers analyses(builder);
    llvm::FunctionPassManager passes;
    addCleanupPasses(passes);
    passes.addPass(llvm::LoopSimplifyPass());
    passes.run(*copy, analyses.functions);
  }
  // Register tiles' loops (CLBlast's `#pragma unroll` loops over a
  // work-item's elements) unrolled, as the widener will: the k steps are
  // then the innermost loop.
  unrollLoopsIndexingPrivateArrays(*copy, true);
  llvm::DominatorTree dominators(*copy);
  llvm::LoopInfo loops(dominators);
  llvm::Loop *loop = lockstepLoop(*copy, loops, dominators);
  if (!loop) {
    copy->eraseFromParent();
    return false;
  }
  llvm::CallInst::Create(&marker, {copy->getArg(copy->arg_size() - 4)}, "",
                         loop->getHeader()->getFirstInsertionPt());
  std::vector<llvm::BasicBlock *> old;
  for (llvm::BasicBlock &block : body)
    old.push_back(&block);
  for (llvm::BasicBlock *block : old)
    block->dropAllReferences();
  for (llvm::BasicBlock *block : old)
    block->eraseFromParent();
  for (unsigned i = 0; i < body.arg_size(); ++i)
    copy->getArg(i)->replaceAllUsesWith(body.getArg(i));
  body.splice(body.end(), copy);
  copy->eraseFromParent();
  return true;
}

} // namespace

llvm::PreservedAnalyses
LockstepRoundsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  llvm::Function *marker = findBuiltin(module, Builtin::BarrierMarker);
  if (!marker)
    return llvm::PreservedAnalyses::all();
  bool changed = false;
  for (const KernelRecord &record : readKernelRecords(module))
    // A group required to be one row (reqd_work_group_size(x, 1, 1)) has
    // no rows to share across.
    if (record.body && record.description.reqd_work_group_size[1] != 1)
      changed |= addLockstepBarrier(*record.body, *marker);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
