// Turns each kernel of a module into the entry points device/ calls
// (device/launch_abi.h): a work-group function that loops over the
// work-items, and for kernels that reach a barrier a work-item function that
// runs on a fiber. Work-item queries become reads of the work-group context
// and of the loop counters, so LLVM can vectorize across work-items.
#pragma once
#include "compiler/compiler_interface.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace weft::compiler {

// Expects every user function already inlined into the kernels. Fills one
// description per kernel (without entry addresses, which the runtime finds after loading).
bool buildWorkGroupFunctions(llvm::Module &module,
                             std::vector<KernelDescription> &kernels,
                             std::string &error);

} // namespace weft::compiler
