// weft-image-format-variants: a kernel reading or writing images runs every
// texel through a decoder that switches on the image's channel type and
// order, which keeps LLVM from widening the work-item loop. For the formats
// image-processing code uses most, this pass adds a variant of the kernel
// whose images are all of that format: a copy of the body in which the
// image builtins are inlined and the format fields of every image argument
// are constants, so the decoding folds to a few loads and conversions that
// widen across work-items. The variant is a kernel record of its own
// (named kernel.<format>), planned and built like any other; the runtime
// runs it when every image argument has its format (KernelDescription::
// image_variants).
//
// In every body with image arguments it also marks the loads of the images'
// descriptions (device/image_abi.h) invariant: kernels never change them,
// so they leave the work-item loop even when the kernel stores bytes.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class ImageFormatVariantsPass
    : public llvm::PassInfoMixin<ImageFormatVariantsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
