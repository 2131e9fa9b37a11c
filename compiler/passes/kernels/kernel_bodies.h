// weft-kernel-bodies: turns each kernel (a spir_kernel function, every
// helper inlined) into a work-item function, its "body": the kernel's
// parameters, then the work-group context and the local ids x, y, z. Inside
// it the work-item queries read the context and the ids, barriers become
// calls to the marker __weft_barrier, and kernel-scope __local variables
// become slices of the group's local memory. The kernel itself goes; its
// description (arguments, attributes, local memory) is recorded in
// !weft.kernels (compiler/analysis/kernel_metadata.h) for the passes after.
#pragma once
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/PassManager.h>

#include <cstdint>

namespace weft::compiler {

// The metadata on the compare that __weft_last_in_group() becomes (local
// linear id == work-items - 1): weft-barrier-regions replaces it by its
// answer in the loops that run the other work-items apart from the last.
inline constexpr const char *kLastInGroupMetadata = "weft.last_in_group";
// A work-item's sub-group local id: its local id along dimension 0 (`x`)
// modulo the sub-group size. Where sub-groups exchange values the call
// stays until the path is known (the widened path answers with the lanes'
// numbers, weft-fiber-barriers with this).
llvm::Value *subGroupLocalId(llvm::IRBuilder<> &b, llvm::Value *x,
                             uint32_t sub_group_size);

class KernelBodiesPass : public llvm::PassInfoMixin<KernelBodiesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
