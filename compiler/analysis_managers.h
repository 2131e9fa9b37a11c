// The four analysis managers a new-pass-manager pipeline needs, registered
// with `builder` and wired to each other.
#pragma once
#include <llvm/Passes/PassBuilder.h>

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

} // namespace weft::compiler
