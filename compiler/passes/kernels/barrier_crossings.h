// The values of a work-item function that live across a barrier, made ready
// for weft-barrier-regions to cut it: each is computed again after the
// barrier, saved before it and reloaded after it, or kept in memory.
#pragma once
#include "compiler/passes/kernels/region_analysis.h"

#include <string>
#include <vector>

namespace llvm {
class AllocaInst;
class Function;
} // namespace llvm

namespace weft::compiler {

// Prepares the copy of the body that regions are cut from: private scalars
// become SSA values, values that live across a barrier go back to memory,
// and every variable moves out of the blocks, to be replaced per region.
// Fills `regions` (the barriers are calls to `marker`) and `allocas` (the
// variables), and returns true; or returns false with the reason when `work`
// has a variable the regions cannot hold.
bool prepareWorkItemFunction(llvm::Function &work, llvm::Function &marker,
                             Regions &regions,
                             std::vector<llvm::AllocaInst *> &allocas,
                             std::string &why);

} // namespace weft::compiler
