#include "compiler/analysis/kernel_features.h"

#include "compiler/analysis/waiting_loops.h"

#include "compiler/passes/kernels/async_copy_followers.h"
#include "compiler/passes/kernels/work_group_pipes.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>

namespace weft::compiler {

KernelFeatures computeKernelFeatures(llvm::Function &body) {
  KernelFeatures features;
  for (const llvm::Instruction &inst : llvm::instructions(body))
    features.calls.set(static_cast<size_t>(familyOf(calledBuiltin(inst))));
  features.calls.reset(static_cast<size_t>(BuiltinFamily::None));
  features.copies_come_first = features.asyncCopies() && copiesComeFirst(body);
  features.pipe_calls_outside_loops =
      features.workGroupPipes() && pipeFollowersApply(body);
  features.waits_on_work_items = waitsOnOtherWorkItems(body);
  return features;
}

} // namespace weft::compiler
