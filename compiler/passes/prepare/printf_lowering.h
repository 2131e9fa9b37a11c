// weft-lower-printf: each printf call becomes the stores of one record in
// the launch's printf buffer (device/printf_abi.h), which the host formats
// once the launch has ended: the C library never sees a kernel's format, so
// vector conversions print as OpenCL C defines them, printf returns 0 (-1
// when the buffer is full), and no format can crash the host.
//
// The record is reserved with one call of __weft_printf_reserve
// (builtins/printf_buffer.c) on the buffer the work-item query
// __weft_printf_buffer answers; a kernel without printf has neither. A
// format must be a string literal and use only what OpenCL C defines, with
// an argument of the right size for each conversion and a string literal
// for each %s: anything else fails the build with a log line naming the
// call and the reason.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class PrintfLoweringPass : public llvm::PassInfoMixin<PrintfLoweringPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
