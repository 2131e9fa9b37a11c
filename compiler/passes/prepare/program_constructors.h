// weft-program-constructors: C++ for OpenCL builds its program-scope
// objects that have constructors in an initialization function that Clang
// emits as a kernel (spir_kernel) and lists in llvm.global_ctors. Weft runs
// it as the program's shared object is loaded (from its .init_array),
// before any kernel can see that copy of the program's variables. Left a
// kernel, Weft would make a work-group entry of it and the constructor list
// would lose it; this pass makes it an ordinary function (C calling
// convention, no kernel metadata). Destructors of program-scope objects are
// not registered (the front end is told -fno-c++-static-destructors): their
// storage goes with the program.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class ProgramConstructorsPass
    : public llvm::PassInfoMixin<ProgramConstructorsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace weft::compiler
