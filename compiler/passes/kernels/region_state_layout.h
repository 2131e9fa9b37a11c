// The storage where a group entry of weft-barrier-regions keeps what its
// work-items carry from one region run to the next: where each resumes, its
// variables, and the group-uniform ones' group copies.
#pragma once
#include "compiler/passes/kernels/entry_builder.h"

#include <llvm/IR/IRBuilder.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace llvm {
class AllocaInst;
} // namespace llvm

namespace weft::compiler {

// The layout of a group's storage (WorkGroupContext::work_item_storage), as
// values of the group entry.
struct RegionStorage {
  llvm::Value *items = nullptr;  // the number of work-items in the group
  llvm::Value *states = nullptr; // i32 per work-item: the region it resumes at
  std::vector<llvm::Value *> item_bases; // per per-item alloca: its array
  std::vector<uint64_t> item_strides;
  // Per per-item alloca that is group-uniform (null for the others): the
  // value at the start of the region run (`current`), and the value the run
  // leaves for the next (`next`).
  std::vector<llvm::Value *> uniform_current, uniform_next;

  // Where work-item `linear` (its local linear id) resumes.
  llvm::Value *stateAt(llvm::IRBuilder<> &b, llvm::Value *linear) const {
    return b.CreateInBoundsGEP(b.getInt32Ty(), states, linear);
  }
  // Work-item `linear`'s copy of the per-item alloca `variable`.
  llvm::Value *itemSlot(llvm::IRBuilder<> &b, size_t variable,
                        llvm::Value *linear) const {
    return b.CreateInBoundsGEP(
        b.getInt8Ty(), item_bases[variable],
        b.CreateMul(linear, b.getInt64(item_strides[variable])));
  }
};

// Lays the per-work-item arrays out in the storage the device hands out: the
// resume states first, then one 64-byte aligned array per variable of
// `per_item`, then the group copies of those `uniform` marks. Asks the device
// for the storage at the builder; a group that gets none stops with
// kWorkGroupOutOfMemory, and the builder goes on in block "storage".
RegionStorage
layOutRegionStorage(llvm::IRBuilder<> &b, const GroupEntryValues &values,
                    const std::vector<llvm::AllocaInst *> &per_item,
                    const std::vector<bool> &uniform);

} // namespace weft::compiler
