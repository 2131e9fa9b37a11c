// RegionEmitter: the group entry weft-barrier-regions makes of a work-item
// function cut at its barriers. region_emitter.cpp emits one region's run,
// region_scheduling.cpp the group's choice of the next run.
#pragma once
#include "compiler/passes/kernels/entry_builder.h"
#include "compiler/passes/kernels/region_analysis.h"
#include "compiler/passes/kernels/region_state_layout.h"
#include "compiler/passes/kernels/region_widening.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace weft::compiler {

class GroupUniformity;

// The group entry's scheduling. While every work-item leaves each region at
// the same barrier (the case OpenCL C defines), a region runs as one loop
// over all work-items (in local linear id order, which the work-group
// collectives rely on: device/launch_abi.h, collective_slots), with nothing in
// it but the kernel's code and the store of where each work-item resumes; a
// vectorizable min/max over those says which region is next. A region with
// one way out (one barrier, or only returns) stores and compares nothing: the
// group goes on where every work-item must go. If work-items ever
// disagree (a barrier reached divergently, undefined behaviour), the group
// switches to running, pass by pass, the region of the first unfinished
// work-item for each work-item that waits there, one at a time, until all have
// finished.
class RegionEmitter {
public:
  // `uniform`: which of the per-item variables hold one value for the
  // whole group (compiler/analysis/group_uniform_variables.h).
  RegionEmitter(llvm::Function &work, const Regions &regions,
                llvm::IRBuilder<> &b, const GroupEntryValues &values,
                const GroupUniformity &uniformity, std::vector<bool> uniform)
      : work_(work), regions_(regions), b_(b), values_(values),
        uniformity_(uniformity), uniform_(std::move(uniform)) {}

  // Whether every region's uniform slice can be cut (emitUniformSlice).
  bool slicesPossible() const;

  // The group entry, from the builder's block on (region_scheduling.cpp):
  // `shared` are the variables all work-items share, `per_item` those each
  // keeps its own of. Regions with loops run widened where they can;
  // `required_size` (zeros: any size) says how large groups are.
  void emit(const std::vector<llvm::AllocaInst *> &shared,
            const std::vector<llvm::AllocaInst *> &per_item,
            const uint64_t required_size[3]);

  // Which regions emit widened, how wide, and why the others were not.
  const std::string &widening() const { return widening_; }

  // The kernel's sub-group size, for regions whose sub-groups exchange
  // values; after emit, why such a region could not be widened (empty when
  // every one was), which leaves the kernel to the fibers.
  void setSubGroupSize(uint32_t size) { sub_group_size_ = size; }
  const std::string &subGroupsUnwidened() const { return sub_groups_why_; }

private:
  uint32_t sub_group_size_ = 1;
  std::string sub_groups_why_;
  uint32_t finishedId() const {
    return static_cast<uint32_t>(regions_.starts.size());
  }

  void emitUniformSlice(unsigned r,
                        const std::vector<llvm::AllocaInst *> &per_item);
  // `last_in_group`: the answer to __weft_last_in_group for every
  // work-item the run covers, when it is known.
  void emitRegion(unsigned r, const std::vector<llvm::AllocaInst *> &shared,
                  const std::vector<llvm::AllocaInst *> &per_item,
                  llvm::BasicBlock *after, bool follower,
                  std::optional<bool> last_in_group = std::nullopt);
  // A widened region's run (widenRegion): the x loop steps a chunk of
  // work-items at a time through its functions.
  void emitWidenedRegion(unsigned r, llvm::BasicBlock *after);
  void widenRegions(const std::vector<llvm::AllocaInst *> &shared,
                    const std::vector<llvm::AllocaInst *> &per_item,
                    const uint64_t required_size[3]);
  void emitRegionPeelingLast(unsigned r,
                             const std::vector<llvm::AllocaInst *> &shared,
                             const std::vector<llvm::AllocaInst *> &per_item,
                             llvm::BasicBlock *after);
  void emitRegionWithCopies(unsigned r,
                            const std::vector<llvm::AllocaInst *> &shared,
                            const std::vector<llvm::AllocaInst *> &per_item,
                            llvm::BasicBlock *after);
  void loadBounds(llvm::Value *first[3], llvm::Value *last[3]) {
    for (unsigned d = 0; d < 3; ++d) {
      first[d] = b_.CreateLoad(b_.getInt64Ty(), first_[d]);
      last[d] = b_.CreateLoad(b_.getInt64Ty(), last_[d]);
    }
  }
  void setBounds(llvm::Value *const first[3], llvm::Value *const last[3]) {
    for (unsigned d = 0; d < 3; ++d) {
      b_.CreateStore(first[d], first_[d]);
      b_.CreateStore(last[d], last_[d]);
    }
  }
  // The work-item function's arguments as the group entry has them: the
  // kernel's arguments, the context, and the local ids `ids`.
  void mapArguments(llvm::ValueToValueMapTy &map, llvm::Value *const ids[3]) {
    unsigned n = values_.arguments.size();
    for (unsigned i = 0; i < n; ++i)
      map[work_.getArg(i)] = values_.arguments[i];
    map[work_.getArg(n)] = values_.context;
    for (unsigned d = 0; d < 3; ++d)
      map[work_.getArg(n + 1 + d)] = ids[d];
  }
  // Group-uniform variables between region runs (see emit): after a run,
  // the value each left for the next region becomes the current one; after
  // a divergent barrier, each work-item's own slot takes over.
  void copyUniform(const std::vector<llvm::AllocaInst *> &per_item,
                   const std::function<llvm::Value *(size_t)> &from,
                   const std::function<llvm::Value *(size_t)> &to) {
    for (size_t i = 0; i < per_item.size(); ++i)
      if (uniform_[i])
        b_.CreateStore(b_.CreateLoad(per_item[i]->getAllocatedType(), from(i)),
                       to(i));
  }

  llvm::Function &work_;
  const Regions &regions_;
  llvm::IRBuilder<> &b_;
  const GroupEntryValues &values_;
  const GroupUniformity &uniformity_;
  RegionStorage storage_; // laid out by emit
  std::vector<WidenedRegion> widened_; // per region
  std::string widening_;
  // Per per-item alloca: whether it is group-uniform, and then its group
  // copies: the value at the start of the region run and the value the run
  // leaves for the next (storage_'s uniform_current and uniform_next), and a
  // work-item's own copy within one run (`temporary`, promoted to a
  // register).
  std::vector<bool> uniform_;
  std::vector<llvm::AllocaInst *> uniform_temporary_;
  llvm::DenseMap<llvm::AllocaInst *, llvm::Value *> shared_copies_;
  // The group's own variables (promoted to registers by mem2reg).
  llvm::AllocaInst *first_[3] = {}, *last_[3] = {}; // bounds of the next run
  llvm::AllocaInst *diverged_ = nullptr;
  llvm::AllocaInst *pass_region_ = nullptr; // after divergence: this pass's
  llvm::AllocaInst *pass_next_ = nullptr;   // region, next work-item to look at
  llvm::AllocaInst *follower_box_ = nullptr; // which part of the group next
};

} // namespace weft::compiler
