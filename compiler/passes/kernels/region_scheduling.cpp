// The group's scheduling in the group entry of weft-barrier-regions: which
// region runs next over which work-items, whether the work-items agreed on
// where they stopped, and the passes of one work-item at a time after they
// did not (RegionEmitter::emit; the class comment in region_emitter.h).
#include "compiler/passes/kernels/region_emitter.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <string>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::IRBuilder;
using llvm::Value;

void RegionEmitter::emit(const std::vector<llvm::AllocaInst *> &shared,
                         const std::vector<llvm::AllocaInst *> &per_item,
                         const uint64_t required_size[3]) {
  llvm::LLVMContext &ctx = work_.getContext();
  llvm::Function *entry = values_.entry;
  Value *const *sizes = values_.local_size;
  {
    // The group's own variables sit in the entry block, so they are static.
    IRBuilder<> top(&entry->getEntryBlock(), entry->getEntryBlock().begin());
    for (unsigned d = 0; d < 3; ++d) {
      first_[d] = top.CreateAlloca(top.getInt64Ty(), nullptr, "first");
      last_[d] = top.CreateAlloca(top.getInt64Ty(), nullptr, "last");
    }
    diverged_ = top.CreateAlloca(top.getInt1Ty(), nullptr, "diverged");
    pass_region_ = top.CreateAlloca(top.getInt32Ty(), nullptr, "pass_region");
    pass_next_ = top.CreateAlloca(top.getInt64Ty(), nullptr, "pass_next");
    follower_box_ = top.CreateAlloca(top.getInt32Ty(), nullptr, "follower_box");
    for (llvm::AllocaInst *alloca : shared) {
      llvm::AllocaInst *copy = top.CreateAlloca(
          alloca->getAllocatedType(), alloca->getAddressSpace(),
          alloca->getArraySize(), alloca->getName());
      copy->setAlignment(alloca->getAlign());
      shared_copies_[alloca] = copy;
    }
    uniform_temporary_.assign(per_item.size(), nullptr);
    for (size_t i = 0; i < per_item.size(); ++i)
      if (uniform_[i])
        uniform_temporary_[i] =
            top.CreateAlloca(per_item[i]->getAllocatedType(), nullptr,
                             per_item[i]->getName() + ".uniform");
  }
  storage_ = layOutRegionStorage(b_, values_, per_item, uniform_);
  widenRegions(shared, per_item, required_size);
  b_.CreateStore(b_.getFalse(), diverged_);
  Value *zero = b_.getInt64(0);
  Value *const origin[3] = {zero, zero, zero};
  auto setWholeGroup = [&] { setBounds(origin, sizes); };
  setWholeGroup();
  BasicBlock *setup_end = b_.GetInsertBlock();
  auto *launch = BasicBlock::Create(ctx, "launch", entry);
  auto *after = BasicBlock::Create(ctx, "after_region", entry);
  auto *done = BasicBlock::Create(ctx, "done", entry);
  b_.CreateBr(launch);

  // launch: run region `region` over the bounds in first/last.
  b_.SetInsertPoint(launch);
  llvm::PHINode *region = b_.CreatePHI(b_.getInt32Ty(), 3, "region");
  region->addIncoming(b_.getInt32(0), setup_end);
  llvm::SwitchInst *choose = b_.CreateSwitch(region, done, finishedId());
  b_.SetInsertPoint(done);
  b_.CreateRetVoid();
  for (unsigned r = 0; r < finishedId(); ++r) {
    std::string name = std::to_string(r);
    auto *start = BasicBlock::Create(ctx, "run_region" + name, entry);
    choose->addCase(b_.getInt32(r), start);
    // A region with one way out: while the work-items agree, the whole group
    // goes on there, with nothing to compare; a run of one work-item after a
    // divergent barrier records where it waits, as the others' runs do.
    BasicBlock *region_after = after;
    if (std::optional<uint32_t> exit = regions_.only_exit[r]) {
      region_after = BasicBlock::Create(ctx, "after_region" + name, entry);
      auto *agreed = BasicBlock::Create(ctx, "agreed_exit" + name, entry);
      auto *item = BasicBlock::Create(ctx, "item_exit" + name, entry);
      b_.SetInsertPoint(region_after);
      b_.CreateCondBr(b_.CreateLoad(b_.getInt1Ty(), diverged_), item, agreed);
      b_.SetInsertPoint(item);
      Value *run_item = b_.CreateSub(b_.CreateLoad(b_.getInt64Ty(), pass_next_),
                                     b_.getInt64(1));
      b_.CreateStore(b_.getInt32(*exit), storage_.stateAt(b_, run_item));
      b_.CreateBr(after);
      b_.SetInsertPoint(agreed);
      copyUniform(
          per_item, [&](size_t i) { return storage_.uniform_next[i]; },
          [&](size_t i) { return storage_.uniform_current[i]; });
      setWholeGroup();
      region->addIncoming(b_.getInt32(*exit), agreed);
      b_.CreateBr(launch);
    }
    b_.SetInsertPoint(start);
    emitUniformSlice(r, per_item);
    if (makesAsyncCopies(regions_.blocks[r]))
      emitRegionWithCopies(r, shared, per_item, region_after);
    else if (asksLastInGroup(regions_.blocks[r]))
      emitRegionPeelingLast(r, shared, per_item, region_after);
    else
      emitRegion(r, shared, per_item, region_after, /*follower=*/false);
  }

  // after_region, together: did every work-item stop at the same barrier?
  auto *agree = BasicBlock::Create(ctx, "agree", entry);
  auto *agreed = BasicBlock::Create(ctx, "agreed", entry);
  auto *disagree = BasicBlock::Create(ctx, "disagree", entry);
  auto *pass_start = BasicBlock::Create(ctx, "pass_start", entry);
  auto *pass_scan = BasicBlock::Create(ctx, "pass_scan", entry);
  auto *agreed_copy = BasicBlock::Create(ctx, "uniform_to_current", entry);
  auto *diverged_copy = BasicBlock::Create(ctx, "uniform_to_item", entry);
  b_.SetInsertPoint(after);
  b_.CreateCondBr(b_.CreateLoad(b_.getInt1Ty(), diverged_), diverged_copy,
                  agreed_copy);
  // The run's group-uniform values become the current ones; after a
  // divergent barrier a run is one work-item's, whose own copies they are.
  b_.SetInsertPoint(agreed_copy);
  copyUniform(
      per_item, [&](size_t i) { return storage_.uniform_next[i]; },
      [&](size_t i) { return storage_.uniform_current[i]; });
  b_.CreateBr(agree);
  b_.SetInsertPoint(diverged_copy);
  {
    Value *item = b_.CreateSub(b_.CreateLoad(b_.getInt64Ty(), pass_next_),
                               b_.getInt64(1));
    copyUniform(
        per_item, [&](size_t i) { return storage_.uniform_next[i]; },
        [&](size_t i) { return storage_.itemSlot(b_, i, item); });
  }
  b_.CreateBr(pass_scan);
  b_.SetInsertPoint(agree);
  {
    llvm::PHINode *i = b_.CreatePHI(b_.getInt64Ty(), 2, "i");
    llvm::PHINode *low = b_.CreatePHI(b_.getInt32Ty(), 2, "low");
    llvm::PHINode *high = b_.CreatePHI(b_.getInt32Ty(), 2, "high");
    Value *state = b_.CreateLoad(b_.getInt32Ty(), storage_.stateAt(b_, i));
    Value *new_low =
        b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, low, state);
    Value *new_high =
        b_.CreateBinaryIntrinsic(llvm::Intrinsic::umax, high, state);
    Value *next = b_.CreateAdd(i, b_.getInt64(1), "", true, true);
    i->addIncoming(b_.getInt64(0), agreed_copy);
    i->addIncoming(next, agree);
    low->addIncoming(b_.getInt32(~0u), agreed_copy);
    low->addIncoming(new_low, agree);
    high->addIncoming(b_.getInt32(0), agreed_copy);
    high->addIncoming(new_high, agree);
    b_.CreateCondBr(b_.CreateICmpULT(next, storage_.items), agree, agreed);
    auto *whole = BasicBlock::Create(ctx, "whole_group", entry);
    b_.SetInsertPoint(agreed);
    b_.CreateCondBr(b_.CreateICmpEQ(new_low, new_high), whole, disagree);
    b_.SetInsertPoint(whole);
    setWholeGroup();
    region->addIncoming(new_low, whole);
    b_.CreateBr(launch);
  }

  // disagree: from now on, pass by pass, work-item by work-item.
  // Every work-item ran the last region and left the same group-uniform
  // values: each gets its own copy of them.
  b_.SetInsertPoint(disagree);
  b_.CreateStore(b_.getTrue(), diverged_);
  if (std::find(uniform_.begin(), uniform_.end(), true) != uniform_.end()) {
    auto *spread = BasicBlock::Create(ctx, "uniform_to_items", entry);
    b_.CreateBr(spread);
    b_.SetInsertPoint(spread);
    llvm::PHINode *i = b_.CreatePHI(b_.getInt64Ty(), 2, "i");
    i->addIncoming(b_.getInt64(0), disagree);
    copyUniform(
        per_item, [&](size_t v) { return storage_.uniform_current[v]; },
        [&](size_t v) { return storage_.itemSlot(b_, v, i); });
    Value *next = b_.CreateAdd(i, b_.getInt64(1));
    i->addIncoming(next, spread);
    auto *spread_done = BasicBlock::Create(ctx, "uniform_spread", entry);
    b_.CreateCondBr(b_.CreateICmpULT(next, storage_.items), spread,
                    spread_done);
    b_.SetInsertPoint(spread_done);
  }
  b_.CreateBr(pass_start);
  // pass_start: the region of the first unfinished work-item, or the end.
  b_.SetInsertPoint(pass_start);
  {
    auto *look = BasicBlock::Create(ctx, "pass_look", entry);
    auto *found = BasicBlock::Create(ctx, "pass_found", entry);
    b_.CreateBr(look);
    b_.SetInsertPoint(look);
    llvm::PHINode *i = b_.CreatePHI(b_.getInt64Ty(), 2, "i");
    i->addIncoming(b_.getInt64(0), pass_start);
    Value *state = b_.CreateLoad(b_.getInt32Ty(), storage_.stateAt(b_, i));
    auto *more = BasicBlock::Create(ctx, "pass_more", entry);
    b_.CreateCondBr(b_.CreateICmpNE(state, b_.getInt32(finishedId())), found,
                    more);
    b_.SetInsertPoint(more);
    Value *next = b_.CreateAdd(i, b_.getInt64(1));
    i->addIncoming(next, more);
    b_.CreateCondBr(b_.CreateICmpULT(next, storage_.items), look, done);
    b_.SetInsertPoint(found);
    b_.CreateStore(state, pass_region_);
    b_.CreateStore(i, pass_next_);
    b_.CreateBr(pass_scan);
  }
  // pass_scan: the next work-item of this pass waiting at its region.
  b_.SetInsertPoint(pass_scan);
  {
    auto *look = BasicBlock::Create(ctx, "scan_look", entry);
    auto *more = BasicBlock::Create(ctx, "scan_more", entry);
    auto *found = BasicBlock::Create(ctx, "scan_found", entry);
    Value *start = b_.CreateLoad(b_.getInt64Ty(), pass_next_);
    Value *wanted = b_.CreateLoad(b_.getInt32Ty(), pass_region_);
    b_.CreateCondBr(b_.CreateICmpULT(start, storage_.items), look, pass_start);
    b_.SetInsertPoint(look);
    llvm::PHINode *i = b_.CreatePHI(b_.getInt64Ty(), 2, "i");
    i->addIncoming(start, pass_scan);
    Value *state = b_.CreateLoad(b_.getInt32Ty(), storage_.stateAt(b_, i));
    b_.CreateCondBr(b_.CreateICmpEQ(state, wanted), found, more);
    b_.SetInsertPoint(more);
    Value *next = b_.CreateAdd(i, b_.getInt64(1));
    i->addIncoming(next, more);
    b_.CreateCondBr(b_.CreateICmpULT(next, storage_.items), look, pass_start);
    b_.SetInsertPoint(found);
    b_.CreateStore(b_.CreateAdd(i, b_.getInt64(1)), pass_next_);
    copyUniform(
        per_item, [&](size_t v) { return storage_.itemSlot(b_, v, i); },
        [&](size_t v) { return storage_.uniform_current[v]; });
    Value *x = b_.CreateURem(i, sizes[0]);
    Value *rest = b_.CreateUDiv(i, sizes[0]);
    Value *id[3] = {x, b_.CreateURem(rest, sizes[1]),
                    b_.CreateUDiv(rest, sizes[1])};
    for (unsigned d = 0; d < 3; ++d) {
      b_.CreateStore(id[d], first_[d]);
      b_.CreateStore(b_.CreateAdd(id[d], b_.getInt64(1)), last_[d]);
    }
    region->addIncoming(wanted, found);
    b_.CreateBr(launch);
  }
}

} // namespace weft::compiler
