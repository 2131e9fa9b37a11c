// Builds the entry points device/ calls (device/launch_abi.h) around a
// kernel body (compiler/passes/kernels/kernel_bodies.h): the argument loads,
// the loop over a group's work-items, and the per-work-item entry the fibers
// run. The passes that make entries (weft-barrier-regions, weft-group-entries)
// share these.
#pragma once
#include "compiler/interface/compiler_interface.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/IRBuilder.h>

#include <string>
#include <vector>

namespace weft::compiler {

// What a group entry has loaded before it runs the work-items.
struct GroupEntryValues {
  llvm::Function *entry;                   // (argument block, context)
  llvm::ArrayRef<llvm::Value *> arguments; // the kernel's arguments
  llvm::Value *context;
  llvm::Value *local_size[3];
};

// Declares void group(const void *block, WorkGroupContext *context) named
// `symbol` and fills its "setup" block with the kernel's arguments (into
// `args`, which `values.arguments` refers to) and the group's size; the
// builder stays at the end of that block.
GroupEntryValues startGroupEntry(llvm::Module &module, llvm::Function &body,
                                 const KernelDescription &kernel,
                                 llvm::IRBuilder<> &b,
                                 std::vector<llvm::Value *> &args,
                                 const std::string &symbol);

// How the loop over a group's work-items runs its body (no barrier).
struct GroupLoop {
  // Kernels with async copies or work-group pipe reservations: work-item
  // (0,0,0) runs the body, which makes every copy and reservation of the
  // group, and the loops run the others with `follower`, whose copies are
  // already done and whose reservations read the leader's ids: no
  // per-work-item bookkeeping stays in the loop.
  llvm::Function *follower = nullptr;
  // With a follower: work-item (0,0,0) runs only this (makeCopyPrologue),
  // and the loops run every work-item with `follower`.
  llvm::Function *prologue = nullptr;
  // The leader noted the group's pipe commits: the entry makes them once
  // every work-item ran.
  bool pipe_commits = false;
  // compiler/passes/kernels/work_item_vectorizer.h: the x loop steps
  // widenedLanes(simd) work-items at a time through it.
  llvm::Function *simd = nullptr;
  // Runs what is left of a row when it is shorter than simd's lanes (null:
  // simd runs it, with lanes left idle).
  llvm::Function *narrow_simd = nullptr;
  // The entry's name: the group entry's, or the read-through entry's.
  std::string symbol;
};

// The group entry `plan.symbol`: three nested loops over the local ids
// that call `body` (or the plan's functions) per work-item, the innermost
// over x so it vectorizes.
void buildGroupLoopEntry(llvm::Module &module, llvm::Function &body,
                         const KernelDescription &kernel,
                         const GroupLoop &plan);

// void item(const void *block, WorkGroupContext *context, x, y, z): runs
// `body` for one work-item (on a fiber, or in the checking mode).
void buildWorkItemEntry(llvm::Module &module, llvm::Function &body,
                        const KernelDescription &kernel);

} // namespace weft::compiler
