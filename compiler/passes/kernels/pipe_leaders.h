// weft-pipe-leaders: for kernels whose plan has a pipe leader
// (compiler/passes/kernels/work_group_pipes.h), the leader's body
// (body.leader), whose commits are noted for the end of the group, and the
// followers' rewrite (body.follower, made by weft-async-copy-leaders):
// reservations read the leader's ids, commits go.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class PipeLeadersPass : public llvm::PassInfoMixin<PipeLeadersPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
