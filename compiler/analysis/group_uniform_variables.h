// Which variables of a kernel cut at its barriers hold the same value in
// every work-item of a group (compiler/passes/kernels/barrier_regions.cpp). A
// loop around a barrier (`for (step = size / 2; step > 0; step /= 2) { ...;
// barrier(); }`) keeps its counter across the barrier; kept per work-item it
// costs a load and stores per work-item and step, and keeps LLVM from
// vectorizing the region. A counter every work-item computes alike can be one
// value for the group instead.
#pragma once
#include <llvm/ADT/ArrayRef.h>

#include <memory>

namespace llvm {
class AllocaInst;
class BasicBlock;
class Function;
class Value;
} // namespace llvm

namespace weft::compiler {

// Which values and variables of `work` (a work-item function whose arguments
// from `first_local_id` on are the local ids x, y, z) are the same in every
// work-item of a group that reaches the same barriers, and which blocks only
// some work-items run. A variable is group-uniform when each store into it
// stores a value computed only from kernel arguments, the context's
// invariant fields, constants and such variables, on a path every
// work-item takes (no branch on a varying value decides it); a variable
// whose address is used otherwise than by loads and stores of it is not.
class GroupUniformity {
public:
  GroupUniformity(llvm::Function &work, unsigned first_local_id,
                  llvm::ArrayRef<llvm::AllocaInst *> variables);
  ~GroupUniformity();

  bool uniformVariable(llvm::AllocaInst *variable) const;
  // A value that may differ between work-items (instructions only).
  bool varying(const llvm::Value *value) const;
  // A block that a branch on a varying value decides whether a work-item
  // runs.
  bool someItemsOnly(const llvm::BasicBlock *block) const;
  // Whether `block` ends in a branch or switch on a varying value.
  bool branchesOnVarying(const llvm::BasicBlock *block) const;
  // Where the paths from `block`'s successors meet again (null: only at the
  // function's exits).
  llvm::BasicBlock *joinAfter(llvm::BasicBlock *block) const;

private:
  class Divergence;
  std::unique_ptr<Divergence> divergence_;
};

} // namespace weft::compiler
