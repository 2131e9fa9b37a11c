// The widener's interleaved accesses: where each work-item reads or writes
// a run of `spacing` neighbouring elements one element at a time (a float2
// or double2 loaded and stored as .x and .y: CLBlast's XgemmDirect staging
// its tiles in local memory), the runs of neighbouring work-items are next
// to each other, and the accesses to all elements of the runs follow each
// other in one block: one load or store of the whole stretch, all lanes'
// elements in order, and shuffles that deal them out or in. Each access
// alone is a load or store of every `spacing`-th element: masked (with
// holes), or on AMD's cores a span read whole and, for stores into local
// memory, merged with what is there (lane_masks.cpp) — twice the loads,
// and a merge that reads back what the previous store just wrote.
#include "compiler/passes/kernels/widener.h"
#include "compiler/passes/kernels/widening_checks.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <vector>

namespace weft::compiler {

using llvm::Value;

namespace {
// The accesses `found` (by element offset from the first one) make a whole
// run of `spacing` offsets; its lowest, else nullopt.
std::optional<int64_t> wholeRun(const std::map<int64_t, llvm::Instruction *> &found,
                                unsigned spacing) {
  if (found.size() != spacing)
    return std::nullopt;
  int64_t low = found.begin()->first, high = found.rbegin()->first;
  if (high - low != int64_t(spacing) - 1)
    return std::nullopt;
  return low;
}
// Whether `a` and `b` address memories that never overlap: local memory
// and global or constant memory (OpenCL C 6.7's disjoint address spaces).
bool disjointSpaces(const Value *a, const Value *b) {
  constexpr unsigned kGlobal = 1, kConstant = 2, kLocal = 3;
  unsigned x = a->getType()->getScalarType()->getPointerAddressSpace();
  unsigned y = b->getType()->getScalarType()->getPointerAddressSpace();
  auto outside = [&](unsigned space) {
    return space == kGlobal || space == kConstant;
  };
  return (x == kLocal && outside(y)) || (y == kLocal && outside(x));
}
} // namespace

// The accesses after `first` in its block, up to the first other access of
// memory (for loads: the first write), that touch the other elements of
// each work-item's run of `spacing`, by offset in elements from `first`'s.
// Accesses of another address space are passed (CLBlast's direct GEMM
// stages a tile from global into local memory, each work-item's pair of
// elements loaded and stored in turns with its next row's), and so are
// stores of the same kind that lie wholly outside the run's span.
std::map<int64_t, llvm::Instruction *>
Widener::interleavedSiblings(llvm::Instruction &first, unsigned spacing) {
  bool loads = llvm::isa<llvm::LoadInst>(first);
  llvm::Type *t = loads ? first.getType()
                        : llvm::cast<llvm::StoreInst>(first)
                              .getValueOperand()
                              ->getType();
  Value *pointer = llvm::getLoadStorePointerOperand(&first);
  const llvm::DataLayout &layout = scalar_.getParent()->getDataLayout();
  int64_t size = int64_t(layout.getTypeStoreSize(t));
  std::map<int64_t, llvm::Instruction *> found{{0, &first}};
  for (llvm::Instruction *next = first.getNextNode(); next;
       next = next->getNextNode()) {
    if (!next->mayReadOrWriteMemory() || isPrefetch(*next) ||
        next->hasMetadata(llvm::LLVMContext::MD_invariant_load))
      continue; // the context's fields (a group's id) are never written
    bool same_kind = loads ? llvm::isa<llvm::LoadInst>(next)
                           : llvm::isa<llvm::StoreInst>(next);
    if (!same_kind) {
      if (loads && !next->mayWriteToMemory())
        continue; // another load: reading is no hazard
      Value *other = llvm::getLoadStorePointerOperand(next);
      bool simple = llvm::isa<llvm::LoadInst>(next)
                        ? llvm::cast<llvm::LoadInst>(next)->isSimple()
                        : llvm::isa<llvm::StoreInst>(next) &&
                              llvm::cast<llvm::StoreInst>(next)->isSimple();
      if (other && simple && disjointSpaces(pointer, other))
        continue;
      break;
    }
    Value *at = llvm::getLoadStorePointerOperand(next);
    llvm::Type *next_type =
        loads ? next->getType()
              : llvm::cast<llvm::StoreInst>(next)->getValueOperand()->getType();
    bool simple = loads ? llvm::cast<llvm::LoadInst>(next)->isSimple()
                        : llvm::cast<llvm::StoreInst>(next)->isSimple();
    std::optional<int64_t> distance;
    if (simple && next_type == t && varies(at) &&
        varying_.spacing(at, t, VaryingValues::kMostRunSpacing) == spacing)
      distance = byteDistance(pointer, at);
    // (One already in a run of its own is no sibling, but may be passed.)
    bool taken = row_loads_.count(next) || interleaved_stores_.count(next);
    if (!taken && distance && *distance % size == 0 &&
        std::abs(*distance / size) < int64_t(spacing) &&
        !found.count(*distance / size)) {
      found.emplace(*distance / size, next);
      if (found.size() == spacing)
        break;
      continue;
    }
    // Every lane's elements of the run lie in the span's bytes from the
    // first work-item's first; a store of the same shape starting a whole
    // span away touches none of them.
    int64_t span = int64_t(lanes_) * spacing * size;
    if (!loads && distance && (*distance >= span || *distance <= -span))
      continue;
    if (!loads)
      break; // a store elsewhere (perhaps to the same elements) or unknown
  }
  return found;
}

// `first`, read `spacing` elements apart by neighbouring work-items, and
// the loads of the other elements of each work-item's run, as one load;
// returns `first`'s value and keeps the others' for when the widener
// reaches them. Null when the run is not whole.
Value *Widener::loadInterleaved(llvm::LoadInst &first, unsigned spacing,
                                Value *mask) {
  if (spacing < 2 || first.getType()->isVectorTy() || !first.isSimple())
    return nullptr;
  std::map<int64_t, llvm::Instruction *> found =
      interleavedSiblings(first, spacing);
  std::optional<int64_t> low = wholeRun(found, spacing);
  if (!low)
    return nullptr;
  llvm::Type *t = first.getType();
  const llvm::DataLayout &layout = scalar_.getParent()->getDataLayout();
  int64_t size = int64_t(layout.getTypeStoreSize(t));
  Value *base = b_.CreateExtractElement(widened(first.getPointerOperand()),
                                        uint64_t(0));
  if (*low != 0)
    base = b_.CreateConstGEP1_64(b_.getInt8Ty(), base, uint64_t(*low * size));
  llvm::Align align = llvm::commonAlignment(first.getAlign(), *low * size);
  // Every element from the lowest of the first work-item's run to the
  // highest of the last one's: all of them read by some load of the run.
  // Where a register holds several 16-byte blocks (AVX2), the blocks are
  // loaded in the order that lets each element's lanes come out of blocks
  // (rowsInBlocks): an element vector picked across blocks costs a
  // vpermpd beside its shufps (a tile's pairs read back at every k step).
  std::vector<unsigned> position = rowsInBlocks(unsigned(spacing), unsigned(size));
  std::vector<unsigned> blocks;
  // (Not for bytes or halves: the packed words of dot products must stay
  // in memory's order for vpdpbusd, and their shuffles are not shufps. Not
  // for runs only stored again, a tile staged into local memory: woven
  // back into memory's order, the blocks would cost the permutes here.)
  bool only_copied = llvm::all_of(found, [](const auto &entry) {
    return llvm::all_of(entry.second->users(), [&](const llvm::User *user) {
      auto *store = llvm::dyn_cast<llvm::StoreInst>(user);
      return store && store->getValueOperand() == entry.second;
    });
  });
  if (!position.empty() && size >= 4 && !only_copied &&
      !hasFastGathers(vector_fn_)) {
    // Block i of the result holds the runs placed from i * runs-per-block
    // on: memory's block of the lane whose run is placed first there.
    unsigned runs_per_block = 16 / unsigned(size) / spacing;
    blocks.resize(lanes_ / runs_per_block);
    for (unsigned lane = 0; lane < lanes_; ++lane)
      if (position[lane] % runs_per_block == 0)
        blocks[position[lane] / runs_per_block] = lane / runs_per_block;
  } else {
    position.clear();
  }
  Value *all = masks_.loadWholeWhenAllOn(
      vectorOf(t, lanes_ * spacing), base, align,
      masks_.perElement(mask, spacing), mask, blocks);
  Value *result = nullptr;
  for (auto &[offset, load] : found) {
    llvm::SmallVector<int, 64> picks;
    for (unsigned lane = 0; lane < lanes_; ++lane)
      picks.push_back(int((position.empty() ? lane : position[lane]) *
                              spacing +
                          unsigned(offset - *low)));
    Value *elements = b_.CreateShuffleVector(all, picks);
    if (load == &first)
      result = elements;
    else
      row_loads_[load] = elements;
  }
  return result;
}

// Stores of a whole run (see loadInterleaved) wait for the last of them,
// where all their values are known, and are one store. False when `store`
// is in no such run (and is to be stored alone).
bool Widener::storeInterleaved(llvm::StoreInst &store, unsigned spacing,
                               Value *mask) {
  auto waiting = interleaved_stores_.find(&store);
  if (waiting == interleaved_stores_.end()) {
    Value *value = store.getValueOperand();
    if (spacing < 2 || value->getType()->isVectorTy() || !store.isSimple())
      return false;
    std::map<int64_t, llvm::Instruction *> found =
        interleavedSiblings(store, spacing);
    if (!wholeRun(found, spacing))
      return false;
    auto run = std::make_shared<std::map<int64_t, llvm::Instruction *>>(
        std::move(found));
    for (auto &[offset, sibling] : *run)
      interleaved_stores_[sibling] = run;
    waiting = interleaved_stores_.find(&store);
  }
  auto run = waiting->second;
  llvm::Instruction *last = nullptr;
  for (auto &[offset, sibling] : *run)
    if (!last || last->comesBefore(sibling))
      last = sibling;
  if (&store != last)
    return true; // stored with the last one
  auto *lowest = llvm::cast<llvm::StoreInst>(run->begin()->second);
  std::vector<Value *> parts;
  for (auto &[offset, sibling] : *run)
    parts.push_back(
        widened(llvm::cast<llvm::StoreInst>(sibling)->getValueOperand()));
  // Work-item i's elements side by side at i * spacing ...
  llvm::SmallVector<int, 64> woven;
  for (unsigned lane = 0; lane < lanes_; ++lane)
    for (unsigned k = 0; k < spacing; ++k)
      woven.push_back(int(k * lanes_ + lane));
  Value *values =
      b_.CreateShuffleVector(llvm::concatenateVectors(b_, parts), woven);
  Value *base = b_.CreateExtractElement(
      widened(lowest->getPointerOperand()), uint64_t(0));
  masks_.storeWholeWhenAllOn(values, base, lowest->getAlign(),
                             masks_.perElement(mask, spacing), mask);
  return true;
}

} // namespace weft::compiler
