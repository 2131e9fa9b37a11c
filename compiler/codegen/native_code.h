// Optimizes a module for the host CPU and emits native code: a relocatable
// object that shared_object_linker turns into a shared object the runtime
// loads with dlopen, without LLVM.
#pragma once
#include "compiler/interface/compiler_interface.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace weft::compiler {

// The CPU kernels are compiled for: the host's, unless chooseTargetCpu named
// another before the first compile.
struct HostTarget {
  std::string cpu_name;
  std::string cpu_features;
};
const HostTarget &hostTarget();
// Compiles for `cpu` (LLVM's name) instead of the host (WEFT_TARGET_CPU);
// false, with the reason, for a name LLVM does not know. With `runs_here`,
// the code must run on this machine: instruction sets it lacks are left
// out (weft-opt, which only writes IR, keeps them). Only before the first
// use of hostTarget().
bool chooseTargetCpu(const std::string &cpu, bool runs_here,
                     std::string &error);

// Optimizes a module whose entry points alone are external
// (weft-internalize-entries) with O3, or O1 for -cl-opt-disable, and emits
// ELF objects for the host CPU: one, or one per part of its kernels
// compiled on up to `compile_threads` threads
// (compiler/codegen/kernel_partitions.h) when the program is large enough.
// Fails with a log line per builtin the program calls that Weft does not
// provide. With a `dump_ir_directory`, writes the module there before and after
// optimization. The module is changed and not usable afterwards.
bool emitObjects(llvm::Module &module,
                 const std::vector<KernelDescription> &kernels,
                 bool full_optimization, const std::string &dump_ir_directory,
                 size_t compile_threads,
                 std::vector<std::vector<char>> &objects, std::string &error);

// Splits a module ready for emitObjects into one part per kernel (with its
// image format variants), each compiled into a shared object of its own when
// one of its kernels is first used (compileDeferredParts): most of a build is
// optimization and code generation, and applications often run a few of a
// program's kernels. False, the module unchanged, when the module cannot be
// split so (kernels sharing a variable: compiler/codegen/kernel_partitions.h)
// or calls what nothing provides (the build reports it as without deferral).
// With a `dump_ir_directory`, writes the module there before the split.
bool deferKernels(llvm::Module &module,
                  const std::vector<KernelDescription> &kernels,
                  bool full_optimization, const std::string &dump_ir_directory,
                  std::vector<DeferredPart> &parts);

// Optimizes and emits the objects of deferred parts on up to
// `compile_threads` threads: objects[i] is parts[i]'s, empty on failure,
// errors[i] its log lines.
void compileDeferredParts(const std::vector<DeferredPart> &parts,
                          const std::string &dump_ir_directory,
                          size_t compile_threads,
                          std::vector<std::vector<char>> &objects,
                          std::vector<std::string> &errors);

// The optimization of emitObject alone, for weft-opt --optimize.
bool optimizeForHost(llvm::Module &module, bool full_optimization,
                     std::string &error);

} // namespace weft::compiler
