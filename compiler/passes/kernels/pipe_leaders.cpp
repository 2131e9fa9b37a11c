#include "compiler/passes/kernels/pipe_leaders.h"

#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/kernels/work_group_pipes.h"

#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

namespace weft::compiler {

llvm::PreservedAnalyses PipeLeadersPass::run(llvm::Module &module,
                                             llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (const KernelRecord &record : readKernelRecords(module)) {
    if (!record.body || !record.description.plan.pipe_leader)
      continue;
    // The work-item entry (checking mode) keeps the general scheme: the body
    // itself stays as it is.
    llvm::ValueToValueMapTy map;
    llvm::Function *leader = llvm::CloneFunction(record.body, map);
    leader->setName(record.body->getName() + kPipeLeaderSuffix);
    makePipeLeaderCode(*leader);
    if (llvm::Function *follower =
            derivedFunction(*record.body, kFollowerSuffix))
      makePipeFollowerCode(*follower);
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
