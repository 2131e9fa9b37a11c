// Reads the stack frame size of each exported function of a linked kernel
// shared object from its .stack_sizes section (emitted by LLVM's
// -stack-size-section). Every user function is inlined into the entry points
// and OpenCL C has no recursion or variable-length arrays, so an entry's
// frame bounds the private memory of a work-item.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace weft::compiler {

// Function name → frame bytes. Empty when the section is missing.
std::map<std::string, uint64_t>
readStackSizes(const std::vector<unsigned char> &shared_object);

} // namespace weft::compiler
