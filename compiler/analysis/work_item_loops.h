// Weft's loops over a group's work-items name themselves in their loop id
// ("weft.work_item_loop"), so that passes inside the optimizer
// (SplitWorkItemRangesPass) can tell them from the loops a kernel wrote.
#pragma once
#include <llvm/ADT/ArrayRef.h>

namespace llvm {
class BranchInst;
class Instruction;
class Function;
class Loop;
class MDNode;
} // namespace llvm

namespace weft::compiler {

// Adds the mark to the loop id on `back_edge` (creating the id if it has
// none), keeping what the id already says.
void markWorkItemLoop(llvm::BranchInst &back_edge);

// Adds `property` (as !{!"llvm.loop.vectorize.enable", i1 false}) to the
// loop id on `back_edge` in the same way: any pass that marks a loop.
void addLoopProperty(llvm::BranchInst &back_edge, llvm::MDNode *property);

// Adds llvm.loop.vectorize.enable false: LLVM's loop vectorizer leaves the
// loop (a copy that runs only in rare cases, or one whose vector form would
// gather).
void markNotVectorized(llvm::BranchInst &back_edge);

// Marks the loop whose back edge is `back_edge` parallel: each of
// `accesses` (every access to memory in the loop) joins one new access
// group, kept with any it was in, which the loop id names as
// llvm.loop.parallel_accesses; LLVM may then vectorize the loop without
// proving its accesses apart. For loops over work-items that do not depend
// on each other (no barrier between them).
void markParallelAccesses(llvm::BranchInst &back_edge,
                          llvm::ArrayRef<llvm::Instruction *> accesses);

// Marks a loop over work-items that must run them in turn (a region's
// work-items that share a variable): weft-parallel-work-item-loops leaves
// it as it is.
void markWorkItemsInTurn(llvm::BranchInst &back_edge);
bool runsWorkItemsInTurn(const llvm::Loop &loop);

bool isWorkItemLoop(const llvm::Loop &loop);

// Whether `f` has a loop over work-items (vectorized or not) that still
// bears the mark.
bool hasWorkItemLoop(const llvm::Function &f);

} // namespace weft::compiler
