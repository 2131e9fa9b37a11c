// The kernels of a module as the compiler's passes see them: each kernel's
// body (the work-item function made by compiler/passes/kernels/kernel_bodies.h)
// and its description, plan included, kept in the module as named metadata
// (!weft.kernels). Every pass reads the records, does its part, and writes
// them back, so each pass runs alone on a .ll file (weft-opt) and the plan
// travels with the IR.
#pragma once
#include "compiler/interface/compiler_interface.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/PassManager.h>

#include <vector>

namespace llvm {
class Function;
class Module;
class raw_ostream;
} // namespace llvm

namespace weft::compiler {

struct KernelRecord {
  llvm::Function *body = nullptr; // null once the entries are built
  KernelDescription description;
};

std::vector<KernelRecord> readKernelRecords(const llvm::Module &module);
void writeKernelRecords(llvm::Module &module,
                        const std::vector<KernelRecord> &records);
// Drops the records from the module (once the descriptions are taken out).
void eraseKernelRecords(llvm::Module &module);

// The functions a pass makes from a body are named after it: body + suffix.
inline constexpr const char *kFollowerSuffix = ".follower";
inline constexpr const char *kCopyPrologueSuffix = ".copies";
inline constexpr const char *kPipeLeaderSuffix = ".leader";
inline constexpr const char *kWidenedSuffix = ".simd";
inline constexpr const char *kNarrowWidenedSuffix = ".simd.narrow";
inline constexpr const char *kReadThroughSuffix = ".read_through";
llvm::Function *derivedFunction(const llvm::Function &body,
                                llvm::StringRef suffix);

// Reports a build error through the module's LLVMContext (the driver
// collects it into the build log; weft-opt prints it).
void reportBuildError(llvm::Module &module, const llvm::Twine &message);

// print<weft-kernels>: each kernel's plan and description, for IR tests.
class PrintKernelsPass : public llvm::PassInfoMixin<PrintKernelsPass> {
public:
  explicit PrintKernelsPass(llvm::raw_ostream &out) : out_(out) {}
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &out_;
};

} // namespace weft::compiler
