// What weft-barrier-regions cuts a work-item function into (the regions
// between its barriers and where each leads), and which variables all
// work-items of a group may share.
#include "compiler/passes/kernels/region_analysis.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/passes/kernels/kernel_bodies.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::Value;

bool makesAsyncCopies(llvm::ArrayRef<BasicBlock *> blocks) {
  for (BasicBlock *block : blocks)
    for (llvm::Instruction &inst : *block)
      if (calledBuiltin(inst) == Builtin::AsyncCopyEngine)
        return true;
  return false;
}

bool asksLastInGroup(llvm::ArrayRef<BasicBlock *> blocks) {
  for (BasicBlock *block : blocks)
    for (llvm::Instruction &inst : *block)
      if (inst.getMetadata(kLastInGroupMetadata))
        return true;
  return false;
}

bool exchangesInSubGroups(llvm::ArrayRef<BasicBlock *> blocks) {
  for (BasicBlock *block : blocks)
    for (llvm::Instruction &inst : *block) {
      Builtin builtin = calledBuiltin(inst);
      if (familyOf(builtin) == BuiltinFamily::SubGroupExchange ||
          builtin == Builtin::SubGroupLocalId)
        return true;
    }
  return false;
}

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

namespace {

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

} // namespace

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

} // namespace weft::compiler
