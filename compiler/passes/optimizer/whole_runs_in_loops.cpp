#include "compiler/passes/optimizer/whole_runs_in_loops.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace weft::compiler {
namespace {

using llvm::FixedVectorType;
using llvm::Instruction;
using llvm::PHINode;
using llvm::Type;
using llvm::Value;

// Where each lane of a shuffle comes from: a value that is not itself a
// shuffle (a load, most often) and an element of it; looked up through any
// depth of shuffles (on AVX2 the widener takes a run apart in 128-bit
// pieces, put together and unzipped in turns).
struct Element {
  Value *source;
  int index;
};

class ShuffleSources {
public:
  // The elements `value` is made of, or nothing if it is not a shuffle
  // whose every lane is defined.
  const std::vector<Element> *of(Value *value) {
    auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(value);
    if (!shuffle)
      return nullptr;
    auto found = known_.find(shuffle);
    if (found != known_.end())
      return found->second ? &*found->second : nullptr;
    known_[shuffle] = std::nullopt; // no cycle: shuffles are not phis
    std::vector<Element> elements;
    unsigned first_width =
        llvm::cast<FixedVectorType>(shuffle->getOperand(0)->getType())
            ->getNumElements();
    for (int index : shuffle->getShuffleMask()) {
      if (index < 0)
        return nullptr;
      Value *operand = shuffle->getOperand(unsigned(index) < first_width ? 0 : 1);
      int within = int(unsigned(index) % first_width);
      if (const std::vector<Element> *inner = of(operand))
        elements.push_back((*inner)[size_t(within)]);
      else
        elements.push_back({operand, within});
    }
    known_[shuffle] = std::move(elements);
    return &*known_[shuffle];
  }

private:
  std::map<Value *, std::optional<std::vector<Element>>> known_;
};

// Element-wise intrinsics whose one overloaded type is their result's.
bool laneWiseIntrinsic(llvm::Intrinsic::ID id) {
  switch (id) {
  case llvm::Intrinsic::fma:
  case llvm::Intrinsic::fmuladd:
  case llvm::Intrinsic::fabs:
  case llvm::Intrinsic::sqrt:
  case llvm::Intrinsic::minnum:
  case llvm::Intrinsic::maxnum:
  case llvm::Intrinsic::minimum:
  case llvm::Intrinsic::maximum:
  case llvm::Intrinsic::copysign:
    return true;
  default:
    return false;
  }
}

// An instruction that computes each lane from the same lane of its
// operands, all of them vectors as wide as its result.
bool laneWise(const Instruction &inst) {
  auto *type = llvm::dyn_cast<FixedVectorType>(inst.getType());
  if (!type)
    return false;
  unsigned width = type->getNumElements();
  auto asWide = [&](const Value *operand) {
    auto *t = llvm::dyn_cast<FixedVectorType>(operand->getType());
    return t && t->getNumElements() == width;
  };
  if (llvm::isa<llvm::BinaryOperator>(inst) ||
      llvm::isa<llvm::UnaryOperator>(inst))
    return llvm::all_of(inst.operands(), asWide);
  if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&inst))
    return !llvm::isa<llvm::BitCastInst>(cast) && asWide(cast->getOperand(0));
  if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
    return laneWiseIntrinsic(call->getIntrinsicID()) &&
           llvm::all_of(call->args(), asWide);
  return false;
}

// The values a lane-wise operation combines (a call's arguments).
llvm::SmallVector<Value *, 3> operandsOf(Instruction &inst) {
  if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
    return llvm::SmallVector<Value *, 3>(call->args());
  return llvm::SmallVector<Value *, 3>(inst.operands());
}

// One step of how a loop computes a carried value's next round from it, in
// preorder: the carried value itself, a value the same in every lane (its
// scalar), a part of runs (a shuffle; `sources` the values its lanes come
// from), or a lane-wise operation.
struct Step {
  enum Kind { Carried, Uniform, Part, Operation } kind;
  Value *value;
  std::vector<Value *> sources;
  bool sameShape(const Step &other) const {
    if (kind != other.kind)
      return false;
    if (kind == Uniform)
      return value == other.value;
    if (kind == Part)
      return sources == other.sources;
    if (kind != Operation)
      return true;
    auto *a = llvm::cast<Instruction>(value);
    auto *b = llvm::cast<Instruction>(other.value);
    auto *call_a = llvm::dyn_cast<llvm::IntrinsicInst>(a);
    auto *call_b = llvm::dyn_cast<llvm::IntrinsicInst>(b);
    return a->getOpcode() == b->getOpcode() && a->getType() == b->getType() &&
           (!call_a || call_a->getIntrinsicID() == call_b->getIntrinsicID());
  }
};

// A carried vector's round: its steps.
struct Round {
  PHINode *carried = nullptr;
  Instruction *next = nullptr; // the value carried into the next round
  std::vector<Step> steps;
};

constexpr size_t kMostSteps = 64;
constexpr size_t kMostMembers = 16;

// The values of `loop` computed from the vectors it carries (its header's
// vector phis): a round may not read one of them outside its own steps,
// for it is not the same once the runs are kept whole.
llvm::DenseSet<const Value *> fromCarried(const llvm::Loop &loop) {
  llvm::DenseSet<const Value *> reached;
  std::vector<const Value *> pending;
  for (PHINode &phi : loop.getHeader()->phis())
    if (phi.getType()->isVectorTy() && reached.insert(&phi).second)
      pending.push_back(&phi);
  while (!pending.empty()) {
    const Value *value = pending.back();
    pending.pop_back();
    for (const llvm::User *user : value->users())
      if (auto *inst = llvm::dyn_cast<Instruction>(user))
        if (loop.contains(inst) && reached.insert(inst).second)
          pending.push_back(inst);
  }
  return reached;
}

bool describe(Value *value, Round &round, const llvm::Loop &loop,
              ShuffleSources &shuffles,
              const llvm::DenseSet<const Value *> &from_carried,
              bool root = false) {
  if (round.steps.size() >= kMostSteps)
    return false;
  if (value == round.carried) {
    round.steps.push_back({Step::Carried, value, {}});
    return true;
  }
  if (Value *scalar = llvm::getSplatValue(value)) {
    if (from_carried.count(scalar))
      return false;
    round.steps.push_back({Step::Uniform, scalar, {}});
    return true;
  }
  if (const std::vector<Element> *elements = shuffles.of(value)) {
    std::vector<Value *> sources;
    for (const Element &element : *elements)
      if (!llvm::is_contained(sources, element.source)) {
        if (from_carried.count(element.source))
          return false;
        sources.push_back(element.source);
      }
    llvm::sort(sources);
    round.steps.push_back({Step::Part, value, std::move(sources)});
    return true;
  }
  auto *inst = llvm::dyn_cast<Instruction>(value);
  // Every step of the round is the carried value's alone (the loop keeps
  // no other use that would want it taken apart).
  if (!inst || !loop.contains(inst) || !laneWise(*inst) ||
      (!root && !inst->hasOneUse()))
    return false;
  round.steps.push_back({Step::Operation, inst, {}});
  for (Value *operand : operandsOf(*inst))
    if (!describe(operand, round, loop, shuffles, from_carried))
      return false;
  return true;
}

// The round of `phi`, a vector the loop carries, if it reads parts of runs
// and does nothing else with them but lane-wise arithmetic.
std::optional<Round>
roundOf(PHINode &phi, const llvm::Loop &loop, ShuffleSources &shuffles,
        const llvm::DenseSet<const Value *> &from_carried) {
  llvm::BasicBlock *latch = loop.getLoopLatch();
  auto *next =
      llvm::dyn_cast<Instruction>(phi.getIncomingValueForBlock(latch));
  if (!next || !loop.contains(next))
    return std::nullopt;
  unsigned uses_in_loop = 0;
  for (llvm::User *user : phi.users())
    uses_in_loop += loop.contains(llvm::cast<Instruction>(user));
  for (llvm::User *user : next->users())
    if (user != &phi && loop.contains(llvm::cast<Instruction>(user)))
      return std::nullopt;
  Round round;
  round.carried = &phi;
  round.next = next;
  auto count = [&](Step::Kind kind) {
    return llvm::count_if(round.steps,
                          [&](const Step &step) { return step.kind == kind; });
  };
  if (uses_in_loop != 1 ||
      !describe(next, round, loop, shuffles, from_carried, /*root=*/true) ||
      count(Step::Carried) != 1 || count(Step::Part) == 0)
    return std::nullopt;
  return round;
}

bool alike(const Round &a, const Round &b) {
  if (a.steps.size() != b.steps.size() ||
      a.carried->getType() != b.carried->getType())
    return false;
  for (size_t i = 0; i < a.steps.size(); ++i)
    if (!a.steps[i].sameShape(b.steps[i]))
      return false;
  return true;
}

// Carried vectors whose rounds are alike but for the parts they read (a
// register tile's elements, each its own part of the same rows), together:
// member m's lane k is lane k * members + m of the whole.
struct Family {
  std::vector<Round> members;
  PHINode *whole_carried = nullptr;
  Value *whole_next = nullptr;
};

// The whole a family's parts at `step` make, lane k * members + m being
// member m's lane k.
std::vector<Element> wholeElements(const Family &family, size_t step,
                                   ShuffleSources &shuffles) {
  size_t members = family.members.size();
  const std::vector<Element> &first =
      *shuffles.of(family.members[0].steps[step].value);
  std::vector<Element> whole(first.size() * members);
  for (size_t m = 0; m < members; ++m) {
    const std::vector<Element> &part =
        *shuffles.of(family.members[m].steps[step].value);
    for (size_t k = 0; k < part.size(); ++k)
      whole[k * members + m] = part[k];
  }
  return whole;
}

// Where an element lies in memory, if its source is a plain load at a
// constant offset from some pointer: the pointer and the byte offset.
std::optional<std::pair<Value *, int64_t>>
placeOf(const Element &element, const llvm::DataLayout &layout) {
  auto *load = llvm::dyn_cast<llvm::LoadInst>(element.source);
  if (!load || !load->isSimple())
    return std::nullopt;
  llvm::APInt offset(
      layout.getIndexTypeSizeInBits(load->getPointerOperand()->getType()), 0);
  Value *base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(
      layout, offset, /*AllowNonInbounds=*/true);
  auto *type = llvm::cast<FixedVectorType>(load->getType());
  return std::pair{base,
                   offset.getSExtValue() +
                       int64_t(layout.getTypeStoreSize(type->getElementType())) *
                           element.index};
}

// Orders a family's members by where their parts' first lanes lie (the
// memory's order when the parts are a run's elements), and says whether
// the parts at every step make a whole without repeats.
bool arrange(Family &family, ShuffleSources &shuffles,
             const llvm::DataLayout &layout) {
  size_t first_part = 0;
  while (family.members[0].steps[first_part].kind != Step::Part)
    ++first_part;
  auto key = [&](const Round &member) {
    Element lane0 = (*shuffles.of(member.steps[first_part].value))[0];
    std::optional<std::pair<Value *, int64_t>> place = placeOf(lane0, layout);
    return std::tuple(place ? place->first : lane0.source,
                      place ? place->second : int64_t(lane0.index));
  };
  llvm::stable_sort(family.members, [&](const Round &a, const Round &b) {
    return key(a) < key(b);
  });
  for (size_t step = 0; step < family.members[0].steps.size(); ++step) {
    if (family.members[0].steps[step].kind != Step::Part)
      continue;
    std::vector<Element> whole = wholeElements(family, step, shuffles);
    std::vector<std::pair<Value *, int>> seen;
    for (const Element &element : whole)
      seen.push_back({element.source, element.index});
    llvm::sort(seen);
    if (std::adjacent_find(seen.begin(), seen.end()) != seen.end())
      return false;
    // One vector type for all sources (their concatenation is the whole).
    Type *type = whole[0].source->getType();
    for (const Element &element : whole)
      if (element.source->getType() != type)
        return false;
  }
  return true;
}

std::vector<Family> familiesOf(const llvm::Loop &loop, ShuffleSources &shuffles,
                               const llvm::DataLayout &layout) {
  std::vector<Round> rounds;
  llvm::DenseSet<const Value *> from_carried = fromCarried(loop);
  for (PHINode &phi : loop.getHeader()->phis())
    if (llvm::isa<FixedVectorType>(phi.getType()))
      if (std::optional<Round> round =
              roundOf(phi, loop, shuffles, from_carried))
        rounds.push_back(std::move(*round));
  std::vector<Family> families;
  std::vector<bool> taken(rounds.size(), false);
  for (size_t i = 0; i < rounds.size(); ++i) {
    if (taken[i])
      continue;
    Family family;
    for (size_t j = i; j < rounds.size(); ++j)
      if (!taken[j] && family.members.size() < kMostMembers &&
          alike(rounds[i], rounds[j])) {
        family.members.push_back(rounds[j]);
        taken[j] = true;
      }
    if (family.members.size() >= 2 && arrange(family, shuffles, layout))
      families.push_back(std::move(family));
  }
  return families;
}

// The instruction after which every one of `values` is available.
llvm::Instruction *afterAll(llvm::ArrayRef<Value *> values,
                            const llvm::DominatorTree &dominators,
                            llvm::Instruction *fallback) {
  Instruction *last = nullptr;
  for (Value *value : values) {
    auto *inst = llvm::dyn_cast<Instruction>(value);
    if (!inst)
      continue;
    if (!last || dominators.dominates(last, inst))
      last = inst;
    else if (!dominators.dominates(inst, last))
      return fallback;
  }
  if (!last)
    return fallback;
  if (llvm::isa<PHINode>(last))
    return &*last->getParent()->getFirstInsertionPt();
  return last->getNextNode();
}

// The whole made of `elements`: one load where they lie in order in memory
// that the loop does not write; else one shuffle of their sources.
Value *buildWholePart(const std::vector<Element> &elements,
                      const llvm::Loop &loop,
                      const llvm::DominatorTree &dominators,
                      llvm::Instruction *fallback) {
  std::vector<Value *> sources;
  for (const Element &element : elements)
    if (!llvm::is_contained(sources, element.source))
      sources.push_back(element.source);
  auto *source_type = llvm::cast<FixedVectorType>(sources[0]->getType());
  unsigned width = unsigned(elements.size());
  // A source that is the whole already, in order.
  if (sources.size() == 1 && source_type->getNumElements() == width &&
      llvm::all_of(llvm::seq<unsigned>(0, width), [&](unsigned i) {
        return elements[i].index == int(i);
      }))
    return sources[0];
  Instruction *at = afterAll(sources, dominators, fallback);
  llvm::IRBuilder<> builder(at);
  const llvm::DataLayout &layout =
      at->getModule()->getDataLayout();
  bool writes = llvm::any_of(loop.blocks(), [](llvm::BasicBlock *block) {
    return llvm::any_of(*block, [](Instruction &inst) {
      return inst.mayWriteToMemory();
    });
  });
  std::optional<std::pair<Value *, int64_t>> first = placeOf(elements[0], layout);
  uint64_t element_bytes =
      layout.getTypeStoreSize(source_type->getElementType());
  bool in_order = !writes && first;
  for (unsigned i = 1; in_order && i < width; ++i) {
    std::optional<std::pair<Value *, int64_t>> place =
        placeOf(elements[i], layout);
    in_order = place && place->first == first->first &&
               place->second == first->second + int64_t(i * element_bytes);
  }
  if (in_order) {
    // Every byte of it is read by the loads it replaces, in this round.
    llvm::Align align = llvm::cast<llvm::LoadInst>(sources[0])->getAlign();
    for (Value *source : sources)
      align = std::min(align, llvm::cast<llvm::LoadInst>(source)->getAlign());
    align = llvm::commonAlignment(align, uint64_t(first->second));
    Value *address = first->second == 0
                         ? first->first
                         : builder.CreateConstInBoundsGEP1_64(
                               builder.getInt8Ty(), first->first,
                               uint64_t(first->second));
    return builder.CreateAlignedLoad(
        FixedVectorType::get(source_type->getElementType(), width), address,
        align, "runs.row");
  }
  llvm::SmallVector<int, 64> mask;
  unsigned source_width = source_type->getNumElements();
  for (const Element &element : elements)
    mask.push_back(int(unsigned(llvm::find(sources, element.source) -
                                sources.begin()) *
                           source_width +
                       unsigned(element.index)));
  return builder.CreateShuffleVector(llvm::concatenateVectors(builder, sources),
                                     mask, "runs.row");
}

// Builds the whole-runs form of the steps from `at` on (one operation and
// its operands), before `builder`'s point; returns it and moves `at` past.
Value *buildWhole(const Family &family, size_t &at, llvm::IRBuilder<> &builder,
                  unsigned width,
                  std::map<std::vector<Value *>, Value *> &parts_made,
                  ShuffleSources &shuffles, const llvm::Loop &loop,
                  const llvm::DominatorTree &dominators) {
  const Step &step = family.members[0].steps[at];
  size_t index = at;
  ++at;
  switch (step.kind) {
  case Step::Carried:
    return family.whole_carried;
  case Step::Uniform:
    return builder.CreateVectorSplat(width, step.value);
  case Step::Part: {
    std::vector<Element> elements = wholeElements(family, index, shuffles);
    std::vector<Value *> key;
    for (const Element &element : elements) {
      key.push_back(element.source);
      key.push_back(reinterpret_cast<Value *>(intptr_t(element.index)));
    }
    Value *&made = parts_made[key];
    if (!made)
      made = buildWholePart(elements, loop, dominators,
                            &*builder.GetInsertPoint());
    return made;
  }
  case Step::Operation:
    break;
  }
  auto *inst = llvm::cast<Instruction>(step.value);
  llvm::SmallVector<Value *, 3> operands;
  for (size_t k = 0, n = operandsOf(*inst).size(); k < n; ++k)
    operands.push_back(buildWhole(family, at, builder, width, parts_made,
                                  shuffles, loop, dominators));
  auto *type = FixedVectorType::get(inst->getType()->getScalarType(), width);
  Value *whole;
  if (auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(inst))
    whole = builder.CreateBinOp(binary->getOpcode(), operands[0], operands[1]);
  else if (auto *unary = llvm::dyn_cast<llvm::UnaryOperator>(inst))
    whole = builder.CreateUnOp(unary->getOpcode(), operands[0]);
  else if (auto *cast = llvm::dyn_cast<llvm::CastInst>(inst))
    whole = builder.CreateCast(cast->getOpcode(), operands[0], type);
  else
    whole = builder.CreateIntrinsic(
        llvm::cast<llvm::IntrinsicInst>(inst)->getIntrinsicID(), {type},
        operands);
  // Flags every part's operation has (fast-math, no-wrap).
  if (auto *made = llvm::dyn_cast<Instruction>(whole)) {
    made->copyIRFlags(inst);
    for (const Round &member : family.members)
      made->andIRFlags(member.steps[index].value);
  }
  return whole;
}

bool keepRunsWhole(llvm::Loop &loop, llvm::ScalarEvolution &evolution,
                   llvm::DominatorTree &dominators, llvm::LoopInfo &loops) {
  llvm::BasicBlock *preheader = loop.getLoopPreheader();
  llvm::BasicBlock *latch = loop.getLoopLatch();
  llvm::BasicBlock *exit = loop.getUniqueExitBlock();
  if (!preheader || !latch || !exit || loop.getExitingBlock() != latch)
    return false;
  // Putting the runs in order and taking them apart costs about what a few
  // rounds of parts would.
  unsigned trip_count = evolution.getSmallConstantTripCount(&loop);
  if (trip_count != 0 && trip_count < 4)
    return false;
  const llvm::DataLayout &layout =
      preheader->getModule()->getDataLayout();
  ShuffleSources shuffles;
  std::vector<Family> families = familiesOf(loop, shuffles, layout);
  if (families.empty())
    return false;
  // A block of its own after the loop (the loop's guard may skip to the
  // same exit), where the runs are taken apart once.
  if (exit->getSinglePredecessor() != latch)
    exit = llvm::SplitEdge(latch, exit, &dominators, &loops);
  std::map<std::vector<Value *>, Value *> parts_made;
  for (Family &family : families) {
    const Round &first = family.members[0];
    auto *part_type = llvm::cast<FixedVectorType>(first.carried->getType());
    unsigned members = unsigned(family.members.size());
    unsigned width = part_type->getNumElements() * members;
    auto *type = FixedVectorType::get(part_type->getElementType(), width);
    llvm::IRBuilder<> builder(preheader->getTerminator());
    llvm::SmallVector<Value *, 16> starts;
    for (const Round &member : family.members)
      starts.push_back(member.carried->getIncomingValueForBlock(preheader));
    Value *start = builder.CreateShuffleVector(
        llvm::concatenateVectors(builder, starts),
        llvm::createInterleaveMask(part_type->getNumElements(), members),
        "runs.start");
    family.whole_carried = PHINode::Create(type, 2, "runs",
                                           loop.getHeader()->begin());
    family.whole_carried->addIncoming(start, preheader);
    // Before the last of the members' rounds to finish (each dominates the
    // latch, so one of them comes after all the others), where every
    // member's steps have been computed.
    Instruction *last = first.next;
    for (const Round &member : family.members)
      if (dominators.dominates(last, member.next))
        last = member.next;
    builder.SetInsertPoint(last);
    size_t at = 0;
    family.whole_next = buildWhole(family, at, builder, width, parts_made,
                                   shuffles, loop, dominators);
    family.whole_carried->addIncoming(family.whole_next, latch);
  }
  // After the loop, each carried value is its part of the runs again.
  llvm::IRBuilder<> builder(exit, exit->getFirstInsertionPt());
  for (Family &family : families)
    for (size_t m = 0; m < family.members.size(); ++m) {
      const Round &member = family.members[m];
      unsigned part_width =
          llvm::cast<FixedVectorType>(member.carried->getType())
              ->getNumElements();
      auto partOf = [&](Value *whole) {
        return builder.CreateShuffleVector(
            whole, llvm::createStrideMask(unsigned(m),
                                          unsigned(family.members.size()),
                                          part_width));
      };
      for (auto [value, whole] :
           {std::pair<Instruction *, Value *>{member.next, family.whole_next},
            {member.carried, family.whole_carried}}) {
        Value *part = nullptr;
        for (llvm::Use &use : llvm::make_early_inc_range(value->uses())) {
          auto *user = llvm::cast<Instruction>(use.getUser());
          if (loop.contains(user))
            continue;
          if (!part)
            part = partOf(whole);
          if (auto *closing = llvm::dyn_cast<PHINode>(user);
              closing && closing->getParent() == exit) {
            closing->replaceAllUsesWith(part);
            closing->eraseFromParent();
          } else {
            use.set(part);
          }
        }
      }
    }
  for (Family &family : families)
    for (const Round &member : family.members) {
      member.carried->replaceAllUsesWith(
          llvm::PoisonValue::get(member.carried->getType()));
      member.carried->eraseFromParent();
      llvm::RecursivelyDeleteTriviallyDeadInstructions(member.next);
    }
  return true;
}

} // namespace

llvm::PreservedAnalyses
WholeRunsInLoopsPass::run(llvm::Function &function,
                          llvm::FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
  auto &evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
  auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  bool changed = false;
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    if (loop->isInnermost())
      changed |= keepRunsWhole(*loop, evolution, dominators, loops);
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses kept;
  kept.preserve<llvm::DominatorTreeAnalysis>();
  kept.preserve<llvm::LoopAnalysis>();
  return kept;
}

} // namespace weft::compiler
