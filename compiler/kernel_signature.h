// Reads what Clang recorded about a kernel (argument metadata, attributes)
// and lays out the argument block the runtime fills for it.
#pragma once
#include "compiler/compiler_interface.h"

namespace llvm {
class Function;
}

namespace weft::compiler {

// Fills name, attributes, arguments (with block offsets), block size and
// work-group size attributes. Returns false with `error` for a kernel
// argument Weft cannot pass yet.
bool describeKernel(const llvm::Function &kernel, KernelDescription &out,
                    std::string &error);

} // namespace weft::compiler
