// Values that live across a barrier in the work-item function
// weft-barrier-regions cuts: recomputed where they are used, saved before the
// barrier and reloaded after it, or, failing both, demoted to memory.
#include "compiler/passes/kernels/barrier_crossings.h"

#include "compiler/passes/kernels/next_tile_prefetches.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>

namespace weft::compiler {
namespace {

using llvm::BasicBlock;
using llvm::IRBuilder;
using llvm::Value;

// Keeps `value` across the barriers it lives across in a variable of its
// own: stored at the end of the block before each barrier, loaded again at
// the start of the block after it, and every use takes the definition that
// reaches it (SSAUpdater). Within a region the value stays in a register: an
// accumulator updated in a loop between two barriers is loaded once per
// region run and stored once, where a value demoted everywhere would be
// stored and loaded at every step of the loop, and the work-item loop
// around it would not vectorize. Returns false, changing nothing, when the
// value is defined in the block a barrier resumes at.
bool saveAcrossBarriers(llvm::Instruction &value,
                        const std::vector<BasicBlock *> &barriers,
                        llvm::Function &work) {
  BasicBlock *home = value.getParent();
  for (BasicBlock *barrier : barriers)
    if (barrier->getSingleSuccessor() == home)
      return false;
  llvm::Type *type = value.getType();
  IRBuilder<> b(&work.getEntryBlock(), work.getEntryBlock().begin());
  llvm::AllocaInst *slot =
      b.CreateAlloca(type, nullptr, value.getName() + ".across");
  llvm::SSAUpdater updater;
  updater.Initialize(type, value.getName());
  updater.AddAvailableValue(home, &value);
  llvm::DenseMap<BasicBlock *, Value *> reloads;
  for (BasicBlock *barrier : barriers) {
    // isolateBarriers made both neighbours: one way in, one way out.
    BasicBlock *before = barrier->getSinglePredecessor();
    b.SetInsertPoint(before->getTerminator());
    b.CreateStore(&value, slot);
    BasicBlock *after = barrier->getSingleSuccessor();
    b.SetInsertPoint(after, after->getFirstInsertionPt());
    Value *reload = b.CreateLoad(type, slot, value.getName() + ".reload");
    updater.AddAvailableValue(after, reload);
    reloads[after] = reload;
  }
  for (llvm::Use &use : llvm::make_early_inc_range(value.uses())) {
    auto *user = llvm::cast<llvm::Instruction>(use.getUser());
    if (llvm::isa<llvm::PHINode>(user)) {
      updater.RewriteUse(use); // the value at the end of the incoming block
      continue;
    }
    // A use in the value's own block follows its definition; one in a block
    // a barrier resumes at follows the reload at its top. SSAUpdater would
    // give both the value that reaches the block's start.
    if (user->getParent() == home)
      continue;
    auto reload = reloads.find(user->getParent());
    if (reload != reloads.end())
      use.set(reload->second);
    else
      updater.RewriteUse(use);
  }
  return true;
}

// Whether `value` can be computed again where it is used, from constants,
// the function's arguments (kernel arguments, context, local ids) and the
// context's invariant fields: no memory, no side effects, at most `budget`
// instructions. The copy runs where the original had already run, with the
// same operands, so it cannot trap where the original did not.
bool recomputable(Value *value, unsigned &budget) {
  auto *inst = llvm::dyn_cast<llvm::Instruction>(value);
  if (!inst)
    return llvm::isa<llvm::Constant, llvm::Argument>(value);
  if (budget == 0 ||
      llvm::isa<llvm::PHINode, llvm::AllocaInst, llvm::CallBase>(inst) ||
      inst->mayHaveSideEffects())
    return false;
  --budget;
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
    if (!load->hasMetadata(llvm::LLVMContext::MD_invariant_load))
      return false;
  } else if (inst->mayReadFromMemory()) {
    return false;
  }
  for (Value *operand : inst->operands())
    if (!recomputable(operand, budget))
      return false;
  return true;
}

// A copy of `value`'s computation (recomputable) right before `before`.
Value *recompute(Value *value, llvm::Instruction *before) {
  auto *inst = llvm::dyn_cast<llvm::Instruction>(value);
  if (!inst)
    return value;
  llvm::Instruction *copy = inst->clone();
  for (unsigned i = 0; i < copy->getNumOperands(); ++i)
    copy->setOperand(i, recompute(inst->getOperand(i), before));
  copy->insertBefore(before);
  copy->setName(inst->getName() + ".again");
  return copy;
}

} // namespace

bool prepareWorkItemFunction(llvm::Function &work, llvm::Function &marker,
                             Regions &regions,
                             std::vector<llvm::AllocaInst *> &allocas,
                             std::string &why) {
  for (llvm::Instruction &inst :
       llvm::make_early_inc_range(llvm::instructions(work)))
    if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
      if (intrinsic->isLifetimeStartOrEnd())
        intrinsic->eraseFromParent();
  std::vector<llvm::AllocaInst *> promotable;
  for (llvm::Instruction &inst : llvm::instructions(work)) {
    auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst);
    if (!alloca)
      continue;
    if (!alloca->isStaticAlloca() ||
        alloca->getParent() != &work.getEntryBlock()) {
      why = "a variable of run-time size";
      return false;
    }
    if (llvm::isAllocaPromotable(alloca))
      promotable.push_back(alloca);
  }
  {
    llvm::DominatorTree dominators(work);
    llvm::PromoteMemToReg(promotable, dominators);
  }
  // Loops unrolled without simplifying the CFG leave branches on constants
  // (a loop's guard of `true`): without their dead edges a tile's loads
  // dominate the barrier after them. No block is merged or moved.
  for (BasicBlock &block : work)
    llvm::ConstantFoldTerminator(&block);
  llvm::removeUnreachableBlocks(work);
  // Now that the loop counters are values, while the loops are whole.
  prefetchNextTiles(work, marker);
  regions = findRegions(work, isolateBarriers(work, marker));

  // Saving a value makes phis, and a demoted phi becomes a load in its
  // block: either may itself live across a barrier, so repeat until no value
  // does. A value still crossing after it was saved, or any after a few
  // rounds, is demoted everywhere, which always ends this.
  llvm::SmallPtrSet<llvm::Instruction *, 16> saved;
  for (unsigned round = 0;; ++round) {
    std::vector<llvm::Instruction *> crossing;
    for (llvm::Instruction &inst : llvm::instructions(work))
      if (!llvm::isa<llvm::AllocaInst>(inst) && !inst.getType()->isVoidTy() &&
          !barriersCrossedBy(inst, regions).empty())
        crossing.push_back(&inst);
    if (crossing.empty())
      break;
    for (llvm::Instruction *inst : crossing) {
      // Ids, addresses and sizes derived from them are cheaper to compute
      // again in each region than to keep per work-item, and LLVM still
      // sees what they are (affine in the local id) when it vectorizes.
      unsigned budget = 24;
      if (recomputable(inst, budget)) {
        for (llvm::Use &use : llvm::make_early_inc_range(inst->uses())) {
          auto *user = llvm::cast<llvm::Instruction>(use.getUser());
          auto *phi = llvm::dyn_cast<llvm::PHINode>(user);
          if (!phi && user->getParent() == inst->getParent())
            continue;
          use.set(recompute(
              inst, phi ? phi->getIncomingBlock(use)->getTerminator() : user));
        }
        continue;
      }
      if (round < 4 && saved.insert(inst).second &&
          saveAcrossBarriers(*inst, barriersCrossedBy(*inst, regions), work))
        continue;
      if (auto *phi = llvm::dyn_cast<llvm::PHINode>(inst))
        llvm::DemotePHIToStack(phi);
      else
        llvm::DemoteRegToStack(*inst);
    }
  }

  // Variables leave the blocks the regions copy; each region maps them to
  // the group's shared copy or the work-item's slot.
  auto *home = BasicBlock::Create(work.getContext(), "variables", &work);
  new llvm::UnreachableInst(work.getContext(), home);
  for (llvm::Instruction &inst :
       llvm::make_early_inc_range(work.getEntryBlock()))
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst)) {
      alloca->moveBefore(home->getTerminator());
      allocas.push_back(alloca);
    }
  return true;
}

} // namespace weft::compiler
