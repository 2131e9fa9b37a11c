// The widener's row loads: where each work-item loads a run of neighbouring
// elements (k, k+1, ... of a row of a tile: CLBlast's GEMM on transposed
// local tiles, a dot product unrolled along a row, a float8 taken apart),
// the run is one load of n elements per work-item, from the first
// work-item's pointer where the rows are a known distance apart and from
// each work-item's own otherwise, and shuffles that deal them out, instead
// of n gathers. Without
// AVX-512's gathers LLVM writes a gather as a load, an insert and an address
// taken out of a vector per lane: for a run of 2 that is half the loads and
// none of the address arithmetic.
#include "compiler/passes/kernels/widener.h"
#include "compiler/passes/kernels/widening_checks.h"
#include "compiler/support/standalone_evolution.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <vector>

namespace weft::compiler {

using llvm::Value;

struct Widener::Distances : StandaloneEvolution {
  using StandaloneEvolution::StandaloneEvolution;
};

// Here, where Distances is complete.
Widener::Widener(llvm::Function &scalar, llvm::LoopInfo &loops,
                 llvm::Function &vector, unsigned kernel_args, unsigned lanes,
                 bool rows)
    : scalar_(scalar), loops_(loops), dominators_(scalar), vector_fn_(vector),
      kernel_args_(kernel_args), lanes_(lanes), b_(vector.getContext()),
      x_(scalar.getArg(kernel_args + 1)), varying_(scalar, loops, x_),
      masks_(b_, vector, lanes), rows_(rows) {}

Widener::~Widener() = default;

llvm::ScalarEvolution &Widener::evolution() {
  if (!distances_)
    distances_ = std::make_unique<Distances>(scalar_, dominators_, loops_);
  return distances_->evolution;
}

namespace {
// An index widened to 64 bits as two indices of one kind can be compared
// narrow: sext, or zext of a value known not negative (`zext nneg`, the
// same value; InstCombine's form of CLBlast's tile columns `mg`, `mg | 1`).
llvm::CastInst *wideningCast(Value *index) {
  if (auto *sext = llvm::dyn_cast<llvm::SExtInst>(index))
    return sext;
  auto *zext = llvm::dyn_cast<llvm::ZExtInst>(index);
  return zext && zext->hasNonNeg() ? zext : nullptr;
}
} // namespace

std::optional<int64_t> Widener::byteDistance(Value *from, Value *to) {
  llvm::ScalarEvolution &se = evolution();
  const llvm::SCEV *difference =
      se.getMinusSCEV(se.getSCEV(to), se.getSCEV(from));
  if (auto *constant = llvm::dyn_cast<llvm::SCEVConstant>(difference))
    return constant->getAPInt().getSExtValue();
  // Indices into one base that OpenCL C computed in int and widened apart
  // (sext (a + 17), sext (a + 18)): without nsw on the narrow adds SCEV
  // keeps the extensions apart; the narrow difference is the distance (an
  // index that overflowed int would be undefined behaviour already).
  auto *gep_from = llvm::dyn_cast<llvm::GetElementPtrInst>(from);
  auto *gep_to = llvm::dyn_cast<llvm::GetElementPtrInst>(to);
  if (std::optional<int64_t> fields = bitFieldDistance(gep_from, gep_to))
    return fields;
  if (!gep_from || !gep_to || gep_from->getNumIndices() != 1 ||
      gep_to->getNumIndices() != 1 ||
      gep_from->getPointerOperand() != gep_to->getPointerOperand() ||
      gep_from->getSourceElementType() != gep_to->getSourceElementType())
    return std::nullopt;
  llvm::CastInst *wide_from = wideningCast(gep_from->getOperand(1));
  llvm::CastInst *wide_to = wideningCast(gep_to->getOperand(1));
  if (!wide_from || !wide_to ||
      wide_from->getSrcTy() != wide_to->getSrcTy())
    return std::nullopt;
  auto *narrow = llvm::dyn_cast<llvm::SCEVConstant>(se.getMinusSCEV(
      se.getSCEV(wide_to->getOperand(0)), se.getSCEV(wide_from->getOperand(0))));
  constexpr int64_t kFarthest = 64; // elements; a row's run is far shorter
  if (!narrow || std::abs(narrow->getAPInt().getSExtValue()) > kFarthest)
    return std::nullopt;
  const llvm::DataLayout &layout = scalar_.getParent()->getDataLayout();
  return narrow->getAPInt().getSExtValue() *
         int64_t(layout.getTypeAllocSize(gep_from->getSourceElementType()));
}

// `to` less `from` in bytes where that is the same for every work-item
// and made of uniform values: two addresses into one base whose indices
// differ, written the same way, only where a constant distance (row k and
// row k + 1) is multiplied by a uniform one (the rows' length, `a_ld / 8`
// in XgemvFastRot's staging): ScalarEvolution does not multiply out
// `ld * (y + 1) - ld * y`. Null otherwise.
Value *Widener::uniformDistance(Value *from, Value *to) {
  auto *gep_from = llvm::dyn_cast<llvm::GetElementPtrInst>(from);
  auto *gep_to = llvm::dyn_cast<llvm::GetElementPtrInst>(to);
  // The same step from two addresses (`&row[x]` of two rows) leaves them as
  // far apart as the rows.
  while (gep_from && gep_to && gep_from->getNumIndices() == 1 &&
         gep_to->getNumIndices() == 1 &&
         gep_from->getOperand(1) == gep_to->getOperand(1) &&
         gep_from->getSourceElementType() == gep_to->getSourceElementType() &&
         gep_from->getPointerOperand() != gep_to->getPointerOperand()) {
    gep_from = llvm::dyn_cast<llvm::GetElementPtrInst>(gep_from->getPointerOperand());
    gep_to = llvm::dyn_cast<llvm::GetElementPtrInst>(gep_to->getPointerOperand());
  }
  if (!gep_from || !gep_to || gep_from->getNumIndices() != 1 ||
      gep_to->getNumIndices() != 1 ||
      gep_from->getPointerOperand() != gep_to->getPointerOperand() ||
      gep_from->getSourceElementType() != gep_to->getSourceElementType())
    return nullptr;
  // The difference as a constant times uniform factors.
  int64_t scale = 1;
  std::vector<Value *> factors;
  Value *a = gep_from->getOperand(1), *b = gep_to->getOperand(1);
  for (int depth = 0; depth < 8 && a != b; ++depth) {
    // Widened alike: the narrow difference, as byteDistance takes it.
    llvm::CastInst *cast_a = wideningCast(a), *cast_b = wideningCast(b);
    if (cast_a && cast_b && cast_a->getOpcode() == cast_b->getOpcode() &&
        cast_a->getSrcTy() == cast_b->getSrcTy()) {
      a = cast_a->getOperand(0);
      b = cast_b->getOperand(0);
      continue;
    }
    auto *op_a = llvm::dyn_cast<llvm::BinaryOperator>(a);
    auto *op_b = llvm::dyn_cast<llvm::BinaryOperator>(b);
    if (!op_a || !op_b)
      break;
    // Additions (InstCombine writes some as disjoint ors: row 0's `y | x`
    // beside row 1's `y + x`) or multiplications, both alike.
    auto adds = [](llvm::BinaryOperator *op) {
      return op->getOpcode() == llvm::Instruction::Add ||
             (op->getOpcode() == llvm::Instruction::Or &&
              llvm::cast<llvm::PossiblyDisjointInst>(op)->isDisjoint());
    };
    bool adds_both = adds(op_a) && adds(op_b);
    if (!adds_both && !(op_a->getOpcode() == llvm::Instruction::Mul &&
                        op_b->getOpcode() == llvm::Instruction::Mul))
      break;
    // The operand both share drops out (an addend) or becomes a factor.
    Value *shared = nullptr;
    for (unsigned i = 0; i < 2 && !shared; ++i)
      for (unsigned j = 0; j < 2 && !shared; ++j)
        if (op_a->getOperand(i) == op_b->getOperand(j)) {
          shared = op_a->getOperand(i);
          a = op_a->getOperand(1 - i);
          b = op_b->getOperand(1 - j);
        }
    if (!shared)
      break;
    if (adds_both)
      continue;
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(shared)) {
      scale *= constant->getSExtValue();
    } else {
      if (varies(shared) || !shared->getType()->isIntegerTy() ||
          (!llvm::isa<llvm::Argument>(shared) && !uniform_.count(shared)))
        return nullptr;
      factors.push_back(shared);
    }
  }
  if (factors.empty())
    return nullptr; // constant or unknown: byteDistance's
  std::optional<int64_t> rest = a == b ? 0 : std::optional<int64_t>();
  if (!rest && a->getType()->isIntegerTy()) {
    llvm::ScalarEvolution &se = evolution();
    if (auto *constant = llvm::dyn_cast<llvm::SCEVConstant>(
            se.getMinusSCEV(se.getSCEV(b), se.getSCEV(a))))
      rest = constant->getAPInt().getSExtValue();
  }
  if (!rest)
    return nullptr;
  const llvm::DataLayout &layout = scalar_.getParent()->getDataLayout();
  Value *distance = b_.getInt64(uint64_t(
      *rest * scale *
      int64_t(layout.getTypeAllocSize(gep_from->getSourceElementType()))));
  for (Value *factor : factors)
    distance = b_.CreateMul(distance,
                            b_.CreateSExtOrTrunc(uniform(factor), b_.getInt64Ty()));
  return distance;
}

namespace {
// An index as (x & mask) + offset, for the forms InstCombine leaves of a
// row's column `(lid & ~3) + k`: `x & mask`, `x | k` (k in bits the mask
// drops), `v | k` disjoint and `v + k`.
struct BitField {
  Value *x = nullptr;
  uint64_t mask = ~uint64_t(0);
  int64_t offset = 0;
};
BitField bitFieldOf(Value *v) {
  BitField field{v};
  for (int depth = 0; depth < 4; ++depth) {
    auto *op = llvm::dyn_cast<llvm::BinaryOperator>(field.x);
    auto *c =
        op ? llvm::dyn_cast<llvm::ConstantInt>(op->getOperand(1)) : nullptr;
    if (!c || c->getBitWidth() > 64)
      break;
    uint64_t k = c->getZExtValue();
    if (op->getOpcode() == llvm::Instruction::Add ||
        (op->getOpcode() == llvm::Instruction::Or &&
         llvm::cast<llvm::PossiblyDisjointInst>(op)->isDisjoint())) {
      field.offset += c->getSExtValue();
      field.x = op->getOperand(0);
      continue;
    }
    // A mask ends the walk: offsets inside it are not offsets outside.
    if (op->getOpcode() == llvm::Instruction::And) {
      field.mask = k;
      field.x = op->getOperand(0);
    } else if (op->getOpcode() == llvm::Instruction::Or && llvm::isMask_64(k)) {
      // x | (2^n - 1) is (x & ~(2^n - 1)) + 2^n - 1.
      field.mask = ~k;
      field.offset += int64_t(k);
      field.x = op->getOperand(0);
    }
    break;
  }
  return field;
}
} // namespace

// Two addresses into one array whose last indices are bit fields of one
// value with masks that agree on the bits it can have: CLBlast's
// XgemvFastRot reads a row's columns `lid & 28`, `(lid & 28) | 1`,
// `(lid & 28) | 2` and `lid | 3` (lid < 32), four neighbours ScalarEvolution
// takes the last of for a value of its own.
std::optional<int64_t> Widener::bitFieldDistance(llvm::GetElementPtrInst *from,
                                                 llvm::GetElementPtrInst *to) {
  if (!from || !to || from->getPointerOperand() != to->getPointerOperand() ||
      from->getSourceElementType() != to->getSourceElementType() ||
      from->getNumIndices() != to->getNumIndices())
    return std::nullopt;
  unsigned last = from->getNumIndices(); // operand number of the last index
  for (unsigned i = 1; i < last; ++i)
    if (from->getOperand(i) != to->getOperand(i))
      return std::nullopt;
  BitField a = bitFieldOf(from->getOperand(last));
  BitField b = bitFieldOf(to->getOperand(last));
  if (a.x != b.x || !a.x->getType()->isIntegerTy() ||
      a.x->getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  const llvm::DataLayout &layout = scalar_.getParent()->getDataLayout();
  llvm::KnownBits known = llvm::computeKnownBits(a.x, layout);
  uint64_t possible = (~known.Zero).getZExtValue(); // within x's width
  if (((a.mask ^ b.mask) & possible) != 0)
    return std::nullopt;
  auto it = llvm::gep_type_begin(from);
  for (unsigned i = 1; i < last; ++i)
    ++it;
  if (it.isStruct())
    return std::nullopt;
  return (b.offset - a.offset) * int64_t(it.getSequentialElementStride(layout));
}

// Where each lane's run of n elements of `size` bytes goes, in runs, so that
// element k of every lane comes out of the same 16-byte block of n groups:
// block b of group j holds the runs of lanes b*E + j*E/n .. b*E +
// (j+1)*E/n - 1 (E elements to a block), and so block b of each element's
// vector comes from block b of the groups, a shuffle within blocks (x86's
// shufps, unpcklpd: one instruction; across blocks two or more). Empty
// where runs do not fit blocks that way.
std::vector<unsigned> Widener::rowsInBlocks(unsigned n, unsigned size) const {
  if (size == 0 || 16 % size != 0)
    return {};
  unsigned per_block = 16 / size;
  if (n < 2 || n > per_block || per_block % n != 0 || lanes_ % per_block != 0)
    return {};
  std::vector<unsigned> position(lanes_);
  unsigned runs_per_block = per_block / n;
  for (unsigned lane = 0; lane < lanes_; ++lane) {
    unsigned block = lane / per_block, within = lane % per_block;
    unsigned group = within / runs_per_block;
    position[lane] = group * (lanes_ / n) + block * runs_per_block +
                     within % runs_per_block;
  }
  return position;
}

// Each work-item's pointer to `first`'s element: the pointers of an earlier
// run of the block plus the distance between the two, where it is the same
// for every work-item (a constant, which LLVM adds in the loads' addresses,
// or a uniform value: XgemvFastRot's staging reads four rows of A `a_ld /
// 8` float8s apart), else taken out of the vector of pointers lane by lane.
// XgemvFastRot's sum reads eight runs per work-item, rows of its local tile
// a constant apart: taken out for each run they were a vmovq or vpextrq per
// lane, a vextracti128 per two and the vector additions before them, a
// quarter of the region's instructions on AVX2.
std::vector<Value *> Widener::rowPointers(llvm::LoadInst &first) {
  Value *pointer = first.getPointerOperand();
  llvm::BasicBlock *block = first.getParent();
  std::vector<Value *> lanes;
  auto from = [&](const LanePointers &earlier, Value *distance) {
    for (Value *at : earlier.lanes)
      lanes.push_back(b_.CreateGEP(b_.getInt8Ty(), at, distance));
    return lanes;
  };
  for (const LanePointers &earlier : lane_pointers_)
    if (earlier.block == block)
      if (std::optional<int64_t> distance =
              byteDistance(earlier.pointer, pointer))
        return from(earlier, b_.getInt64(uint64_t(*distance)));
  for (const LanePointers &earlier : lane_pointers_)
    if (earlier.block == block)
      if (Value *distance = uniformDistance(earlier.pointer, pointer))
        return from(earlier, distance);
  Value *pointers = widened(pointer);
  for (unsigned lane = 0; lane < lanes_; ++lane)
    lanes.push_back(b_.CreateExtractElement(pointers, uint64_t(lane)));
  lane_pointers_.push_back({block, pointer, lanes});
  return lanes;
}

// Loads `first` and the loads after it in its block that read the elements
// after its own, up to 8 (a power of two in all), for each work-item of
// `mask` at once; returns `first`'s value and keeps the others' for when the
// widener reaches them. Null when there is no such run.
Value *Widener::loadRows(llvm::LoadInst &first, Value *mask) {
  constexpr size_t kLongestRun = 8;
  llvm::Type *t = first.getType();
  const llvm::DataLayout &layout = scalar_.getParent()->getDataLayout();
  Value *pointer = first.getPointerOperand();
  if (t->isVectorTy() || !first.isSimple() ||
      layout.getTypeStoreSize(t) != layout.getTypeAllocSize(t) ||
      !llvm::isPowerOf2_32(lanes_)) // the pieces join two by two
    return nullptr;
  // With AVX-512's gathers, halves' rows lost to them (CLBlast's HGEMM 512
  // on the Xeon: 287-328 against 335-341 GFLOP/s); floats and doubles won.
  if (hasFastGathers(vector_fn_) && layout.getTypeStoreSize(t) < 4)
    return nullptr;
  // Work-items a known distance apart start from the first one's pointer;
  // others each from their own (CLBlast's XgemvFastRot: four work-items
  // side by side on each of a group's rows, a float8 each).
  std::optional<int64_t> stride = varying_.laneStride(pointer);
  int64_t size = int64_t(layout.getTypeStoreSize(t));
  // The loads after `first` (in either direction from its element: the
  // unrolled k + 1 may come first) up to the next write, by distance in
  // elements.
  std::map<int64_t, llvm::LoadInst *> by_offset{{0, &first}};
  for (llvm::Instruction *next = first.getNextNode(); next;
       next = next->getNextNode()) {
    if (next->mayWriteToMemory() && !isPrefetch(*next))
      break; // the later loads might read what it writes
    auto *load = llvm::dyn_cast<llvm::LoadInst>(next);
    if (!load || !load->isSimple() || load->getType() != t || !varies(load) ||
        row_loads_.count(load))
      continue;
    std::optional<int64_t> distance =
        byteDistance(pointer, load->getPointerOperand());
    if (distance && *distance % size == 0 &&
        std::abs(*distance / size) < int64_t(kLongestRun))
      by_offset.emplace(*distance / size, load);
  }
  // The run of neighbours around `first`, a power of two long, starting as
  // low as it can.
  int64_t low = 0, high = 0;
  while (by_offset.count(low - 1))
    --low;
  while (by_offset.count(high + 1))
    ++high;
  int64_t n = 1;
  while (n * 2 <= std::min<int64_t>(high - low + 1, kLongestRun))
    n *= 2;
  if (n < 2)
    return nullptr;
  int64_t start = std::max(low, -(n - 1));
  std::vector<llvm::LoadInst *> run;
  for (int64_t k = start; k < start + n; ++k)
    run.push_back(by_offset.at(k));
  // Work-item i's run: n elements from its pointer (the first work-item's
  // plus i strides where the stride is known), under its own bit of the
  // mask.
  auto *run_type = llvm::FixedVectorType::get(t, unsigned(n));
  auto runStart = [&](Value *at) {
    return start == 0 ? at // else the run starts before `first`'s element
                      : b_.CreateConstGEP1_64(b_.getInt8Ty(), at,
                                              uint64_t(start * size));
  };
  // The runs side by side, in an order that lets each element's lanes be
  // dealt out within the registers' 16-byte blocks (rowsInBlocks): in lane
  // order, CLBlast's transposed direct GEMM spent a vpermpd beside each
  // shufps, 4 per 8 FMAs on a Zen 3.
  std::vector<unsigned> position = rowsInBlocks(unsigned(n), unsigned(size));
  // Runs longer than a block are transposed instead (transposeRuns), in
  // lane order.
  bool transposed = transposes(unsigned(n), uint64_t(size));
  if (transposed)
    position.clear();
  // Runs of a block, two to a register (floats four to a run at eight
  // work-items, doubles two at four): register j holds the runs of
  // work-items j and j + n (rowsInBlocks), and a transpose of both halves
  // at once deals element k of every work-item out in their order
  // (XgemvFastRot's sum at 8 work-items: LLVM wrote the picks with a
  // vpermps per run, 1,609 shuffles in the kernel against 1,136).
  bool in_halves = !transposed && !position.empty() && n * size == 16 &&
                   lanes_ == 2 * unsigned(n);
  if (position.empty())
    for (unsigned lane = 0; lane < lanes_; ++lane)
      position.push_back(lane);
  // Work-items' own pointers, before the loads branch: later runs of the
  // block start from them.
  std::vector<Value *> own = stride ? std::vector<Value *>() : rowPointers(first);
  auto loadRuns = [&](bool whole) {
    Value *base = stride ? runStart(b_.CreateExtractElement(
                               widened(pointer), uint64_t(0)))
                         : nullptr;
    std::vector<Value *> ordered(lanes_);
    for (unsigned lane = 0; lane < lanes_; ++lane) {
      Value *at =
          stride ? b_.CreateConstGEP1_64(b_.getInt8Ty(), base,
                                         uint64_t(int64_t(lane) * *stride))
                 : runStart(own[lane]);
      if (whole) {
        ordered[position[lane]] =
            b_.CreateAlignedLoad(run_type, at, first.getAlign());
        continue;
      }
      Value *on = b_.CreateVectorSplat(unsigned(n),
                                       b_.CreateExtractElement(mask, lane));
      ordered[position[lane]] =
          b_.CreateMaskedLoad(run_type, at, first.getAlign(), on);
    }
    return transposed || in_halves
               ? ordered
               : std::vector<Value *>{llvm::concatenateVectors(b_, ordered)};
  };
  // Plain loads when every work-item is on, where masked loads are slow
  // (AVX2): XgemvFastRot's rows in a loop under a mask read 3.8-4.0 GB/s
  // masked and 6.2-6.7 plain (Zen 3, SGEMV 4096).
  std::vector<Value *> all;
  llvm::BasicBlock *whole = nullptr, *masked = nullptr, *after = nullptr;
  if (masks_.branchOnAllLanes(mask, "row_load", whole, masked, after)) {
    b_.SetInsertPoint(whole);
    std::vector<Value *> plain = loadRuns(true);
    llvm::BasicBlock *whole_end = b_.GetInsertBlock();
    b_.CreateBr(after);
    b_.SetInsertPoint(masked);
    std::vector<Value *> some = loadRuns(false);
    llvm::BasicBlock *masked_end = b_.GetInsertBlock();
    all.push_back(
        masks_.joinLoads(plain[0], whole_end, some[0], masked_end, after));
    for (size_t i = 1; i < plain.size(); ++i) { // the rest beside it
      llvm::PHINode *value = b_.CreatePHI(plain[i]->getType(), 2);
      value->addIncoming(plain[i], whole_end);
      value->addIncoming(some[i], masked_end);
      all.push_back(value);
    }
  } else {
    all = loadRuns(false);
  }
  std::vector<Value *> dealt;
  if (transposed) {
    dealt = transposeRuns(all, unsigned(n));
  } else if (in_halves) {
    for (int64_t j = 0; j < n; ++j)
      dealt.push_back(
          llvm::concatenateVectors(b_, {all[2 * j], all[2 * j + 1]}));
    transposeSquare(dealt);
  }
  Value *result = nullptr;
  for (int64_t k = 0; k < n; ++k) {
    llvm::SmallVector<int, 64> picks;
    for (unsigned lane = 0; lane < lanes_; ++lane)
      picks.push_back(int(position[lane] * n + k));
    Value *elements =
        dealt.empty() ? b_.CreateShuffleVector(all[0], picks) : dealt[k];
    if (run[k] == &first)
      result = elements;
    else
      row_loads_[run[k]] = elements;
  }
  return result;
}

} // namespace weft::compiler
