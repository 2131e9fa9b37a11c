#include "compiler/analysis/work_item_loops.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

namespace weft::compiler {
namespace {

constexpr const char *kWorkItemLoop = "weft.work_item_loop";
constexpr const char *kWorkItemsInTurn = "weft.work_items_in_turn";

} // namespace

void addLoopProperty(llvm::BranchInst &back_edge, llvm::MDNode *property) {
  llvm::LLVMContext &ctx = back_edge.getContext();
  // A loop id is distinct and names itself first; its other operands are
  // properties, kept in order.
  llvm::SmallVector<llvm::Metadata *, 4> operands{nullptr};
  if (llvm::MDNode *old = back_edge.getMetadata(llvm::LLVMContext::MD_loop))
    for (unsigned i = 1; i < old->getNumOperands(); ++i)
      operands.push_back(old->getOperand(i));
  operands.push_back(property);
  llvm::MDNode *id = llvm::MDNode::getDistinct(ctx, operands);
  id->replaceOperandWith(0, id);
  back_edge.setMetadata(llvm::LLVMContext::MD_loop, id);
}

void markNotVectorized(llvm::BranchInst &back_edge) {
  llvm::LLVMContext &ctx = back_edge.getContext();
  addLoopProperty(
      back_edge,
      llvm::MDNode::get(
          ctx,
          {llvm::MDString::get(ctx, "llvm.loop.vectorize.enable"),
           llvm::ConstantAsMetadata::get(llvm::ConstantInt::getFalse(ctx))}));
}

void markWorkItemLoop(llvm::BranchInst &back_edge) {
  llvm::LLVMContext &ctx = back_edge.getContext();
  addLoopProperty(
      back_edge,
      llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, kWorkItemLoop)}));
}

void markParallelAccesses(llvm::BranchInst &back_edge,
                          llvm::ArrayRef<llvm::Instruction *> accesses) {
  llvm::LLVMContext &ctx = back_edge.getContext();
  llvm::MDNode *group = llvm::MDNode::getDistinct(ctx, {});
  for (llvm::Instruction *access : accesses)
    access->setMetadata(
        llvm::LLVMContext::MD_access_group,
        llvm::uniteAccessGroups(
            access->getMetadata(llvm::LLVMContext::MD_access_group), group));
  llvm::Metadata *parallel[] = {
      llvm::MDString::get(ctx, "llvm.loop.parallel_accesses"), group};
  addLoopProperty(back_edge, llvm::MDNode::get(ctx, parallel));
}

void markWorkItemsInTurn(llvm::BranchInst &back_edge) {
  llvm::LLVMContext &ctx = back_edge.getContext();
  addLoopProperty(
      back_edge,
      llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, kWorkItemsInTurn)}));
}

bool runsWorkItemsInTurn(const llvm::Loop &loop) {
  return llvm::findOptionMDForLoop(&loop, kWorkItemsInTurn) != nullptr;
}

bool isWorkItemLoop(const llvm::Loop &loop) {
  return llvm::findOptionMDForLoop(&loop, kWorkItemLoop) != nullptr;
}

bool hasWorkItemLoop(const llvm::Function &f) {
  for (const llvm::BasicBlock &block : f)
    if (llvm::MDNode *id =
            block.getTerminator()
                ? block.getTerminator()->getMetadata(llvm::LLVMContext::MD_loop)
                : nullptr)
      if (llvm::findOptionMDForLoopID(id, kWorkItemLoop))
        return true;
  return false;
}

} // namespace weft::compiler
