// Reads of the work-group context (device/launch_abi.h) from generated code,
// shared by the passes that build the entry points.
#pragma once
#include "compiler/native_code.h"

#include <llvm/IR/IRBuilder.h>

#include <cstddef>

namespace weft::compiler {

// Reads one field of WorkGroupContext. The fields do not change while a
// work-group runs, which !invariant.load tells LLVM so it hoists the reads
// out of the work-item loops instead of fearing the kernel's stores.
inline llvm::Value *loadContextField(llvm::IRBuilder<> &b, llvm::Value *context,
                                     size_t field_offset, llvm::Type *type,
                                     llvm::Value *index = nullptr) {
  llvm::Value *p =
      b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), context, field_offset);
  if (index)
    p = b.CreateInBoundsGEP(b.getInt64Ty(), p, index);
  llvm::LoadInst *load = b.CreateLoad(type, p);
  load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                    llvm::MDNode::get(b.getContext(), {}));
  return load;
}

// Marks `latch` (the branch closing a loop over the work-items in x) so the
// vectorizer covers the last, partial vector with masked operations instead
// of a scalar loop: groups whose size is not a multiple of the vector width,
// and the loops that start at x = 1 after work-item (0,0,0) ran alone, would
// otherwise spend a scalar iteration per leftover work-item. Only where
// masks are cheap (Intel's AVX-512): with tail folding every vector
// iteration is masked, which on AVX2 is vmaskmov and on AMD's cores a slow
// masked store, so there the tail stays a scalar loop.
inline void foldWorkItemTail(llvm::BranchInst *latch) {
  if (!targetHasCheapMasks())
    return;
  llvm::LLVMContext &ctx = latch->getContext();
  llvm::Metadata *predicate[] = {
      llvm::MDString::get(ctx, "llvm.loop.vectorize.predicate.enable"),
      llvm::ConstantAsMetadata::get(llvm::ConstantInt::getTrue(ctx))};
  llvm::MDNode *loop = llvm::MDNode::getDistinct(
      ctx, {nullptr, llvm::MDNode::get(ctx, predicate)});
  loop->replaceOperandWith(0, loop);
  latch->setMetadata(llvm::LLVMContext::MD_loop, loop);
}

} // namespace weft::compiler
