// Validates a SPIR-V module before the translator reads it: spirv-tools'
// validator (Debian's spirv-tools, linked statically), under the rules of
// the SPIR-V version the module declares. The translator accepts many broken
// modules (a header alone, a module cut short, ids past the bound) and
// crashes on others; a program built from one gets CL_BUILD_PROGRAM_FAILURE
// and the validator's message instead.
#pragma once
#include <string>
#include <vector>

namespace weft::compiler {

// Whether `il` is a valid module; appends the reason to `log` when not.
bool validateSpirv(const std::vector<unsigned char> &il, std::string &log);

} // namespace weft::compiler
