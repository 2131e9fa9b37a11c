// Runs a work-group of a kernel with barriers without switching stacks: the
// kernel is cut at its barriers into regions, and each region becomes a loop
// over the work-items, so every work-item reaches a barrier before any goes
// past it. Values that live across a barrier move to per-work-item storage
// the device provides (WorkGroupContext::work_item_storage).
#pragma once
#include "compiler/passes/kernels/entry_builder.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/PassManager.h>

#include <string>

namespace weft::compiler {

// `body` is a work-item function: the kernel's parameters, then the context
// and the local ids x, y, z; every barrier in it is a call to `marker`, and
// every other call that can reach a barrier is inlined. Emits the regions
// from the builder's block (which has no terminator yet) to the end of
// `values.entry`, and returns true; or returns false with the reason when
// `body` has a shape the splitting does not handle. The caller then erases
// `values.entry`, and the kernel's work-groups run on fibers. Regions with
// loops of their own run widened across work-items where they can
// (region_widening.h), knowing the group's `required_size` (zeros: any
// size); `how` says which.
bool emitBarrierRegions(llvm::Function &body, llvm::Function &marker,
                        llvm::IRBuilder<> &b, const GroupEntryValues &values,
                        const uint64_t required_size[3],
                        uint32_t sub_group_size, std::string &why,
                        std::string &how);

// weft-barrier-regions: the group entry of each kernel whose plan is
// Regions; a kernel the splitting does not handle falls back to Fibers, and
// the plan says why.
class BarrierRegionsPass : public llvm::PassInfoMixin<BarrierRegionsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
