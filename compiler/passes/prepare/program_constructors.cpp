// Program-scope constructors as plain functions run at load
// (program_constructors.h).
#include "compiler/passes/prepare/program_constructors.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

namespace weft::compiler {

llvm::PreservedAnalyses
ProgramConstructorsPass::run(llvm::Module &module,
                             llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (const char *list : {"llvm.global_ctors", "llvm.global_dtors"}) {
    llvm::GlobalVariable *variable = module.getNamedGlobal(list);
    if (!variable || !variable->hasInitializer())
      continue;
    auto *entries =
        llvm::dyn_cast<llvm::ConstantArray>(variable->getInitializer());
    if (!entries)
      continue;
    for (llvm::Value *entry : entries->operands()) {
      auto *fields = llvm::dyn_cast<llvm::ConstantStruct>(entry);
      if (!fields || fields->getNumOperands() < 2)
        continue;
      auto *function = llvm::dyn_cast<llvm::Function>(
          fields->getOperand(1)->stripPointerCasts());
      if (!function ||
          function->getCallingConv() != llvm::CallingConv::SPIR_KERNEL)
        continue;
      function->setCallingConv(llvm::CallingConv::C);
      function->clearMetadata(); // kernel_arg_* mark kernels too
      changed = true;
    }
  }
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
