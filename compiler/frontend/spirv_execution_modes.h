// Kernel execution modes of a SPIR-V module that llvm-spirv-15 drops when
// it reads the module: SubgroupsPerWorkgroup (capability SubgroupDispatch;
// compiler/frontend/spirv_legalize.h writes SubgroupsPerWorkgroupId in that
// form), a kernel's required number of sub-groups per work-group. Read from the
// module's words and given to the kernels as metadata.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace weft::compiler {

// Each kernel (by entry point name) that requires a number of sub-groups
// per work-group, with that number. Nothing for a malformed module (the
// translator then says what is wrong).
std::map<std::string, uint64_t>
requiredSubGroupCounts(const std::vector<uint32_t> &words);

} // namespace weft::compiler
