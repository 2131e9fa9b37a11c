// Async copies are performed whole by one work-item of the group (the
// "leader", builtins/async_copy_engine.c). When the generated code knows that
// the leader has already run a stretch of the kernel, the other work-items
// run a "follower" copy of it, in which a copy only yields its event value
// and waiting is nothing: no per-work-item bookkeeping is left in their loop.
#pragma once
#include <llvm/ADT/ArrayRef.h>

namespace llvm {
class BasicBlock;
class Function;
} // namespace llvm

namespace weft::compiler {

// The engine calls the async copy builtins leave once inlined.
inline constexpr const char *kAsyncCopyEngine = "__weft_async_copy_for";
inline constexpr const char *kWaitEngine = "__weft_wait_group_events_for";

// Whether any of `blocks` calls the copy engine.
bool callsAsyncCopyEngine(llvm::ArrayRef<llvm::BasicBlock *> blocks);

// Rewrites `blocks` into follower code.
void makeFollowerCode(llvm::ArrayRef<llvm::BasicBlock *> blocks);

// When every copy and wait of a kernel's `body` comes first (in its entry
// block, after nothing that writes memory but the work-item's own
// variables), returns a clone of `body` that ends right after the last of
// them, else null. A group then runs that prologue once, as work-item
// (0,0,0), and every work-item, (0,0,0) included, as a follower: one loop,
// vectorized whole, instead of a scalar first work-item and a loop that
// starts one work-item in.
llvm::Function *makeCopyPrologue(llvm::Function &body);

// Removes the barriers (calls to `marker`) in the entry block of `body` that
// follow nothing but async copies, waits and the work-item's own private
// work. Such a barrier orders nothing: the copies are complete once waited
// for, and no work-item touched memory another can see. Kernels that open
// with "copy, wait, barrier" then run as barrier-free loops. Returns whether
// any barrier is left.
bool dropBarriersAfterCopies(llvm::Function &body,
                             const llvm::Function &marker);

} // namespace weft::compiler
