// weft-fiber-barriers: in each kernel body, the barrier markers become
// calls through WorkGroupContext::barrier, with which the device switches to
// the next work-item's fiber (device/fiber_group.h). Runs after
// weft-barrier-regions, which cuts its regions at the markers; the body
// then serves the work-item entry (fibers, and the async copy checking
// mode).
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class FiberBarriersPass : public llvm::PassInfoMixin<FiberBarriersPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
