#include "compiler/passes/optimizer/split_work_item_ranges.h"

#include "compiler/analysis/work_item_loops.h"
#include "compiler/analysis/work_item_ranges.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <optional>
#include <vector>

namespace weft::compiler {
namespace {

using llvm::BasicBlock;
using llvm::ICmpInst;
using llvm::SCEV;
using llvm::Value;

// Splits per function at most: each copies a loop, and a body with several
// such branches would otherwise double its code again for each one.
constexpr unsigned kMaxSplits = 8;

std::optional<RangeBranch> findRangeBranch(const CountedLoop &counted,
                                           llvm::ScalarEvolution &scev) {
  for (BasicBlock *block : counted.loop->blocks())
    if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator()))
      if (auto range = rangeBranch(counted, *branch, scev))
        return range;
  return std::nullopt;
}

// The other branches of the loop that change direction where `range`'s
// does, the same way: the same check written again (CLBlast's Xger loads x
// under `i < m` and updates A under `i < m && j < n`, and the front end
// keeps each compare), which one split settles too. Left in place, each
// would take a split of its own out of kMaxSplits, or stay a masked branch
// once those run out.
std::vector<llvm::BranchInst *> sameRangeBranches(const CountedLoop &counted,
                                                  const RangeBranch &range,
                                                  llvm::ScalarEvolution &scev) {
  std::vector<llvm::BranchInst *> same;
  if (range.mark_second_part)
    return same;
  for (BasicBlock *block : counted.loop->blocks()) {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    if (!branch || branch == range.branch)
      continue;
    std::optional<RangeBranch> other = rangeBranch(counted, *branch, scev);
    if (other && !other->mark_second_part && other->prefix == range.prefix &&
        other->split == range.split && other->wide_last == range.wide_last &&
        other->wide_limit == range.wide_limit)
      same.push_back(branch);
  }
  return same;
}

void foldBranch(llvm::BranchInst &branch, bool taken) {
  Value *condition = branch.getCondition();
  branch.setCondition(llvm::ConstantInt::getBool(branch.getContext(), taken));
  llvm::ConstantFoldTerminator(branch.getParent());
  llvm::RecursivelyDeleteTriviallyDeadInstructions(condition);
}

// Builds, from the loop over [first, last):
//
//   preheader: split_at = first + min(split, rounds)
//              first part? -> first.preheader : second.guard
//   first.preheader -> first loop (the branch folded to `prefix`), exits
//              when the counter reaches split_at -> first.exit -> second.guard
//   second.guard: second part? -> second.preheader : exit
//   second.preheader -> the loop, from split_at (branch folded the other
//              way) -> second.exit -> exit
//
// Each loop keeps a preheader and an exit of its own, as LLVM's loop
// passes expect.
//
// With a check that the compared value does not wrap, the preheader runs
// an unsplit copy when it would; its header goes into `unsplit`.
void split(CountedLoop &counted, const RangeBranch &range,
           llvm::DominatorTree &dominators, llvm::LoopInfo &loops,
           llvm::ScalarEvolution &scev,
           llvm::SmallPtrSetImpl<BasicBlock *> &unsplit) {
  llvm::Function &function = *counted.header->getParent();
  llvm::LLVMContext &ctx = function.getContext();
  llvm::Type *type = counted.counter->getType();
  BasicBlock *preheader = counted.preheader;
  std::vector<llvm::BranchInst *> same = sameRangeBranches(counted, range, scev);

  llvm::SCEVExpander expander(scev, function.getDataLayout(), "split");
  llvm::Instruction *at = preheader->getTerminator();
  Value *rounds = expander.expandCodeFor(counted.iterations, type, at);
  Value *first_rounds = expander.expandCodeFor(
      scev.getUMinExpr(range.split, counted.iterations), type, at);
  llvm::IRBuilder<> b(at);
  Value *first = counted.counter->getIncomingValueForBlock(preheader);
  Value *split_at = b.CreateAdd(first, first_rounds, "split.at",
                                /*HasNUW=*/true);
  Value *has_first =
      b.CreateICmpNE(first_rounds, llvm::ConstantInt::get(type, 0));
  Value *has_second = b.CreateICmpNE(first_rounds, rounds);
  Value *no_wrap = nullptr;
  if (range.wide_last) {
    llvm::Type *wide = range.wide_last->getType();
    no_wrap = b.CreateICmpSLE(
        expander.expandCodeFor(range.wide_last, wide, at),
        expander.expandCodeFor(range.wide_limit, wide, at), "split.no_wrap");
  }

  BasicBlock *second_preheader =
      llvm::SplitEdge(preheader, counted.header, &dominators, &loops);
  second_preheader->setName("second.preheader");
  llvm::ValueToValueMapTy map;
  llvm::SmallVector<BasicBlock *, 8> first_blocks;
  llvm::cloneLoopWithPreheader(second_preheader, preheader, counted.loop, map,
                               ".first", &loops, &dominators, first_blocks);
  llvm::remapInstructionsInBlocks(first_blocks, map);
  auto *first_preheader = llvm::cast<BasicBlock>(map[second_preheader]);
  auto *first_header = llvm::cast<BasicBlock>(map[counted.header]);
  auto *first_latch = llvm::cast<BasicBlock>(map[counted.latch]);
  auto *first_next = llvm::cast<llvm::Instruction>(map[counted.next]);
  auto *first_branch = llvm::cast<llvm::BranchInst>(map[range.branch]);
  BasicBlock *unsplit_preheader = nullptr, *unsplit_latch = nullptr;
  if (no_wrap) {
    llvm::ValueToValueMapTy unsplit_map;
    llvm::SmallVector<BasicBlock *, 8> unsplit_blocks;
    llvm::cloneLoopWithPreheader(second_preheader, preheader, counted.loop,
                                 unsplit_map, ".unsplit", &loops, &dominators,
                                 unsplit_blocks);
    llvm::remapInstructionsInBlocks(unsplit_blocks, unsplit_map);
    unsplit_preheader = llvm::cast<BasicBlock>(unsplit_map[second_preheader]);
    unsplit_latch = llvm::cast<BasicBlock>(unsplit_map[counted.latch]);
    unsplit.insert(llvm::cast<BasicBlock>(unsplit_map[counted.header]));
    // Runs only for ids past INT_MAX and the like: not worth vectorizing
    // (nor the compile time).
    markNotVectorized(
        *llvm::cast<llvm::BranchInst>(unsplit_latch->getTerminator()));
  }

  // From here on the dominator tree and loop info are stale; the caller
  // computes them again.
  BasicBlock *second_guard =
      BasicBlock::Create(ctx, "second.guard", &function, second_preheader);
  BasicBlock *first_exit =
      BasicBlock::Create(ctx, "first.exit", &function, second_guard);
  BasicBlock *second_exit =
      BasicBlock::Create(ctx, "second.exit", &function, counted.exit);

  preheader->getTerminator()->eraseFromParent();
  if (no_wrap) {
    BasicBlock *decide =
        BasicBlock::Create(ctx, "split.decide", &function, first_preheader);
    llvm::BranchInst::Create(decide, unsplit_preheader, no_wrap, preheader);
    llvm::BranchInst::Create(first_preheader, second_guard, has_first, decide);
    BasicBlock *unsplit_exit =
        BasicBlock::Create(ctx, "unsplit.exit", &function, counted.exit);
    unsplit_latch->getTerminator()->replaceSuccessorWith(counted.exit,
                                                         unsplit_exit);
    llvm::BranchInst::Create(counted.exit, unsplit_exit);
    for (llvm::PHINode &phi : counted.exit->phis())
      phi.addIncoming(phi.getIncomingValueForBlock(counted.latch),
                      unsplit_exit);
  } else {
    llvm::BranchInst::Create(first_preheader, second_guard, has_first,
                             preheader);
  }

  llvm::Instruction *old_back_edge = first_latch->getTerminator();
  b.SetInsertPoint(old_back_edge);
  llvm::BranchInst *back_edge = b.CreateCondBr(
      b.CreateICmpNE(first_next, split_at), first_header, first_exit);
  back_edge->copyMetadata(*old_back_edge);
  Value *old_condition = old_back_edge->getOperand(0);
  old_back_edge->eraseFromParent();
  llvm::RecursivelyDeleteTriviallyDeadInstructions(old_condition);
  llvm::BranchInst::Create(second_guard, first_exit);

  llvm::BranchInst::Create(second_preheader, counted.exit, has_second,
                           second_guard);
  counted.latch->getTerminator()->replaceSuccessorWith(counted.exit,
                                                       second_exit);
  llvm::BranchInst::Create(counted.exit, second_exit);
  for (llvm::PHINode &phi : counted.exit->phis()) {
    Value *value = phi.getIncomingValueForBlock(counted.latch);
    phi.replaceIncomingBlockWith(counted.latch, second_exit);
    phi.addIncoming(value, second_guard);
  }
  counted.counter->setIncomingValueForBlock(second_preheader, split_at);

  foldBranch(*first_branch, range.prefix);
  for (llvm::BranchInst *branch : same)
    foldBranch(*llvm::cast<llvm::BranchInst>(map[branch]), range.prefix);
  if (!range.mark_second_part) {
    foldBranch(*range.branch, !range.prefix);
    for (llvm::BranchInst *branch : same)
      foldBranch(*branch, !range.prefix);
    return;
  }
  branchCompare(*range.branch)
      ->setMetadata(kAtOrPastBound, llvm::MDNode::get(ctx, {}));
}

} // namespace

llvm::PreservedAnalyses
SplitWorkItemRangesPass::run(llvm::Function &function,
                             llvm::FunctionAnalysisManager &analyses) {
  auto &libraries = analyses.getResult<llvm::TargetLibraryAnalysis>(function);
  auto &assumptions = analyses.getResult<llvm::AssumptionAnalysis>(function);
  unsigned splits = 0;
  // Headers of the copies that keep their branch, not to be split again.
  llvm::SmallPtrSet<BasicBlock *, 4> unsplit;
  size_t copied = 0;
  // One split at a time, with the analyses computed afresh for the next.
  while (splits < kMaxSplits) {
    llvm::DominatorTree dominators(function);
    llvm::LoopInfo loops(dominators);
    llvm::ScalarEvolution scev(function, libraries, assumptions, dominators,
                               loops);
    bool done = false;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      if (unsplit.contains(loop->getHeader()))
        continue;
      std::optional<CountedLoop> counted = countedLoop(*loop, scev);
      if (!counted)
        continue;
      std::optional<RangeBranch> range = findRangeBranch(*counted, scev);
      if (!range)
        continue;
      size_t copies = range->wide_last ? 2 : 1;
      size_t size = instructionsIn(*loop) * copies;
      if (copied + size > kMaxCopiedInstructions)
        continue;
      copied += size;
      split(*counted, *range, dominators, loops, scev, unsplit);
      done = true;
      break;
    }
    if (!done)
      break;
    ++splits;
  }
  if (splits == 0)
    return llvm::PreservedAnalyses::all();
  // The marks hold only for the loops as this pass left them.
  for (BasicBlock &block : function)
    for (llvm::Instruction &inst : block)
      inst.setMetadata(kAtOrPastBound, nullptr);
  llvm::removeUnreachableBlocks(function);
  return llvm::PreservedAnalyses::none();
}

} // namespace weft::compiler
