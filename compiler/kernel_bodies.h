// weft-kernel-bodies: turns each kernel (a spir_kernel function, every
// helper inlined) into a work-item function, its "body": the kernel's
// parameters, then the work-group context and the local ids x, y, z. Inside
// it the work-item queries read the context and the ids, barriers become
// calls to the marker __weft_barrier, and kernel-scope __local variables
// become slices of the group's local memory. The kernel itself goes; its
// description (arguments, attributes, local memory) is recorded in
// !weft.kernels (compiler/kernel_metadata.h) for the passes after.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class KernelBodiesPass : public llvm::PassInfoMixin<KernelBodiesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
