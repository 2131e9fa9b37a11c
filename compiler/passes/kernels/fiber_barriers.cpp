#include "compiler/passes/kernels/fiber_barriers.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/kernels/context_access.h"
#include "device/launch_abi.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <cstddef>

namespace weft::compiler {
namespace {

// Returns whether `body` had barriers.
bool lowerBarriersToSwitches(llvm::Function &body) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &inst : llvm::instructions(body))
    if (calledBuiltin(inst) == Builtin::BarrierMarker)
      calls.push_back(llvm::cast<llvm::CallInst>(&inst));
  for (llvm::CallInst *call : calls) {
    llvm::IRBuilder<> b(call);
    llvm::Value *context = call->getArgOperand(0);
    llvm::Value *callback = loadContextField(
        b, context, offsetof(WorkGroupContext, barrier), b.getPtrTy());
    auto *type = llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy()}, false);
    b.CreateCall(type, callback, {context});
    call->eraseFromParent();
  }
  return !calls.empty();
}

} // namespace

llvm::PreservedAnalyses FiberBarriersPass::run(llvm::Module &module,
                                               llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (const KernelRecord &record : readKernelRecords(module))
    if (record.body)
      changed |= lowerBarriersToSwitches(*record.body);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
