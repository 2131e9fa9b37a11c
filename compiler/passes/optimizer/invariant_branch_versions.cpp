#include "compiler/passes/optimizer/invariant_branch_versions.h"

#include "compiler/analysis/work_item_loops.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include <optional>
#include <vector>

namespace weft::compiler {
namespace {

using llvm::BasicBlock;

// Instructions the copies may add to one function, all loops together: a
// long kernel body keeps its branches rather than have its optimization
// and code generation take twice as long.
constexpr size_t kMaxCopiedInstructions = 2000;

// A branch on a value the loop does not change, and the way it goes in the
// copy made for the usual case.
struct InvariantBranch {
  llvm::BranchInst *branch;
  bool expected;
};

// The blocks of `loop` reachable from `from` without going round (through
// the header again).
llvm::SmallPtrSet<BasicBlock *, 16> reachable(llvm::Loop &loop,
                                              BasicBlock *from) {
  llvm::SmallPtrSet<BasicBlock *, 16> seen;
  std::vector<BasicBlock *> work;
  if (loop.contains(from) && from != loop.getHeader()) {
    seen.insert(from);
    work.push_back(from);
  }
  while (!work.empty()) {
    BasicBlock *block = work.back();
    work.pop_back();
    for (BasicBlock *next : llvm::successors(block))
      if (loop.contains(next) && next != loop.getHeader() &&
          seen.insert(next).second)
        work.push_back(next);
  }
  return seen;
}

// What a side of a branch does that the other does not: the writes to
// memory first (a bounds check guards the store), then all instructions.
std::pair<size_t, size_t>
workOnlyOn(const llvm::SmallPtrSetImpl<BasicBlock *> &side,
           const llvm::SmallPtrSetImpl<BasicBlock *> &other) {
  size_t writes = 0, instructions = 0;
  for (BasicBlock *block : side) {
    if (other.contains(block))
      continue;
    for (llvm::Instruction &inst : *block) {
      writes += inst.mayWriteToMemory();
      ++instructions;
    }
  }
  return {writes, instructions};
}

// The way a branch goes where the work-item does its work: the side with
// more of it that the other side skips (`if (j < n) { update }`: true;
// `if (j >= n) return;`: false). None when neither side does anything
// the other does not (a branch that only selects a value).
std::optional<bool> workingSide(llvm::Loop &loop, llvm::BranchInst &branch) {
  auto taken = reachable(loop, branch.getSuccessor(0));
  auto not_taken = reachable(loop, branch.getSuccessor(1));
  auto on_taken = workOnlyOn(taken, not_taken);
  auto on_not_taken = workOnlyOn(not_taken, taken);
  if (on_taken == on_not_taken)
    return std::nullopt;
  return on_taken > on_not_taken;
}

// The loop's branches on values it does not change, when they are its only
// branches besides the back edge: with them settled it is straight, and
// vectorizes without masks. Empty when the loop does not qualify.
std::vector<InvariantBranch> invariantBranches(llvm::Loop &loop) {
  std::vector<InvariantBranch> found;
  if (!loop.isInnermost() || !isWorkItemLoop(loop) ||
      !loop.isLoopSimplifyForm() || !loop.isSafeToClone() ||
      !loop.getExitBlock() || loop.getExitingBlock() != loop.getLoopLatch() ||
      llvm::getOptionalBoolLoopAttribute(&loop, "llvm.loop.vectorize.enable") ==
          false)
    return found;
  for (BasicBlock *block : loop.blocks()) {
    llvm::Instruction *terminator = block->getTerminator();
    if (block == loop.getLoopLatch())
      continue;
    if (llvm::isa<llvm::SwitchInst>(terminator))
      return {};
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(terminator);
    if (!branch)
      return {};
    if (!branch->isConditional() ||
        branch->getSuccessor(0) == branch->getSuccessor(1))
      continue;
    llvm::Value *condition = branch->getCondition();
    auto *defined = llvm::dyn_cast<llvm::Instruction>(condition);
    if (defined && loop.contains(defined))
      return {}; // a branch that varies: masked anyway
    std::optional<bool> expected = workingSide(loop, *branch);
    if (!expected)
      continue;
    found.push_back({branch, *expected});
  }
  for (BasicBlock *block : loop.blocks())
    for (llvm::Instruction &inst : *block)
      for (llvm::User *user : inst.users())
        if (auto *used_by = llvm::dyn_cast<llvm::Instruction>(user);
            !used_by || !loop.contains(used_by->getParent()))
          return {}; // values leave the loop: two copies would need phis
  return found;
}

size_t instructionsIn(const llvm::Loop &loop) {
  size_t count = 0;
  for (const BasicBlock *block : loop.blocks())
    count += block->size();
  return count;
}

// Builds, from the loop:
//
//   preheader: usual = every condition as expected (frozen: a condition
//              the body might not reach must not make the check undefined)
//              usual? -> usual.preheader : preheader of the original
//   usual.preheader -> a copy of the loop, each branch folded -> exit
//
// The copy keeps the loop's id, so it stays a loop over work-items.
void version(llvm::Loop &loop, const std::vector<InvariantBranch> &branches,
             llvm::DominatorTree &dominators, llvm::LoopInfo &loops) {
  BasicBlock *preheader = loop.getLoopPreheader();
  BasicBlock *header = loop.getHeader();
  BasicBlock *latch = loop.getLoopLatch();
  BasicBlock *exit = loop.getExitBlock();

  llvm::IRBuilder<> b(preheader->getTerminator());
  llvm::Value *usual = nullptr;
  for (const InvariantBranch &invariant : branches) {
    llvm::Value *condition = b.CreateFreeze(invariant.branch->getCondition());
    if (!invariant.expected)
      condition = b.CreateNot(condition);
    usual = usual ? b.CreateAnd(usual, condition) : condition;
  }
  usual->setName("usual");

  BasicBlock *original_preheader =
      llvm::SplitEdge(preheader, header, &dominators, &loops);
  llvm::ValueToValueMapTy map;
  llvm::SmallVector<BasicBlock *, 8> copied;
  llvm::cloneLoopWithPreheader(original_preheader, preheader, &loop, map,
                               ".usual", &loops, &dominators, copied);
  llvm::remapInstructionsInBlocks(copied, map);
  auto *usual_preheader = llvm::cast<BasicBlock>(map[original_preheader]);
  auto *usual_latch = llvm::cast<BasicBlock>(map[latch]);

  // From here on the dominator tree and loop info are stale; the caller
  // computes them again.
  preheader->getTerminator()->eraseFromParent();
  llvm::BranchInst::Create(usual_preheader, original_preheader, usual,
                           preheader);
  for (llvm::PHINode &phi : exit->phis())
    phi.addIncoming(phi.getIncomingValueForBlock(latch), usual_latch);
  for (const InvariantBranch &invariant : branches) {
    auto *branch = llvm::cast<llvm::BranchInst>(map[invariant.branch]);
    branch->setCondition(
        llvm::ConstantInt::getBool(branch->getContext(), invariant.expected));
    llvm::ConstantFoldTerminator(branch->getParent());
  }
}

} // namespace

llvm::PreservedAnalyses
InvariantBranchVersionsPass::run(llvm::Function &function,
                                 llvm::FunctionAnalysisManager &) {
  // Headers of the loops versioned, whose branches stay for the unusual
  // case.
  llvm::SmallPtrSet<BasicBlock *, 8> done;
  size_t copied = 0;
  bool changed = false;
  for (;;) {
    llvm::DominatorTree dominators(function);
    llvm::LoopInfo loops(dominators);
    bool versioned = false;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      if (done.contains(loop->getHeader()))
        continue;
      std::vector<InvariantBranch> branches = invariantBranches(*loop);
      if (branches.empty())
        continue;
      size_t size = instructionsIn(*loop);
      if (copied + size > kMaxCopiedInstructions)
        continue;
      copied += size;
      BasicBlock *header = loop->getHeader();
      version(*loop, branches, dominators, loops);
      done.insert(header);
      versioned = true;
      break;
    }
    if (!versioned)
      break;
    changed = true; // the copy has no such branch left: not found again
  }
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::removeUnreachableBlocks(function);
  return llvm::PreservedAnalyses::none();
}

} // namespace weft::compiler
