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
#include "compiler/passes/kernels/widening_checks.h"

#include <llvm/IR/Instructions.h>
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

} // namespace

bool emitBarrierRegions(llvm::Function &body, llvm::Function &marker,
                        llvm::IRBuilder<> &b, const GroupEntryValues &values,
                        const uint64_t required_size[3],
                        uint32_t sub_group_size, std::string &why,
                        std::string &how) {
  llvm::ValueToValueMapTy clone_map;
  llvm::Function *work = llvm::CloneFunction(&body, clone_map);
  // Register tiles and other private arrays indexed by counters of loops
  // that unroll become values: only what lives across a barrier is saved,
  // element by element (CLBlast's XgemmDirect kept 1 KiB per work-item).
  unrollLoopsIndexingPrivateArrays(*work, /*simplify_cfg=*/false);
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
    emitter.setSubGroupSize(sub_group_size);
    emitter.emit(shared, per_item, required_size);
    how = emitter.widening();
    std::string problems;
    llvm::raw_string_ostream out(problems);
    if (!emitter.subGroupsUnwidened().empty()) {
      why = emitter.subGroupsUnwidened();
      values.entry->deleteBody();
      ready = false;
    } else if (llvm::verifyFunction(*values.entry, &out)) {
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
                           record.description.reqd_work_group_size,
                           record.description.sub_group_size, why, how)) {
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
