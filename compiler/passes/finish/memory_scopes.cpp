#include "compiler/passes/finish/memory_scopes.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

namespace weft::compiler {
namespace {

constexpr unsigned kGlobal = 1, kConstant = 2, kLocal = 3;

llvm::Value *accessedPointer(llvm::Instruction &inst) {
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    return load->getPointerOperand();
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
    return store->getPointerOperand();
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
    return rmw->getPointerOperand();
  if (auto *cmpxchg = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
    return cmpxchg->getPointerOperand();
  return nullptr;
}

} // namespace

void separateLocalMemory(llvm::Module &module) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::MDBuilder builder(ctx);
  llvm::MDNode *domain =
      builder.createAnonymousAliasScopeDomain("weft address spaces");
  llvm::MDNode *local = llvm::MDNode::get(
      ctx, {builder.createAnonymousAliasScope(domain, "local")});
  llvm::MDNode *global = llvm::MDNode::get(
      ctx, {builder.createAnonymousAliasScope(domain, "global and constant")});
  for (llvm::Function &f : module)
    for (llvm::Instruction &inst : llvm::instructions(f)) {
      llvm::Value *pointer = accessedPointer(inst);
      if (!pointer)
        continue;
      unsigned space = pointer->getType()->getPointerAddressSpace();
      llvm::MDNode *own = space == kLocal                          ? local
                          : space == kGlobal || space == kConstant ? global
                                                                   : nullptr;
      if (!own)
        continue;
      llvm::MDNode *other = own == local ? global : local;
      inst.setMetadata(
          llvm::LLVMContext::MD_alias_scope,
          llvm::MDNode::concatenate(
              inst.getMetadata(llvm::LLVMContext::MD_alias_scope), own));
      inst.setMetadata(
          llvm::LLVMContext::MD_noalias,
          llvm::MDNode::concatenate(
              inst.getMetadata(llvm::LLVMContext::MD_noalias), other));
    }
}

llvm::PreservedAnalyses
SeparateLocalMemoryPass::run(llvm::Module &module,
                             llvm::ModuleAnalysisManager &) {
  separateLocalMemory(module);
  return llvm::PreservedAnalyses::none();
}

} // namespace weft::compiler
