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

} // namespace weft::compiler
