// weft-check-printf: until Weft formats printf itself (the printf issue),
// a kernel's printf calls go to the C library, so a format string must not
// be able to crash the host. Each call must have a string literal as its
// format; the format may not use %n (which writes through its argument),
// vector conversions (%v..., which the C library does not know and would
// misread every argument after) or a *-width/precision; every %s argument
// must be a string literal too. Anything else fails the build with a log
// line naming the call.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class PrintfCheckPass : public llvm::PassInfoMixin<PrintfCheckPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
