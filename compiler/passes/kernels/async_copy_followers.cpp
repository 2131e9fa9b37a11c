#include "compiler/passes/kernels/async_copy_followers.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_metadata.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include <vector>

namespace weft::compiler {

bool isAsyncCopyCall(const llvm::Instruction &inst) {
  BuiltinFamily family = familyOf(calledBuiltin(inst));
  return family == BuiltinFamily::AsyncCopy ||
         family == BuiltinFamily::AsyncCopyWait;
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

void makeFollowerCode(llvm::ArrayRef<llvm::BasicBlock *> blocks) {
  std::vector<llvm::CallInst *> calls;
  std::vector<llvm::FenceInst *> compiler_fences;
  for (llvm::BasicBlock *block : blocks)
    for (llvm::Instruction &inst : *block) {
      if (isAsyncCopyCall(inst))
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
    if (calledBuiltin(*call) == Builtin::AsyncCopyEngine) {
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

namespace {

// 1 + the index in the entry block of the last copy or wait, when every copy
// and wait of `body` comes first (see copiesComeFirst), else 0.
size_t endOfLeadingCopies(const llvm::Function &body) {
  const llvm::BasicBlock &entry = body.getEntryBlock();
  size_t last = 0, position = 0;
  for (const llvm::Instruction &inst : entry) {
    ++position;
    if (isAsyncCopyCall(inst))
      last = position;
  }
  if (last == 0)
    return 0;
  for (const llvm::BasicBlock &block : body)
    if (&block != &entry)
      for (const llvm::Instruction &inst : block)
        if (isAsyncCopyCall(inst))
          return 0; // a copy later on: the whole first work-item leads
  position = 0;
  for (const llvm::Instruction &inst : entry) {
    if (++position >= last)
      break;
    if (!isAsyncCopyCall(inst) && !privateToWorkItem(inst))
      return 0;
  }
  return last;
}

} // namespace

bool copiesComeFirst(const llvm::Function &body) {
  return endOfLeadingCopies(body) != 0;
}

llvm::Function *makeCopyPrologue(llvm::Function &body) {
  size_t last = endOfLeadingCopies(body);
  if (last == 0)
    return nullptr;
  llvm::ValueToValueMapTy map;
  llvm::Function *prologue = llvm::CloneFunction(&body, map);
  prologue->setName(body.getName() + kCopyPrologueSuffix);
  llvm::BasicBlock &cloned_entry = prologue->getEntryBlock();
  auto cut = cloned_entry.begin();
  std::advance(cut, last);
  cloned_entry.splitBasicBlock(cut);
  cloned_entry.getTerminator()->eraseFromParent();
  llvm::ReturnInst::Create(prologue->getContext(), &cloned_entry);
  llvm::removeUnreachableBlocks(*prologue);
  return prologue;
}

namespace {

// A copy of `body` named after it with `suffix`.
llvm::Function *cloneBody(llvm::Function &body, const char *suffix) {
  llvm::ValueToValueMapTy map;
  llvm::Function *clone = llvm::CloneFunction(&body, map);
  clone->setName(body.getName() + suffix);
  return clone;
}

} // namespace

llvm::PreservedAnalyses
AsyncCopyLeadersPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  std::vector<KernelRecord> records = readKernelRecords(module);
  bool changed = false;
  for (KernelRecord &record : records) {
    ExecutionPlan &plan = record.description.plan;
    if (!record.body || !plan.group_leader)
      continue;
    // The followers also serve a pipe leader (weft-pipe-leaders then
    // rewrites their reservations).
    llvm::Function *follower = cloneBody(*record.body, kFollowerSuffix);
    std::vector<llvm::BasicBlock *> blocks;
    for (llvm::BasicBlock &block : *follower)
      blocks.push_back(&block);
    makeFollowerCode(blocks);
    if (plan.copy_prologue && !makeCopyPrologue(*record.body))
      plan.copy_prologue = plan.read_through = false;
    changed = true;
  }
  writeKernelRecords(module, records);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
