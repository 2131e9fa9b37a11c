// The masks of a widened body (which of the work-items it runs at once are
// on each block and edge of the scalar body), and the memory accesses it
// makes for those work-items only.
#pragma once
#include "compiler/passes/kernels/work_item_vectorizer.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>

#include <map>
#include <utility>

namespace weft::compiler {

// One `t` per work-item of `lanes`. A vector type kept whole (a body
// prepared with its vectors whole, widening_checks.h) becomes its
// work-items' vectors side by side: <4 x float> for 16 work-items is
// <64 x float>, elements 4i .. 4i+3 work-item i's.
inline llvm::FixedVectorType *vectorOf(llvm::Type *t, unsigned lanes) {
  if (auto *v = llvm::dyn_cast<llvm::FixedVectorType>(t))
    return llvm::FixedVectorType::get(v->getElementType(),
                                      lanes * v->getNumElements());
  return llvm::FixedVectorType::get(t, lanes);
}

// Elements per work-item of a value of type `t`.
inline unsigned elementsOf(llvm::Type *t) {
  auto *v = llvm::dyn_cast<llvm::FixedVectorType>(t);
  return v ? v->getNumElements() : 1;
}

// The masks known so far, written with the widener's builder into its
// function. Asking for a mask not yet known throws std::out_of_range: the
// widener met a shape it mishandles, and the body keeps the plain loop.
class LaneMasks {
public:
  LaneMasks(llvm::IRBuilder<> &b, llvm::Function &vector, unsigned lanes)
      : b_(b), vector_fn_(vector), lanes_(lanes) {}

  llvm::Type *type() { return vectorOf(b_.getInt1Ty(), lanes_); }

  // Whether some work-item of `mask` is on: one i1 for all.
  llvm::Value *anyLane(llvm::Value *mask);

  // `per_lane` (one value per work-item) repeated for each of the
  // `elements` of each work-item's vector; itself when `elements` is 1.
  llvm::Value *perElement(llvm::Value *per_lane, unsigned elements);

  // `a` where `mask` (one i1 per work-item, or a whole i1) is on, else `b`;
  // `a` and `b` may be vectors kept whole.
  llvm::Value *select(llvm::Value *mask, llvm::Value *a, llvm::Value *b);

  bool hasBlock(llvm::BasicBlock *block) const {
    return block_mask_.count(block) != 0;
  }
  llvm::Value *block(llvm::BasicBlock *block) const {
    return block_mask_.at(block);
  }
  void setBlock(llvm::BasicBlock *block, llvm::Value *mask) {
    block_mask_[block] = mask;
  }
  llvm::Value *edge(llvm::BasicBlock *from, llvm::BasicBlock *to) const {
    return edge_mask_.at({from, to});
  }
  void setEdge(llvm::BasicBlock *from, llvm::BasicBlock *to,
               llvm::Value *mask) {
    edge_mask_[{from, to}] = mask;
  }

  // The work-items that reach `block` by any of its edges.
  llvm::Value *joinEdges(llvm::BasicBlock *block);

  // A conditional branch at the end of `block`: the work-items of `mask`
  // whose `condition` (a vector) holds go to `taken`, the others to `other`.
  void branch(llvm::BasicBlock *block, llvm::BasicBlock *taken,
              llvm::BasicBlock *other, llvm::Value *mask,
              llvm::Value *condition);

  // A load or store of one `element` per work-item of `mask` at `pointers`
  // (a vector), `spacing` elements apart (VaryingValues::spacing; 0: any
  // addresses, a gather or scatter). An `element` of vector type is loaded
  // whole for each work-item.
  llvm::Value *load(llvm::Type *element, llvm::Value *pointers,
                    unsigned spacing, llvm::Align align, llvm::Value *mask);
  void store(llvm::Value *values, llvm::Type *element, llvm::Value *pointers,
             unsigned spacing, llvm::Align align, llvm::Value *mask);

  // For a gather or scatter whose work-items are `stride` bytes apart (a
  // row of a local tile each, CLBlast's transposed tiles): the first
  // work-item's pointer and constant offsets, so that the addresses are no
  // vector arithmetic (64-bit multiplies and shifts on AVX2) and, where
  // LLVM writes the access as one load or store per lane, each is the one
  // pointer and an immediate displacement.
  llvm::Value *stridedPointers(llvm::Value *pointers, int64_t stride);

  // Stores `values` to `pointer` where `mask` is on: a plain store when all
  // of it is, in code for CPUs whose masked stores are slow (no AVX-512).
  // `lane_mask` is one i1 per work-item, `mask` one per element.
  void storeWholeWhenAllOn(llvm::Value *values, llvm::Value *pointer,
                           llvm::Align align, llvm::Value *mask,
                           llvm::Value *lane_mask);

  // With `blocks`, the result's 16-byte blocks are memory's in that order
  // (block i holds memory's block blocks[i]): loaded whole a block at a
  // time, masked as one load and then rearranged.
  llvm::Value *loadWholeWhenAllOn(llvm::Type *type, llvm::Value *pointer,
                                  llvm::Align align, llvm::Value *mask,
                                  llvm::Value *lane_mask,
                                  llvm::ArrayRef<unsigned> blocks = {});
  // `also_fast_gathers`: branch on AVX-512 too (each work-item's whole
  // vector gathered element by element costs more than an access per
  // work-item there as well).
  bool branchOnAllLanes(llvm::Value *lane_mask, llvm::StringRef access,
                        llvm::BasicBlock *&whole, llvm::BasicBlock *&masked,
                        llvm::BasicBlock *&after,
                        bool also_fast_gathers = false);
  // Joins a load made whole and the same made masked (branchOnAllLanes):
  // branches from the current block (the masked side's end) to `after`.
  llvm::Value *joinLoads(llvm::Value *plain, llvm::BasicBlock *whole,
                         llvm::Value *some, llvm::BasicBlock *masked,
                         llvm::BasicBlock *after);

  // Inserts `load`, a scalar load of one address for all, where it runs only
  // when some work-item of `mask` is on; returns its value (poison when
  // none is).
  llvm::Value *loadIfAnyLane(llvm::Instruction *load, llvm::StringRef name,
                             llvm::Value *mask);

  // Makes `store`, to the one address `address`, with `value`: a scalar, or
  // with `per_lane` a vector of which the last work-item of `mask` stores.
  void storeToOneAddress(llvm::StoreInst &store, llvm::Value *value,
                         bool per_lane, llvm::Value *address,
                         llvm::Value *mask);

private:
  llvm::Value *firstLane(llvm::Value *pointers);
  // `mask` spread over `spacing` elements per work-item, on at each
  // work-item's own element only.
  llvm::Value *spacedMask(llvm::Value *mask, unsigned spacing);
  // How many elements the accesses of all lanes `spacing` apart span, from
  // the first lane's to the last one's.
  unsigned spannedElements(unsigned spacing) const;
  llvm::Value *elementPointers(llvm::Type *element, llvm::Value *pointers);

  llvm::IRBuilder<> &b_;
  llvm::Function &vector_fn_;
  unsigned lanes_;
  llvm::DenseMap<llvm::BasicBlock *, llvm::Value *> block_mask_;
  std::map<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>, llvm::Value *>
      edge_mask_;
};

} // namespace weft::compiler
