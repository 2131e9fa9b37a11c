#include "compiler/passes/kernels/redundant_barriers.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/kernels/async_copy_followers.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace weft::compiler {
namespace {

// Returns whether anything was removed.
bool dropBarriersAfterCopies(llvm::Function &body) {
  std::vector<llvm::Instruction *> redundant;
  for (llvm::Instruction &inst : body.getEntryBlock()) {
    if (calledBuiltin(inst) == Builtin::BarrierMarker)
      redundant.push_back(&inst);
    else if (!isAsyncCopyCall(inst) && !touchesOnlyPrivateMemory(inst))
      break;
  }
  for (llvm::Instruction *barrier : redundant)
    barrier->eraseFromParent();
  return !redundant.empty();
}

} // namespace

llvm::PreservedAnalyses
DropRedundantBarriersPass::run(llvm::Module &module,
                               llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (const KernelRecord &record : readKernelRecords(module))
    if (record.body)
      changed |= dropBarriersAfterCopies(*record.body);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
