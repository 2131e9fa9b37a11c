// prefetchNextTiles: a prefetch of the next round's address for each load
// of global memory in a loop with barriers.
#include "compiler/passes/kernels/next_tile_prefetches.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <vector>

namespace weft::compiler {
namespace {

using llvm::BasicBlock;
using llvm::Instruction;
using llvm::Loop;
using llvm::Value;

constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kConstantAddressSpace = 2;
// Instructions an address may take to compute from the loop's counters:
// index arithmetic, casts and the GEP itself. Deeper ones are left alone.
constexpr unsigned kLongestAddressChain = 24;

std::vector<llvm::CallInst *> barriersOf(Loop &loop, llvm::LoopInfo &loops,
                                         const llvm::Function &marker) {
  std::vector<llvm::CallInst *> barriers;
  for (BasicBlock *block : loop.blocks())
    if (loops.getLoopFor(block) == &loop)
      for (Instruction &inst : *block)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
          if (call->getCalledFunction() == &marker)
            barriers.push_back(call);
  return barriers;
}

// Writes, before `at`, the address a value of the loop's body takes one
// round later, given that every counter (a phi of the header) steps by an
// add of a value the loop does not change. Everything the value is computed
// from inside the loop is written again, from the counters up, so `at` may
// lie anywhere in the loop. Null when the next value is not known (it
// depends on memory, on a merge of paths, or on a counter of another kind).
class NextRound {
public:
  NextRound(Loop &loop, Instruction *at) : loop_(loop), b_(at) {}

  // Erases what `of` wrote, for an address whose next value was not known.
  void discard() {
    for (auto it = written_.rbegin(); it != written_.rend(); ++it)
      (*it)->eraseFromParent();
    written_.clear();
  }

  // Whether any value `of` reached moves with the counters.
  bool moved() const { return moved_; }

  Value *of(Value *v, unsigned depth = 0) {
    auto *inst = llvm::dyn_cast<Instruction>(v);
    if (!inst || !loop_.contains(inst))
      return v;
    auto known = next_.find(v);
    if (known != next_.end())
      return known->second;
    Value *next = compute(*inst, depth);
    next_[v] = next;
    return next;
  }

private:
  Value *compute(Instruction &inst, unsigned depth) {
    if (depth > kLongestAddressChain)
      return nullptr;
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(&inst))
      return counterStep(*phi);
    // The work-item queries' reads of the group's context (its group ids)
    // give the same value in every round.
    auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
    if (load && !load->hasMetadata(llvm::LLVMContext::MD_invariant_load))
      return nullptr;
    if (!load && (!llvm::isa<llvm::BinaryOperator, llvm::CastInst,
                             llvm::GetElementPtrInst>(inst) ||
                  inst.mayReadOrWriteMemory() || inst.mayHaveSideEffects()))
      return nullptr;
    std::vector<Value *> operands;
    for (Value *operand : inst.operands()) {
      Value *next = of(operand, depth + 1);
      if (!next)
        return nullptr;
      operands.push_back(next);
    }
    return write(inst, operands, inst.getName());
  }

  // A counter of the loop's header whose next value is an add (or GEP) of
  // itself and an invariant step: that add again.
  Value *counterStep(llvm::PHINode &phi) {
    BasicBlock *latch = loop_.getLoopLatch();
    if (phi.getParent() != loop_.getHeader() || !latch)
      return nullptr;
    auto *step =
        llvm::dyn_cast<Instruction>(phi.getIncomingValueForBlock(latch));
    if (!step || !loop_.contains(step))
      return nullptr;
    bool add = false;
    if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(step))
      add = op->getOpcode() == Instruction::Add ||
            op->getOpcode() == Instruction::Sub;
    else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(step))
      add = gep->getPointerOperand() == &phi;
    if (!add)
      return nullptr;
    bool from_phi = false;
    for (Value *operand : step->operands()) {
      if (operand == &phi)
        from_phi = true;
      else if (!loop_.isLoopInvariant(operand))
        return nullptr;
    }
    if (!from_phi)
      return nullptr;
    moved_ = true;
    std::vector<Value *> operands(step->op_begin(), step->op_end());
    return write(*step, operands, phi.getName());
  }

  Value *write(Instruction &original, const std::vector<Value *> &operands,
               llvm::StringRef name) {
    Instruction *copy = original.clone();
    for (unsigned i = 0; i < operands.size(); ++i)
      copy->setOperand(i, operands[i]);
    // One round past the last the address may lie outside any object.
    copy->dropPoisonGeneratingFlags();
    b_.Insert(copy, name + ".next_round");
    written_.push_back(copy);
    return copy;
  }

  Loop &loop_;
  llvm::IRBuilder<> b_;
  llvm::DenseMap<Value *, Value *> next_;
  std::vector<Instruction *> written_;
  bool moved_ = false;
};

// Where the prefetch for `load` goes: right after the first barrier the
// load reaches in every round, so the prefetches spread over the region
// that computes on the tiles (placed beside their loads, a whole round's
// prefetches would issue at once and wait for the cache's few miss
// buffers); else beside the load.
Instruction *prefetchPlace(llvm::LoadInst &load,
                           const std::vector<llvm::CallInst *> &barriers,
                           Loop &loop, llvm::DominatorTree &dominators) {
  BasicBlock *latch = loop.getLoopLatch();
  llvm::CallInst *first = nullptr;
  for (llvm::CallInst *barrier : barriers) {
    if (!latch || !dominators.dominates(&load, barrier) ||
        !dominators.dominates(barrier->getParent(), latch))
      continue;
    if (!first || dominators.dominates(barrier, first))
      first = barrier;
  }
  return first ? first->getNextNode() : &load;
}

} // namespace

bool prefetchNextTiles(llvm::Function &work, llvm::Function &marker) {
  llvm::DominatorTree dominators(work);
  llvm::LoopInfo loops(dominators);
  struct Candidate {
    llvm::LoadInst *load;
    Loop *loop;
    Instruction *place;
  };
  std::vector<Candidate> candidates;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!llvm::any_of(marker.users(), [&](llvm::User *user) {
          auto *call = llvm::dyn_cast<llvm::CallInst>(user);
          return call && loop->contains(call);
        }))
      continue; // no barrier, here or in an inner loop
    std::vector<llvm::CallInst *> barriers = barriersOf(*loop, loops, marker);
    for (BasicBlock *block : loop->blocks()) {
      if (loops.getLoopFor(block) != loop)
        continue; // an inner loop's loads walk on their own
      for (Instruction &inst : *block) {
        auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
        if (!load || !load->isSimple())
          continue;
        unsigned space = load->getPointerAddressSpace();
        if (space == kGlobalAddressSpace || space == kConstantAddressSpace)
          candidates.push_back(
              {load, loop, prefetchPlace(*load, barriers, *loop, dominators)});
      }
    }
  }
  bool added = false;
  for (const Candidate &candidate : candidates) {
    NextRound next(*candidate.loop, candidate.place);
    Value *ahead = next.of(candidate.load->getPointerOperand());
    if (!ahead || !next.moved()) {
      next.discard();
      continue;
    }
    llvm::IRBuilder<> b(candidate.place);
    // Read, keep in every cache level, data.
    b.CreateIntrinsic(llvm::Intrinsic::prefetch, {ahead->getType()},
                      {ahead, b.getInt32(0), b.getInt32(3), b.getInt32(1)});
    added = true;
  }
  return added;
}

} // namespace weft::compiler
