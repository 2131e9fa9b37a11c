// The widener's control flow: the blocks of a loop (or of the body) in an
// order that respects their masks, and each loop run while any of its
// work-items goes on round it.
#include "compiler/passes/kernels/widener.h"

#include "compiler/passes/kernels/memory_checks.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::Instruction;
using llvm::Loop;
using llvm::PHINode;
using llvm::Value;

// The blocks of `loop` (the function when null) outside its inner loops,
// and those inner loops as single steps, in an order where each comes
// after everything that reaches it without going round a loop.
std::vector<BasicBlock *> Widener::regionOrder(Loop *loop, BasicBlock *header) {
  auto stepOf = [&](BasicBlock *block) -> BasicBlock * {
    Loop *inner = loops_.getLoopFor(block);
    if (inner == loop)
      return block;
    if (!inner || (loop && !loop->contains(inner)))
      return nullptr; // outside the region
    while (inner->getParentLoop() != loop)
      inner = inner->getParentLoop();
    return inner->getHeader();
  };
  auto next = [&](BasicBlock *step) {
    std::vector<BasicBlock *> result;
    Loop *inner = loops_.getLoopFor(step);
    if (inner != loop && inner->getHeader() == step) {
      llvm::SmallVector<BasicBlock *, 4> exits;
      inner->getUniqueExitBlocks(exits);
      for (BasicBlock *exit : exits)
        if (BasicBlock *s = stepOf(exit))
          result.push_back(s);
      return result;
    }
    for (BasicBlock *successor : llvm::successors(step))
      if (successor != header)
        if (BasicBlock *s = stepOf(successor))
          result.push_back(s);
    return result;
  };
  std::vector<BasicBlock *> post;
  llvm::DenseSet<BasicBlock *> seen;
  std::vector<std::pair<BasicBlock *, size_t>> stack{{header, 0}};
  seen.insert(header);
  while (!stack.empty()) {
    auto &[step, index] = stack.back();
    std::vector<BasicBlock *> successors = next(step);
    if (index < successors.size()) {
      BasicBlock *s = successors[index++];
      if (seen.insert(s).second)
        stack.push_back({s, 0});
      continue;
    }
    post.push_back(step);
    stack.pop_back();
  }
  return std::vector<BasicBlock *>(post.rbegin(), post.rend());
}

void Widener::emitRegion(Loop *loop, BasicBlock *header) {
  std::vector<BasicBlock *> order = regionOrder(loop, header);
  emitSteps(order, 0, order.size(), loop, header);
}

// Steps `start` .. `end` of `order`, each run that can be skipped behind
// its test; runs nest (the sides of a branch inside a side).
void Widener::emitSteps(const std::vector<BasicBlock *> &order, size_t start,
                        size_t end, Loop *loop, BasicBlock *header) {
  for (size_t i = start; i < end;) {
    BlockSet blocks;
    size_t run_end = skippableRun(order, i, loop, header, blocks);
    if (run_end > i) {
      emitSkippable(order, i, run_end, loop, header, blocks);
      i = run_end;
    } else {
      emitStep(loop, header, order[i++]);
    }
  }
}

void Widener::emitStep(Loop *loop, BasicBlock *header, BasicBlock *step) {
  Loop *inner = loops_.getLoopFor(step);
  if (inner != loop && inner->getHeader() == step) {
    emitLoop(inner);
    return;
  }
  if (step != header && !masks_.hasBlock(step))
    masks_.setBlock(step, masks_.joinEdges(step));
  emitBlock(step);
}

// Linearized, both sides of a branch run for every chunk, each under its
// mask: CLBlast's GEMM kernels went through the masked loads and stores of
// their result tile (and of the partial tiles at the matrix edges) at
// every k tile with no work-item on. The steps of one side (those that
// `order[start]`, entered only from branches, dominates) are skipped
// when no work-item goes that way, where they are enough work to pay for
// the test. Returns the end of the run (`start` when there is none) and
// puts its blocks, inner loops' included, in `blocks`.
//
// A side may be entered from several branches: the `else` of `a && b`
// (CLBlast's `a_ld % VWM == 0 && a_offset % VWM == 0`, whose element-wise
// tile loads had run masked off at every k tile of its direct GEMM).
size_t Widener::skippableRun(const std::vector<BasicBlock *> &order,
                             size_t start, Loop *loop, BasicBlock *header,
                             BlockSet &blocks) {
  constexpr unsigned kLeastWorth = 16; // instructions worth a test
  BasicBlock *first = order[start];
  if (first == header || llvm::pred_empty(first))
    return start;
  for (BasicBlock *from : llvm::predecessors(first)) {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(from->getTerminator());
    if (!branch || !branch->isConditional() ||
        branch->getSuccessor(0) == branch->getSuccessor(1) ||
        loops_.getLoopFor(from) != loop || // a loop's exit: its lanes left it
        dominators_.dominates(first, from))
      return start;
  }
  BasicBlock *from = first->getSinglePredecessor();
  auto *branch =
      from ? llvm::cast<llvm::BranchInst>(from->getTerminator()) : nullptr;
  size_t end = start;
  while (end < order.size() && dominators_.dominates(first, order[end]))
    ++end;
  for (size_t i = end; i < order.size(); ++i)
    if (dominators_.dominates(first, order[i]))
      return start; // the side's steps are not one run
  // an inner loop is, and a side the memory checks mark as rarely taken
  bool worth = branch && branch->getSuccessor(0) == first &&
               branch->getMetadata(kSkippableSideMetadata);
  unsigned instructions = 0;
  for (size_t i = start; i < end; ++i) {
    BasicBlock *step = order[i];
    Loop *inner = loops_.getLoopFor(step);
    if (inner != loop && inner->getHeader() == step) {
      llvm::SmallVector<BasicBlock *, 4> exits;
      inner->getUniqueExitBlocks(exits);
      for (BasicBlock *exit : exits)
        if (!dominators_.dominates(first, exit))
          return start; // its exit phis would be written outside the run
      blocks.insert(inner->block_begin(), inner->block_end());
      worth = true;
    } else {
      blocks.insert(step);
    }
  }
  // A loop work-items leave apart may skip the rest of a round that no
  // work-item is in, latch included: the mask going round is then none,
  // and the loop ends. Its last round was otherwise run whole with every
  // lane off (a grid-stride loop's, each round a few masked accesses):
  // with AVX2 a masked load whose lanes are all off still faults in a
  // microcode assist where they point past the end of the buffer, and
  // CLBlast's generic Xhad ran at 2.3 GB/s against 15.7 with AVX-512's
  // masks on the same Xeon. Work-items leaving together go round on
  // a scalar test (emitTerminator) that the run would hide.
  BasicBlock *exiting = loop ? loop->getExitingBlock() : nullptr;
  bool leave_together = exiting && together_exits_.count(exiting);
  bool latch = false, accesses = false;
  for (BasicBlock *block : blocks) {
    for (BasicBlock *successor : llvm::successors(block))
      if (successor == header) {
        if (leave_together)
          return start; // the latch: the loop's mask goes round from it
        latch = true;
      }
    for (Instruction &inst : *block) {
      if (llvm::isa<PHINode>(inst) || inst.isTerminator())
        continue;
      // A masked access counts for several; a gather or scatter, an access
      // per lane (with every lane off too, on AVX2), is worth the test on
      // its own: CLBlast's SYMV reads the other triangle's element, a row
      // apart per work-item, on a side no work-item of most chunks takes.
      worth |= varying_.gathers(inst);
      accesses |= inst.mayReadOrWriteMemory();
      instructions += inst.mayReadOrWriteMemory() ? 4 : 1;
    }
  }
  // A test a round, against a last round of accesses with every lane off;
  // a round of arithmetic alone (an escape-time loop's) costs less than
  // the test.
  worth |= latch && accesses;
  return worth || instructions >= kLeastWorth ? end : start;
}

// The run's steps behind a test that some work-item is on at its first
// block. Where it was skipped, the edges leaving it carry no work-item and
// the values it defines for later blocks are poison, which only lanes off
// those edges could read.
void Widener::emitSkippable(const std::vector<BasicBlock *> &order,
                            size_t start, size_t end, Loop *loop,
                            BasicBlock *header, const BlockSet &blocks) {
  llvm::LLVMContext &ctx = vector_fn_.getContext();
  BasicBlock *first = order[start];
  if (!masks_.hasBlock(first))
    masks_.setBlock(first, masks_.joinEdges(first));
  BasicBlock *skipped = b_.GetInsertBlock();
  BasicBlock *some = BasicBlock::Create(ctx, "wi.some", &vector_fn_);
  BasicBlock *joined = BasicBlock::Create(ctx, "wi.joined", &vector_fn_);
  b_.CreateCondBr(masks_.anyLane(masks_.block(first)), some, joined);
  b_.SetInsertPoint(some);
  emitStep(loop, header, first);
  emitSteps(order, start + 1, end, loop, header);
  BasicBlock *ran = b_.GetInsertBlock();
  b_.CreateBr(joined);
  b_.SetInsertPoint(joined);
  auto merged = [&](Value *value, Value *none, llvm::StringRef name) {
    PHINode *phi = b_.CreatePHI(value->getType(), 2, name);
    phi->addIncoming(value, ran);
    phi->addIncoming(none, skipped);
    return phi;
  };
  // In the function's order, not the set's (pointers, which differ from
  // run to run): the phis come out alike in every build.
  std::vector<BasicBlock *> in_order;
  for (BasicBlock &block : scalar_)
    if (blocks.count(&block))
      in_order.push_back(&block);
  for (BasicBlock *block : in_order)
    for (BasicBlock *successor : llvm::successors(block))
      if (!blocks.count(successor)) {
        Value *edge = masks_.edge(block, successor);
        if (llvm::isa<PHINode>(edge) &&
            llvm::cast<PHINode>(edge)->getParent() == joined)
          continue; // a second edge to the same block
        masks_.setEdge(block, successor,
                       merged(edge,
                              llvm::Constant::getNullValue(edge->getType()),
                              "wi.edge"));
      }
  for (BasicBlock *block : in_order)
    for (Instruction &inst : *block) {
      bool used_later = llvm::any_of(inst.users(), [&](llvm::User *user) {
        return !blocks.count(llvm::cast<Instruction>(user)->getParent());
      });
      if (!used_later)
        continue;
      for (auto *values : {&vector_, &uniform_}) {
        auto found = values->find(&inst);
        if (found != values->end())
          found->second = merged(
              found->second, llvm::PoisonValue::get(found->second->getType()),
              inst.getName());
      }
      splats_.erase(&inst); // made again after the phi
    }
}

// A loop runs while any work-item continues round it. Work-items that
// leave keep the values they leave with in accumulators, which the phis
// of the exit blocks then read, and each exit block runs for the
// work-items that left by it.
//
// A loop whose one way out is a test every work-item going round makes
// alike, in its header or latch, lets them all leave together: the loop
// keeps the mask it was entered with, a scalar branch on the test decides
// each round, and the values leaving are those of the last round. With
// all lanes active (a row's full chunks: entry_builder.cpp) that mask is
// all true, and the loop's masked loads and stores fold into plain ones
// (naive sgemm's k loop loaded through vmaskmov at every step on AVX2).
void Widener::emitLoop(Loop *loop) {
  llvm::LLVMContext &ctx = vector_fn_.getContext();
  BasicBlock *header = loop->getHeader(), *preheader = loop->getLoopPreheader();
  BasicBlock *latch = loop->getLoopLatch();
  llvm::SmallVector<BasicBlock *, 4> exits;
  loop->getUniqueExitBlocks(exits);
  Value *entry_mask = masks_.edge(preheader, header);
  BasicBlock *exiting = loop->getExitingBlock();
  auto *exit_branch =
      exiting ? llvm::dyn_cast<llvm::BranchInst>(exiting->getTerminator())
              : nullptr;
  bool together =
      varying_.uniformLoop(loop) && exits.size() == 1 &&
      (exiting == header || exiting == latch) && exit_branch &&
      exit_branch->isConditional() && !varies(exit_branch->getCondition()) &&
      exit_branch->getSuccessor(0) != exit_branch->getSuccessor(1) &&
      std::none_of(loop->block_begin(), loop->block_end(),
                   [](BasicBlock *block) {
                     // A work-item returning inside stops.
                     return llvm::succ_empty(block);
                   });
  BasicBlock *before = b_.GetInsertBlock();
  BasicBlock *body = BasicBlock::Create(ctx, "wi.loop", &vector_fn_);
  BasicBlock *after = BasicBlock::Create(ctx, "wi.exit", &vector_fn_);
  if (together)
    // A loop in a branch no work-item took must not go round on its
    // scalar test alone.
    together_exits_[exiting] = {exits[0], after, masks_.anyLane(entry_mask)};
  b_.CreateBr(body);
  b_.SetInsertPoint(body);
  PHINode *mask = b_.CreatePHI(masks_.type(), 2, "wi.mask");
  mask->addIncoming(entry_mask, before);
  // Per exit block: the work-items that left by it so far.
  // (Work-items leaving together need none: they leave in the last round.)
  std::vector<PHINode *> left;
  for (size_t i = 0; i < exits.size() && !together; ++i) {
    left.push_back(b_.CreatePHI(masks_.type(), 2, "wi.left"));
    left.back()->addIncoming(llvm::Constant::getNullValue(masks_.type()),
                             before);
  }
  std::vector<std::pair<PHINode *, PHINode *>> carried, kept, counters;
  for (PHINode &phi : header->phis()) {
    if (!varies(&phi)) { // the loop's own counter, one for all
      PHINode *s = b_.CreatePHI(phi.getType(), 2, phi.getName());
      s->addIncoming(uniform(phi.getIncomingValueForBlock(preheader)), before);
      uniform_[&phi] = s;
      counters.push_back({&phi, s});
      continue;
    }
    PHINode *v =
        b_.CreatePHI(vectorOf(phi.getType(), lanes_), 2, phi.getName());
    v->addIncoming(widened(phi.getIncomingValueForBlock(preheader)), before);
    vector_[&phi] = v;
    carried.push_back({&phi, v});
  }
  for (BasicBlock *exit : exits)
    for (PHINode &phi : exit->phis()) {
      if (together) {
        kept.push_back({&phi, nullptr});
        continue;
      }
      PHINode *v =
          b_.CreatePHI(vectorOf(phi.getType(), lanes_), 2, phi.getName());
      v->addIncoming(llvm::PoisonValue::get(v->getType()), before);
      kept.push_back({&phi, v});
    }
  masks_.setBlock(header, mask);
  emitRegion(loop, header);
  BasicBlock *end = b_.GetInsertBlock();
  if (together) {
    // Only the values leaving are needed after the loop: those its
    // exiting block had in the last round, which dominate `after`.
    for (auto [phi, none] : kept)
      loop_exit_values_[phi] = widened(phi->getIncomingValueForBlock(exiting));
    for (auto [phi, v] : carried)
      v->addIncoming(widened(phi->getIncomingValueForBlock(latch)), end);
    for (auto [phi, s] : counters)
      s->addIncoming(uniform(phi->getIncomingValueForBlock(latch)), end);
    mask->addIncoming(mask, end);
    // The exiting block's scalar branch (emitTerminator) decided whether
    // this round goes on; here it has.
    b_.CreateBr(body);
    together_exits_.erase(exiting);
    b_.SetInsertPoint(after);
    masks_.setBlock(exits[0], entry_mask);
    return;
  }
  std::vector<Value *> all_left;
  for (size_t i = 0; i < exits.size(); ++i) {
    Value *leaving = left[i];
    for (BasicBlock *from : llvm::predecessors(exits[i]))
      leaving = b_.CreateOr(leaving, masks_.edge(from, exits[i]));
    left[i]->addIncoming(leaving, end);
    all_left.push_back(leaving);
  }
  for (auto [phi, accumulator] : kept) {
    Value *value = accumulator;
    for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
      value =
          masks_.select(masks_.edge(phi->getIncomingBlock(i), phi->getParent()),
                        widened(phi->getIncomingValue(i)), value);
    accumulator->addIncoming(value, end);
    loop_exit_values_[phi] = value;
  }
  for (auto [phi, v] : carried)
    v->addIncoming(widened(phi->getIncomingValueForBlock(latch)), end);
  for (auto [phi, s] : counters)
    s->addIncoming(uniform(phi->getIncomingValueForBlock(latch)), end);
  Value *again = masks_.edge(latch, header);
  mask->addIncoming(again, end);
  b_.CreateCondBr(masks_.anyLane(again), body, after);
  b_.SetInsertPoint(after);
  for (size_t i = 0; i < exits.size(); ++i)
    masks_.setBlock(exits[i], all_left[i]);
}

} // namespace weft::compiler
