// Chooses how each kernel's work-groups run (ExecutionPlan, in
// compiler/interface/compiler_interface.h) from its features, in one function.
// The passes after weft-choose-plan carry the plan out; where one cannot (the
// vectorizer or the region splitting declines a shape), it falls back to
// the next path and records why in the plan.
#pragma once
#include "compiler/analysis/kernel_features.h"
#include "compiler/interface/compiler_interface.h"

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

ExecutionPlan choosePlan(const KernelFeatures &features);

// weft-choose-plan: computes every kernel's features and plan.
class ChoosePlanPass : public llvm::PassInfoMixin<ChoosePlanPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
