// The masks of weft-widen-work-items' widened body, and its loads and stores
// made only for the work-items a mask has on.
#include "compiler/passes/kernels/lane_masks.h"

#include "compiler/passes/kernels/widening_checks.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>

namespace {
constexpr unsigned kLocalAddressSpace = 3;

// Whether a run of elements spaced apart is better read whole and, into
// local memory, stored by merging into the span: on AMD's cores, whose
// masked stores are microcoded (CLBlast's SGEMM 512 on a Zen 3: 8-12 ->
// 13-17 GFLOP/s), for elements of 4 bytes or more (spans of half lower to
// worse code: its HGEMM lost a third). Intel's AVX2 cores run the masked
// accesses well, and lost 10-30% with the spans (SGEMM and DGEMM 128-512
// on the lent Xeon with AVX2 code).
bool spansPay(const llvm::Function &f, const llvm::Type *element) {
  return element->getScalarSizeInBits() >= 32 &&
         f.getFnAttribute("target-cpu").getValueAsString().starts_with(
             "znver");
}
} // namespace
#include <vector>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::Value;

Value *LaneMasks::anyLane(Value *mask) {
  return b_.CreateICmpNE(b_.CreateBitCast(mask, b_.getIntNTy(lanes_)),
                         b_.getIntN(lanes_, 0));
}

Value *LaneMasks::perElement(Value *per_lane, unsigned elements) {
  if (elements == 1)
    return per_lane;
  llvm::SmallVector<int, 64> repeat;
  for (unsigned lane = 0; lane < lanes_; ++lane)
    for (unsigned e = 0; e < elements; ++e)
      repeat.push_back(int(lane));
  return b_.CreateShuffleVector(per_lane, repeat);
}

Value *LaneMasks::select(Value *mask, Value *a, Value *b) {
  if (elementsOf(mask->getType()) == lanes_) // one i1 per work-item
    mask = perElement(mask, elementsOf(a->getType()) / lanes_);
  return b_.CreateSelect(mask, a, b);
}

Value *LaneMasks::joinEdges(BasicBlock *block) {
  Value *mask = nullptr;
  for (BasicBlock *from : llvm::predecessors(block)) {
    Value *m = edge(from, block);
    mask = mask ? b_.CreateOr(mask, m) : m;
  }
  return mask;
}

void LaneMasks::branch(BasicBlock *block, BasicBlock *taken, BasicBlock *other,
                       Value *mask, Value *condition) {
  if (taken == other) {
    edge_mask_[{block, taken}] = mask;
    return;
  }
  edge_mask_[{block, taken}] = b_.CreateAnd(mask, condition);
  edge_mask_[{block, other}] = b_.CreateAnd(mask, b_.CreateNot(condition));
}

Value *LaneMasks::firstLane(Value *pointers) {
  return b_.CreateExtractElement(pointers, uint64_t(0));
}

// Loads and stores: whole vectors where neighbouring work-items touch
// neighbouring elements, gathers and scatters elsewhere, all masked.
// A vector kept whole that is not its neighbour's neighbour is gathered
// element by element: each work-item's pointer repeated for its elements,
// stepped by the element's size.
Value *LaneMasks::elementPointers(llvm::Type *element, Value *pointers) {
  unsigned elements = elementsOf(element);
  if (elements == 1)
    return pointers;
  llvm::Type *scalar = element->getScalarType();
  std::vector<llvm::Constant *> steps;
  for (unsigned lane = 0; lane < lanes_; ++lane)
    for (unsigned e = 0; e < elements; ++e)
      steps.push_back(b_.getInt64(e));
  return b_.CreateGEP(scalar, perElement(pointers, elements),
                      llvm::ConstantVector::get(steps));
}

Value *LaneMasks::stridedPointers(Value *pointers, int64_t stride) {
  std::vector<llvm::Constant *> offsets;
  for (unsigned lane = 0; lane < lanes_; ++lane)
    offsets.push_back(b_.getInt64(int64_t(lane) * stride));
  return b_.CreateGEP(b_.getInt8Ty(), firstLane(pointers),
                      llvm::ConstantVector::get(offsets));
}

Value *LaneMasks::spacedMask(Value *mask, unsigned spacing) {
  llvm::SmallVector<int, 64> spread;
  for (unsigned i = 0; i < lanes_ * spacing; ++i)
    spread.push_back(i % spacing ? int(lanes_) : int(i / spacing));
  return b_.CreateShuffleVector(mask, llvm::Constant::getNullValue(type()),
                                spread);
}

// Elements from the first work-item's to the last one's, `spacing` apart.
unsigned LaneMasks::spannedElements(unsigned spacing) const {
  return (lanes_ - 1) * spacing + 1;
}

// Work-items `spacing` elements apart (a run of elements each, walked one
// element at a time) load and store through one masked access of the whole
// span, on at their own elements only, and a shuffle: a gather or scatter
// costs an access per lane, and more without AVX-512.
Value *LaneMasks::load(llvm::Type *element, Value *pointers, unsigned spacing,
                       llvm::Align align, Value *mask) {
  llvm::Type *type = vectorOf(element, lanes_);
  Value *lane_mask = mask;
  mask = perElement(mask, elementsOf(element));
  if (spacing == 1)
    return loadWholeWhenAllOn(type, firstLane(pointers), align, mask,
                              lane_mask);
  if (spacing > 1) {
    llvm::SmallVector<int, 64> own;
    for (unsigned i = 0; i < lanes_; ++i)
      own.push_back(int(i * spacing));
    BasicBlock *whole, *masked, *after;
    if (!spansPay(vector_fn_, element) ||
        !branchOnAllLanes(lane_mask, "load", whole, masked, after)) {
      Value *spread = spacedMask(mask, spacing);
      Value *span = b_.CreateMaskedLoad(vectorOf(element, lanes_ * spacing),
                                        firstLane(pointers), align, spread);
      return b_.CreateShuffleVector(span, own);
    }
    // Every work-item on: the elements from the first one's to the last
    // one's, all inside the object they access, in one plain load.
    b_.SetInsertPoint(whole);
    Value *first = firstLane(pointers);
    Value *plain = b_.CreateShuffleVector(
        b_.CreateAlignedLoad(vectorOf(element, spannedElements(spacing)),
                             first, align),
        own);
    b_.CreateBr(after);
    b_.SetInsertPoint(masked);
    Value *spread = spacedMask(mask, spacing);
    Value *some = b_.CreateShuffleVector(
        b_.CreateMaskedLoad(vectorOf(element, lanes_ * spacing),
                            firstLane(pointers), align, spread),
        own);
    return joinLoads(plain, whole, some, masked, after);
  }
  BasicBlock *whole, *masked, *after;
  if (element->isVectorTy() &&
      branchOnAllLanes(lane_mask, "load", whole, masked, after,
                       /*also_fast_gathers=*/true)) {
    // Each work-item's vector is one load when all are on: a gather of its
    // elements is an access per element (AVX2) or a slow instruction
    // (AVX-512).
    b_.SetInsertPoint(whole);
    std::vector<Value *> each;
    for (unsigned lane = 0; lane < lanes_; ++lane)
      each.push_back(b_.CreateAlignedLoad(
          element, b_.CreateExtractElement(pointers, uint64_t(lane)), align));
    Value *plain = llvm::concatenateVectors(b_, each);
    b_.CreateBr(after);
    b_.SetInsertPoint(masked);
    Value *some = b_.CreateMaskedGather(
        type, elementPointers(element, pointers),
        std::min(align, llvm::Align(element->getScalarSizeInBits() / 8)),
        mask);
    return joinLoads(plain, whole, some, masked, after);
  }
  if (element->isVectorTy())
    align = std::min(align, llvm::Align(element->getScalarSizeInBits() / 8));
  return b_.CreateMaskedGather(type, elementPointers(element, pointers), align,
                               mask);
}

void LaneMasks::store(Value *values, llvm::Type *element, Value *pointers,
                      unsigned spacing, llvm::Align align, Value *mask) {
  Value *lane_mask = mask;
  mask = perElement(mask, elementsOf(element));
  if (spacing == 1) {
    storeWholeWhenAllOn(values, firstLane(pointers), align, mask, lane_mask);
    return;
  }
  if (spacing > 1) {
    llvm::SmallVector<int, 64> spread;
    for (unsigned i = 0; i < lanes_ * spacing; ++i)
      spread.push_back(i % spacing ? -1 : int(i / spacing));
    BasicBlock *whole = nullptr, *masked = nullptr, *after = nullptr;
    // Into local memory, which only the group's own thread touches, with
    // every work-item on: the span read, the work-items' elements put in,
    // and written back whole (CLBlast's tiles staged two elements per
    // work-item; AVX2's masked stores are microcoded on AMD's cores).
    if (pointers->getType()->getScalarType()->getPointerAddressSpace() ==
            kLocalAddressSpace &&
        spansPay(vector_fn_, element) &&
        branchOnAllLanes(lane_mask, "store", whole, masked, after)) {
      b_.SetInsertPoint(whole);
      Value *first = firstLane(pointers);
      unsigned spanned = spannedElements(spacing);
      llvm::Type *span_type = vectorOf(element, spanned);
      Value *old = b_.CreateAlignedLoad(span_type, first, align);
      llvm::SmallVector<llvm::Constant *, 64> own;
      llvm::SmallVector<int, 64> placed;
      for (unsigned i = 0; i < spanned; ++i) {
        own.push_back(b_.getInt1(i % spacing == 0));
        placed.push_back(i % spacing ? -1 : int(i / spacing));
      }
      Value *merged =
          b_.CreateSelect(llvm::ConstantVector::get(own),
                          b_.CreateShuffleVector(values, placed), old);
      b_.CreateAlignedStore(merged, first, align);
      b_.CreateBr(after);
      b_.SetInsertPoint(masked);
    }
    Value *spread_mask = spacedMask(mask, spacing);
    Value *first = firstLane(pointers);
    b_.CreateMaskedStore(b_.CreateShuffleVector(values, spread), first, align,
                         spread_mask);
    if (after) {
      b_.CreateBr(after);
      b_.SetInsertPoint(after);
    }
    return;
  }
  BasicBlock *whole = nullptr, *masked = nullptr, *after = nullptr;
  if (element->isVectorTy() &&
      branchOnAllLanes(lane_mask, "store", whole, masked, after,
                       /*also_fast_gathers=*/true)) {
    // Each work-item's vector is one store when all are on: CLBlast's
    // transpose stores a float4 per work-item into rows of its local tile
    // 512 bytes apart, 32 scalar stores as a scatter on AVX2, two slow
    // scatters on AVX-512 (its SOMATCOPY 2048 on the Xeon: 20 GB/s with
    // AVX-512 code, 31.5 with AVX2's).
    b_.SetInsertPoint(whole);
    unsigned elements = elementsOf(element);
    for (unsigned lane = 0; lane < lanes_; ++lane) {
      llvm::SmallVector<int, 16> own;
      for (unsigned e = 0; e < elements; ++e)
        own.push_back(int(lane * elements + e));
      b_.CreateAlignedStore(b_.CreateShuffleVector(values, own),
                            b_.CreateExtractElement(pointers, uint64_t(lane)),
                            align);
    }
    b_.CreateBr(after);
    b_.SetInsertPoint(masked);
  }
  if (element->isVectorTy())
    align = std::min(align, llvm::Align(element->getScalarSizeInBits() / 8));
  b_.CreateMaskedScatter(values, elementPointers(element, pointers), align,
                         mask);
  if (after) {
    b_.CreateBr(after);
    b_.SetInsertPoint(after);
  }
}

// Without AVX-512, masked stores (vmaskmovps, vpmaskmovd) are microcoded on
// AMD's cores and slow on Intel's: a Zen 3 core ran a store behind a guard
// that never failed three times slower than the plain store. Guards that
// rarely fail (a bounds check, a row's end, the memory checking mode's
// checks) leave every work-item on in most chunks, which then store whole.
//
// Branches to `whole` when every work-item of `lane_mask` is on, to
// `masked` otherwise, both joining at `after`; false (nothing made) where a
// masked access is as good (AVX-512) or the mask is too wide or known.
bool LaneMasks::branchOnAllLanes(Value *lane_mask, llvm::StringRef access,
                                 BasicBlock *&whole, BasicBlock *&masked,
                                 BasicBlock *&after, bool also_fast_gathers) {
  unsigned bits =
      llvm::cast<llvm::FixedVectorType>(lane_mask->getType())->getNumElements();
  if ((hasFastGathers(vector_fn_) && !also_fast_gathers) || bits > 64 ||
      llvm::isa<llvm::Constant>(lane_mask))
    return false;
  llvm::LLVMContext &ctx = vector_fn_.getContext();
  Value *all =
      b_.CreateICmpEQ(b_.CreateBitCast(lane_mask, b_.getIntNTy(bits)),
                      llvm::ConstantInt::getAllOnesValue(b_.getIntNTy(bits)));
  whole = BasicBlock::Create(ctx, "wi." + access + "_whole", &vector_fn_);
  masked = BasicBlock::Create(ctx, "wi." + access + "_masked", &vector_fn_);
  after = BasicBlock::Create(ctx, "wi." + access + "_joined", &vector_fn_);
  b_.CreateCondBr(all, whole, masked);
  return true;
}

void LaneMasks::storeWholeWhenAllOn(Value *values, Value *pointer,
                                    llvm::Align align, Value *mask,
                                    Value *lane_mask) {
  BasicBlock *whole, *masked, *after;
  if (!branchOnAllLanes(lane_mask, "store", whole, masked, after)) {
    b_.CreateMaskedStore(values, pointer, align, mask);
    return;
  }
  b_.SetInsertPoint(whole);
  b_.CreateAlignedStore(values, pointer, align);
  b_.CreateBr(after);
  b_.SetInsertPoint(masked);
  b_.CreateMaskedStore(values, pointer, align, mask);
  b_.CreateBr(after);
  b_.SetInsertPoint(after);
}

// The same for loads (AVX2's masked loads are slower than plain ones too).
Value *LaneMasks::loadWholeWhenAllOn(llvm::Type *type, Value *pointer,
                                     llvm::Align align, Value *mask,
                                     Value *lane_mask,
                                     llvm::ArrayRef<unsigned> blocks) {
  unsigned elements = elementsOf(type);
  unsigned per_block = blocks.empty() ? elements : elements / blocks.size();
  // Memory's elements rearranged block by block.
  auto rearranged = [&](Value *in_memory_order) {
    llvm::SmallVector<int, 64> picks;
    for (unsigned block : blocks)
      for (unsigned e = 0; e < per_block; ++e)
        picks.push_back(int(block * per_block + e));
    return b_.CreateShuffleVector(in_memory_order, picks);
  };
  BasicBlock *whole, *masked, *after;
  if (!branchOnAllLanes(lane_mask, "load", whole, masked, after)) {
    Value *some = b_.CreateMaskedLoad(type, pointer, align, mask);
    return blocks.empty() ? some : rearranged(some);
  }
  b_.SetInsertPoint(whole);
  Value *plain;
  if (blocks.empty()) {
    plain = b_.CreateAlignedLoad(type, pointer, align);
  } else {
    llvm::Type *scalar = type->getScalarType();
    auto *block_type = llvm::FixedVectorType::get(scalar, per_block);
    std::vector<Value *> pieces;
    for (unsigned block : blocks)
      pieces.push_back(b_.CreateAlignedLoad(
          block_type,
          b_.CreateConstGEP1_64(scalar, pointer, uint64_t(block * per_block)),
          llvm::commonAlignment(align, block * 16)));
    plain = llvm::concatenateVectors(b_, pieces);
  }
  b_.CreateBr(after);
  b_.SetInsertPoint(masked);
  Value *some = b_.CreateMaskedLoad(type, pointer, align, mask);
  if (!blocks.empty())
    some = rearranged(some);
  return joinLoads(plain, whole, some, masked, after);
}

// Ends the masked side (the builder's block) at `after`, where the value
// loaded whole and the one loaded masked meet.
Value *LaneMasks::joinLoads(Value *plain, BasicBlock *whole, Value *some,
                            BasicBlock *masked, BasicBlock *after) {
  b_.CreateBr(after);
  b_.SetInsertPoint(after);
  llvm::PHINode *value = b_.CreatePHI(plain->getType(), 2);
  value->addIncoming(plain, whole);
  value->addIncoming(some, masked);
  return value;
}

// A load of one address for all: made only when some work-item is on this
// path, as its scalar code would.
Value *LaneMasks::loadIfAnyLane(llvm::Instruction *load, llvm::StringRef name,
                                Value *mask) {
  llvm::LLVMContext &ctx = vector_fn_.getContext();
  BasicBlock *before = b_.GetInsertBlock();
  BasicBlock *load_block =
      BasicBlock::Create(ctx, "wi.uniform_load", &vector_fn_);
  BasicBlock *after = BasicBlock::Create(ctx, "wi.loaded", &vector_fn_);
  b_.CreateCondBr(anyLane(mask), load_block, after);
  b_.SetInsertPoint(load_block);
  b_.Insert(load, name);
  b_.CreateBr(after);
  b_.SetInsertPoint(after);
  llvm::PHINode *value = b_.CreatePHI(load->getType(), 2, name);
  value->addIncoming(load, load_block);
  value->addIncoming(llvm::PoisonValue::get(load->getType()), before);
  return value;
}

// A store to one address for all: made once, when some work-item is on
// this path, of the value of the last of them (work-item order, as the
// plain loop over the work-items would leave it).
void LaneMasks::storeToOneAddress(llvm::StoreInst &store, Value *value,
                                  bool per_lane, Value *address, Value *mask) {
  llvm::LLVMContext &ctx = vector_fn_.getContext();
  Value *bits = b_.CreateBitCast(mask, b_.getIntNTy(lanes_));
  BasicBlock *store_block =
      BasicBlock::Create(ctx, "wi.uniform_store", &vector_fn_);
  BasicBlock *after = BasicBlock::Create(ctx, "wi.stored", &vector_fn_);
  b_.CreateCondBr(b_.CreateICmpNE(bits, b_.getIntN(lanes_, 0)), store_block,
                  after);
  b_.SetInsertPoint(store_block);
  Value *stored;
  if (per_lane) {
    Value *leading =
        b_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, bits, b_.getTrue());
    Value *last = b_.CreateSub(b_.getIntN(lanes_, lanes_ - 1), leading);
    llvm::Type *type = store.getValueOperand()->getType();
    unsigned elements = elementsOf(type);
    if (elements == 1) {
      stored = b_.CreateExtractElement(value, last);
    } else {
      // The last work-item's whole vector, element by element.
      stored = llvm::PoisonValue::get(type);
      Value *first = b_.CreateMul(b_.CreateZExt(last, b_.getInt64Ty()),
                                  b_.getInt64(elements));
      for (unsigned e = 0; e < elements; ++e)
        stored = b_.CreateInsertElement(
            stored,
            b_.CreateExtractElement(value, b_.CreateAdd(first, b_.getInt64(e))),
            uint64_t(e));
    }
  } else {
    stored = value;
  }
  llvm::StoreInst *copy =
      b_.CreateAlignedStore(stored, address, store.getAlign());
  copy->copyMetadata(store);
  b_.CreateBr(after);
  b_.SetInsertPoint(after);
}

} // namespace weft::compiler
