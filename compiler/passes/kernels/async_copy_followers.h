// Async copies are performed whole by one work-item of the group (the
// "leader", builtins/async_copy_engine.c). When the generated code knows that
// the leader has already run a stretch of the kernel, the other work-items
// run a "follower" copy of it, in which a copy only yields its event value
// and waiting is nothing: no per-work-item bookkeeping is left in their loop.
#pragma once
#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/PassManager.h>

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
} // namespace llvm

namespace weft::compiler {

// Whether `inst` calls the copy or the wait engine (the calls the async
// copy builtins leave once inlined).
bool isAsyncCopyCall(const llvm::Instruction &inst);

// Whether running `inst` early, for work-item (0,0,0) only, changes nothing
// another work-item could see (it writes only the work-item's variables),
// and whether it also reads nothing another work-item can change.
bool privateToWorkItem(const llvm::Instruction &inst);
bool touchesOnlyPrivateMemory(const llvm::Instruction &inst);

// Rewrites `blocks` into follower code.
void makeFollowerCode(llvm::ArrayRef<llvm::BasicBlock *> blocks);

// Whether every copy and wait of `body` comes first: in its entry block,
// after nothing that writes memory but the work-item's own variables.
bool copiesComeFirst(const llvm::Function &body);

// When every copy and wait of a kernel's `body` comes first (in its entry
// block, after nothing that writes memory but the work-item's own
// variables), returns a clone of `body` that ends right after the last of
// them, else null. A group then runs that prologue once, as work-item
// (0,0,0), and every work-item, (0,0,0) included, as a follower: one loop,
// vectorized whole, instead of a scalar first work-item and a loop that
// starts one work-item in.
llvm::Function *makeCopyPrologue(llvm::Function &body);

// weft-async-copy-leaders: for kernels whose plan has a copy leader, the
// followers' body (body.follower) and, when the copies come first, the
// leader's prologue (body.copies).
class AsyncCopyLeadersPass : public llvm::PassInfoMixin<AsyncCopyLeadersPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
