#include "compiler/passes/optimizer/pipe_shape_loads.h"

#include "device/pipe_abi.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

#include <cstddef>

namespace weft::compiler {

namespace {

// A struct-path TBAA tag is (base type, access type, offset); the base type
// node starts with the struct's name.
bool readsPipeShape(const llvm::LoadInst &load) {
  const llvm::MDNode *tag = load.getMetadata(llvm::LLVMContext::MD_tbaa);
  if (!tag || tag->getNumOperands() < 3)
    return false;
  const auto *base = llvm::dyn_cast<llvm::MDNode>(tag->getOperand(0));
  if (!base || base->getNumOperands() == 0)
    return false;
  const auto *name = llvm::dyn_cast<llvm::MDString>(base->getOperand(0));
  const auto *offset =
      llvm::mdconst::dyn_extract<llvm::ConstantInt>(tag->getOperand(2));
  return name && offset && name->getString() == "WeftPipe" &&
         offset->getZExtValue() < offsetof(WeftPipe, padding);
}

} // namespace

llvm::PreservedAnalyses PipeShapeLoads::run(llvm::Function &function,
                                            llvm::FunctionAnalysisManager &) {
  bool changed = false;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
    if (!load || load->isAtomic() ||
        load->hasMetadata(llvm::LLVMContext::MD_invariant_load) ||
        !readsPipeShape(*load))
      continue;
    load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                      llvm::MDNode::get(function.getContext(), {}));
    changed = true;
  }
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses kept;
  kept.preserveSet<llvm::CFGAnalyses>();
  return kept;
}

} // namespace weft::compiler
