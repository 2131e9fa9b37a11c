// The first fields of a pipe (packet_size, max_packets, packets_offset in
// device/pipe_abi.h) are written when the pipe is created and never again
// while kernels run. The pipe builtins read them through struct WeftPipe,
// which Clang's type-based alias information names; this pass marks those
// reads !invariant.load. Without it, a kernel's store to an int buffer might
// (for LLVM) change a pipe's packet size, and a work-item loop reads the
// pipe's header again for every packet instead of once.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class PipeShapeLoads : public llvm::PassInfoMixin<PipeShapeLoads> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

} // namespace weft::compiler
