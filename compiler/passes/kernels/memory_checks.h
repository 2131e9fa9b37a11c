// weft-check-memory: the memory checking mode (WEFT_CHECK_MEMORY). Runs
// first in the Kernels stage, on each kernel with its helpers inlined, when
// the module carries !weft.check_memory (the build sets it for the mode;
// weft-opt's --check-memory too). Every load, store, atomic and memory
// intrinsic is checked against the one object its address comes from: a
// pointer argument (its buffer, sub-buffer, SVM allocation or __local size,
// which the launch gives in WorkGroupContext::memory_ranges), a __local or
// program-scope variable, or a private variable (their sizes known here).
// An address whose origin the compiler cannot trace is asked of the device
// (memory_check_address). A failed check skips the access (a load yields
// zero) and describes it in the context's MemoryViolation
// (device/launch_abi.h); the device reports the first of a launch.
// Builtins that take pointers (vloadn, atomics, sincos, ...) are inlined
// first so their own accesses are checked.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

inline constexpr const char *kCheckMemoryMetadata = "weft.check_memory";
// On a branch whose true side is the fallback of a check that rarely runs
// (an access's own check where its loop's did not hold): the widener skips
// that side whenever no work-item takes it, however short.
inline constexpr const char *kSkippableSideMetadata = "weft.skippable_side";

// Asks for the checking mode in `module`'s build.
void requestMemoryChecks(llvm::Module &module);

class MemoryChecksPass : public llvm::PassInfoMixin<MemoryChecksPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace weft::compiler
