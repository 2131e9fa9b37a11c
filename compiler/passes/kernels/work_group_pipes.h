// work_group_reserve_*_pipe and work_group_commit_*_pipe: one reservation
// for the whole work-group (builtins/pipe_group.c).
//
// Every work-item counts the group's reservations and commits it has reached
// in private variables, so the n-th call of each work-item means the group's
// n-th reservation. In general the first work-item to reach it reserves and
// the last to reach the commit commits.
//
// In a kernel with no barrier, where each of these calls runs at most once
// per work-item (none sits in a loop), the group runs as a leader and
// followers, like async copies
// (compiler/passes/kernels/async_copy_followers.h): work-item (0,0,0) makes
// every reservation and notes every commit; the others only read the
// reservation ids; the group entry commits once all have run. The followers'
// loop then holds no atomic operation and no store to the group's state, so
// LLVM keeps the pipe's header in registers across work-items.
#pragma once
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

// Library wrappers Clang calls for the work-group pipe builtins; the
// compiler rewrites each call, so they are never inlined into a kernel.
bool isWorkGroupPipeBuiltin(const llvm::Function &function);

// Rewrites the work-group pipe builtin calls in `body` into calls that pass
// the group's `context` and the work-item's private counters. Returns
// whether there were any.
bool countWorkGroupPipeCalls(llvm::Function &body, llvm::Value *context);

// Whether `body` (without barriers) may run as a pipe leader and followers.
bool pipeFollowersApply(llvm::Function &body);

// In a clone of the body for work-item (0,0,0): its commits are noted for
// the end of the group.
void makePipeLeaderCode(llvm::Function &leader);

// In the followers' body: reservations read the leader's ids; commits go.
void makePipeFollowerCode(llvm::Function &follower);

// Once every kernel is built: the optimizer may inline the reservations and
// commits (kept calls until then so the rewrites above could find them).
void allowInliningWorkGroupPipeCalls(llvm::Module &module);

// Called by the group entry after every work-item ran: the noted commits.
void emitDeferredPipeCommits(llvm::Module &module, llvm::IRBuilder<> &b,
                             llvm::Value *context);

// weft-work-group-pipe-counters: countWorkGroupPipeCalls on every kernel
// body (after kernel-bodies inlined the helpers that call the builtins).
class WorkGroupPipeCountersPass
    : public llvm::PassInfoMixin<WorkGroupPipeCountersPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
