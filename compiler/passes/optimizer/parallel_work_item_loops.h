// weft-parallel-work-item-loops: a loop over a group's work-items whose body
// has no barrier (the plain work-item loop, work_item_loops.h) is marked
// parallel (llvm.loop.parallel_accesses, every access to memory in one
// access group), as region loops already are (region_emitter.cpp): without
// a barrier, a work-item that reads what another writes races, which OpenCL
// C leaves undefined, so the work-items do not depend on each other. LLVM's
// loop vectorizer otherwise proves their accesses apart or checks them at
// run time, and gives up past a few pointers into one buffer: CLBlast's
// Xger (16 read-modify-writes of A a work-item, 512 and 512 x lda
// elements apart) stayed scalar where the plan said the vectorizer covers
// it. Runs just before the loop vectorizer, once the body is inlined, and
// leaves a loop as it is where the work-items may rightly see each other:
// atomics, fences, calls that touch memory, or private memory (inlined,
// one alloca serves every work-item in turn). Region loops come marked
// from the region emitter; one it left to run its work-items in turn (they
// share a variable) says so in its loop id and is left too.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class ParallelWorkItemLoopsPass
    : public llvm::PassInfoMixin<ParallelWorkItemLoopsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

} // namespace weft::compiler
