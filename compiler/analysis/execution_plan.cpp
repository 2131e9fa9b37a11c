#include "compiler/analysis/execution_plan.h"

#include "compiler/analysis/kernel_metadata.h"

#include <llvm/IR/Module.h>

namespace weft::compiler {

ExecutionPlan choosePlan(const KernelFeatures &features) {
  ExecutionPlan plan;
  if (features.waits_on_work_items) {
    // Only fibers let the awaited work-item run meanwhile: the loop yields
    // at its back edge (weft-fiber-barriers).
    plan.path = ExecutionPath::Fibers;
    plan.fallback = "a loop waits for another work-item";
    plan.work_item_entry = true;
    return plan;
  }
  if (features.subGroupExchanges() &&
      (features.asyncCopies() || features.workGroupPipes())) {
    // Work-items of a sub-group that pass values to each other each run to
    // the exchange before any goes on: the fibers' scheduler does that for
    // any control flow, sub-groups that part ways included. Otherwise a
    // sub-group is a chunk of the widened path's lanes (weft-widen-work-items;
    // with barriers, each region that exchanges values widened,
    // weft-barrier-regions), or falls back to the fibers.
    plan.path = ExecutionPath::Fibers;
    plan.fallback = "sub-groups exchange values";
    plan.work_item_entry = true;
    return plan;
  }
  if (features.barriers()) {
    // Fibers only when the regions cannot be cut (weft-barrier-regions),
    // but the work-item entry is always there: WEFT_BARRIERS=fibers and the
    // async copy checking mode run it.
    plan.path = ExecutionPath::Regions;
    plan.work_item_entry = true;
    return plan;
  }
  // Work-item (0,0,0) leads: it makes the group's pipe reservations (when
  // none sits in a loop) and async copies; the others follow.
  plan.pipe_leader =
      features.workGroupPipes() && features.pipe_calls_outside_loops;
  plan.group_leader = features.asyncCopies() || plan.pipe_leader;
  // When the copies come first, (0,0,0) runs only them and then the one
  // loop runs everybody; a kernel whose copies only stage data may then
  // read the tiles straight from global memory (weft-async-copy-read-through
  // decides whether it can).
  plan.copy_prologue =
      features.asyncCopies() && !plan.pipe_leader && features.copies_come_first;
  plan.read_through = plan.copy_prologue;
  // The checking mode runs kernels with copies one work-item at a time.
  plan.work_item_entry = features.asyncCopies();
  if (plan.group_leader || features.workGroupPipes()) {
    plan.path = ExecutionPath::WorkItemLoop;
    plan.fallback = "async copies or work-group pipe reservations";
  } else {
    // weft-widen-work-items falls back to the plain loop when LLVM's loop
    // vectorizer covers the body, or the body has a shape it does not widen.
    plan.path = ExecutionPath::Widened;
  }
  return plan;
}

llvm::PreservedAnalyses ChoosePlanPass::run(llvm::Module &module,
                                            llvm::ModuleAnalysisManager &) {
  std::vector<KernelRecord> records = readKernelRecords(module);
  for (KernelRecord &record : records)
    if (record.body) {
      KernelFeatures features = computeKernelFeatures(*record.body);
      record.description.plan = choosePlan(features);
      record.description.uses_printf = features.has(BuiltinFamily::Printf);
    }
  writeKernelRecords(module, records);
  return llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
