// Finds and loads the compiler library (libweft-compiler.so) on demand, so
// the driver works for queries without LLVM in memory.
#pragma once
#include <string>

namespace weft {
namespace compiler {
class Compiler;
}

// Whether the compiler library can be found beside this library; answers
// CL_DEVICE_COMPILER_AVAILABLE without loading it.
bool compilerLibraryPresent();

// Whether SPIR-V programs can be built: the compiler library and the SPIR-V
// translator it runs are both installed (CL_DEVICE_IL_VERSION,
// cl_khr_il_program).
bool spirvProgramsSupported();

// Names this build of the compiler library and its builtin library (path,
// size, modification time) without loading them, so cached code is never
// reused after either changes. Empty when the compiler library is absent.
const std::string &compilerIdentity();

// Loads the compiler library the first time and keeps it loaded. Returns
// null with the reason in `error` when it cannot be loaded.
compiler::Compiler *loadCompiler(std::string &error);

} // namespace weft
