#include "compiler/passes/kernels/barrier_regions.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_metadata.h"

#include "compiler/analysis/group_uniform_variables.h"
#include "compiler/analysis/work_item_loops.h"
#include "compiler/passes/kernels/async_copy_followers.h"
#include "compiler/passes/kernels/context_access.h"
#include "compiler/passes/kernels/kernel_bodies.h"
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
#include <llvm/Transforms/Utils/SSAUpdater.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace weft::compiler {
namespace {

using llvm::BasicBlock;
using llvm::IRBuilder;
using llvm::Value;

// Whether any of `blocks` makes an async copy.
bool makesAsyncCopies(llvm::ArrayRef<BasicBlock *> blocks) {
  for (BasicBlock *block : blocks)
    for (llvm::Instruction &inst : *block)
      if (calledBuiltin(inst) == Builtin::AsyncCopyEngine)
        return true;
  return false;
}

// Whether any of `blocks` asks if its work-item is the group's last
// (__weft_last_in_group, as weft-kernel-bodies lowered it).
bool asksLastInGroup(llvm::ArrayRef<BasicBlock *> blocks) {
  for (BasicBlock *block : blocks)
    for (llvm::Instruction &inst : *block)
      if (inst.getMetadata(kLastInGroupMetadata))
        return true;
  return false;
}

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
  // Where every work-item leaving region r goes, when there is one way out
  // only: the region after the one barrier it reaches, or starts.size() when
  // it can only return. Then no work-item needs to say where it resumes.
  std::vector<std::optional<uint32_t>> only_exit;
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
  regions.only_exit.resize(count);
  for (unsigned r = 0; r < count; ++r) {
    llvm::SmallPtrSet<BasicBlock *, 32> seen{regions.starts[r]};
    std::vector<BasicBlock *> work{regions.starts[r]};
    bool returns = false;
    while (!work.empty()) {
      BasicBlock *block = work.back();
      work.pop_back();
      regions.blocks[r].push_back(block);
      regions.member_of[block].push_back(r);
      returns = returns || llvm::isa<llvm::ReturnInst>(block->getTerminator());
      for (BasicBlock *succ : llvm::successors(block)) {
        auto barrier = regions.barrier_index.find(succ);
        if (barrier != regions.barrier_index.end())
          next[r].push_back(barrier->second + 1);
        else if (seen.insert(succ).second)
          work.push_back(succ);
      }
    }
    std::sort(next[r].begin(), next[r].end());
    next[r].erase(std::unique(next[r].begin(), next[r].end()), next[r].end());
    if (next[r].size() == 1 && !returns)
      regions.only_exit[r] = next[r][0];
    else if (next[r].empty() && returns)
      regions.only_exit[r] = static_cast<uint32_t>(count);
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

// The barrier blocks `def` is live on entry to: from each, some use of it is
// reachable without passing its definition again.
std::vector<BasicBlock *> barriersCrossedBy(llvm::Instruction &def,
                                            const Regions &regions) {
  BasicBlock *home = def.getParent();
  llvm::SmallPtrSet<BasicBlock *, 32> live_in;
  std::vector<BasicBlock *> work, crossed;
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
      crossed.push_back(block);
    for (BasicBlock *pred : llvm::predecessors(block))
      mark(pred);
  }
  return crossed;
}

// Keeps `value` across the barriers it lives across in a variable of its
// own: stored at the end of the block before each barrier, loaded again at
// the start of the block after it, and every use takes the definition that
// reaches it (SSAUpdater). Within a region the value stays in a register: an
// accumulator updated in a loop between two barriers is loaded once per
// region run and stored once, where a value demoted everywhere would be
// stored and loaded at every step of the loop, and the work-item loop
// around it would not vectorize. Returns false, changing nothing, when the
// value is defined in the block a barrier resumes at.
bool saveAcrossBarriers(llvm::Instruction &value,
                        const std::vector<BasicBlock *> &barriers,
                        llvm::Function &work) {
  BasicBlock *home = value.getParent();
  for (BasicBlock *barrier : barriers)
    if (barrier->getSingleSuccessor() == home)
      return false;
  llvm::Type *type = value.getType();
  IRBuilder<> b(&work.getEntryBlock(), work.getEntryBlock().begin());
  llvm::AllocaInst *slot =
      b.CreateAlloca(type, nullptr, value.getName() + ".across");
  llvm::SSAUpdater updater;
  updater.Initialize(type, value.getName());
  updater.AddAvailableValue(home, &value);
  llvm::DenseMap<BasicBlock *, Value *> reloads;
  for (BasicBlock *barrier : barriers) {
    // isolateBarriers made both neighbours: one way in, one way out.
    BasicBlock *before = barrier->getSinglePredecessor();
    b.SetInsertPoint(before->getTerminator());
    b.CreateStore(&value, slot);
    BasicBlock *after = barrier->getSingleSuccessor();
    b.SetInsertPoint(after, after->getFirstInsertionPt());
    Value *reload = b.CreateLoad(type, slot, value.getName() + ".reload");
    updater.AddAvailableValue(after, reload);
    reloads[after] = reload;
  }
  for (llvm::Use &use : llvm::make_early_inc_range(value.uses())) {
    auto *user = llvm::cast<llvm::Instruction>(use.getUser());
    if (llvm::isa<llvm::PHINode>(user)) {
      updater.RewriteUse(use); // the value at the end of the incoming block
      continue;
    }
    // A use in the value's own block follows its definition; one in a block
    // a barrier resumes at follows the reload at its top. SSAUpdater would
    // give both the value that reaches the block's start.
    if (user->getParent() == home)
      continue;
    auto reload = reloads.find(user->getParent());
    if (reload != reloads.end())
      use.set(reload->second);
    else
      updater.RewriteUse(use);
  }
  return true;
}

// Whether `value` can be computed again where it is used, from constants,
// the function's arguments (kernel arguments, context, local ids) and the
// context's invariant fields: no memory, no side effects, at most `budget`
// instructions. The copy runs where the original had already run, with the
// same operands, so it cannot trap where the original did not.
bool recomputable(Value *value, unsigned &budget) {
  auto *inst = llvm::dyn_cast<llvm::Instruction>(value);
  if (!inst)
    return llvm::isa<llvm::Constant, llvm::Argument>(value);
  if (budget == 0 ||
      llvm::isa<llvm::PHINode, llvm::AllocaInst, llvm::CallBase>(inst) ||
      inst->mayHaveSideEffects())
    return false;
  --budget;
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
    if (!load->hasMetadata(llvm::LLVMContext::MD_invariant_load))
      return false;
  } else if (inst->mayReadFromMemory()) {
    return false;
  }
  for (Value *operand : inst->operands())
    if (!recomputable(operand, budget))
      return false;
  return true;
}

Value *recompute(Value *value, llvm::Instruction *before) {
  auto *inst = llvm::dyn_cast<llvm::Instruction>(value);
  if (!inst)
    return value;
  llvm::Instruction *copy = inst->clone();
  for (unsigned i = 0; i < copy->getNumOperands(); ++i)
    copy->setOperand(i, recompute(inst->getOperand(i), before));
  copy->insertBefore(before);
  copy->setName(inst->getName() + ".again");
  return copy;
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

// z { y { x { ... } } } over the local ids in [first, last) per dimension.
// `body` fills the innermost block (it gets the ids and the latch every path
// must end at). Returns the branch back to the x loop's start.
llvm::BranchInst *emitWorkItemLoops(
    IRBuilder<> &b, Value *const first[3], Value *const last[3],
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
    ids[d]->addIncoming(first[d], preheader);
    preheader = headers[d];
  }
  Value *const id_values[3] = {ids[0], ids[1], ids[2]};
  body(id_values, latches[0]);
  llvm::BranchInst *x_back_edge = nullptr;
  for (unsigned d = 0; d < 3; ++d) {
    b.SetInsertPoint(latches[d]);
    Value *next = b.CreateAdd(ids[d], b.getInt64(1), "", true, true);
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

// Marks the x loop of a region's work-items as parallel: between barriers
// the work-items of a group do not depend on each other (a work-item that
// reads what another writes without a barrier races, which OpenCL C leaves
// undefined), so LLVM may vectorize the loop without proving it, as it
// cannot for `scratch[lid] += scratch[lid + step]` with `step` loaded per
// work-item. Every access to memory in the loop joins one access group.
void markParallel(llvm::BranchInst &back_edge,
                  llvm::ArrayRef<llvm::Instruction *> accesses) {
  llvm::LLVMContext &ctx = back_edge.getContext();
  llvm::MDNode *group = llvm::MDNode::getDistinct(ctx, {});
  for (llvm::Instruction *access : accesses)
    access->setMetadata(llvm::LLVMContext::MD_access_group, group);
  llvm::Metadata *parallel[] = {
      llvm::MDString::get(ctx, "llvm.loop.parallel_accesses"), group};
  addLoopProperty(back_edge, llvm::MDNode::get(ctx, parallel));
}

// The group entry's scheduling. While every work-item leaves each region at
// the same barrier (the case OpenCL C defines), a region runs as one loop
// over all work-items (in local linear id order, which the work-group
// collectives rely on: device/launch_abi.h, collective_slots), with nothing in
// it but the kernel's code and the store of where each work-item resumes; a
// vectorizable min/max over those says which region is next. A region with
// one way out (one barrier, or only returns) stores and compares nothing: the
// group goes on where every work-item must go. If work-items ever
// disagree (a barrier reached divergently, undefined behaviour), the group
// switches to running, pass by pass, the region of the first unfinished
// work-item for each work-item that waits there, one at a time, until all have
// finished.
class RegionEmitter {
public:
  // `uniform`: which of the per-item variables hold one value for the
  // whole group (compiler/analysis/group_uniform_variables.h).
  RegionEmitter(llvm::Function &work, const Regions &regions, IRBuilder<> &b,
                const GroupEntryValues &values,
                const GroupUniformity &uniformity, std::vector<bool> uniform)
      : work_(work), regions_(regions), b_(b), values_(values),
        layout_(work.getParent()->getDataLayout()), uniformity_(uniformity),
        uniform_(std::move(uniform)) {}

  // Whether every region's uniform slice can be cut (emitUniformSlice).
  bool slicesPossible() const;

  void emit(const std::vector<llvm::AllocaInst *> &shared,
            const std::vector<llvm::AllocaInst *> &per_item);

private:
  uint32_t finishedId() const {
    return static_cast<uint32_t>(regions_.starts.size());
  }

  void emitStorage(const std::vector<llvm::AllocaInst *> &per_item);
  void emitUniformSlice(unsigned r,
                        const std::vector<llvm::AllocaInst *> &per_item);
  // `last_in_group`: the answer to __weft_last_in_group for every
  // work-item the run covers, when it is known.
  void emitRegion(unsigned r, const std::vector<llvm::AllocaInst *> &shared,
                  const std::vector<llvm::AllocaInst *> &per_item,
                  BasicBlock *after, bool follower,
                  std::optional<bool> last_in_group = std::nullopt);
  void emitRegionPeelingLast(unsigned r,
                             const std::vector<llvm::AllocaInst *> &shared,
                             const std::vector<llvm::AllocaInst *> &per_item,
                             BasicBlock *after);
  void emitRegionWithCopies(unsigned r,
                            const std::vector<llvm::AllocaInst *> &shared,
                            const std::vector<llvm::AllocaInst *> &per_item,
                            BasicBlock *after);
  void setBounds(Value *const first[3], Value *const last[3]) {
    for (unsigned d = 0; d < 3; ++d) {
      b_.CreateStore(first[d], first_[d]);
      b_.CreateStore(last[d], last_[d]);
    }
  }
  Value *stateAt(Value *linear) {
    return b_.CreateInBoundsGEP(b_.getInt32Ty(), states_, linear);
  }
  // The work-item function's arguments as the group entry has them: the
  // kernel's arguments, the context, and the local ids `ids`.
  void mapArguments(llvm::ValueToValueMapTy &map, Value *const ids[3]) {
    unsigned n = values_.arguments.size();
    for (unsigned i = 0; i < n; ++i)
      map[work_.getArg(i)] = values_.arguments[i];
    map[work_.getArg(n)] = values_.context;
    for (unsigned d = 0; d < 3; ++d)
      map[work_.getArg(n + 1 + d)] = ids[d];
  }
  Value *itemSlot(size_t variable, Value *linear) {
    return b_.CreateInBoundsGEP(
        b_.getInt8Ty(), item_bases_[variable],
        b_.CreateMul(linear, b_.getInt64(item_strides_[variable])));
  }
  // Group-uniform variables between region runs (see emit): after a run,
  // the value each left for the next region becomes the current one; after
  // a divergent barrier, each work-item's own slot takes over.
  void copyUniform(const std::vector<llvm::AllocaInst *> &per_item,
                   const std::function<Value *(size_t)> &from,
                   const std::function<Value *(size_t)> &to) {
    for (size_t i = 0; i < per_item.size(); ++i)
      if (uniform_[i])
        b_.CreateStore(b_.CreateLoad(per_item[i]->getAllocatedType(), from(i)),
                       to(i));
  }

  llvm::Function &work_;
  const Regions &regions_;
  IRBuilder<> &b_;
  const GroupEntryValues &values_;
  const llvm::DataLayout &layout_;
  const GroupUniformity &uniformity_;
  Value *items_ = nullptr;
  Value *states_ = nullptr; // i32 per work-item: the region it resumes at
  std::vector<Value *> item_bases_; // per per-item alloca: its array
  std::vector<uint64_t> item_strides_;
  // Per per-item alloca: whether it is group-uniform, and then its group
  // copies: the value at the start of the region run (`current`), the
  // value the run leaves for the next (`next`), and a work-item's own copy
  // within one run (`temporary`, promoted to a register).
  std::vector<bool> uniform_;
  std::vector<Value *> uniform_current_, uniform_next_;
  std::vector<llvm::AllocaInst *> uniform_temporary_;
  llvm::DenseMap<llvm::AllocaInst *, Value *> shared_copies_;
  // The group's own variables (promoted to registers by mem2reg).
  llvm::AllocaInst *first_[3] = {}, *last_[3] = {}; // bounds of the next run
  llvm::AllocaInst *diverged_ = nullptr;
  llvm::AllocaInst *pass_region_ = nullptr; // after divergence: this pass's
  llvm::AllocaInst *pass_next_ = nullptr;   // region, next work-item to look at
  llvm::AllocaInst *follower_box_ = nullptr; // which part of the group next
};

// Lays the per-work-item arrays out in the storage the device hands out: the
// resume states first, then one 64-byte aligned array per variable.
void RegionEmitter::emitStorage(
    const std::vector<llvm::AllocaInst *> &per_item) {
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
  // Two 64-byte lines per group-uniform variable: its current and next
  // values.
  std::vector<Value *> uniform_offsets;
  for (size_t i = 0; i < per_item.size(); ++i)
    if (uniform_[i]) {
      Value *start = b_.CreateAnd(b_.CreateAdd(end, b_.getInt64(63)),
                                  b_.getInt64(~uint64_t(63)));
      uniform_offsets.push_back(start);
      end = b_.CreateAdd(start,
                         b_.getInt64(128 * ((item_strides_[i] + 63) / 64)));
    }
  Value *allocate = loadContextField(
      b_, values_.context, offsetof(WorkGroupContext, work_item_storage),
      b_.getPtrTy());
  auto *allocate_type = llvm::FunctionType::get(
      b_.getPtrTy(), {b_.getPtrTy(), b_.getInt64Ty()}, false);
  llvm::CallInst *base =
      b_.CreateCall(allocate_type, allocate, {values_.context, end});
  // The storage is the group's alone: no kernel pointer reaches into it, so
  // LLVM need not check its arrays against them before vectorizing.
  base->addRetAttr(llvm::Attribute::NoAlias);
  base->addRetAttr(llvm::Attribute::getWithAlignment(ctx, llvm::Align(64)));
  auto *failed = BasicBlock::Create(ctx, "no_storage", values_.entry);
  auto *ready = BasicBlock::Create(ctx, "storage", values_.entry);
  b_.CreateCondBr(b_.CreateIsNull(base), failed, ready);
  b_.SetInsertPoint(failed);
  b_.CreateStore(
      b_.getInt32(kWorkGroupOutOfMemory),
      b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), values_.context,
                                    offsetof(WorkGroupContext, status)));
  b_.CreateRetVoid();
  b_.SetInsertPoint(ready);
  // No state needs a start value: the run of a region with several ways out
  // stores every work-item's before the group compares them, and the group
  // only starts running work-items one at a time after such a comparison.
  states_ = base;
  for (Value *offset : offsets)
    item_bases_.push_back(b_.CreateInBoundsGEP(b_.getInt8Ty(), base, offset));
  size_t next_uniform = 0;
  uniform_current_.assign(per_item.size(), nullptr);
  uniform_next_.assign(per_item.size(), nullptr);
  for (size_t i = 0; i < per_item.size(); ++i)
    if (uniform_[i]) {
      Value *current = b_.CreateInBoundsGEP(b_.getInt8Ty(), base,
                                            uniform_offsets[next_uniform++]);
      uniform_current_[i] = current;
      uniform_next_[i] = b_.CreateInBoundsGEP(
          b_.getInt8Ty(), current,
          b_.getInt64(64 * ((item_strides_[i] + 63) / 64)));
    }
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
      per_item, [&](size_t i) { return uniform_current_[i]; },
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
      [&](size_t i) { return uniform_next_[i]; });
}

void RegionEmitter::emitRegion(unsigned r,
                               const std::vector<llvm::AllocaInst *> &shared,
                               const std::vector<llvm::AllocaInst *> &per_item,
                               BasicBlock *after, bool follower,
                               std::optional<bool> last_in_group) {
  llvm::LLVMContext &ctx = work_.getContext();
  llvm::Function *entry = values_.entry;
  Value *const *sizes = values_.local_size;
  Value *first[3], *last[3];
  for (unsigned d = 0; d < 3; ++d) {
    first[d] = b_.CreateLoad(b_.getInt64Ty(), first_[d]);
    last[d] = b_.CreateLoad(b_.getInt64Ty(), last_[d]);
  }
  // The group-uniform variables' values at the start of the run, loaded
  // before the loops (in the loop LLVM could not tell the load from the
  // stores of resume states into the same storage).
  std::vector<Value *> current(per_item.size(), nullptr);
  for (size_t i = 0; i < per_item.size(); ++i)
    if (uniform_[i])
      current[i] =
          b_.CreateLoad(per_item[i]->getAllocatedType(), uniform_current_[i]);
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
            map[per_item[i]] = itemSlot(i, linear);
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
          accesses.push_back(b_.CreateStore(resume_state, stateAt(linear)));
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
  if (parallel)
    markParallel(*back_edge, accesses);
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

void RegionEmitter::emit(const std::vector<llvm::AllocaInst *> &shared,
                         const std::vector<llvm::AllocaInst *> &per_item) {
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
  emitStorage(per_item);
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
      b_.CreateStore(b_.getInt32(*exit), stateAt(run_item));
      b_.CreateBr(after);
      b_.SetInsertPoint(agreed);
      copyUniform(
          per_item, [&](size_t i) { return uniform_next_[i]; },
          [&](size_t i) { return uniform_current_[i]; });
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
      per_item, [&](size_t i) { return uniform_next_[i]; },
      [&](size_t i) { return uniform_current_[i]; });
  b_.CreateBr(agree);
  b_.SetInsertPoint(diverged_copy);
  {
    Value *item = b_.CreateSub(b_.CreateLoad(b_.getInt64Ty(), pass_next_),
                               b_.getInt64(1));
    copyUniform(
        per_item, [&](size_t i) { return uniform_next_[i]; },
        [&](size_t i) { return itemSlot(i, item); });
  }
  b_.CreateBr(pass_scan);
  b_.SetInsertPoint(agree);
  {
    llvm::PHINode *i = b_.CreatePHI(b_.getInt64Ty(), 2, "i");
    llvm::PHINode *low = b_.CreatePHI(b_.getInt32Ty(), 2, "low");
    llvm::PHINode *high = b_.CreatePHI(b_.getInt32Ty(), 2, "high");
    Value *state = b_.CreateLoad(b_.getInt32Ty(), stateAt(i));
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
    b_.CreateCondBr(b_.CreateICmpULT(next, items_), agree, agreed);
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
        per_item, [&](size_t v) { return uniform_current_[v]; },
        [&](size_t v) { return itemSlot(v, i); });
    Value *next = b_.CreateAdd(i, b_.getInt64(1));
    i->addIncoming(next, spread);
    auto *spread_done = BasicBlock::Create(ctx, "uniform_spread", entry);
    b_.CreateCondBr(b_.CreateICmpULT(next, items_), spread, spread_done);
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
    Value *state = b_.CreateLoad(b_.getInt32Ty(), stateAt(i));
    auto *more = BasicBlock::Create(ctx, "pass_more", entry);
    b_.CreateCondBr(b_.CreateICmpNE(state, b_.getInt32(finishedId())), found,
                    more);
    b_.SetInsertPoint(more);
    Value *next = b_.CreateAdd(i, b_.getInt64(1));
    i->addIncoming(next, more);
    b_.CreateCondBr(b_.CreateICmpULT(next, items_), look, done);
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
    b_.CreateCondBr(b_.CreateICmpULT(start, items_), look, pass_start);
    b_.SetInsertPoint(look);
    llvm::PHINode *i = b_.CreatePHI(b_.getInt64Ty(), 2, "i");
    i->addIncoming(start, pass_scan);
    Value *state = b_.CreateLoad(b_.getInt32Ty(), stateAt(i));
    b_.CreateCondBr(b_.CreateICmpEQ(state, wanted), found, more);
    b_.SetInsertPoint(more);
    Value *next = b_.CreateAdd(i, b_.getInt64(1));
    i->addIncoming(next, more);
    b_.CreateCondBr(b_.CreateICmpULT(next, items_), look, pass_start);
    b_.SetInsertPoint(found);
    b_.CreateStore(b_.CreateAdd(i, b_.getInt64(1)), pass_next_);
    copyUniform(
        per_item, [&](size_t v) { return itemSlot(v, i); },
        [&](size_t v) { return uniform_current_[v]; });
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

// Prepares the copy of the body that regions are cut from: private scalars
// become SSA values, values that live across a barrier go back to memory,
// and every variable moves out of the blocks, to be replaced per region.
bool prepareWorkItemFunction(llvm::Function &work, llvm::Function &marker,
                             Regions &regions,
                             std::vector<llvm::AllocaInst *> &allocas,
                             std::string &why) {
  for (llvm::Instruction &inst :
       llvm::make_early_inc_range(llvm::instructions(work)))
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

  // Saving a value makes phis, and a demoted phi becomes a load in its
  // block: either may itself live across a barrier, so repeat until no value
  // does. A value still crossing after it was saved, or any after a few
  // rounds, is demoted everywhere, which always ends this.
  llvm::SmallPtrSet<llvm::Instruction *, 16> saved;
  for (unsigned round = 0;; ++round) {
    std::vector<llvm::Instruction *> crossing;
    for (llvm::Instruction &inst : llvm::instructions(work))
      if (!llvm::isa<llvm::AllocaInst>(inst) && !inst.getType()->isVoidTy() &&
          !barriersCrossedBy(inst, regions).empty())
        crossing.push_back(&inst);
    if (crossing.empty())
      break;
    for (llvm::Instruction *inst : crossing) {
      // Ids, addresses and sizes derived from them are cheaper to compute
      // again in each region than to keep per work-item, and LLVM still
      // sees what they are (affine in the local id) when it vectorizes.
      unsigned budget = 24;
      if (recomputable(inst, budget)) {
        for (llvm::Use &use : llvm::make_early_inc_range(inst->uses())) {
          auto *user = llvm::cast<llvm::Instruction>(use.getUser());
          auto *phi = llvm::dyn_cast<llvm::PHINode>(user);
          if (!phi && user->getParent() == inst->getParent())
            continue;
          use.set(recompute(
              inst, phi ? phi->getIncomingBlock(use)->getTerminator() : user));
        }
        continue;
      }
      if (round < 4 && saved.insert(inst).second &&
          saveAcrossBarriers(*inst, barriersCrossedBy(*inst, regions), work))
        continue;
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

// A kernel with barriers never runs groups larger than its
// reqd_work_group_size (groups are merged only for kernels that cannot see
// them: runtime/kernel.cpp), though a group at the edge of the range may be
// smaller. Saying so, with a umin that changes nothing at run time, tells
// LLVM each local id's range: a kernel's loop whose trip count depends on
// one (r = y; r < 32; r += 8, with 8 rows) then unrolls fully and leaves the
// region's work-item loop straight enough to vectorize.
void boundByRequiredSize(IRBuilder<> &b, GroupEntryValues &values,
                         const KernelDescription &kernel) {
  for (unsigned d = 0; d < 3; ++d)
    if (uint64_t required = kernel.reqd_work_group_size[d])
      values.local_size[d] = b.CreateBinaryIntrinsic(
          llvm::Intrinsic::umin, values.local_size[d], b.getInt64(required),
          nullptr, "local_size_bound");
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
      (sharedByWorkItems(*alloca, regions) ? shared : per_item)
          .push_back(alloca);
    GroupUniformity uniformity(
        *work, static_cast<unsigned>(values.arguments.size()) + 1, per_item);
    std::vector<bool> uniform;
    for (llvm::AllocaInst *alloca : per_item)
      uniform.push_back(uniformity.uniformVariable(alloca));
    RegionEmitter probe(*work, regions, b, values, uniformity, uniform);
    if (!probe.slicesPossible())
      uniform.assign(uniform.size(), false);
    RegionEmitter(*work, regions, b, values, uniformity, std::move(uniform))
        .emit(shared, per_item);
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

llvm::PreservedAnalyses BarrierRegionsPass::run(llvm::Module &module,
                                                llvm::ModuleAnalysisManager &) {
  std::vector<KernelRecord> records = readKernelRecords(module);
  llvm::Function *marker = findBuiltin(module, Builtin::BarrierMarker);
  bool changed = false;
  for (KernelRecord &record : records) {
    ExecutionPlan &plan = record.description.plan;
    if (!record.body || plan.path != ExecutionPath::Regions || !marker)
      continue;
    llvm::IRBuilder<> b(module.getContext());
    std::vector<llvm::Value *> args;
    GroupEntryValues values =
        startGroupEntry(module, *record.body, record.description, b, args,
                        groupEntrySymbol(record.description.name));
    boundByRequiredSize(b, values, record.description);
    std::string why;
    if (emitBarrierRegions(*record.body, *marker, b, values, why)) {
      changed = true;
      continue;
    }
    values.entry->eraseFromParent();
    plan.path = ExecutionPath::Fibers;
    plan.fallback = "not split at its barriers: " + why;
  }
  writeKernelRecords(module, records);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
