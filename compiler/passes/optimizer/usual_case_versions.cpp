#include "compiler/passes/optimizer/usual_case_versions.h"

#include "compiler/analysis/work_item_loops.h"
#include "compiler/analysis/work_item_ranges.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <optional>
#include <set>
#include <vector>

namespace weft::compiler {
namespace {

using llvm::BasicBlock;
using llvm::SCEV;

// A bounds check of the loop, and the way it goes in the copy made for
// the usual case: on a value the loop does not change, or on the id
// against a bound (`range`).
struct Check {
  llvm::BranchInst *branch;
  bool expected;
  std::optional<RangeBranch> range;
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

// The loop's bounds checks, when they are all its branches besides the
// back edge (with them settled it is straight, and vectorizes without
// masks) and worth a copy: one on a value the loop does not change, or
// two at different ids (one alone, weft-split-work-item-ranges splits
// the loop at, and both parts are plain). Empty when the loop does not
// qualify.
std::vector<Check> usualChecks(const CountedLoop &counted,
                               llvm::ScalarEvolution &scev) {
  llvm::Loop &loop = *counted.loop;
  std::vector<Check> found;
  if (llvm::getOptionalBoolLoopAttribute(&loop, "llvm.loop.vectorize.enable") ==
      false)
    return found;
  bool invariant = false;
  std::set<const SCEV *> splits;
  for (BasicBlock *block : loop.blocks()) {
    llvm::Instruction *terminator = block->getTerminator();
    if (block == counted.latch)
      continue;
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(terminator);
    if (!branch)
      return {};
    if (!branch->isConditional() ||
        branch->getSuccessor(0) == branch->getSuccessor(1))
      continue;
    std::optional<bool> expected = workingSide(loop, *branch);
    auto *defined = llvm::dyn_cast<llvm::Instruction>(branch->getCondition());
    if (!defined || !loop.contains(defined)) {
      if (expected) {
        found.push_back({branch, *expected, std::nullopt});
        invariant = true;
      }
      continue;
    }
    std::optional<RangeBranch> range = rangeBranch(counted, *branch, scev);
    if (!range || range->mark_second_part || !expected)
      return {}; // a branch that varies otherwise: masked anyway
    splits.insert(range->split);
    found.push_back({branch, *expected, range});
  }
  if (!invariant && splits.size() < 2)
    return {};
  return found;
}

// Builds, from the loop:
//
//   preheader: usual = every check goes its expected way for all ids
//              (conditions frozen: one the body might not reach must not
//              make the check undefined)
//              usual? -> usual.preheader : preheader of the original
//   usual.preheader -> a copy of the loop, each check folded -> exit
//
// The copy keeps the loop's id, so it stays a loop over work-items.
void version(const CountedLoop &counted, const std::vector<Check> &checks,
             llvm::ScalarEvolution &scev, llvm::DominatorTree &dominators,
             llvm::LoopInfo &loops) {
  llvm::Loop &loop = *counted.loop;
  BasicBlock *preheader = counted.preheader;
  llvm::Type *type = counted.counter->getType();

  llvm::SCEVExpander expander(scev, preheader->getDataLayout(), "usual");
  llvm::Instruction *at = preheader->getTerminator();
  llvm::IRBuilder<> b(at);
  llvm::Value *usual = nullptr;
  auto add = [&](llvm::Value *condition) {
    usual = usual ? b.CreateAnd(usual, condition) : condition;
  };
  for (const Check &check : checks) {
    if (!check.range) {
      llvm::Value *condition = b.CreateFreeze(check.branch->getCondition());
      add(check.expected ? condition : b.CreateNot(condition));
      continue;
    }
    const RangeBranch &range = *check.range;
    llvm::Value *split = expander.expandCodeFor(range.split, type, at);
    if (check.expected == range.prefix) {
      // Every id before the split.
      llvm::Value *rounds =
          expander.expandCodeFor(counted.iterations, type, at);
      add(b.CreateICmpUGE(split, rounds));
    } else {
      add(b.CreateICmpEQ(split, llvm::ConstantInt::get(type, 0)));
    }
    if (range.wide_last) {
      llvm::Type *wide = range.wide_last->getType();
      add(b.CreateICmpSLE(expander.expandCodeFor(range.wide_last, wide, at),
                          expander.expandCodeFor(range.wide_limit, wide, at)));
    }
  }
  usual->setName("usual");

  BasicBlock *original_preheader =
      llvm::SplitEdge(preheader, counted.header, &dominators, &loops);
  llvm::ValueToValueMapTy map;
  llvm::SmallVector<BasicBlock *, 8> copied;
  llvm::cloneLoopWithPreheader(original_preheader, preheader, &loop, map,
                               ".usual", &loops, &dominators, copied);
  llvm::remapInstructionsInBlocks(copied, map);
  auto *usual_preheader = llvm::cast<BasicBlock>(map[original_preheader]);
  auto *usual_latch = llvm::cast<BasicBlock>(map[counted.latch]);

  // From here on the dominator tree and loop info are stale; the caller
  // computes them again.
  preheader->getTerminator()->eraseFromParent();
  llvm::BranchInst::Create(usual_preheader, original_preheader, usual,
                           preheader);
  for (llvm::PHINode &phi : counted.exit->phis())
    phi.addIncoming(phi.getIncomingValueForBlock(counted.latch), usual_latch);
  for (const Check &check : checks) {
    auto *branch = llvm::cast<llvm::BranchInst>(map[check.branch]);
    llvm::Value *condition = branch->getCondition();
    branch->setCondition(
        llvm::ConstantInt::getBool(branch->getContext(), check.expected));
    llvm::ConstantFoldTerminator(branch->getParent());
    llvm::RecursivelyDeleteTriviallyDeadInstructions(condition);
  }
}

} // namespace

llvm::PreservedAnalyses
UsualCaseVersionsPass::run(llvm::Function &function,
                           llvm::FunctionAnalysisManager &analyses) {
  auto &libraries = analyses.getResult<llvm::TargetLibraryAnalysis>(function);
  auto &assumptions = analyses.getResult<llvm::AssumptionAnalysis>(function);
  // Headers of the loops versioned, whose checks stay for the unusual case.
  llvm::SmallPtrSet<BasicBlock *, 8> done;
  size_t copied = 0;
  bool changed = false;
  // One loop at a time, with the analyses computed afresh for the next.
  for (;;) {
    llvm::DominatorTree dominators(function);
    llvm::LoopInfo loops(dominators);
    llvm::ScalarEvolution scev(function, libraries, assumptions, dominators,
                               loops);
    bool versioned = false;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      if (done.contains(loop->getHeader()))
        continue;
      std::optional<CountedLoop> counted = countedLoop(*loop, scev);
      if (!counted)
        continue;
      std::vector<Check> checks = usualChecks(*counted, scev);
      if (checks.empty())
        continue;
      size_t size = instructionsIn(*loop);
      if (copied + size > kMaxCopiedInstructions)
        continue;
      copied += size;
      done.insert(loop->getHeader());
      version(*counted, checks, scev, dominators, loops);
      versioned = true;
      break;
    }
    if (!versioned)
      break;
    changed = true; // the copy has no check left: not found again
  }
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::removeUnreachableBlocks(function);
  return llvm::PreservedAnalyses::none();
}

} // namespace weft::compiler
