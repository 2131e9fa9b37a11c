// One region's run in the group entry of weft-barrier-regions: the loops
// over the work-items it covers, with the region's code in them, and the
// uniform slice computed once before them.
#include "compiler/passes/kernels/region_emitter.h"

#include "compiler/analysis/group_uniform_variables.h"
#include "compiler/analysis/work_item_loops.h"
#include "compiler/passes/kernels/async_copy_followers.h"
#include "compiler/passes/kernels/kernel_bodies.h"
#include "compiler/passes/kernels/widening_checks.h"
#include "compiler/passes/kernels/work_item_vectorizer.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>
#include <string>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::IRBuilder;
using llvm::Value;

namespace {

// z { y { x { ... } } } over the local ids in [first, last) per dimension,
// x in steps of `x_step`. `body` fills the innermost block (it gets the ids
// and the latch every path must end at). Returns the branch back to the x
// loop's start.
llvm::BranchInst *emitWorkItemLoops(
    IRBuilder<> &b, Value *const first[3], Value *const last[3],
    const std::function<void(Value *const id[3], BasicBlock *latch)> &body,
    uint64_t x_step = 1) {
  llvm::Function *f = b.GetInsertBlock()->getParent();
  llvm::LLVMContext &ctx = f->getContext();
  BasicBlock *headers[3], *latches[3];
  llvm::PHINode *ids[3];
  for (int d = 2; d >= 0; --d) {
    headers[d] = BasicBlock::Create(ctx, "items" + std::to_string(d), f);
    latches[d] = BasicBlock::Create(ctx, "next" + std::to_string(d), f);
  }
  BasicBlock *exit = BasicBlock::Create(ctx, "items_done", f);
  BasicBlock *preheader = b.GetInsertBlock();
  for (int d = 2; d >= 0; --d) {
    b.CreateBr(headers[d]);
    b.SetInsertPoint(headers[d]);
    ids[d] = b.CreatePHI(b.getInt64Ty(), 2, "lid" + std::to_string(d));
    ids[d]->addIncoming(first[d], preheader);
    preheader = headers[d];
  }
  Value *const id_values[3] = {ids[0], ids[1], ids[2]};
  body(id_values, latches[0]);
  llvm::BranchInst *x_back_edge = nullptr;
  for (unsigned d = 0; d < 3; ++d) {
    b.SetInsertPoint(latches[d]);
    Value *next =
        b.CreateAdd(ids[d], b.getInt64(d == 0 ? x_step : 1), "", true, true);
    ids[d]->addIncoming(next, latches[d]);
    llvm::BranchInst *back =
        b.CreateCondBr(b.CreateICmpULT(next, last[d]), headers[d],
                       d < 2 ? latches[d + 1] : exit);
    if (d == 0)
      x_back_edge = back;
  }
  b.SetInsertPoint(exit);
  return x_back_edge;
}

// The blocks of region `r` every work-item that runs it runs.
std::vector<BasicBlock *> blocksForAll(const Regions &regions, unsigned r,
                                       const GroupUniformity &uniformity) {
  std::vector<BasicBlock *> kept;
  for (BasicBlock *block : regions.blocks[r])
    if (!uniformity.someItemsOnly(block))
      kept.push_back(block);
  return kept;
}

} // namespace

bool RegionEmitter::slicesPossible() const {
  for (unsigned r = 0; r < regions_.blocks.size(); ++r) {
    if (uniformity_.someItemsOnly(regions_.starts[r]))
      return false;
    std::vector<BasicBlock *> kept = blocksForAll(regions_, r, uniformity_);
    llvm::SmallPtrSet<BasicBlock *, 16> in_region(regions_.blocks[r].begin(),
                                                  regions_.blocks[r].end());
    llvm::SmallPtrSet<BasicBlock *, 16> in_slice(kept.begin(), kept.end());
    for (BasicBlock *block : kept) {
      // Where the paths of a varying branch meet must be in the slice too.
      if (uniformity_.branchesOnVarying(block)) {
        BasicBlock *join = uniformity_.joinAfter(block);
        if (join && in_region.count(join) && !in_slice.count(join))
          return false;
      } else {
        for (BasicBlock *successor : llvm::successors(block))
          if (in_region.count(successor) && !in_slice.count(successor))
            return false;
      }
      // What the slice keeps is computed within it.
      for (llvm::Instruction &inst : *block) {
        if (inst.getType()->isVoidTy() || uniformity_.varying(&inst) ||
            llvm::isa<llvm::PHINode>(inst))
          continue;
        for (Value *operand : inst.operands())
          if (auto *def = llvm::dyn_cast<llvm::Instruction>(operand))
            if (!llvm::isa<llvm::AllocaInst>(def) &&
                !in_slice.count(def->getParent()))
              return false;
      }
    }
  }
  return true;
}

// What a region run leaves in the group-uniform variables, computed once
// before the run: a copy of the region reduced to the instructions every
// work-item computes alike, on the path they all take (a branch on a
// varying value goes straight to where its paths meet). The work-items'
// own copies of that computation then leave their loop, which LLVM can
// vectorize, and no work-item stores the group's values.
void RegionEmitter::emitUniformSlice(
    unsigned r, const std::vector<llvm::AllocaInst *> &per_item) {
  if (std::find(uniform_.begin(), uniform_.end(), true) == uniform_.end())
    return;
  llvm::LLVMContext &ctx = work_.getContext();
  llvm::Function *entry = values_.entry;
  std::string suffix = ".u" + std::to_string(r);
  copyUniform(
      per_item, [&](size_t i) { return storage_.uniform_current[i]; },
      [&](size_t i) { return uniform_temporary_[i]; });
  auto *end = BasicBlock::Create(ctx, "uniform_slice_end" + suffix, entry);

  // No instruction the slice keeps uses a local id.
  llvm::ValueToValueMapTy map;
  Value *no_id = llvm::PoisonValue::get(b_.getInt64Ty());
  Value *const ids[3] = {no_id, no_id, no_id};
  mapArguments(map, ids);
  for (size_t i = 0; i < per_item.size(); ++i)
    if (uniform_[i])
      map[per_item[i]] = uniform_temporary_[i];
  std::vector<BasicBlock *> kept = blocksForAll(regions_, r, uniformity_);
  llvm::SmallPtrSet<BasicBlock *, 16> in_slice(kept.begin(), kept.end());
  for (BasicBlock *block : kept)
    for (BasicBlock *successor : llvm::successors(block))
      if (!in_slice.count(successor))
        map[successor] = end;
  std::vector<BasicBlock *> copies;
  for (BasicBlock *block : kept) {
    BasicBlock *copy = llvm::CloneBasicBlock(block, map, suffix, entry);
    map[block] = copy;
    copies.push_back(copy);
  }
  llvm::remapInstructionsInBlocks(copies, map);
  b_.CreateBr(llvm::cast<BasicBlock>(map[regions_.starts[r]]));

  std::vector<llvm::Instruction *> dropped;
  for (size_t c = 0; c < kept.size(); ++c) {
    BasicBlock *original = kept[c], *copy = copies[c];
    auto copied = copy->begin();
    for (llvm::Instruction &inst : *original) {
      llvm::Instruction &twin = *copied++;
      if (inst.isTerminator())
        continue;
      bool keep;
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
        auto *alloca =
            llvm::dyn_cast<llvm::AllocaInst>(store->getPointerOperand());
        keep = alloca && uniformity_.uniformVariable(alloca);
      } else {
        keep = !inst.getType()->isVoidTy() && !uniformity_.varying(&inst);
      }
      if (!keep)
        dropped.push_back(&twin);
    }
    llvm::Instruction *terminator = copy->getTerminator();
    BasicBlock *target = nullptr;
    if (llvm::isa<llvm::ReturnInst>(terminator)) {
      target = end;
    } else if (uniformity_.branchesOnVarying(original)) {
      BasicBlock *join = uniformity_.joinAfter(original);
      target =
          join && in_slice.count(join)
              ? copies[std::find(kept.begin(), kept.end(), join) - kept.begin()]
              : end;
    }
    if (target) {
      terminator->eraseFromParent();
      llvm::BranchInst::Create(target, copy);
    }
  }
  for (llvm::Instruction *inst : dropped)
    if (!inst->getType()->isVoidTy())
      inst->replaceAllUsesWith(llvm::PoisonValue::get(inst->getType()));
  for (llvm::Instruction *inst : dropped)
    inst->eraseFromParent();
  // Edges the slice does not have: from blocks it left out, or branches it
  // sent elsewhere.
  for (BasicBlock *copy : copies)
    for (llvm::PHINode &phi : llvm::make_early_inc_range(copy->phis())) {
      llvm::SmallPtrSet<BasicBlock *, 4> predecessors(llvm::pred_begin(copy),
                                                      llvm::pred_end(copy));
      for (unsigned i = phi.getNumIncomingValues(); i-- > 0;)
        if (!predecessors.count(phi.getIncomingBlock(i)))
          phi.removeIncomingValue(i, false);
    }
  b_.SetInsertPoint(end);
  copyUniform(
      per_item, [&](size_t i) { return uniform_temporary_[i]; },
      [&](size_t i) { return storage_.uniform_next[i]; });
}

void RegionEmitter::widenRegions(
    const std::vector<llvm::AllocaInst *> &shared,
    const std::vector<llvm::AllocaInst *> &per_item,
    const uint64_t required_size[3]) {
  widened_.assign(regions_.starts.size(), {});
  for (unsigned r = 0; r < regions_.starts.size(); ++r) {
    std::string why, how;
    widened_[r] = widenRegion({work_, regions_, values_, storage_, shared,
                               per_item, uniform_, required_size,
                               sub_group_size_},
                              r, why, how);
    if (!widened_[r].simd && sub_groups_why_.empty() &&
        exchangesInSubGroups(regions_.blocks[r]))
      sub_groups_why_ = "region " + std::to_string(r) +
                        " exchanges values in sub-groups and was not widened" +
                        (why.empty() ? std::string() : " (" + why + ")");
    std::string note;
    if (widened_[r].simd)
      note = "region " + std::to_string(r) + " widened, " + how;
    else if (!why.empty())
      note = "region " + std::to_string(r) + " one work-item at a time (" +
             why + ")";
    if (!note.empty())
      widening_ += (widening_.empty() ? "" : "; ") + note;
  }
}

void RegionEmitter::emitWidenedRegion(unsigned r, BasicBlock *after) {
  const WidenedRegion &widened = widened_[r];
  llvm::LLVMContext &ctx = work_.getContext();
  llvm::Function *entry = values_.entry;
  Value *const *sizes = values_.local_size;
  Value *first[3], *last[3];
  loadBounds(first, last);
  uint64_t lanes = widenedLanes(*widened.simd);
  llvm::BranchInst *back_edge = emitWorkItemLoops(
      b_, first, last,
      [&](Value *const id[3], BasicBlock *latch) {
        auto callOne = [&](llvm::Function *simd, Value *x, Value *count,
                           bool alike) {
          std::vector<Value *> args(values_.arguments.begin(),
                                    values_.arguments.end());
          args.insert(args.end(), widened.extra.begin(), widened.extra.end());
          if (alike)
            args.push_back(x);
          args.insert(args.end(), {values_.context, x, id[1], id[2], count});
          b_.CreateCall(simd, args);
        };
        // With versions for alike chunks: whether each of the chunk's
        // work-items holds its first's values, then the version that fits.
        auto call = [&](llvm::Function *simd, Value *x, Value *count) {
          llvm::Function *alike = simd == widened.simd
                                      ? widened.alike_simd
                                      : widened.alike_narrow_simd;
          if (!alike) {
            callOne(simd, x, count, false);
            return;
          }
          Value *first = b_.CreateAdd(
              b_.CreateMul(b_.CreateAdd(b_.CreateMul(id[2], sizes[1]), id[1]),
                           sizes[0]),
              x);
          BasicBlock *before = b_.GetInsertBlock();
          auto *compare = BasicBlock::Create(ctx, "alike_compare", entry);
          auto *compared = BasicBlock::Create(ctx, "alike_compared", entry);
          auto *same = BasicBlock::Create(ctx, "alike_chunk", entry);
          auto *differ = BasicBlock::Create(ctx, "unalike_chunk", entry);
          auto *called = BasicBlock::Create(ctx, "chunk_called", entry);
          b_.CreateCondBr(b_.CreateICmpUGT(count, b_.getInt64(1)), compare,
                          compared);
          b_.SetInsertPoint(compare);
          llvm::PHINode *i = b_.CreatePHI(b_.getInt64Ty(), 2, "alike_i");
          llvm::PHINode *all = b_.CreatePHI(b_.getInt1Ty(), 2, "alike_all");
          i->addIncoming(b_.getInt64(1), before);
          all->addIncoming(b_.getTrue(), before);
          Value *now = all;
          for (auto &[base, type] : widened.alike) {
            auto at = [&](Value *item) {
              return b_.CreateLoad(type,
                                   b_.CreateInBoundsGEP(type, base, item));
            };
            now = b_.CreateAnd(
                now, b_.CreateICmpEQ(at(first), at(b_.CreateAdd(first, i))));
          }
          Value *next = b_.CreateAdd(i, b_.getInt64(1));
          i->addIncoming(next, compare);
          all->addIncoming(now, compare);
          b_.CreateCondBr(b_.CreateICmpULT(next, count), compare, compared);
          b_.SetInsertPoint(compared);
          llvm::PHINode *alike_all = b_.CreatePHI(b_.getInt1Ty(), 2);
          alike_all->addIncoming(b_.getTrue(), before);
          alike_all->addIncoming(now, compare);
          b_.CreateCondBr(alike_all, same, differ);
          b_.SetInsertPoint(same);
          callOne(alike, x, count, true);
          b_.CreateBr(called);
          b_.SetInsertPoint(differ);
          callOne(simd, x, count, false);
          b_.CreateBr(called);
          b_.SetInsertPoint(called);
        };
        // A chunk whose work-items all exist runs with a constant count:
        // inlined, its lanes are all active.
        Value *left = b_.CreateSub(last[0], id[0]);
        auto *full = BasicBlock::Create(ctx, "full_chunk", entry);
        auto *part = BasicBlock::Create(ctx, "part_chunk", entry);
        b_.CreateCondBr(b_.CreateICmpUGE(left, b_.getInt64(lanes)), full,
                        part);
        b_.SetInsertPoint(full);
        call(widened.simd, id[0], b_.getInt64(lanes));
        b_.CreateBr(latch);
        b_.SetInsertPoint(part);
        if (!widened.narrow_simd) {
          call(widened.simd, id[0], left);
          b_.CreateBr(latch);
          return;
        }
        // The rest of the row, narrow chunk by narrow chunk.
        uint64_t narrow = widenedLanes(*widened.narrow_simd);
        auto *rest = BasicBlock::Create(ctx, "narrow_chunk", entry);
        b_.CreateBr(rest);
        b_.SetInsertPoint(rest);
        llvm::PHINode *x = b_.CreatePHI(b_.getInt64Ty(), 2, "narrow_x");
        x->addIncoming(id[0], part);
        Value *rest_left = b_.CreateSub(last[0], x);
        call(widened.narrow_simd, x,
             b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, rest_left,
                                      b_.getInt64(narrow)));
        Value *next = b_.CreateAdd(x, b_.getInt64(narrow), "", true, true);
        x->addIncoming(next, b_.GetInsertBlock());
        b_.CreateCondBr(b_.CreateICmpULT(next, last[0]), rest, latch);
      },
      lanes);
  markWorkItemLoop(*back_edge);
  b_.CreateBr(after);
}

void RegionEmitter::emitRegion(unsigned r,
                               const std::vector<llvm::AllocaInst *> &shared,
                               const std::vector<llvm::AllocaInst *> &per_item,
                               BasicBlock *after, bool follower,
                               std::optional<bool> last_in_group) {
  if (!follower && !last_in_group && r < widened_.size() &&
      widened_[r].simd) {
    emitWidenedRegion(r, after);
    return;
  }
  llvm::LLVMContext &ctx = work_.getContext();
  llvm::Function *entry = values_.entry;
  Value *const *sizes = values_.local_size;
  Value *first[3], *last[3];
  loadBounds(first, last);
  // The group-uniform variables' values at the start of the run, loaded
  // before the loops (in the loop LLVM could not tell the load from the
  // stores of resume states into the same storage).
  std::vector<Value *> current(per_item.size(), nullptr);
  for (size_t i = 0; i < per_item.size(); ++i)
    if (uniform_[i])
      current[i] = b_.CreateLoad(per_item[i]->getAllocatedType(),
                                 storage_.uniform_current[i]);
  // The x loop is parallel unless the region uses a variable all
  // work-items share (sharedByWorkItems: each uses it in turn).
  std::vector<llvm::Instruction *> accesses;
  bool parallel = true;
  llvm::BranchInst *back_edge = emitWorkItemLoops(
      b_, first, last, [&](Value *const id[3], BasicBlock *latch) {
        Value *linear = b_.CreateAdd(
            b_.CreateMul(b_.CreateAdd(b_.CreateMul(id[2], sizes[1]), id[1]),
                         sizes[0]),
            id[0], "linear");

        llvm::ValueToValueMapTy map;
        mapArguments(map, id);
        for (llvm::AllocaInst *alloca : shared)
          map[alloca] = shared_copies_[alloca];
        // A group-uniform variable starts the work-item's run at the
        // group's current value (the region's uniform slice computed what
        // the run leaves in it).
        for (size_t i = 0; i < per_item.size(); ++i) {
          if (!uniform_[i]) {
            map[per_item[i]] = storage_.itemSlot(b_, i, linear);
            continue;
          }
          map[per_item[i]] = uniform_temporary_[i];
          b_.CreateStore(current[i], uniform_temporary_[i]);
        }
        // Leaving through barrier k resumes at region k+1; returning finishes.
        // One store of the resume state for all ways out: InstCombine would
        // merge one store per way into a store that has lost its access
        // group, and the loop would no longer be parallel to LLVM. A region
        // with one way out stores nothing: the group knows where it goes.
        bool one_way_out = regions_.only_exit[r].has_value();
        BasicBlock *resume = latch;
        llvm::PHINode *resume_state = nullptr;
        if (!one_way_out) {
          IRBuilder<>::InsertPointGuard guard(b_);
          resume = BasicBlock::Create(ctx, "resume", entry);
          b_.SetInsertPoint(resume);
          resume_state = b_.CreatePHI(b_.getInt32Ty(), 2, "resume_state");
          accesses.push_back(
              b_.CreateStore(resume_state, storage_.stateAt(b_, linear)));
          b_.CreateBr(latch);
        }
        auto leaveFor = [&](uint32_t next, const std::string &name) {
          auto *leave = BasicBlock::Create(ctx, name, entry);
          llvm::BranchInst::Create(resume, leave);
          if (resume_state)
            resume_state->addIncoming(b_.getInt32(next), leave);
          return leave;
        };
        for (BasicBlock *block : regions_.blocks[r])
          for (BasicBlock *succ : llvm::successors(block)) {
            auto barrier = regions_.barrier_index.find(succ);
            if (barrier != regions_.barrier_index.end() && !map.count(succ))
              map[succ] =
                  leaveFor(barrier->second + 1,
                           "to_region" + std::to_string(barrier->second + 1));
          }
        BasicBlock *finished = leaveFor(finishedId(), "finished");
        std::vector<BasicBlock *> copies;
        for (BasicBlock *block : regions_.blocks[r]) {
          BasicBlock *copy = llvm::CloneBasicBlock(
              block, map, ".r" + std::to_string(r), entry);
          map[block] = copy;
          copies.push_back(copy);
        }
        llvm::remapInstructionsInBlocks(copies, map);
        // Prefetches of the next round's tiles would keep LLVM's loop
        // vectorizer off this loop over the work-items.
        for (BasicBlock *copy : copies)
          for (llvm::Instruction &inst : llvm::make_early_inc_range(*copy))
            if (isPrefetch(inst)) {
              Value *address = inst.getOperand(0);
              inst.eraseFromParent();
              llvm::RecursivelyDeleteTriviallyDeadInstructions(address);
            }
        if (follower)
          makeFollowerCode(copies);
        if (last_in_group)
          for (BasicBlock *copy : copies)
            for (llvm::Instruction &inst : llvm::make_early_inc_range(*copy))
              if (inst.getMetadata(kLastInGroupMetadata)) {
                inst.replaceAllUsesWith(b_.getInt1(*last_in_group));
                inst.eraseFromParent();
              }
        llvm::SmallPtrSet<Value *, 8> shared_memory;
        for (llvm::AllocaInst *alloca : shared)
          shared_memory.insert(shared_copies_[alloca]);
        for (BasicBlock *copy : copies)
          for (llvm::Instruction &inst : *copy) {
            for (Value *operand : inst.operands())
              parallel = parallel && !shared_memory.count(operand);
            if (inst.mayReadOrWriteMemory())
              accesses.push_back(&inst);
          }
        b_.CreateBr(copies.front());
        for (BasicBlock *copy : copies) {
          // Edges from blocks of other regions do not exist in this copy.
          for (llvm::PHINode &phi : llvm::make_early_inc_range(copy->phis()))
            for (unsigned i = phi.getNumIncomingValues(); i-- > 0;)
              if (phi.getIncomingBlock(i)->getParent() != entry)
                phi.removeIncomingValue(i, false);
          if (auto *ret =
                  llvm::dyn_cast<llvm::ReturnInst>(copy->getTerminator())) {
            ret->eraseFromParent();
            llvm::BranchInst::Create(finished, copy);
          }
        }
      });
  // The x loop of a region's work-items is parallel: between barriers the
  // work-items of a group do not depend on each other (a work-item that
  // reads what another writes without a barrier races, which OpenCL C
  // leaves undefined), so LLVM may vectorize the loop without proving it,
  // as it cannot for `scratch[lid] += scratch[lid + step]` with `step`
  // loaded per work-item.
  if (parallel)
    markParallelAccesses(*back_edge, accesses);
  else
    markWorkItemsInTurn(*back_edge);
  markWorkItemLoop(*back_edge);
  b_.CreateBr(after);
}

// A region with async copies, while the work-items agree: work-item (0,0,0)
// runs it alone and performs its copies, then the rest of the group runs the
// follower copy of it, in three boxes (the rest of row 0, the rest of plane
// 0, the other planes). After a divergent barrier every run is the full
// region for one work-item.
void RegionEmitter::emitRegionWithCopies(
    unsigned r, const std::vector<llvm::AllocaInst *> &shared,
    const std::vector<llvm::AllocaInst *> &per_item, BasicBlock *after) {
  llvm::LLVMContext &ctx = work_.getContext();
  llvm::Function *entry = values_.entry;
  Value *const *sizes = values_.local_size;
  std::string name = std::to_string(r);
  auto *alone = BasicBlock::Create(ctx, "leader_alone" + name, entry);
  auto *leader = BasicBlock::Create(ctx, "leader" + name, entry);
  auto *leader_done = BasicBlock::Create(ctx, "leader_done" + name, entry);
  auto *next_box = BasicBlock::Create(ctx, "follower_box" + name, entry);
  auto *box = BasicBlock::Create(ctx, "follower_bounds" + name, entry);
  auto *followers = BasicBlock::Create(ctx, "followers" + name, entry);
  b_.CreateCondBr(b_.CreateLoad(b_.getInt1Ty(), diverged_), leader, alone);
  b_.SetInsertPoint(alone);
  Value *zero = b_.getInt64(0), *one = b_.getInt64(1);
  Value *const origin[3] = {zero, zero, zero}, *const unit[3] = {one, one, one};
  setBounds(origin, unit);
  b_.CreateBr(leader);
  b_.SetInsertPoint(leader);
  emitRegion(r, shared, per_item, leader_done, /*follower=*/false);

  b_.SetInsertPoint(leader_done);
  b_.CreateStore(b_.getInt32(0), follower_box_);
  b_.CreateCondBr(b_.CreateLoad(b_.getInt1Ty(), diverged_), after, next_box);
  b_.SetInsertPoint(next_box);
  Value *part = b_.CreateLoad(b_.getInt32Ty(), follower_box_);
  b_.CreateCondBr(b_.CreateICmpEQ(part, b_.getInt32(3)), after, box);
  b_.SetInsertPoint(box);
  // Part 0: x in [1, sx), y = z = 0. Part 1: y in [1, sy), z = 0. Part 2:
  // z in [1, sz).
  Value *is[3];
  for (unsigned p = 0; p < 3; ++p)
    is[p] = b_.CreateICmpEQ(part, b_.getInt32(p));
  Value *const first[3] = {b_.CreateZExt(is[0], b_.getInt64Ty()),
                           b_.CreateZExt(is[1], b_.getInt64Ty()),
                           b_.CreateZExt(is[2], b_.getInt64Ty())};
  Value *const last[3] = {sizes[0], b_.CreateSelect(is[0], one, sizes[1]),
                          b_.CreateSelect(is[2], sizes[2], one)};
  setBounds(first, last);
  b_.CreateStore(b_.CreateAdd(part, b_.getInt32(1)), follower_box_);
  Value *empty = b_.getFalse();
  for (unsigned d = 0; d < 3; ++d)
    empty = b_.CreateOr(empty, b_.CreateICmpUGE(first[d], last[d]));
  b_.CreateCondBr(empty, next_box, followers);
  b_.SetInsertPoint(followers);
  emitRegion(r, shared, per_item, next_box, /*follower=*/true);
}

// A region that asks whether its work-item is the group's last (the
// work-group collectives: the last to arrive combines the values), while
// the work-items agree: the loops run every work-item but the last, where
// the answer is no, and then the last alone. The group splits into four
// boxes: the planes before the last, the rows of the last plane before its
// last row, the last row but its last work-item, and that one. After a
// divergent barrier a run is one work-item, which computes the answer.
void RegionEmitter::emitRegionPeelingLast(
    unsigned r, const std::vector<llvm::AllocaInst *> &shared,
    const std::vector<llvm::AllocaInst *> &per_item, BasicBlock *after) {
  llvm::LLVMContext &ctx = work_.getContext();
  llvm::Function *entry = values_.entry;
  Value *const *sizes = values_.local_size;
  std::string name = std::to_string(r);
  auto *one_item = BasicBlock::Create(ctx, "one_item" + name, entry);
  auto *boxes = BasicBlock::Create(ctx, "boxes" + name, entry);
  b_.CreateCondBr(b_.CreateLoad(b_.getInt1Ty(), diverged_), one_item, boxes);
  b_.SetInsertPoint(one_item);
  emitRegion(r, shared, per_item, after, /*follower=*/false);

  b_.SetInsertPoint(boxes);
  Value *zero = b_.getInt64(0), *one = b_.getInt64(1);
  Value *final[3];
  for (unsigned d = 0; d < 3; ++d)
    final[d] = b_.CreateSub(sizes[d], one);
  Value *const firsts[4][3] = {{zero, zero, zero},
                               {zero, zero, final[2]},
                               {zero, final[1], final[2]},
                               {final[0], final[1], final[2]}};
  Value *const lasts[4][3] = {{sizes[0], sizes[1], final[2]},
                              {sizes[0], final[1], sizes[2]},
                              {final[0], sizes[1], sizes[2]},
                              {sizes[0], sizes[1], sizes[2]}};
  for (unsigned box = 0; box < 4; ++box) {
    bool is_last = box == 3;
    auto *run = BasicBlock::Create(
        ctx, "run_box" + std::to_string(box) + "_" + name, entry);
    BasicBlock *next =
        is_last ? after
                : BasicBlock::Create(
                      ctx, "box" + std::to_string(box + 1) + "_" + name, entry);
    Value *empty = b_.getFalse();
    for (unsigned d = 0; d < 3; ++d)
      empty =
          b_.CreateOr(empty, b_.CreateICmpUGE(firsts[box][d], lasts[box][d]));
    b_.CreateCondBr(empty, next, run);
    b_.SetInsertPoint(run);
    setBounds(firsts[box], lasts[box]);
    emitRegion(r, shared, per_item, next, /*follower=*/false, is_last);
    if (!is_last)
      b_.SetInsertPoint(next);
  }
}

} // namespace weft::compiler
