// The masks of weft-widen-work-items' widened body, and its loads and stores
// made only for the work-items a mask has on.
#include "compiler/passes/kernels/lane_masks.h"

#include <llvm/IR/CFG.h>
#include <llvm/IR/Instructions.h>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::Value;

Value *LaneMasks::anyLane(Value *mask) {
  return b_.CreateICmpNE(b_.CreateBitCast(mask, b_.getIntNTy(kVectorWidth)),
                         b_.getIntN(kVectorWidth, 0));
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
Value *LaneMasks::load(llvm::Type *element, Value *pointers, bool consecutive,
                       llvm::Align align, Value *mask) {
  return consecutive
             ? b_.CreateMaskedLoad(vectorOf(element), firstLane(pointers),
                                   align, mask)
             : b_.CreateMaskedGather(vectorOf(element), pointers, align, mask);
}

void LaneMasks::store(Value *values, Value *pointers, bool consecutive,
                      llvm::Align align, Value *mask) {
  if (consecutive)
    b_.CreateMaskedStore(values, firstLane(pointers), align, mask);
  else
    b_.CreateMaskedScatter(values, pointers, align, mask);
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
  Value *bits = b_.CreateBitCast(mask, b_.getIntNTy(kVectorWidth));
  BasicBlock *store_block =
      BasicBlock::Create(ctx, "wi.uniform_store", &vector_fn_);
  BasicBlock *after = BasicBlock::Create(ctx, "wi.stored", &vector_fn_);
  b_.CreateCondBr(b_.CreateICmpNE(bits, b_.getIntN(kVectorWidth, 0)),
                  store_block, after);
  b_.SetInsertPoint(store_block);
  Value *stored;
  if (per_lane) {
    Value *leading =
        b_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, bits, b_.getTrue());
    Value *last =
        b_.CreateSub(b_.getIntN(kVectorWidth, kVectorWidth - 1), leading);
    stored = b_.CreateExtractElement(value, last);
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
