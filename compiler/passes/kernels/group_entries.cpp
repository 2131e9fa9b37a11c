#include "compiler/passes/kernels/group_entries.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/kernels/entry_builder.h"
#include "compiler/passes/kernels/work_group_pipes.h"

#include <llvm/IR/Module.h>

namespace weft::compiler {

llvm::PreservedAnalyses GroupEntriesPass::run(llvm::Module &module,
                                              llvm::ModuleAnalysisManager &) {
  std::vector<KernelRecord> records = readKernelRecords(module);
  for (KernelRecord &record : records) {
    if (!record.body)
      continue;
    llvm::Function &body = *record.body;
    const KernelDescription &kernel = record.description;
    const ExecutionPlan &plan = kernel.plan;
    if (plan.path != ExecutionPath::Regions) {
      // Fibers too: a group of one work-item runs this loop.
      GroupLoop loop;
      loop.symbol = groupEntrySymbol(kernel.name);
      if (plan.group_leader)
        loop.follower = derivedFunction(body, kFollowerSuffix);
      if (plan.copy_prologue)
        loop.prologue = derivedFunction(body, kCopyPrologueSuffix);
      if (plan.path == ExecutionPath::Widened) {
        loop.simd = derivedFunction(body, kWidenedSuffix);
        loop.narrow_simd = derivedFunction(body, kNarrowWidenedSuffix);
      }
      loop.pipe_commits = plan.pipe_leader;
      llvm::Function *leader =
          plan.pipe_leader ? derivedFunction(body, kPipeLeaderSuffix) : &body;
      buildGroupLoopEntry(module, leader ? *leader : body, kernel, loop);
    }
    if (plan.read_through)
      if (llvm::Function *read_through =
              derivedFunction(body, kReadThroughSuffix)) {
        GroupLoop loop;
        loop.symbol = readThroughEntrySymbol(kernel.name);
        loop.simd = derivedFunction(*read_through, kWidenedSuffix);
        loop.narrow_simd =
            derivedFunction(*read_through, kNarrowWidenedSuffix);
        buildGroupLoopEntry(module, *read_through, kernel, loop);
      }
    if (plan.work_item_entry)
      buildWorkItemEntry(module, body, kernel);
    record.body = nullptr;
  }
  writeKernelRecords(module, records);
  if (llvm::Function *marker = findBuiltin(module, Builtin::BarrierMarker))
    if (marker->use_empty())
      marker->eraseFromParent();
  // The copy engine stayed a call so the follower bodies could find it; now
  // the optimizer may inline it.
  for (Builtin engine : {Builtin::AsyncCopyEngine, Builtin::AsyncWaitEngine})
    if (llvm::Function *f = findBuiltin(module, engine))
      f->removeFnAttr(llvm::Attribute::NoInline);
  allowInliningWorkGroupPipeCalls(module);
  // A query left anywhere else would read no context: refuse it.
  for (llvm::Function &f : module)
    if (familyOf(identifyBuiltin(f)) == BuiltinFamily::WorkItemQuery &&
        !f.use_empty()) {
      std::string caller;
      if (auto *call = llvm::dyn_cast<llvm::Instruction>(*f.user_begin()))
        caller = " (in " + call->getFunction()->getName().str() + ")";
      reportBuildError(module, "work-item function " + f.getName() +
                                   " is called from code Weft could not "
                                   "inline into a kernel" + caller);
      break;
    }
  return llvm::PreservedAnalyses::none();
}

} // namespace weft::compiler
