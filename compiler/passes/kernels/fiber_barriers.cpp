#include "compiler/passes/kernels/fiber_barriers.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_metadata.h"
#include "compiler/analysis/waiting_loops.h"
#include "compiler/passes/kernels/context_access.h"
#include "compiler/passes/kernels/kernel_bodies.h"
#include "device/launch_abi.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <cstddef>

namespace weft::compiler {
namespace {

llvm::Value *contextOf(llvm::Function &body) {
  return body.getArg(body.arg_size() - 4);
}

// Calls the context's function pointer at `offset`.
llvm::Value *callContextFunction(llvm::IRBuilder<> &b, llvm::Value *context,
                                 size_t offset, llvm::Type *result,
                                 llvm::ArrayRef<llvm::Value *> rest) {
  llvm::Value *callee = loadContextField(b, context, offset, b.getPtrTy());
  std::vector<llvm::Type *> params{b.getPtrTy()};
  std::vector<llvm::Value *> args{context};
  for (llvm::Value *v : rest) {
    params.push_back(v->getType());
    args.push_back(v);
  }
  auto *type = llvm::FunctionType::get(result, params, false);
  return b.CreateCall(type, callee, args);
}

// Returns whether `body` had barriers.
bool lowerBarriersToSwitches(llvm::Function &body) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &inst : llvm::instructions(body))
    if (calledBuiltin(inst) == Builtin::BarrierMarker)
      calls.push_back(llvm::cast<llvm::CallInst>(&inst));
  for (llvm::CallInst *call : calls) {
    llvm::IRBuilder<> b(call);
    callContextFunction(b, call->getArgOperand(0),
                        offsetof(WorkGroupContext, barrier), b.getVoidTy(), {});
    call->eraseFromParent();
  }
  return !calls.empty();
}

// The work-group collectives' "am I the highest local id" (kernel_bodies)
// becomes "am I the last to arrive": once sub-groups exchange values, the
// fibers no longer reach a barrier in local id order.
bool askLastToArrive(llvm::Function &body) {
  std::vector<llvm::Instruction *> compares;
  for (llvm::Instruction &inst : llvm::instructions(body))
    if (inst.getMetadata(kLastInGroupMetadata))
      compares.push_back(&inst);
  for (llvm::Instruction *compare : compares) {
    llvm::IRBuilder<> b(compare);
    llvm::Value *last =
        callContextFunction(b, contextOf(body),
                            offsetof(WorkGroupContext, last_to_arrive),
                            b.getInt32Ty(), {});
    compare->replaceAllUsesWith(b.CreateICmpNE(last, b.getInt32(0)));
    compare->eraseFromParent();
  }
  return !compares.empty();
}

// A loop in which the work-item waits for another yields at each back
// edge, so the fibers run the others meanwhile.
bool yieldInWaitingLoops(llvm::Function &body) {
  llvm::DominatorTree dominators(body);
  llvm::LoopInfo loops(dominators);
  std::vector<llvm::Loop *> waiting = loopsWaitingOnOthers(loops);
  for (llvm::Loop *loop : waiting) {
    llvm::SmallVector<llvm::BasicBlock *, 4> latches;
    loop->getLoopLatches(latches);
    for (llvm::BasicBlock *latch : latches) {
      llvm::IRBuilder<> b(latch->getTerminator());
      callContextFunction(b, contextOf(body),
                          offsetof(WorkGroupContext, yield), b.getVoidTy(), {});
    }
  }
  return !waiting.empty();
}

} // namespace

// The blocks of `body` in reverse post-order, a loop's blocks before the
// blocks after it: the depth-first walk takes a block's successors that
// leave its loop first, so they finish first and come after the loop.
static std::vector<llvm::BasicBlock *> blocksLoopsFirst(llvm::Function &body) {
  llvm::DominatorTree dominators(body);
  llvm::LoopInfo loops(dominators);
  std::vector<llvm::BasicBlock *> post_order;
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> seen;
  // (block, successors still to visit)
  std::vector<std::pair<llvm::BasicBlock *, std::vector<llvm::BasicBlock *>>>
      stack;
  auto enter = [&](llvm::BasicBlock *block) {
    seen.insert(block);
    std::vector<llvm::BasicBlock *> inside, leaving;
    llvm::Loop *loop = loops.getLoopFor(block);
    for (llvm::BasicBlock *next : llvm::successors(block))
      (loop && !loop->contains(next) ? leaving : inside).push_back(next);
    // Visited from the back: leaving first, then the rest in order.
    std::vector<llvm::BasicBlock *> order(inside.rbegin(), inside.rend());
    order.insert(order.end(), leaving.rbegin(), leaving.rend());
    stack.emplace_back(block, std::move(order));
  };
  enter(&body.getEntryBlock());
  while (!stack.empty()) {
    auto &[block, pending] = stack.back();
    if (pending.empty()) {
      post_order.push_back(block);
      stack.pop_back();
      continue;
    }
    llvm::BasicBlock *next = pending.back();
    pending.pop_back();
    if (!seen.count(next))
      enter(next);
  }
  return std::vector<llvm::BasicBlock *>(post_order.rbegin(),
                                         post_order.rend());
}

void lowerSubGroupLocalIds(llvm::Function &body, uint32_t sub_group_size) {
  std::vector<llvm::CallInst *> ids;
  for (llvm::Instruction &inst : llvm::instructions(body))
    if (calledBuiltin(inst) == Builtin::SubGroupLocalId)
      ids.push_back(llvm::cast<llvm::CallInst>(&inst));
  for (llvm::CallInst *call : ids) {
    llvm::IRBuilder<> b(call);
    call->replaceAllUsesWith(subGroupLocalId(
        b, body.getArg(body.arg_size() - 3), sub_group_size));
    call->eraseFromParent();
  }
}

bool lowerSubGroupExchangesToCalls(llvm::Function &body,
                                   uint32_t sub_group_size) {
  lowerSubGroupLocalIds(body, sub_group_size);
  // Sites numbered in that order, so that a site before another in the
  // kernel's flow (the inside of a branch before the code after it, a
  // loop's body before the code after the loop) has the lower number: the
  // scheduler lets the work-items at the lowest site go first, which is how
  // lanes of a vector would meet again.
  uint32_t site = 0;
  std::vector<llvm::CallInst *> calls;
  for (llvm::BasicBlock *block : blocksLoopsFirst(body))
    for (llvm::Instruction &inst : *block) {
      Builtin builtin = calledBuiltin(inst);
      if (builtin == Builtin::SubGroupSync ||
          builtin == Builtin::SubGroupRead ||
          builtin == Builtin::SubGroupInLanes)
        calls.push_back(llvm::cast<llvm::CallInst>(&inst));
    }
  llvm::Value *context = contextOf(body);
  for (llvm::CallInst *call : calls) {
    llvm::IRBuilder<> b(call);
    llvm::Value *answer;
    if (calledBuiltin(*call) == Builtin::SubGroupInLanes)
      answer = llvm::ConstantInt::get(call->getType(), 0); // one at a time
    else if (calledBuiltin(*call) == Builtin::SubGroupSync)
      answer = callContextFunction(b, context,
                                   offsetof(WorkGroupContext, sub_group_sync),
                                   b.getInt64Ty(),
                                   {b.getInt32(site++), call->getArgOperand(0)});
    else
      answer = callContextFunction(b, context,
                                   offsetof(WorkGroupContext, sub_group_read),
                                   b.getInt64Ty(), {call->getArgOperand(0)});
    call->replaceAllUsesWith(answer);
    call->eraseFromParent();
  }
  return !calls.empty();
}

llvm::PreservedAnalyses FiberBarriersPass::run(llvm::Module &module,
                                               llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (const KernelRecord &record : readKernelRecords(module)) {
    if (!record.body)
      continue;
    changed |= lowerBarriersToSwitches(*record.body);
    changed |= askLastToArrive(*record.body);
    changed |= yieldInWaitingLoops(*record.body);
    // A widened kernel's exchanges become lane operations
    // (weft-widen-work-items), or these calls where it falls back.
    if (record.description.plan.path != ExecutionPath::Widened)
      changed |= lowerSubGroupExchangesToCalls(
          *record.body, record.description.sub_group_size);
  }
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
