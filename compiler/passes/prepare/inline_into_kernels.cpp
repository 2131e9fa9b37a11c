#include "compiler/passes/prepare/inline_into_kernels.h"

#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>

namespace weft::compiler {

llvm::PreservedAnalyses
InlineIntoKernelsPass::run(llvm::Module &module,
                           llvm::ModuleAnalysisManager &analyses) {
  for (llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    // Helpers are only reachable from kernels: once inlined everywhere the
    // inliner drops them, so no copy outside a kernel keeps work-item calls.
    if (f.getCallingConv() != llvm::CallingConv::SPIR_KERNEL)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
    f.removeFnAttr(llvm::Attribute::NoInline);
    f.removeFnAttr(llvm::Attribute::OptimizeNone);
    f.addFnAttr(llvm::Attribute::AlwaysInline);
  }
  return llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false)
      .run(module, analyses);
}

} // namespace weft::compiler
