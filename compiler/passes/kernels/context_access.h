// Reads of the work-group context (device/launch_abi.h) from generated code,
// shared by the passes that build the entry points.
#pragma once
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

} // namespace weft::compiler
