// Splits a program's module, ready for optimization, into parts of whole
// kernels that are optimized and compiled on threads of their own
// (compiler/codegen/native_code.cpp), or each when one of its kernels is first
// used (deferred compilation): optimization and code generation are about 90%
// of a cold build, and the kernels of one program do not depend on each other's
// code.
#pragma once
#include "compiler/interface/compiler_interface.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace weft::compiler {

// Kernels that must stay in one part: a kernel with the variants made of it
// for image formats (compiler/passes/kernels/image_format_variants.h), which
// the runtime folds into it.
using KernelGroup = std::vector<std::string>;
std::vector<KernelGroup>
kernelGroups(const std::vector<KernelDescription> &kernels);

// What becomes of the parts: linked together into one shared object, or
// each into its own, loaded on its own (deferred compilation), where no
// symbol of one part can reach another.
enum class PartLinkage { OneObject, SeparateObjects };

struct ModulePart {
  std::vector<std::string> kernels; // whose entry points the part defines
  std::unique_ptr<llvm::Module> module;
};

// Below this many IR instructions per part (before optimization, library
// functions a part calls counted in it) the threads cost more than they
// save: a part takes a few milliseconds to copy, write and read back.
constexpr size_t kSmallestPartInstructions = 600;

// Splits `module` (in its context) into at most `most_parts` parts of the
// given kernel groups, balanced by their instructions, each part at least
// `smallest_part` instructions; none when fewer than two parts result.
// Each part defines its kernels' entry points and its own copy of every
// internal function they call (and of constants whose address nobody
// compares). With PartLinkage::OneObject, a variable that kernels of
// several parts use is defined once and reached by a hidden symbol from the
// others, and any other external definition goes to the first part:
// `module` is changed (such variables made external) and must not be
// compiled whole after a split. With PartLinkage::SeparateObjects a module
// that would need either is not split, and is left as it was.
std::vector<ModulePart>
splitByKernel(llvm::Module &module,
              const std::vector<KernelGroup> &kernel_groups, size_t most_parts,
              size_t smallest_part = kSmallestPartInstructions,
              PartLinkage linkage = PartLinkage::OneObject);

// The kernels whose group entry points `module` defines, for a module that
// lost its kernel records (weft-opt).
std::vector<std::string> kernelsWithEntries(const llvm::Module &module);

} // namespace weft::compiler
