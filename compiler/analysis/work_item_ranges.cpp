#include "compiler/analysis/work_item_ranges.h"

#include "compiler/analysis/work_item_loops.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Instructions.h>

#include <iterator>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::ICmpInst;
using llvm::SCEV;
using llvm::Value;

size_t instructionsIn(const llvm::Loop &loop) {
  size_t count = 0;
  for (const BasicBlock *block : loop.blocks())
    count += block->size();
  return count;
}

ICmpInst *branchCompare(llvm::BranchInst &branch) {
  if (!branch.isConditional())
    return nullptr;
  // Through a freeze LLVM put on the compare when it moved the branch
  // (CLBlast's CopyPadMatrix): where the compare is not poison the freeze
  // is the compare, and where it is, either way is the freeze's to take.
  Value *condition = branch.getCondition();
  if (auto *frozen = llvm::dyn_cast<llvm::FreezeInst>(condition))
    condition = frozen->getOperand(0);
  return llvm::dyn_cast<ICmpInst>(condition);
}

namespace {

bool usedOnlyInside(const llvm::Loop &loop) {
  for (BasicBlock *block : loop.blocks())
    for (llvm::Instruction &instruction : *block)
      for (llvm::User *user : instruction.users()) {
        auto *used_by = llvm::dyn_cast<llvm::Instruction>(user);
        if (!used_by || !loop.contains(used_by->getParent()))
          return false;
      }
  return true;
}

} // namespace

std::optional<CountedLoop> countedLoop(llvm::Loop &loop,
                                       llvm::ScalarEvolution &scev) {
  if (!loop.isInnermost() || !isWorkItemLoop(loop) ||
      !loop.isLoopSimplifyForm() || !loop.isSafeToClone())
    return std::nullopt;
  CountedLoop counted;
  counted.loop = &loop;
  counted.preheader = loop.getLoopPreheader();
  counted.header = loop.getHeader();
  counted.latch = loop.getLoopLatch();
  counted.exit = loop.getExitBlock();
  if (!counted.exit || loop.getExitingBlock() != counted.latch)
    return std::nullopt;
  auto *back_edge =
      llvm::dyn_cast<llvm::BranchInst>(counted.latch->getTerminator());
  if (!back_edge || !back_edge->isConditional())
    return std::nullopt;
  auto phis = counted.header->phis();
  if (std::distance(phis.begin(), phis.end()) != 1)
    return std::nullopt;
  counted.counter = &*phis.begin();
  if (!counted.counter->getType()->isIntegerTy())
    return std::nullopt;
  auto *counter =
      llvm::dyn_cast<llvm::SCEVAddRecExpr>(scev.getSCEV(counted.counter));
  if (!counter || counter->getLoop() != &loop || !counter->isAffine() ||
      !counter->getStepRecurrence(scev)->isOne())
    return std::nullopt;
  counted.next = llvm::dyn_cast<llvm::Instruction>(
      counted.counter->getIncomingValueForBlock(counted.latch));
  if (!counted.next ||
      scev.getSCEV(counted.next) != counter->getPostIncExpr(scev))
    return std::nullopt;
  // Rounds = taken back edges + 1, which does not wrap while the counter's
  // next value does not: first + taken + 1 fits.
  const SCEV *taken = scev.getBackedgeTakenCount(&loop);
  auto *next = llvm::dyn_cast<llvm::SCEVAddRecExpr>(scev.getSCEV(counted.next));
  if (llvm::isa<llvm::SCEVCouldNotCompute>(taken) ||
      taken->getType() != counted.counter->getType() || !next ||
      !next->hasNoUnsignedWrap())
    return std::nullopt;
  counted.iterations = scev.getAddExpr(taken, scev.getOne(taken->getType()));
  if (!usedOnlyInside(loop))
    return std::nullopt;
  return counted;
}

// `value pred bound` as "true for the first `split` rounds, then false" (or
// the reverse), where value is {start,+,step} in the loop, step > 0, and
// does not wrap in the sense the predicate compares.
std::optional<RangeBranch> rangeBranch(const CountedLoop &counted,
                                       llvm::BranchInst &branch,
                                       llvm::ScalarEvolution &scev) {
  llvm::Loop &loop = *counted.loop;
  if (!branch.isConditional() || &branch == counted.latch->getTerminator() ||
      branch.getSuccessor(0) == branch.getSuccessor(1))
    return std::nullopt;
  ICmpInst *compare = branchCompare(branch);
  if (!compare || loop.isLoopInvariant(compare) ||
      !compare->getOperand(0)->getType()->isIntegerTy())
    return std::nullopt;
  const SCEV *value = scev.getSCEV(compare->getOperand(0));
  const SCEV *bound = scev.getSCEV(compare->getOperand(1));
  ICmpInst::Predicate predicate = compare->getPredicate();
  if (!llvm::isa<llvm::SCEVAddRecExpr>(value)) {
    std::swap(value, bound);
    predicate = ICmpInst::getSwappedPredicate(predicate);
  }
  auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(value);
  if (!rec || rec->getLoop() != &loop || !rec->isAffine() ||
      !scev.isLoopInvariant(bound, &loop) ||
      !scev.isAvailableAtLoopEntry(bound, &loop) ||
      !scev.isAvailableAtLoopEntry(rec->getStart(), &loop))
    return std::nullopt;
  auto *step = llvm::dyn_cast<llvm::SCEVConstant>(rec->getStepRecurrence(scev));
  if (!step || !step->getAPInt().isStrictlyPositive())
    return std::nullopt;
  llvm::Type *type = rec->getType();
  if (type->getIntegerBitWidth() >
      counted.counter->getType()->getIntegerBitWidth())
    return std::nullopt;

  bool equality = ICmpInst::isEquality(predicate);
  bool equal = predicate == ICmpInst::ICMP_EQ;
  if (equality) {
    // Each id in turn, never wrapping: below the bound == is false, and
    // from the bound on it holds for the bound alone.
    if (!step->getAPInt().isOne() || !rec->hasNoUnsignedWrap())
      return std::nullopt;
    if (compare->getMetadata(kAtOrPastBound)) {
      // Here every id is at or past the bound: == holds in the first round
      // if it starts at the bound, and in none after.
      llvm::Type *counter_type = counted.counter->getType();
      const SCEV *one = scev.getOne(counter_type);
      const SCEV *past = scev.getMinusSCEV(
          scev.getNoopOrZeroExtend(rec->getStart(), counter_type),
          scev.getNoopOrZeroExtend(bound, counter_type));
      RangeBranch range;
      range.branch = &branch;
      range.prefix = equal;
      range.split = scev.getMinusSCEV(one, scev.getUMinExpr(past, one));
      return range;
    }
    predicate = equal ? ICmpInst::ICMP_UGE : ICmpInst::ICMP_ULT;
  }
  bool is_signed = ICmpInst::isSigned(predicate);
  bool or_equal =
      predicate == ICmpInst::ICMP_ULE || predicate == ICmpInst::ICMP_UGT ||
      predicate == ICmpInst::ICMP_SLE || predicate == ICmpInst::ICMP_SGT;
  if (!or_equal && predicate != ICmpInst::ICMP_ULT &&
      predicate != ICmpInst::ICMP_UGE && predicate != ICmpInst::ICMP_SLT &&
      predicate != ICmpInst::ICMP_SGE)
    return std::nullopt;
  // Seen as `value < bound` (strictly): true first, or its negation first.
  bool prefix =
      predicate == ICmpInst::ICMP_ULT || predicate == ICmpInst::ICMP_ULE ||
      predicate == ICmpInst::ICMP_SLT || predicate == ICmpInst::ICMP_SLE;
  unsigned bits = type->getIntegerBitWidth();

  RangeBranch range;
  // Without wrapping, the value only grows: the condition changes once.
  if (is_signed ? !rec->hasNoSignedWrap() : !rec->hasNoUnsignedWrap()) {
    if (bits > 64 || step->getAPInt().getActiveBits() > 32)
      return std::nullopt;
    llvm::Type *wide = llvm::Type::getInt128Ty(type->getContext());
    const SCEV *start = is_signed
                            ? scev.getSignExtendExpr(rec->getStart(), wide)
                            : scev.getZeroExtendExpr(rec->getStart(), wide);
    const SCEV *taken = scev.getBackedgeTakenCount(&loop);
    range.wide_last = scev.getAddExpr(
        start, scev.getMulExpr(scev.getZeroExtendExpr(taken, wide),
                               scev.getZeroExtendExpr(step, wide)));
    range.wide_limit =
        scev.getConstant((is_signed ? llvm::APInt::getSignedMaxValue(bits)
                                    : llvm::APInt::getMaxValue(bits))
                             .zext(128));
  }

  // In the counter's type, where a narrower value and its bound compare
  // alike once extended (the value does not wrap), and where bound + 1
  // then fits.
  llvm::Type *counter_type = counted.counter->getType();
  auto extend = [&](const SCEV *narrow) {
    return is_signed ? scev.getNoopOrSignExtend(narrow, counter_type)
                     : scev.getNoopOrZeroExtend(narrow, counter_type);
  };
  const SCEV *start = extend(rec->getStart());
  bound = extend(bound);
  if (or_equal) {
    // value <= bound is value < bound + 1 while bound + 1 does not wrap.
    if (bits == counter_type->getIntegerBitWidth()) {
      const SCEV *most =
          scev.getConstant(is_signed ? llvm::APInt::getSignedMaxValue(bits)
                                     : llvm::APInt::getMaxValue(bits));
      if (!scev.isKnownPredicate(
              is_signed ? ICmpInst::ICMP_SLT : ICmpInst::ICMP_ULT, bound, most))
        return std::nullopt;
    }
    bound = scev.getAddExpr(bound, scev.getOne(counter_type));
  }
  // Rounds j with start + j * step < bound: ceil((bound - start) / step),
  // 0 once start >= bound. max(bound, start) - start is never negative,
  // and fits unsigned.
  const SCEV *above = is_signed ? scev.getSMaxExpr(bound, start)
                                : scev.getUMaxExpr(bound, start);
  range.split = scev.getUDivCeilSCEV(scev.getMinusSCEV(above, start),
                                     scev.getConstant(step->getAPInt().zext(
                                         counter_type->getIntegerBitWidth())));
  range.branch = &branch;
  range.prefix = prefix;
  range.mark_second_part = equality;
  return range;
}

} // namespace weft::compiler
