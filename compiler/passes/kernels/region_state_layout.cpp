// The layout of the storage a group entry of weft-barrier-regions asks the
// device for (WorkGroupContext::work_item_storage), and the request itself.
#include "compiler/passes/kernels/region_state_layout.h"

#include "compiler/passes/kernels/context_access.h"
#include "device/launch_abi.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Alignment.h>

#include <cstddef>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::Value;

RegionStorage
layOutRegionStorage(llvm::IRBuilder<> &b, const GroupEntryValues &values,
                    const std::vector<llvm::AllocaInst *> &per_item,
                    const std::vector<bool> &uniform) {
  llvm::LLVMContext &ctx = b.getContext();
  const llvm::DataLayout &layout = values.entry->getParent()->getDataLayout();
  RegionStorage storage;
  Value *const *sizes = values.local_size;
  storage.items =
      b.CreateMul(b.CreateMul(sizes[0], sizes[1]), sizes[2], "items");
  Value *end = b.CreateMul(storage.items, b.getInt64(4));
  std::vector<Value *> offsets;
  for (llvm::AllocaInst *alloca : per_item) {
    uint64_t bytes = alloca->getAllocationSize(layout)->getFixedValue();
    uint64_t stride = llvm::alignTo(bytes, alloca->getAlign());
    storage.item_strides.push_back(stride);
    Value *start = b.CreateAnd(b.CreateAdd(end, b.getInt64(63)),
                               b.getInt64(~uint64_t(63)));
    offsets.push_back(start);
    end = b.CreateAdd(start, b.CreateMul(storage.items, b.getInt64(stride)));
  }
  // Two 64-byte lines per group-uniform variable: its current and next
  // values.
  std::vector<Value *> uniform_offsets;
  for (size_t i = 0; i < per_item.size(); ++i)
    if (uniform[i]) {
      Value *start = b.CreateAnd(b.CreateAdd(end, b.getInt64(63)),
                                 b.getInt64(~uint64_t(63)));
      uniform_offsets.push_back(start);
      end = b.CreateAdd(
          start, b.getInt64(128 * ((storage.item_strides[i] + 63) / 64)));
    }
  Value *allocate = loadContextField(
      b, values.context, offsetof(WorkGroupContext, work_item_storage),
      b.getPtrTy());
  auto *allocate_type = llvm::FunctionType::get(
      b.getPtrTy(), {b.getPtrTy(), b.getInt64Ty()}, false);
  llvm::CallInst *base =
      b.CreateCall(allocate_type, allocate, {values.context, end});
  // The storage is the group's alone: no kernel pointer reaches into it, so
  // LLVM need not check its arrays against them before vectorizing.
  base->addRetAttr(llvm::Attribute::NoAlias);
  base->addRetAttr(llvm::Attribute::getWithAlignment(ctx, llvm::Align(64)));
  auto *failed = BasicBlock::Create(ctx, "no_storage", values.entry);
  auto *ready = BasicBlock::Create(ctx, "storage", values.entry);
  b.CreateCondBr(b.CreateIsNull(base), failed, ready);
  b.SetInsertPoint(failed);
  b.CreateStore(
      b.getInt32(kWorkGroupOutOfMemory),
      b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), values.context,
                                   offsetof(WorkGroupContext, status)));
  b.CreateRetVoid();
  b.SetInsertPoint(ready);
  // No state needs a start value: the run of a region with several ways out
  // stores every work-item's before the group compares them, and the group
  // only starts running work-items one at a time after such a comparison.
  storage.states = base;
  for (Value *offset : offsets)
    storage.item_bases.push_back(
        b.CreateInBoundsGEP(b.getInt8Ty(), base, offset));
  size_t next_uniform = 0;
  storage.uniform_current.assign(per_item.size(), nullptr);
  storage.uniform_next.assign(per_item.size(), nullptr);
  for (size_t i = 0; i < per_item.size(); ++i)
    if (uniform[i]) {
      Value *current = b.CreateInBoundsGEP(b.getInt8Ty(), base,
                                           uniform_offsets[next_uniform++]);
      storage.uniform_current[i] = current;
      storage.uniform_next[i] = b.CreateInBoundsGEP(
          b.getInt8Ty(), current,
          b.getInt64(64 * ((storage.item_strides[i] + 63) / 64)));
    }
  return storage;
}

} // namespace weft::compiler
