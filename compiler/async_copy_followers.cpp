#include "compiler/async_copy_followers.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include <vector>

namespace weft::compiler {

namespace {

bool isEngineCall(const llvm::Instruction &inst) {
  if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
    if (const llvm::Function *callee = call->getCalledFunction())
      return callee->getName() == kAsyncCopyEngine ||
             callee->getName() == kWaitEngine;
  return false;
}

// Whether running `inst` early, for work-item (0,0,0) only, changes nothing
// another work-item could see: it writes no memory, or only the work-item's
// own variables.
bool privateToWorkItem(const llvm::Instruction &inst) {
  if (!inst.mayWriteToMemory())
    return true;
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
    return !store->isAtomic() &&
           llvm::isa<llvm::AllocaInst>(
               llvm::getUnderlyingObject(store->getPointerOperand()));
  if (const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
    return intrinsic->isLifetimeStartOrEnd() ||
           llvm::isa<llvm::DbgInfoIntrinsic>(intrinsic);
  // wait_group_events leaves a compiler fence for the work-item itself.
  if (const auto *fence = llvm::dyn_cast<llvm::FenceInst>(&inst))
    return fence->getSyncScopeID() == llvm::SyncScope::SingleThread;
  return false;
}

// Whether `inst` neither writes nor reads memory another work-item can see
// (the context's fields are read-only while a group runs).
bool touchesOnlyPrivateMemory(const llvm::Instruction &inst) {
  if (!privateToWorkItem(inst))
    return false;
  if (!inst.mayReadFromMemory() || llvm::isa<llvm::FenceInst>(inst))
    return true;
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    return !load->isAtomic() &&
           (load->hasMetadata(llvm::LLVMContext::MD_invariant_load) ||
            llvm::isa<llvm::AllocaInst>(
                llvm::getUnderlyingObject(load->getPointerOperand())));
  if (const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
    return intrinsic->isLifetimeStartOrEnd() ||
           llvm::isa<llvm::DbgInfoIntrinsic>(intrinsic);
  return false;
}

} // namespace

bool dropBarriersAfterCopies(llvm::Function &body,
                             const llvm::Function &marker) {
  std::vector<llvm::Instruction *> redundant;
  for (llvm::Instruction &inst : body.getEntryBlock()) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
    if (call && call->getCalledFunction() == &marker)
      redundant.push_back(call);
    else if (!isEngineCall(inst) && !touchesOnlyPrivateMemory(inst))
      break;
  }
  for (llvm::Instruction *barrier : redundant)
    barrier->eraseFromParent();
  for (const llvm::User *user : marker.users())
    if (const auto *call = llvm::dyn_cast<llvm::CallInst>(user))
      if (call->getFunction() == &body)
        return true;
  return false;
}

bool callsAsyncCopyEngine(llvm::ArrayRef<llvm::BasicBlock *> blocks) {
  for (llvm::BasicBlock *block : blocks)
    for (llvm::Instruction &inst : *block)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (llvm::Function *callee = call->getCalledFunction())
          if (callee->getName() == kAsyncCopyEngine)
            return true;
  return false;
}

void makeFollowerCode(llvm::ArrayRef<llvm::BasicBlock *> blocks) {
  std::vector<llvm::CallInst *> calls;
  std::vector<llvm::FenceInst *> compiler_fences;
  for (llvm::BasicBlock *block : blocks)
    for (llvm::Instruction &inst : *block) {
      if (isEngineCall(inst))
        calls.push_back(llvm::cast<llvm::CallInst>(&inst));
      // wait_group_events and the copy fence keep the compiler from moving
      // memory accesses across them; with no copy here they order nothing,
      // and would stop the follower loop from vectorizing.
      if (auto *fence = llvm::dyn_cast<llvm::FenceInst>(&inst))
        if (fence->getSyncScopeID() == llvm::SyncScope::SingleThread)
          compiler_fences.push_back(fence);
    }
  for (llvm::FenceInst *fence : compiler_fences)
    fence->eraseFromParent();
  for (llvm::CallInst *call : calls) {
    if (call->getCalledFunction()->getName() == kAsyncCopyEngine) {
      llvm::IRBuilder<> b(call);
      // The event is the engine's last pointer argument: the one passed in,
      // or any non-null one for a new copy.
      llvm::Value *event = nullptr;
      for (llvm::Value *arg : call->args())
        if (arg->getType()->isPointerTy())
          event = arg;
      llvm::Value *any = b.CreateIntToPtr(b.getInt64(1), call->getType());
      call->replaceAllUsesWith(
          b.CreateSelect(b.CreateIsNull(event), any, event));
    }
    call->eraseFromParent();
  }
}

llvm::Function *makeCopyPrologue(llvm::Function &body) {
  llvm::BasicBlock &entry = body.getEntryBlock();
  size_t last = 0, position = 0; // last: 1 + the last engine call's index
  for (llvm::Instruction &inst : entry) {
    ++position;
    if (isEngineCall(inst))
      last = position;
  }
  if (last == 0)
    return nullptr;
  for (llvm::BasicBlock &block : body)
    if (&block != &entry)
      for (llvm::Instruction &inst : block)
        if (isEngineCall(inst))
          return nullptr; // a copy later on: the whole first work-item leads
  position = 0;
  for (llvm::Instruction &inst : entry) {
    if (++position >= last)
      break;
    if (!isEngineCall(inst) && !privateToWorkItem(inst))
      return nullptr;
  }
  llvm::ValueToValueMapTy map;
  llvm::Function *prologue = llvm::CloneFunction(&body, map);
  prologue->setName(body.getName() + ".copies");
  llvm::BasicBlock &cloned_entry = prologue->getEntryBlock();
  auto cut = cloned_entry.begin();
  std::advance(cut, last);
  cloned_entry.splitBasicBlock(cut);
  cloned_entry.getTerminator()->eraseFromParent();
  llvm::ReturnInst::Create(prologue->getContext(), &cloned_entry);
  llvm::removeUnreachableBlocks(*prologue);
  return prologue;
}

} // namespace weft::compiler
