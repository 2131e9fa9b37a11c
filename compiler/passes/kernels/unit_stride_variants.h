// weft-unit-stride-variants: BLAS-style kernels take their strides as
// arguments (CLBlast's `x[id*x_inc + x_offset]`, im2col's `stride_w *
// w_id`) and are nearly always called with 1. Widened, an access whose
// address is a work-item index times a stride the compiler does not know
// gathers and scatters element by element. For a kernel with such accesses
// this pass adds a variant in which those stride arguments are the constant
// 1, so the same accesses read and write whole vectors. The variant is a
// kernel record of its own (named kernel.unit_stride), planned and built
// like any other; the runtime runs it when every one of those arguments is
// 1 at the launch (KernelDescription::unit_stride_variants). A stride is
// an integer argument that multiplies a value differing between
// neighbouring work-items on the way to the address of an access that
// gathers; the variant is kept only when it gathers less.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class UnitStrideVariantsPass
    : public llvm::PassInfoMixin<UnitStrideVariantsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
