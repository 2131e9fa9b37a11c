// Splits a program's module, ready for optimization, into parts of whole
// kernels that are optimized and compiled on threads of their own
// (compiler/native_code.cpp): optimization and code generation are about
// 90% of a cold build, and the kernels of one program do not depend on
// each other's code.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace weft::compiler {

struct ModulePart {
  std::vector<std::string> kernels; // whose entry points the part defines
  std::unique_ptr<llvm::Module> module;
};

// Below this many IR instructions per part (before optimization, library
// functions a part calls counted in it) the threads cost more than they
// save: a part takes a few milliseconds to copy, write and read back.
constexpr size_t kSmallestPartInstructions = 600;

// Splits `module` (in its context) into at most `most_parts` parts of the
// given kernels, balanced by their instructions, each part at least
// `smallest_part` instructions; none when fewer than two parts result.
// Each part defines its kernels' entry points and its own copy of every
// internal function they call; a variable that kernels of several parts
// use is defined once and reached by a hidden symbol from the others
// (constants whose address nobody compares are copied instead); any other
// external definition goes to the first part. `module` is changed (such
// variables made external) and must not be compiled whole after a split.
std::vector<ModulePart>
splitByKernel(llvm::Module &module, const std::vector<std::string> &kernels,
              size_t most_parts,
              size_t smallest_part = kSmallestPartInstructions);

// The kernels whose group entry points `module` defines, for a module that
// lost its kernel records (weft-opt).
std::vector<std::string> kernelsWithEntries(const llvm::Module &module);

} // namespace weft::compiler
