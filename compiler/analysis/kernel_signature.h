// Reads what Clang recorded about a kernel (argument metadata, attributes)
// and lays out the argument block the runtime fills for it.
#pragma once
#include "compiler/interface/compiler_interface.h"

namespace llvm {
class Function;
}

namespace weft::compiler {

// The kernel metadata (one integer) that carries SPIR-V's
// SubgroupsPerWorkgroup, which the translator drops
// (compiler/frontend/spirv_execution_modes.h), to KernelDescription.
inline constexpr const char *kRequiredSubGroupsMetadata =
    "weft_required_sub_groups";

// The sub-group size of a kernel that requires none, from the CPU its code
// is for (the function's "target-features"): as many 32-bit lanes as one
// vector register holds, 16 with AVX-512, 8 with AVX, else 4.
uint32_t defaultSubGroupSize(const llvm::Function &kernel);

// Fills name, attributes, arguments (with block offsets), block size and
// work-group size attributes. Returns false with `error` for a kernel
// argument Weft cannot pass yet, or a sub-group size it cannot give.
bool describeKernel(const llvm::Function &kernel, KernelDescription &out,
                    std::string &error);

} // namespace weft::compiler
