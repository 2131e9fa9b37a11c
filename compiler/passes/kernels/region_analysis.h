// What weft-barrier-regions cuts a work-item function into: its regions
// between barriers, where each leads, and which variables all work-items of
// a group may share.
#pragma once
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace llvm {
class AllocaInst;
class BasicBlock;
class Function;
class Instruction;
} // namespace llvm

namespace weft::compiler {

// The pieces of a work-item function between its barriers. Region 0 starts
// at the function's entry; region k+1 starts right after barrier k. A block
// reachable from two region starts belongs to both (each gets its copy).
struct Regions {
  // Each holds one barrier call, alone.
  std::vector<llvm::BasicBlock *> barriers;
  std::vector<llvm::BasicBlock *> starts;
  std::vector<std::vector<llvm::BasicBlock *>> blocks; // start first
  llvm::DenseMap<llvm::BasicBlock *, llvm::SmallVector<unsigned, 2>> member_of;
  llvm::DenseMap<llvm::BasicBlock *, unsigned> barrier_index;
  // A region that can run again after a barrier (a barrier in a loop): a
  // work-item's private variables used there may carry values across it.
  std::vector<bool> repeats;
  // Where every work-item leaving region r goes, when there is one way out
  // only: the region after the one barrier it reaches, or starts.size() when
  // it can only return. Then no work-item needs to say where it resumes.
  std::vector<std::optional<uint32_t>> only_exit;
};

// Puts every barrier call (a call to `marker`) alone in a block of its own,
// so regions are made of whole blocks.
std::vector<llvm::BasicBlock *> isolateBarriers(llvm::Function &f,
                                                llvm::Function &marker);

// The regions of `f` between `barriers` (as isolateBarriers left them).
Regions findRegions(llvm::Function &f,
                    std::vector<llvm::BasicBlock *> barriers);

// The barrier blocks `def` is live on entry to: from each, some use of it is
// reachable without passing its definition again.
std::vector<llvm::BasicBlock *> barriersCrossedBy(llvm::Instruction &def,
                                                  const Regions &regions);

// Whether every work-item may share one copy of `alloca` (it lives within
// one run of one region), instead of needing its own.
bool sharedByWorkItems(llvm::AllocaInst &alloca, const Regions &regions);

// Whether any of `blocks` makes an async copy.
bool makesAsyncCopies(llvm::ArrayRef<llvm::BasicBlock *> blocks);

// Whether any of `blocks` asks if its work-item is the group's last
// (__weft_last_in_group, as weft-kernel-bodies lowered it).
bool asksLastInGroup(llvm::ArrayRef<llvm::BasicBlock *> blocks);
// Whether `blocks` pass values between a sub-group's work-items or ask for
// a sub-group local id in a kernel that does (builtins/subgroups.cl): such
// a region runs only widened, a sub-group a chunk.
bool exchangesInSubGroups(llvm::ArrayRef<llvm::BasicBlock *> blocks);

} // namespace weft::compiler
