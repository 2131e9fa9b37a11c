// ScalarEvolution over a function outside a pass manager (the kernel
// passes analyse bodies they are still building), with the target library
// info and assumption cache it refers to kept alive beside it.
#pragma once
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>

namespace weft::compiler {

struct StandaloneEvolution {
  StandaloneEvolution(llvm::Function &f, llvm::DominatorTree &dominators,
                      llvm::LoopInfo &loops)
      : library_info(llvm::Triple(f.getParent()->getTargetTriple())),
        library(library_info, &f), assumptions(f),
        evolution(f, library, assumptions, dominators, loops) {}
  llvm::TargetLibraryInfoImpl library_info;
  llvm::TargetLibraryInfo library;
  llvm::AssumptionCache assumptions;
  llvm::ScalarEvolution evolution;
};

} // namespace weft::compiler
