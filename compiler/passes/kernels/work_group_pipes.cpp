#include "compiler/passes/kernels/work_group_pipes.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_metadata.h"
#include "device/launch_abi.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <vector>

namespace weft::compiler {
namespace {

using llvm::IRBuilder;
using llvm::Value;

// builtins/pipe_group.c
const llvm::StringRef kReserve = symbolOf(Builtin::WorkGroupReserve);
const llvm::StringRef kCommit = symbolOf(Builtin::WorkGroupCommit);
const llvm::StringRef kReservedId = symbolOf(Builtin::WorkGroupReservedId);
const llvm::StringRef kDeferCommit = symbolOf(Builtin::WorkGroupDeferCommit);
const llvm::StringRef kDeferredCommits =
    symbolOf(Builtin::WorkGroupDeferredCommits);

struct Lowering {
  Builtin builtin;
  bool commit;
  uint32_t is_write;
};
constexpr Lowering kBuiltins[] = {
    {Builtin::WorkGroupReserveWritePipe, false, 1},
    {Builtin::WorkGroupReserveReadPipe, false, 0},
    {Builtin::WorkGroupCommitWritePipe, true, 1},
    {Builtin::WorkGroupCommitReadPipe, true, 0}};

const Lowering *loweringOf(const llvm::Function &function) {
  Builtin builtin = identifyBuiltin(function);
  for (const Lowering &lowering : kBuiltins)
    if (builtin == lowering.builtin)
      return &lowering;
  return nullptr;
}

// The calls of `body` to the function named `name`.
std::vector<llvm::CallInst *> callsTo(llvm::Function &body,
                                      llvm::StringRef name) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &inst : llvm::instructions(body))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (llvm::Function *callee = call->getCalledFunction())
        if (callee->getName() == name)
          calls.push_back(call);
  return calls;
}

} // namespace

bool isWorkGroupPipeBuiltin(const llvm::Function &function) {
  return loweringOf(function) != nullptr;
}

bool countWorkGroupPipeCalls(llvm::Function &body, Value *context) {
  std::vector<std::pair<llvm::CallInst *, const Lowering *>> calls;
  for (llvm::Instruction &inst : llvm::instructions(body))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (llvm::Function *callee = call->getCalledFunction())
        if (const Lowering *lowering = loweringOf(*callee))
          calls.emplace_back(call, lowering);
  if (calls.empty())
    return false;
  llvm::Module &module = *body.getParent();
  IRBuilder<> b(&body.getEntryBlock(), body.getEntryBlock().begin());
  llvm::AllocaInst *reserved =
      b.CreateAlloca(b.getInt32Ty(), nullptr, "pipe_reserves");
  llvm::AllocaInst *committed =
      b.CreateAlloca(b.getInt32Ty(), nullptr, "pipe_commits");
  b.CreateStore(b.getInt32(0), reserved);
  b.CreateStore(b.getInt32(0), committed);
  for (auto [call, lowering] : calls) {
    b.SetInsertPoint(call);
    Value *pipe = call->getArgOperand(0);
    llvm::CallInst *replacement;
    if (lowering->commit) {
      llvm::FunctionCallee engine = module.getOrInsertFunction(
          kCommit, b.getVoidTy(), context->getType(), b.getPtrTy(),
          pipe->getType(), call->getArgOperand(1)->getType(), b.getInt32Ty());
      replacement = b.CreateCall(engine, {context, committed, pipe,
                                          call->getArgOperand(1),
                                          b.getInt32(lowering->is_write)});
    } else {
      llvm::FunctionCallee engine = module.getOrInsertFunction(
          kReserve, call->getType(), context->getType(), b.getPtrTy(),
          pipe->getType(), b.getInt32Ty(), b.getInt32Ty());
      replacement =
          b.CreateCall(engine, {context, reserved, pipe, call->getArgOperand(1),
                                b.getInt32(lowering->is_write)});
    }
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  return true;
}

bool pipeFollowersApply(llvm::Function &body) {
  std::vector<llvm::CallInst *> reserves = callsTo(body, kReserve);
  std::vector<llvm::CallInst *> commits = callsTo(body, kCommit);
  if (reserves.empty() && commits.empty())
    return false;
  // The leader runs before every follower, so each follower must find all
  // of the group's ids still in the ring and every commit still noted.
  if (reserves.size() > WEFT_GROUP_PIPE_RESERVATIONS ||
      commits.size() > WEFT_GROUP_PIPE_RESERVATIONS)
    return false;
  // A call in a loop may run any number of times: then the group reserves
  // and commits as the work-items come (the general scheme).
  llvm::DominatorTree dominators(body);
  llvm::LoopInfo loops(dominators);
  for (auto *calls : {&reserves, &commits})
    for (llvm::CallInst *call : *calls)
      if (loops.getLoopFor(call->getParent()))
        return false;
  return true;
}

void makePipeLeaderCode(llvm::Function &leader) {
  llvm::Module &module = *leader.getParent();
  for (llvm::CallInst *call : callsTo(leader, kCommit))
    call->setCalledFunction(
        module.getOrInsertFunction(kDeferCommit, call->getFunctionType()));
}

void makePipeFollowerCode(llvm::Function &follower) {
  llvm::Module &module = *follower.getParent();
  for (llvm::CallInst *call : callsTo(follower, kReserve)) {
    IRBuilder<> b(call);
    Value *context = call->getArgOperand(0), *made = call->getArgOperand(1);
    llvm::FunctionCallee reserved = module.getOrInsertFunction(
        kReservedId, call->getType(), context->getType(), made->getType());
    call->replaceAllUsesWith(b.CreateCall(reserved, {context, made}));
    call->eraseFromParent();
  }
  for (llvm::CallInst *call : callsTo(follower, kCommit))
    call->eraseFromParent();
}

void allowInliningWorkGroupPipeCalls(llvm::Module &module) {
  for (llvm::StringRef name : {kReserve, kCommit})
    if (llvm::Function *f = module.getFunction(name))
      f->removeFnAttr(llvm::Attribute::NoInline);
}

void emitDeferredPipeCommits(llvm::Module &module, IRBuilder<> &b,
                             Value *context) {
  llvm::FunctionCallee commits = module.getOrInsertFunction(
      kDeferredCommits, b.getVoidTy(), context->getType());
  b.CreateCall(commits, {context});
}

llvm::PreservedAnalyses
WorkGroupPipeCountersPass::run(llvm::Module &module,
                               llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (const KernelRecord &record : readKernelRecords(module))
    if (record.body)
      changed |= countWorkGroupPipeCalls(
          *record.body,
          record.body->getArg(record.description.arguments.size()));
  // The library's wrappers are rewritten everywhere now; they would keep
  // calls to the work-item queries alive outside any kernel.
  for (const Lowering &lowering : kBuiltins)
    if (llvm::Function *f = findBuiltin(module, lowering.builtin))
      if (f->use_empty())
        f->eraseFromParent();
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
