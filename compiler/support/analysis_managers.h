// The four analysis managers a new-pass-manager pipeline needs, registered
// with `builder` and wired to each other.
#pragma once
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>

namespace weft::compiler {

struct AnalysisManagers {
  explicit AnalysisManagers(llvm::PassBuilder &builder) {
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(call_graph);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, call_graph, modules);
  }
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager call_graph;
  llvm::ModuleAnalysisManager modules;
};

// What the passes that read a kernel body before optimization first run on
// their copy of it: variables promoted to registers, redundancies merged,
// arithmetic and control flow in LLVM's canonical forms.
inline void addCleanupPasses(llvm::FunctionPassManager &passes) {
  passes.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  passes.addPass(llvm::EarlyCSEPass());
  passes.addPass(llvm::InstCombinePass());
  passes.addPass(llvm::SimplifyCFGPass());
}

} // namespace weft::compiler
