// weft-barrier-regions: cuts each kernel planned as Regions at its barriers
// (barrier_crossings.h, region_analysis.h) and builds its group entry
// (region_emitter.h).
#include "compiler/passes/kernels/barrier_regions.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/group_uniform_variables.h"
#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/kernels/barrier_crossings.h"
#include "compiler/passes/kernels/region_analysis.h"
#include "compiler/passes/kernels/region_emitter.h"

#include <llvm/IR/Instructions.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <vector>

namespace weft::compiler {
namespace {

using llvm::IRBuilder;

// A kernel with barriers never runs groups larger than its
// reqd_work_group_size (groups are merged only for kernels that cannot see
// them: runtime/kernel.cpp), though a group at the edge of the range may be
// smaller. Saying so, with a umin that changes nothing at run time, tells
// LLVM each local id's range: a kernel's loop whose trip count depends on
// one (r = y; r < 32; r += 8, with 8 rows) then unrolls fully and leaves the
// region's work-item loop straight enough to vectorize.
void boundByRequiredSize(IRBuilder<> &b, GroupEntryValues &values,
                         const KernelDescription &kernel) {
  for (unsigned d = 0; d < 3; ++d)
    if (uint64_t required = kernel.reqd_work_group_size[d])
      values.local_size[d] = b.CreateBinaryIntrinsic(
          llvm::Intrinsic::umin, values.local_size[d], b.getInt64(required),
          nullptr, "local_size_bound");
}

// The most work-items of one row a widened region needs to run at once: a
// group of reqd_work_group_size(8, 8, 1) never has more than 8 in x.
unsigned rowLanes(const KernelDescription &kernel) {
  uint64_t x = kernel.reqd_work_group_size[0];
  return x ? static_cast<unsigned>(llvm::PowerOf2Ceil(x)) : 0;
}

} // namespace

bool emitBarrierRegions(llvm::Function &body, llvm::Function &marker,
                        llvm::IRBuilder<> &b, const GroupEntryValues &values,
                        unsigned row_lanes, std::string &why,
                        std::string &how) {
  llvm::ValueToValueMapTy clone_map;
  llvm::Function *work = llvm::CloneFunction(&body, clone_map);
  Regions regions;
  std::vector<llvm::AllocaInst *> allocas;
  bool ready = prepareWorkItemFunction(*work, marker, regions, allocas, why);
  if (ready) {
    std::vector<llvm::AllocaInst *> shared, per_item;
    for (llvm::AllocaInst *alloca : allocas)
      (sharedByWorkItems(*alloca, regions) ? shared : per_item)
          .push_back(alloca);
    GroupUniformity uniformity(
        *work, static_cast<unsigned>(values.arguments.size()) + 1, per_item);
    std::vector<bool> uniform;
    for (llvm::AllocaInst *alloca : per_item)
      uniform.push_back(uniformity.uniformVariable(alloca));
    RegionEmitter probe(*work, regions, b, values, uniformity, uniform);
    if (!probe.slicesPossible())
      uniform.assign(uniform.size(), false);
    RegionEmitter emitter(*work, regions, b, values, uniformity,
                          std::move(uniform));
    emitter.emit(shared, per_item, row_lanes);
    how = emitter.widening();
    std::string problems;
    llvm::raw_string_ostream out(problems);
    if (llvm::verifyFunction(*values.entry, &out)) {
      why = "internal error: " + out.str();
      // Nothing may point into `work` when it goes.
      values.entry->deleteBody();
      ready = false;
    }
  }
  work->eraseFromParent();
  return ready;
}

llvm::PreservedAnalyses BarrierRegionsPass::run(llvm::Module &module,
                                                llvm::ModuleAnalysisManager &) {
  std::vector<KernelRecord> records = readKernelRecords(module);
  llvm::Function *marker = findBuiltin(module, Builtin::BarrierMarker);
  bool changed = false;
  for (KernelRecord &record : records) {
    ExecutionPlan &plan = record.description.plan;
    if (!record.body || plan.path != ExecutionPath::Regions || !marker)
      continue;
    llvm::IRBuilder<> b(module.getContext());
    std::vector<llvm::Value *> args;
    GroupEntryValues values =
        startGroupEntry(module, *record.body, record.description, b, args,
                        groupEntrySymbol(record.description.name));
    boundByRequiredSize(b, values, record.description);
    std::string why, how;
    if (emitBarrierRegions(*record.body, *marker, b, values,
                           rowLanes(record.description), why, how)) {
      plan.lanes = how;
      changed = true;
      continue;
    }
    values.entry->eraseFromParent();
    plan.path = ExecutionPath::Fibers;
    plan.fallback = "not split at its barriers: " + why;
  }
  writeKernelRecords(module, records);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
