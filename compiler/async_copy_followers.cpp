#include "compiler/async_copy_followers.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace weft::compiler {

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
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (llvm::Function *callee = call->getCalledFunction())
          if (callee->getName() == kAsyncCopyEngine ||
              callee->getName() == kWaitEngine)
            calls.push_back(call);
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

} // namespace weft::compiler
