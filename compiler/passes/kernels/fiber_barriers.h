// weft-fiber-barriers: in each kernel body, the barrier markers become
// calls through WorkGroupContext::barrier, with which the device switches to
// the next work-item's fiber (device/fiber_group.h). Runs after
// weft-barrier-regions, which cuts its regions at the markers; the body
// then serves the work-item entry (fibers, and the async copy checking
// mode).
// It also makes the sub-group exchanges (builtins/subgroups.cl) calls into
// the group's scheduler (WorkGroupContext::sub_group_sync, _read), and the
// work-group collectives ask the scheduler whether they are the last to
// arrive.
#pragma once
#include <llvm/IR/PassManager.h>

#include <cstdint>

namespace llvm {
class Function;
}

namespace weft::compiler {

// The exchanges of `body` as calls through the context, each sync with the
// number of its site, and its sub-group local ids computed from x; returns
// whether there were any exchanges.
bool lowerSubGroupExchangesToCalls(llvm::Function &body,
                                   uint32_t sub_group_size);
// Only the sub-group local ids (a body whose widened copy runs instead).
void lowerSubGroupLocalIds(llvm::Function &body, uint32_t sub_group_size);

class FiberBarriersPass : public llvm::PassInfoMixin<FiberBarriersPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
