// prefetchNextTiles: a prefetch of the next round's address for each load
// of global memory in a loop with barriers; prefetchStridedStreams: one a
// few rounds ahead for each load of an inner loop that strides too far for
// the hardware's prefetchers.
#include "compiler/passes/kernels/next_tile_prefetches.h"
#include "compiler/support/standalone_evolution.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <optional>
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
// A stream whose address steps by less than this each round is left to the
// hardware: its stride prefetchers follow steps within a page (2 KiB for the
// L1's on Intel's cores), and a prefetch costs a load slot.
constexpr int64_t kShortestPrefetchedStep = 1024;
// How many rounds ahead a strided stream is prefetched. CLBlast's Xgemm
// (two k per round, 32 FMAs of 16 lanes): 2 rounds 44.7-47.0 GFLOP/s at
// n = 2048, 4 rounds 47.8-53.2, 8 rounds 43.4-51.4, none 35.6-39.5 (Ice
// Lake, two threads); further ahead the lines wait in the cache's few ways
// of a set that the stream's rows share (rows 8 KiB apart).
constexpr int64_t kStreamRoundsAhead = 4;

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
  // `rounds` later: the counters step that many times (their steps scaled).
  NextRound(Loop &loop, Instruction *at, int64_t rounds = 1)
      : loop_(loop), b_(at), rounds_(rounds) {}

  // Erases what `of` wrote, for an address whose next value was not known.
  void discard() {
    for (auto it = written_.rbegin(); it != written_.rend(); ++it)
      (*it)->eraseFromParent();
    written_.clear();
  }

  // Whether any value `of` reached moves with the counters.
  bool moved() const { return moved_; }

  // Whether every counter `of` reached steps by a constant (a loop over k,
  // not a grid-stride loop stepping by the grid's size).
  bool constantSteps() const { return constant_steps_; }

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
      else if (!llvm::isa<llvm::Constant>(operand))
        constant_steps_ = false;
    }
    if (!from_phi)
      return nullptr;
    moved_ = true;
    std::vector<Value *> operands(step->op_begin(), step->op_end());
    if (rounds_ != 1) {
      // The step's operands other than the counter (an add's or a sub's
      // other side, a GEP's one index), times the rounds.
      if (llvm::isa<llvm::GetElementPtrInst>(step) && operands.size() != 2)
        return nullptr;
      for (Value *&operand : operands)
        if (operand != &phi) {
          if (!operand->getType()->isIntegerTy())
            return nullptr;
          operand = b_.CreateMul(
              operand, llvm::ConstantInt::get(operand->getType(), rounds_));
        }
    }
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
  int64_t rounds_;
  llvm::DenseMap<Value *, Value *> next_;
  std::vector<Instruction *> written_;
  bool moved_ = false;
  bool constant_steps_ = true;
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

// The bytes `ahead` lies past `address` when the compiler can tell: as a
// difference of the two, or of their indices into the same base (an index
// of 32 bits extended, which overflow keeps the whole's difference from
// folding: a[row * n + k]).
std::optional<int64_t> knownDistance(Value *ahead, Value *address,
                                     llvm::ScalarEvolution &evolution,
                                     const llvm::DataLayout &layout) {
  auto constant = [](const llvm::SCEV *difference) -> std::optional<int64_t> {
    if (auto *known = llvm::dyn_cast<llvm::SCEVConstant>(difference))
      return known->getAPInt().getSExtValue();
    return std::nullopt;
  };
  if (auto whole = constant(evolution.getMinusSCEV(
          evolution.getSCEV(ahead), evolution.getSCEV(address))))
    return whole;
  // Constant offsets off both (a byte of a word: the integer dot
  // products' `(char *)&a[k] + 1`) set aside.
  unsigned bits = layout.getIndexTypeSizeInBits(address->getType());
  llvm::APInt ahead_offset(bits, 0), address_offset(bits, 0);
  ahead = ahead->stripAndAccumulateConstantOffsets(layout, ahead_offset,
                                                   /*AllowNonInbounds=*/true);
  address = address->stripAndAccumulateConstantOffsets(
      layout, address_offset, /*AllowNonInbounds=*/true);
  int64_t offsets = ahead_offset.getSExtValue() - address_offset.getSExtValue();
  if (ahead == address)
    return offsets;
  auto *to = llvm::dyn_cast<llvm::GEPOperator>(ahead);
  auto *from = llvm::dyn_cast<llvm::GEPOperator>(address);
  if (!to || !from || to->getPointerOperand() != from->getPointerOperand() ||
      to->getNumIndices() != 1 || from->getNumIndices() != 1 ||
      to->getSourceElementType() != from->getSourceElementType())
    return std::nullopt;
  Value *to_index = to->getOperand(1), *from_index = from->getOperand(1);
  auto *to_cast = llvm::dyn_cast<llvm::CastInst>(to_index);
  auto *from_cast = llvm::dyn_cast<llvm::CastInst>(from_index);
  if (to_cast && from_cast && to_cast->getOpcode() == from_cast->getOpcode() &&
      (llvm::isa<llvm::SExtInst>(to_cast) ||
       llvm::isa<llvm::ZExtInst>(to_cast))) {
    to_index = to_cast->getOperand(0);
    from_index = from_cast->getOperand(0);
  }
  auto elements = constant(evolution.getMinusSCEV(
      evolution.getSCEV(to_index), evolution.getSCEV(from_index)));
  if (!elements)
    return std::nullopt;
  return *elements *
             int64_t(layout.getTypeAllocSize(to->getSourceElementType())) +
         offsets;
}

bool readsGlobalMemory(const llvm::LoadInst &load) {
  unsigned space = load.getPointerAddressSpace();
  return load.isSimple() &&
         (space == kGlobalAddressSpace || space == kConstantAddressSpace);
}


// Whether `load`'s address moves each round of `next`'s loop, its counters
// stepping by constants, by a step not known to be under
// kShortestPrefetchedStep: then `ahead` is the address it reads `next`'s
// rounds later, written as the load's own (so the widener sees the lanes as
// far apart as the load's). What `next` wrote is the caller's to keep or
// discard.
bool farAhead(llvm::LoadInst &load, NextRound &next,
              llvm::ScalarEvolution &evolution, Value *&ahead) {
  Value *address = load.getPointerOperand();
  ahead = next.of(address);
  if (!ahead || !next.moved() || !next.constantSteps())
    return false;
  // A step the compiler knows and the hardware follows needs no hint; one
  // known only at run time (a row's length, an argument) gets it.
  std::optional<int64_t> distance = knownDistance(
      ahead, address, evolution, load.getModule()->getDataLayout());
  return !distance ||
         std::abs(*distance) >= kShortestPrefetchedStep * kStreamRoundsAhead;
}

} // namespace

bool stepsFar(llvm::LoadInst &load, Loop &loop,
              llvm::ScalarEvolution &evolution) {
  if (!readsGlobalMemory(load))
    return false;
  NextRound next(loop, &load, kStreamRoundsAhead);
  Value *ahead = nullptr;
  bool far = farAhead(load, next, evolution, ahead);
  next.discard();
  return far;
}

bool prefetchStridedStreams(llvm::Function &body, llvm::LoopInfo &loops) {
  llvm::DominatorTree dominators(body);
  StandaloneEvolution standalone(body, dominators, loops);
  llvm::ScalarEvolution &evolution = standalone.evolution;
  const llvm::DataLayout &layout = body.getParent()->getDataLayout();
  std::vector<std::pair<llvm::LoadInst *, Loop *>> candidates;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost())
      continue;
    for (BasicBlock *block : loop->blocks())
      for (Instruction &inst : *block)
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
            load && readsGlobalMemory(*load))
          candidates.push_back({load, loop});
  }
  bool added = false;
  // The byte offsets off each base already prefetched in a block: a load a
  // few bytes from another (the bytes of a word the integer dot products
  // read one by one) is on the same line.
  llvm::DenseMap<std::pair<BasicBlock *, const Value *>,
                 std::vector<int64_t>>
      hinted;
  constexpr int64_t kLineBytes = 64;
  for (auto [load, loop] : candidates) {
    llvm::APInt offset(layout.getIndexTypeSizeInBits(
                           load->getPointerOperand()->getType()),
                       0);
    const Value *base =
        load->getPointerOperand()->stripAndAccumulateConstantOffsets(
            layout, offset, /*AllowNonInbounds=*/true);
    std::vector<int64_t> &offsets = hinted[{load->getParent(), base}];
    if (llvm::any_of(offsets, [&](int64_t other) {
          return std::abs(other - offset.getSExtValue()) < kLineBytes;
        }))
      continue;
    NextRound next(*loop, load, kStreamRoundsAhead);
    Value *ahead = nullptr;
    if (!farAhead(*load, next, evolution, ahead)) {
      next.discard();
      continue;
    }
    llvm::IRBuilder<> b(load);
    // Read, keep in the L2 and outer caches (the L1's ways a set of rows
    // shares would drop the lines before their round), data.
    b.CreateIntrinsic(llvm::Intrinsic::prefetch, {ahead->getType()},
                      {ahead, b.getInt32(0), b.getInt32(2), b.getInt32(1)});
    offsets.push_back(offset.getSExtValue());
    added = true;
  }
  return added;
}

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
        if (load && readsGlobalMemory(*load))
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
