// prefetchNextTiles: a prefetch of the next round's address beside each
// load of global memory in a loop with barriers.
#include "compiler/passes/kernels/next_tile_prefetches.h"

#include <llvm/ADT/DenseMap.h>
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

bool callsMarker(const Loop &loop, const llvm::Function &marker) {
  for (const BasicBlock *block : loop.blocks())
    for (const Instruction &inst : *block)
      if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (call->getCalledFunction() == &marker)
          return true;
  return false;
}

// Writes, before `at`, the value `v` takes one round of `loop` later, given
// that every counter (a phi of the header) steps by an add of a value the
// loop does not change. Returns `v` itself when it does not move with the
// counters, and null when its next value is not known (it depends on
// memory, on a merge of paths, or on a counter of another kind).
class NextRound {
public:
  NextRound(Loop &loop, Instruction *at) : loop_(loop), b_(at) {}

  // Erases what `of` wrote, for an address whose next value was not known.
  void discard() {
    for (auto it = written_.rbegin(); it != written_.rend(); ++it)
      (*it)->eraseFromParent();
    written_.clear();
  }

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
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
      return load->hasMetadata(llvm::LLVMContext::MD_invariant_load) &&
                     of(load->getPointerOperand(), depth + 1) ==
                         load->getPointerOperand()
                 ? &inst
                 : nullptr;
    if (!llvm::isa<llvm::BinaryOperator, llvm::CastInst,
                   llvm::GetElementPtrInst>(inst) ||
        inst.mayReadOrWriteMemory() || inst.mayHaveSideEffects())
      return nullptr;
    std::vector<Value *> operands;
    bool moved = false;
    for (Value *operand : inst.operands()) {
      Value *next = of(operand, depth + 1);
      if (!next)
        return nullptr;
      moved |= next != operand;
      operands.push_back(next);
    }
    if (!moved)
      return &inst;
    Instruction *copy = inst.clone();
    for (unsigned i = 0; i < operands.size(); ++i)
      copy->setOperand(i, operands[i]);
    // One round past the last the address may lie outside any object.
    copy->dropPoisonGeneratingFlags();
    b_.Insert(copy, inst.getName() + ".next_round");
    written_.push_back(copy);
    return copy;
  }

  // A counter of the loop's header whose next value is an add (or GEP) of
  // itself and an invariant step: that add again, here.
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
    Instruction *copy = step->clone();
    copy->dropPoisonGeneratingFlags();
    b_.Insert(copy, phi.getName() + ".next_round");
    written_.push_back(copy);
    return copy;
  }

  Loop &loop_;
  llvm::IRBuilder<> b_;
  llvm::DenseMap<Value *, Value *> next_;
  std::vector<Instruction *> written_;
};

} // namespace

bool prefetchNextTiles(llvm::Function &work, llvm::Function &marker) {
  llvm::DominatorTree dominators(work);
  llvm::LoopInfo loops(dominators);
  std::vector<llvm::LoadInst *> loads;
  std::vector<Loop *> loop_of;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!callsMarker(*loop, marker))
      continue;
    for (BasicBlock *block : loop->blocks()) {
      if (loops.getLoopFor(block) != loop)
        continue; // an inner loop's loads walk on their own
      for (Instruction &inst : *block)
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
          unsigned space = load->getPointerAddressSpace();
          if (load->isSimple() && (space == kGlobalAddressSpace ||
                                   space == kConstantAddressSpace)) {
            loads.push_back(load);
            loop_of.push_back(loop);
          }
        }
    }
  }
  bool added = false;
  for (size_t i = 0; i < loads.size(); ++i) {
    llvm::LoadInst *load = loads[i];
    NextRound next(*loop_of[i], load);
    Value *pointer = load->getPointerOperand();
    Value *ahead = next.of(pointer);
    if (!ahead || ahead == pointer) {
      next.discard();
      continue;
    }
    llvm::IRBuilder<> b(load);
    // Read, keep in every cache level, data.
    b.CreateIntrinsic(llvm::Intrinsic::prefetch, {ahead->getType()},
                      {ahead, b.getInt32(0), b.getInt32(3), b.getInt32(1)});
    added = true;
  }
  return added;
}

} // namespace weft::compiler
