// Plain loads and stores of private variables whose address stays inside
// the work-item (private_volatiles.h).
#include "compiler/passes/prepare/private_volatiles.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace weft::compiler {
namespace {

// The loads and stores that reach `variable`, if its address is used for
// nothing else (no call but a lifetime marker, never stored, compared or
// turned into an integer): then no one but its work-item sees it.
bool onlyAccessed(llvm::AllocaInst &variable,
                  std::vector<llvm::Instruction *> &accesses) {
  std::vector<llvm::Value *> pending = {&variable};
  while (!pending.empty()) {
    llvm::Value *address = pending.back();
    pending.pop_back();
    for (llvm::User *user : address->users()) {
      auto *inst = llvm::dyn_cast<llvm::Instruction>(user);
      if (!inst)
        return false;
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
        accesses.push_back(load);
      } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(inst)) {
        if (store->getValueOperand() == address)
          return false; // the address itself is written somewhere
        accesses.push_back(store);
      } else if (llvm::isa<llvm::GetElementPtrInst>(inst) ||
                 llvm::isa<llvm::AddrSpaceCastInst>(inst)) {
        pending.push_back(inst);
      } else if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(inst)) {
        if (!intrinsic->isLifetimeStartOrEnd())
          return false;
      } else {
        return false;
      }
    }
  }
  return true;
}

bool plainPrivateVolatiles(llvm::Function &f) {
  bool changed = false;
  for (llvm::Instruction &inst : f.getEntryBlock()) {
    auto *variable = llvm::dyn_cast<llvm::AllocaInst>(&inst);
    std::vector<llvm::Instruction *> accesses;
    if (!variable || !onlyAccessed(*variable, accesses))
      continue;
    for (llvm::Instruction *access : accesses) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(access)) {
        changed |= load->isVolatile();
        load->setVolatile(false);
      } else {
        auto *store = llvm::cast<llvm::StoreInst>(access);
        changed |= store->isVolatile();
        store->setVolatile(false);
      }
    }
  }
  return changed;
}

} // namespace

llvm::PreservedAnalyses
PlainPrivateVolatilesPass::run(llvm::Module &module,
                               llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &f : module)
    if (!f.isDeclaration())
      changed |= plainPrivateVolatiles(f);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
