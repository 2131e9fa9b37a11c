#include "compiler/analysis/group_uniform_variables.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>

namespace weft::compiler {
namespace {

// Whether `alloca`'s address is only the pointer of loads and stores of one
// scalar.
bool onlyLoadedAndStored(const llvm::AllocaInst &alloca) {
  if (!alloca.getAllocatedType()->isSingleValueType())
    return false;
  for (const llvm::User *user : alloca.users()) {
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
      if (load->isVolatile() || load->getType() != alloca.getAllocatedType())
        return false;
    } else if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
      if (store->isVolatile() || store->getValueOperand() == &alloca ||
          store->getValueOperand()->getType() != alloca.getAllocatedType())
        return false;
    } else {
      return false;
    }
  }
  return true;
}

// The values an instruction computes from its operands alone: no memory but
// invariant loads, no side effects, no calls but intrinsics that neither.
bool computesFromOperands(const llvm::Instruction &inst) {
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    return load->hasMetadata(llvm::LLVMContext::MD_invariant_load);
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
    const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(call);
    return intrinsic && !intrinsic->mayReadOrWriteMemory() &&
           !intrinsic->mayHaveSideEffects();
  }
  return !inst.mayReadOrWriteMemory() && !inst.mayHaveSideEffects() &&
         !llvm::isa<llvm::AllocaInst>(inst);
}

} // namespace

class GroupUniformity::Divergence {
public:
  Divergence(llvm::Function &work, unsigned first_local_id,
             llvm::ArrayRef<llvm::AllocaInst *> variables)
      : work_(work), post_dominators_(work) {
    for (llvm::AllocaInst *alloca : variables)
      if (onlyLoadedAndStored(*alloca))
        candidates_.insert(alloca);
    for (unsigned i = first_local_id; i < work.arg_size(); ++i)
      varying_.insert(work.getArg(i));
  }

  // Spreads "varying" from the local ids until nothing changes: to values
  // computed from varying ones, to loads of other memory, to variables
  // stored varying values or stored on paths a varying branch chooses, and
  // to the blocks such branches control.
  void run() {
    for (bool changed = true; changed;) {
      changed = false;
      for (llvm::Instruction &inst : llvm::instructions(work_))
        changed |= visit(inst);
    }
  }

  bool uniformVariable(llvm::AllocaInst *alloca) const {
    return candidates_.count(alloca) && !varying_variables_.count(alloca);
  }
  bool varying(const llvm::Value *value) const { return varying_.count(value); }
  bool someItemsOnly(const llvm::BasicBlock *block) const {
    return controlled_.count(block);
  }
  bool branchesVarying(const llvm::BasicBlock *block) const {
    const llvm::Instruction *terminator = block->getTerminator();
    if (const auto *branch = llvm::dyn_cast<llvm::BranchInst>(terminator))
      return branch->isConditional() && varying_.count(branch->getCondition());
    if (const auto *sw = llvm::dyn_cast<llvm::SwitchInst>(terminator))
      return varying_.count(sw->getCondition());
    return false;
  }
  llvm::BasicBlock *joinAfter(llvm::BasicBlock *block) const {
    llvm::DomTreeNode *node = post_dominators_.getNode(block);
    node = node ? node->getIDom() : nullptr;
    return node ? node->getBlock() : nullptr;
  }

private:
  bool markVarying(llvm::Value *value) { return varying_.insert(value).second; }

  bool visit(llvm::Instruction &inst) {
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
      auto *alloca =
          llvm::dyn_cast<llvm::AllocaInst>(store->getPointerOperand());
      if (!alloca || !candidates_.count(alloca) ||
          varying_variables_.count(alloca))
        return false;
      if (varying_.count(store->getValueOperand()) ||
          controlled_.count(store->getParent()))
        return varying_variables_.insert(alloca).second;
      return false;
    }
    if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(&inst)) {
      if (branch->isConditional() && varying_.count(branch->getCondition()))
        return markControlled(branch->getParent());
      return false;
    }
    if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(&inst)) {
      if (varying_.count(sw->getCondition()))
        return markControlled(sw->getParent());
      return false;
    }
    if (inst.getType()->isVoidTy() || varying_.count(&inst))
      return false;
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
      auto *alloca =
          llvm::dyn_cast<llvm::AllocaInst>(load->getPointerOperand());
      if (alloca && candidates_.count(alloca))
        return varying_variables_.count(alloca) ? markVarying(&inst) : false;
    }
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(&inst)) {
      // Which value arrives depends on the path: varying where a varying
      // branch chose it.
      for (llvm::BasicBlock *incoming : phi->blocks())
        if (controlled_.count(incoming) || branchesVarying(incoming))
          return markVarying(&inst);
    } else if (!computesFromOperands(inst)) {
      return markVarying(&inst);
    }
    for (llvm::Value *operand : inst.operands())
      if (varying_.count(operand))
        return markVarying(&inst);
    return false;
  }

  // The blocks `branching`'s terminator decides whether a work-item runs
  // (those post-dominating one successor but not `branching`), and in turn
  // those their terminators decide, are run by some work-items only.
  bool markControlled(llvm::BasicBlock *branching) {
    bool changed = false;
    std::vector<llvm::BasicBlock *> work{branching};
    llvm::SmallPtrSet<llvm::BasicBlock *, 16> expanded;
    while (!work.empty()) {
      llvm::BasicBlock *block = work.back();
      work.pop_back();
      if (!expanded.insert(block).second)
        continue;
      llvm::DomTreeNode *stop = post_dominators_.getNode(block)
                                    ? post_dominators_.getNode(block)->getIDom()
                                    : nullptr;
      for (llvm::BasicBlock *successor : llvm::successors(block))
        for (llvm::DomTreeNode *node = post_dominators_.getNode(successor);
             node && node != stop; node = node->getIDom()) {
          llvm::BasicBlock *controlled = node->getBlock();
          if (!controlled)
            break;
          if (controlled_.insert(controlled).second) {
            changed = true;
            work.push_back(controlled);
          }
        }
    }
    return changed;
  }

  llvm::Function &work_;
  llvm::PostDominatorTree post_dominators_;
  llvm::SmallPtrSet<llvm::AllocaInst *, 16> candidates_;
  llvm::DenseSet<const llvm::Value *> varying_;
  llvm::SmallPtrSet<llvm::AllocaInst *, 16> varying_variables_;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 32> controlled_;
};

GroupUniformity::GroupUniformity(llvm::Function &work, unsigned first_local_id,
                                 llvm::ArrayRef<llvm::AllocaInst *> variables)
    : divergence_(
          std::make_unique<Divergence>(work, first_local_id, variables)) {
  divergence_->run();
}

GroupUniformity::~GroupUniformity() = default;

bool GroupUniformity::uniformVariable(llvm::AllocaInst *variable) const {
  return divergence_->uniformVariable(variable);
}
bool GroupUniformity::varying(const llvm::Value *value) const {
  return divergence_->varying(value);
}
bool GroupUniformity::someItemsOnly(const llvm::BasicBlock *block) const {
  return divergence_->someItemsOnly(block);
}
bool GroupUniformity::branchesOnVarying(const llvm::BasicBlock *block) const {
  return divergence_->branchesVarying(block);
}
llvm::BasicBlock *GroupUniformity::joinAfter(llvm::BasicBlock *block) const {
  return divergence_->joinAfter(block);
}

} // namespace weft::compiler
