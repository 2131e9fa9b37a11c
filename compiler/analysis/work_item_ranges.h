// Where a branch in a loop over a group's work-items changes direction: a
// test of the work-item's id against a bound the loop does not change
// (`if (gid < n)`) goes one way for the loop's first ids and the other way
// for the rest. weft-split-work-item-ranges splits loops there;
// weft-invariant-branch-versions checks before a loop runs whether all of
// its ids are on one side.
#pragma once
#include <cstddef>
#include <optional>

namespace llvm {
class BasicBlock;
class BranchInst;
class ICmpInst;
class Instruction;
class Loop;
class PHINode;
class SCEV;
class ScalarEvolution;
} // namespace llvm

namespace weft::compiler {

// A loop over work-items (work_item_loops.h) these passes handle: a header
// whose only phi is the counter {first,+,1}, which exits only at its latch
// into one block, and whose values are not used after it (Weft's
// work-item loops pass everything through memory).
struct CountedLoop {
  llvm::Loop *loop = nullptr;
  llvm::PHINode *counter = nullptr;
  llvm::Instruction *next = nullptr; // the counter's value for the next round
  const llvm::SCEV *iterations = nullptr; // at least 1
  llvm::BasicBlock *preheader = nullptr, *header = nullptr, *latch = nullptr;
  llvm::BasicBlock *exit = nullptr;
};

std::optional<CountedLoop> countedLoop(llvm::Loop &loop,
                                       llvm::ScalarEvolution &scev);

// A branch in the loop whose condition has one value (`prefix`) for the
// loop's first `split` iterations and the other for the rest.
struct RangeBranch {
  llvm::BranchInst *branch = nullptr;
  bool prefix = true;
  const llvm::SCEV *split =
      nullptr; // in the counter's type; may exceed the loop
  // When SCEV cannot tell that the compared value does not wrap (`int i =
  // get_global_id(0)` truncates), the loop checks it before it runs, in
  // 128 bits: the value's last round `last <= limit`, else it runs unsplit.
  const llvm::SCEV *wide_last = nullptr;
  const llvm::SCEV *wide_limit = nullptr;
  // For `value == bound` (or !=) split the first time: the first part's
  // ids are below the bound, where the branch goes one way; in the second
  // part the branch stays, its compare marked kAtOrPastBound for the next
  // split, which takes that part's first round apart.
  bool mark_second_part = false;
};

std::optional<RangeBranch> rangeBranch(const CountedLoop &counted,
                                       llvm::BranchInst &branch,
                                       llvm::ScalarEvolution &scev);

// On an == or != compare of a work-item loop's counter, in the part of the
// loop whose ids start at or past the bound.
inline constexpr const char *kAtOrPastBound = "weft.at_or_past_bound";

// The compare a conditional branch tests, through a freeze; else null.
llvm::ICmpInst *branchCompare(llvm::BranchInst &branch);

// Instructions the copies of loops these passes make may add to one
// function, each pass all its loops together: a long kernel body keeps its
// branches (and its masks) rather than have its optimization and code
// generation take several times as long.
inline constexpr size_t kMaxCopiedInstructions = 2000;
size_t instructionsIn(const llvm::Loop &loop);

} // namespace weft::compiler
