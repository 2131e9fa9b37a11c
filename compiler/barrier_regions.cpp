#include "compiler/barrier_regions.h"

#include "compiler/context_access.h"
#include "device/launch_abi.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace weft::compiler {
namespace {

using llvm::BasicBlock;
using llvm::IRBuilder;
using llvm::Value;

// The pieces of a work-item function between its barriers. Region 0 starts
// at the function's entry; region k+1 starts right after barrier k. A block
// reachable from two region starts belongs to both (each gets its copy).
struct Regions {
  std::vector<BasicBlock *> barriers; // each holds one barrier call, alone
  std::vector<BasicBlock *> starts;
  std::vector<std::vector<BasicBlock *>> blocks; // start first
  llvm::DenseMap<BasicBlock *, llvm::SmallVector<unsigned, 2>> member_of;
  llvm::DenseMap<BasicBlock *, unsigned> barrier_index;
  // A region that can run again after a barrier (a barrier in a loop): a
  // work-item's private variables used there may carry values across it.
  std::vector<bool> repeats;
};

// Puts every barrier call alone in a block of its own, so regions are made
// of whole blocks.
std::vector<BasicBlock *> isolateBarriers(llvm::Function &f,
                                          llvm::Function &marker) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &inst : llvm::instructions(f))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (call->getCalledFunction() == &marker)
        calls.push_back(call);
  std::vector<BasicBlock *> barriers;
  for (llvm::CallInst *call : calls) {
    BasicBlock *alone = call->getParent()->splitBasicBlock(call, "barrier");
    alone->splitBasicBlock(call->getNextNode(), "resume");
    barriers.push_back(alone);
  }
  return barriers;
}

Regions findRegions(llvm::Function &f, std::vector<BasicBlock *> barriers) {
  Regions regions;
  regions.barriers = std::move(barriers);
  regions.starts.push_back(&f.getEntryBlock());
  for (unsigned k = 0; k < regions.barriers.size(); ++k) {
    regions.barrier_index[regions.barriers[k]] = k;
    regions.starts.push_back(regions.barriers[k]->getSingleSuccessor());
  }
  size_t count = regions.starts.size();
  regions.blocks.resize(count);
  std::vector<std::vector<unsigned>> next(count);
  for (unsigned r = 0; r < count; ++r) {
    llvm::SmallPtrSet<BasicBlock *, 32> seen{regions.starts[r]};
    std::vector<BasicBlock *> work{regions.starts[r]};
    while (!work.empty()) {
      BasicBlock *block = work.back();
      work.pop_back();
      regions.blocks[r].push_back(block);
      regions.member_of[block].push_back(r);
      for (BasicBlock *succ : llvm::successors(block)) {
        auto barrier = regions.barrier_index.find(succ);
        if (barrier != regions.barrier_index.end())
          next[r].push_back(barrier->second + 1);
        else if (seen.insert(succ).second)
          work.push_back(succ);
      }
    }
  }
  regions.repeats.assign(count, false);
  for (unsigned r = 0; r < count; ++r) {
    std::vector<bool> reached(count, false);
    std::vector<unsigned> work(next[r].begin(), next[r].end());
    while (!work.empty()) {
      unsigned s = work.back();
      work.pop_back();
      if (reached[s])
        continue;
      reached[s] = true;
      work.insert(work.end(), next[s].begin(), next[s].end());
    }
    regions.repeats[r] = reached[r];
  }
  return regions;
}

// Whether `def` is live on entry to a barrier block: some use of it is
// reachable from the barrier without passing its definition again.
bool liveAcrossBarrier(llvm::Instruction &def, const Regions &regions) {
  BasicBlock *home = def.getParent();
  llvm::SmallPtrSet<BasicBlock *, 32> live_in;
  std::vector<BasicBlock *> work;
  auto mark = [&](BasicBlock *block) {
    if (block != home && live_in.insert(block).second)
      work.push_back(block);
  };
  for (llvm::Use &use : def.uses()) {
    auto *user = llvm::cast<llvm::Instruction>(use.getUser());
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(user))
      mark(phi->getIncomingBlock(use)); // live at the end of that block
    else
      mark(user->getParent());
  }
  while (!work.empty()) {
    BasicBlock *block = work.back();
    work.pop_back();
    if (regions.barrier_index.count(block))
      return true;
    for (BasicBlock *pred : llvm::predecessors(block))
      mark(pred);
  }
  return false;
}

// Every block that uses the memory of `alloca` through some pointer derived
// from it. Returns false when the pointer escapes (stored, or turned into an
// integer), so that any block might use it.
bool blocksUsingMemory(llvm::AllocaInst &alloca,
                       llvm::SmallPtrSet<BasicBlock *, 16> &blocks) {
  llvm::SmallPtrSet<Value *, 16> seen{&alloca};
  std::vector<Value *> work{&alloca};
  while (!work.empty()) {
    Value *pointer = work.back();
    work.pop_back();
    for (llvm::Use &use : pointer->uses()) {
      auto *user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
      if (!user)
        return false;
      blocks.insert(user->getParent());
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (store->getValueOperand() == pointer)
          return false;
        continue;
      }
      if (llvm::isa<llvm::PtrToIntInst>(user))
        return false;
      if (llvm::isa<llvm::GetElementPtrInst, llvm::BitCastInst,
                    llvm::AddrSpaceCastInst, llvm::SelectInst, llvm::PHINode>(
              user) &&
          seen.insert(user).second)
        work.push_back(user);
    }
  }
  return true;
}

// Whether every work-item may share one copy of `alloca` (it lives within
// one run of one region), instead of needing its own.
bool sharedByWorkItems(llvm::AllocaInst &alloca, const Regions &regions) {
  llvm::SmallPtrSet<BasicBlock *, 16> blocks;
  if (!blocksUsingMemory(alloca, blocks))
    return false;
  int region = -1;
  for (BasicBlock *block : blocks) {
    auto member = regions.member_of.find(block);
    if (member == regions.member_of.end())
      continue; // unreachable code
    if (member->second.size() != 1)
      return false;
    if (region >= 0 && static_cast<unsigned>(region) != member->second[0])
      return false;
    region = static_cast<int>(member->second[0]);
  }
  return region < 0 || !regions.repeats[static_cast<unsigned>(region)];
}

// z { y { x { ... } } } over the group's local ids. `body` fills the
// innermost block (it gets the ids and the latch every path must end at).
void emitWorkItemLoops(
    IRBuilder<> &b, Value *const sizes[3],
    const std::function<void(Value *const id[3], BasicBlock *latch)> &body) {
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
    ids[d]->addIncoming(b.getInt64(0), preheader);
    preheader = headers[d];
  }
  Value *const id_values[3] = {ids[0], ids[1], ids[2]};
  body(id_values, latches[0]);
  for (unsigned d = 0; d < 3; ++d) {
    b.SetInsertPoint(latches[d]);
    Value *next = b.CreateAdd(ids[d], b.getInt64(1), "", true, true);
    ids[d]->addIncoming(next, latches[d]);
    b.CreateCondBr(b.CreateICmpULT(next, sizes[d]), headers[d],
                   d < 2 ? latches[d + 1] : exit);
  }
  b.SetInsertPoint(exit);
}

class RegionEmitter {
public:
  RegionEmitter(llvm::Function &work, const Regions &regions,
                IRBuilder<> &b, const GroupEntryValues &values)
      : work_(work), regions_(regions), b_(b), values_(values),
        layout_(work.getParent()->getDataLayout()) {}

  void emit(const std::vector<llvm::AllocaInst *> &shared,
            const std::vector<llvm::AllocaInst *> &per_item);

private:
  // Region ids, then the two markers of the "next region" variable.
  uint32_t exitId() const { return static_cast<uint32_t>(regions_.starts.size()); }
  uint32_t unsetId() const { return exitId() + 1; }

  void emitStorage(const std::vector<llvm::AllocaInst *> &per_item);
  void emitRegion(unsigned r, const std::vector<llvm::AllocaInst *> &shared,
                  const std::vector<llvm::AllocaInst *> &per_item,
                  BasicBlock *dispatch);
  void recordExit(Value *state_slot, uint32_t next, BasicBlock *latch);

  llvm::Function &work_;
  const Regions &regions_;
  IRBuilder<> &b_;
  const GroupEntryValues &values_;
  const llvm::DataLayout &layout_;
  Value *items_ = nullptr;
  Value *states_ = nullptr; // i32 per work-item: the region it resumes at
  std::vector<Value *> item_bases_;   // per per-item alloca: its array
  std::vector<uint64_t> item_strides_;
  llvm::DenseMap<llvm::AllocaInst *, Value *> shared_copies_;
  llvm::AllocaInst *next_ = nullptr;     // the next region, as work-items say
  llvm::AllocaInst *diverged_ = nullptr; // work-items disagreed once
};

// Lays the per-work-item arrays out in the storage the device hands out: the
// resume states first, then one 64-byte aligned array per variable.
void RegionEmitter::emitStorage(const std::vector<llvm::AllocaInst *> &per_item) {
  llvm::LLVMContext &ctx = work_.getContext();
  Value *const *sizes = values_.local_size;
  items_ = b_.CreateMul(b_.CreateMul(sizes[0], sizes[1]), sizes[2], "items");
  Value *end = b_.CreateMul(items_, b_.getInt64(4));
  std::vector<Value *> offsets;
  for (llvm::AllocaInst *alloca : per_item) {
    uint64_t bytes = alloca->getAllocationSize(layout_)->getFixedValue();
    uint64_t stride = llvm::alignTo(bytes, alloca->getAlign());
    item_strides_.push_back(stride);
    Value *start = b_.CreateAnd(b_.CreateAdd(end, b_.getInt64(63)),
                                b_.getInt64(~uint64_t(63)));
    offsets.push_back(start);
    end = b_.CreateAdd(start, b_.CreateMul(items_, b_.getInt64(stride)));
  }
  Value *allocate = loadContextField(
      b_, values_.context, offsetof(WorkGroupContext, work_item_storage),
      b_.getPtrTy());
  auto *allocate_type = llvm::FunctionType::get(
      b_.getPtrTy(), {b_.getPtrTy(), b_.getInt64Ty()}, false);
  Value *base = b_.CreateCall(allocate_type, allocate, {values_.context, end});
  auto *failed = BasicBlock::Create(ctx, "no_storage", values_.entry);
  auto *ready = BasicBlock::Create(ctx, "storage", values_.entry);
  b_.CreateCondBr(b_.CreateIsNull(base), failed, ready);
  b_.SetInsertPoint(failed);
  b_.CreateStore(b_.getInt32(kWorkGroupOutOfMemory),
                 b_.CreateConstInBoundsGEP1_64(
                     b_.getInt8Ty(), values_.context,
                     offsetof(WorkGroupContext, status)));
  b_.CreateRetVoid();
  b_.SetInsertPoint(ready);
  states_ = base;
  // Every work-item starts in region 0.
  b_.CreateMemSet(states_, b_.getInt8(0), b_.CreateMul(items_, b_.getInt64(4)),
                  llvm::MaybeAlign(64));
  for (Value *offset : offsets)
    item_bases_.push_back(b_.CreateInBoundsGEP(b_.getInt8Ty(), base, offset));
}

// A work-item leaves its region for `next`: remember where it resumes, and
// whether it agrees with the work-items before it.
void RegionEmitter::recordExit(Value *state_slot, uint32_t next,
                               BasicBlock *latch) {
  Value *id = b_.getInt32(next);
  b_.CreateStore(id, state_slot);
  Value *previous = b_.CreateLoad(b_.getInt32Ty(), next_);
  Value *disagrees = b_.CreateAnd(b_.CreateICmpNE(previous, b_.getInt32(unsetId())),
                                  b_.CreateICmpNE(previous, id));
  b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt1Ty(), diverged_), disagrees),
                 diverged_);
  b_.CreateStore(id, next_);
  b_.CreateBr(latch);
}

void RegionEmitter::emitRegion(unsigned r,
                               const std::vector<llvm::AllocaInst *> &shared,
                               const std::vector<llvm::AllocaInst *> &per_item,
                               BasicBlock *dispatch) {
  llvm::LLVMContext &ctx = work_.getContext();
  llvm::Function *entry = values_.entry;
  Value *const *sizes = values_.local_size;
  emitWorkItemLoops(b_, sizes, [&](Value *const id[3], BasicBlock *latch) {
    Value *linear = b_.CreateAdd(
        b_.CreateMul(b_.CreateAdd(b_.CreateMul(id[2], sizes[1]), id[1]),
                     sizes[0]),
        id[0], "linear");
    Value *state_slot = b_.CreateInBoundsGEP(b_.getInt32Ty(), states_, linear);
    Value *state = b_.CreateLoad(b_.getInt32Ty(), state_slot);
    auto *run = BasicBlock::Create(ctx, "region" + std::to_string(r), entry);
    // Only work-items that stopped at this region's barrier run it (all of
    // them, unless the kernel reached barriers divergently).
    b_.CreateCondBr(b_.CreateICmpEQ(state, b_.getInt32(r)), run, latch);
    b_.SetInsertPoint(run);

    llvm::ValueToValueMapTy map;
    unsigned n = values_.arguments.size();
    for (unsigned i = 0; i < n; ++i)
      map[work_.getArg(i)] = values_.arguments[i];
    map[work_.getArg(n)] = values_.context;
    for (unsigned d = 0; d < 3; ++d)
      map[work_.getArg(n + 1 + d)] = id[d];
    for (llvm::AllocaInst *alloca : shared)
      map[alloca] = shared_copies_[alloca];
    for (size_t i = 0; i < per_item.size(); ++i)
      map[per_item[i]] = b_.CreateInBoundsGEP(
          b_.getInt8Ty(), item_bases_[i],
          b_.CreateMul(linear, b_.getInt64(item_strides_[i])));
    // Leaving through barrier k resumes at region k+1.
    auto *finished = BasicBlock::Create(ctx, "finished", entry);
    for (BasicBlock *block : regions_.blocks[r])
      for (BasicBlock *succ : llvm::successors(block)) {
        auto barrier = regions_.barrier_index.find(succ);
        if (barrier == regions_.barrier_index.end() || map.count(succ))
          continue;
        auto *leave = BasicBlock::Create(
            ctx, "to_region" + std::to_string(barrier->second + 1), entry);
        IRBuilder<>::InsertPointGuard guard(b_);
        b_.SetInsertPoint(leave);
        recordExit(state_slot, barrier->second + 1, latch);
        map[succ] = leave;
      }
    std::vector<BasicBlock *> copies;
    for (BasicBlock *block : regions_.blocks[r]) {
      BasicBlock *copy = llvm::CloneBasicBlock(block, map, ".r" + std::to_string(r), entry);
      map[block] = copy;
      copies.push_back(copy);
    }
    llvm::remapInstructionsInBlocks(copies, map);
    b_.CreateBr(copies.front());
    for (BasicBlock *copy : copies) {
      // Edges from blocks of other regions do not exist in this copy.
      for (llvm::PHINode &phi : llvm::make_early_inc_range(copy->phis()))
        for (unsigned i = phi.getNumIncomingValues(); i-- > 0;)
          if (phi.getIncomingBlock(i)->getParent() != entry)
            phi.removeIncomingValue(i, false);
      if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(copy->getTerminator())) {
        ret->eraseFromParent();
        llvm::BranchInst::Create(finished, copy);
      }
    }
    b_.SetInsertPoint(finished);
    recordExit(state_slot, exitId(), latch);
  });
  b_.CreateBr(dispatch);
}

void RegionEmitter::emit(const std::vector<llvm::AllocaInst *> &shared,
                         const std::vector<llvm::AllocaInst *> &per_item) {
  llvm::LLVMContext &ctx = work_.getContext();
  llvm::Function *entry = values_.entry;
  {
    // The group's own variables sit in the entry block, so they are static.
    IRBuilder<> top(&entry->getEntryBlock(), entry->getEntryBlock().begin());
    next_ = top.CreateAlloca(top.getInt32Ty(), nullptr, "next_region");
    diverged_ = top.CreateAlloca(top.getInt1Ty(), nullptr, "diverged");
    for (llvm::AllocaInst *alloca : shared) {
      llvm::AllocaInst *copy = top.CreateAlloca(
          alloca->getAllocatedType(), alloca->getAddressSpace(),
          alloca->getArraySize(), alloca->getName());
      copy->setAlignment(alloca->getAlign());
      shared_copies_[alloca] = copy;
    }
  }
  emitStorage(per_item);
  b_.CreateStore(b_.getInt32(0), next_);
  b_.CreateStore(b_.getFalse(), diverged_);
  auto *dispatch = BasicBlock::Create(ctx, "dispatch", entry);
  b_.CreateBr(dispatch);

  // dispatch: the region every work-item asked for; after a divergent
  // barrier, the region of the first work-item that has not finished.
  b_.SetInsertPoint(dispatch);
  Value *asked = b_.CreateLoad(b_.getInt32Ty(), next_);
  Value *diverged = b_.CreateLoad(b_.getInt1Ty(), diverged_);
  b_.CreateStore(b_.getInt32(unsetId()), next_);
  auto *scan = BasicBlock::Create(ctx, "scan", entry);
  auto *scan_next = BasicBlock::Create(ctx, "scan_next", entry);
  auto *pick = BasicBlock::Create(ctx, "pick", entry);
  auto *done = BasicBlock::Create(ctx, "done", entry);
  b_.CreateCondBr(diverged, scan, pick);
  b_.SetInsertPoint(scan);
  llvm::PHINode *index = b_.CreatePHI(b_.getInt64Ty(), 2);
  index->addIncoming(b_.getInt64(0), dispatch);
  Value *state = b_.CreateLoad(
      b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), states_, index));
  b_.CreateCondBr(b_.CreateICmpNE(state, b_.getInt32(exitId())), pick,
                  scan_next);
  b_.SetInsertPoint(scan_next);
  Value *following = b_.CreateAdd(index, b_.getInt64(1));
  index->addIncoming(following, scan_next);
  b_.CreateCondBr(b_.CreateICmpULT(following, items_), scan, pick);
  b_.SetInsertPoint(pick);
  llvm::PHINode *region = b_.CreatePHI(b_.getInt32Ty(), 3, "region");
  region->addIncoming(asked, dispatch);
  region->addIncoming(state, scan);
  region->addIncoming(b_.getInt32(exitId()), scan_next);
  llvm::SwitchInst *choose =
      b_.CreateSwitch(region, done, static_cast<unsigned>(exitId()));
  b_.SetInsertPoint(done);
  b_.CreateRetVoid();

  for (unsigned r = 0; r < exitId(); ++r) {
    auto *start = BasicBlock::Create(ctx, "run_region" + std::to_string(r), entry);
    choose->addCase(b_.getInt32(r), start);
    b_.SetInsertPoint(start);
    emitRegion(r, shared, per_item, dispatch);
  }
}

// Prepares the copy of the body that regions are cut from: private scalars
// become SSA values, values that live across a barrier go back to memory,
// and every variable moves out of the blocks, to be replaced per region.
bool prepareWorkItemFunction(llvm::Function &work, llvm::Function &marker,
                             Regions &regions,
                             std::vector<llvm::AllocaInst *> &allocas,
                             std::string &why) {
  for (llvm::Instruction &inst : llvm::make_early_inc_range(llvm::instructions(work)))
    if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
      if (intrinsic->isLifetimeStartOrEnd())
        intrinsic->eraseFromParent();
  std::vector<llvm::AllocaInst *> promotable;
  for (llvm::Instruction &inst : llvm::instructions(work)) {
    auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst);
    if (!alloca)
      continue;
    if (!alloca->isStaticAlloca() ||
        alloca->getParent() != &work.getEntryBlock()) {
      why = "a variable of run-time size";
      return false;
    }
    if (llvm::isAllocaPromotable(alloca))
      promotable.push_back(alloca);
  }
  {
    llvm::DominatorTree dominators(work);
    llvm::PromoteMemToReg(promotable, dominators);
  }
  regions = findRegions(work, isolateBarriers(work, marker));

  // A demoted phi becomes a load in its block, which may itself live across
  // the barrier: repeat until no value does.
  for (;;) {
    std::vector<llvm::Instruction *> crossing;
    for (llvm::Instruction &inst : llvm::instructions(work))
      if (!llvm::isa<llvm::AllocaInst>(inst) && !inst.getType()->isVoidTy() &&
          liveAcrossBarrier(inst, regions))
        crossing.push_back(&inst);
    if (crossing.empty())
      break;
    for (llvm::Instruction *inst : crossing) {
      if (auto *phi = llvm::dyn_cast<llvm::PHINode>(inst))
        llvm::DemotePHIToStack(phi);
      else
        llvm::DemoteRegToStack(*inst);
    }
  }

  // Variables leave the blocks the regions copy; each region maps them to
  // the group's shared copy or the work-item's slot.
  auto *home = BasicBlock::Create(work.getContext(), "variables", &work);
  new llvm::UnreachableInst(work.getContext(), home);
  for (llvm::Instruction &inst :
       llvm::make_early_inc_range(work.getEntryBlock()))
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst)) {
      alloca->moveBefore(home->getTerminator());
      allocas.push_back(alloca);
    }
  return true;
}

} // namespace

bool emitBarrierRegions(llvm::Function &body, llvm::Function &marker,
                        llvm::IRBuilder<> &b, const GroupEntryValues &values,
                        std::string &why) {
  llvm::ValueToValueMapTy clone_map;
  llvm::Function *work = llvm::CloneFunction(&body, clone_map);
  Regions regions;
  std::vector<llvm::AllocaInst *> allocas;
  bool ready = prepareWorkItemFunction(*work, marker, regions, allocas, why);
  if (ready) {
    std::vector<llvm::AllocaInst *> shared, per_item;
    for (llvm::AllocaInst *alloca : allocas)
      (sharedByWorkItems(*alloca, regions) ? shared : per_item).push_back(alloca);
    RegionEmitter(*work, regions, b, values).emit(shared, per_item);
    std::string problems;
    llvm::raw_string_ostream out(problems);
    if (llvm::verifyFunction(*values.entry, &out)) {
      why = "internal error: " + out.str();
      // Nothing may point into `work` when it goes.
      values.entry->deleteBody();
      ready = false;
    }
  }
  work->eraseFromParent();
  return ready;
}

} // namespace weft::compiler
