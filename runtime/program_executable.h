// What a successful build gives: the descriptions of a program's kernels and
// their native code, in parts (runtime/program_binary.h). A part whose
// compilation the compiler deferred (compiler::DeferredPart) is compiled
// when one of its kernels is first needed: a launch, or a query of what only
// the code tells (its stack frames). Kernels share the executable, so it
// outlives a rebuild or a release of the program while they are in use.
#pragma once
#include "compiler/interface/compiler_interface.h"
#include "runtime/program_binary.h"

#include <CL/cl.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace weft {

class KernelLibrary;

class ProgramExecutable {
public:
  // Loads the image's compiled parts and finds their kernels' entry points;
  // null, with the reason in `error`, when that fails. `cache_key` names
  // the program's entry in the on-disk cache (empty: none), which is
  // brought up to date as deferred parts are compiled.
  static std::shared_ptr<ProgramExecutable>
  load(ProgramImage image, std::string cache_key, std::string &error);
  ~ProgramExecutable();
  ProgramExecutable(const ProgramExecutable &) = delete;
  ProgramExecutable &operator=(const ProgramExecutable &) = delete;

  // The kernels an application can name (image format variants are folded
  // into theirs). Their entry points, image variants and frame sizes are
  // set once prepareKernel succeeded for them, and never change after.
  const std::vector<compiler::KernelDescription> &kernels() const {
    return kernels_;
  }
  uint64_t globalVariableBytes() const { return global_variable_bytes_; }

  // Makes kernel `index`'s code ready, compiling its part if that was
  // deferred: CL_SUCCESS, or CL_OUT_OF_RESOURCES with the compiler's
  // reason in `log` (the compiler library cannot be loaded, or the part
  // fails to compile). Safe from any thread; cheap once ready.
  cl_int prepareKernel(size_t index, std::string &log) const;
  // The code of kernel `index`, after prepareKernel succeeded.
  const KernelLibrary &libraryOf(size_t index) const;

  // CL_PROGRAM_BINARIES: every deferred part is compiled first (on
  // several threads), so the binary holds native code only. Empty, with
  // the reason in `log`, when a part fails to compile.
  std::vector<unsigned char> binary(std::string &log) const;

private:
  struct Part {
    std::unique_ptr<KernelLibrary> library; // set once, before `ready`
    std::atomic<bool> ready{false};
  };

  ProgramExecutable() = default;
  // Loads image part `part`'s shared object and publishes its kernels'
  // entry points. Called with mutex_ held (or before the executable is
  // shared).
  bool loadPart(size_t part, std::string &error) const;
  // Compiles the deferred parts among `parts`, loads them and updates the
  // cache entry. Called with mutex_ held.
  bool compileParts(const std::vector<size_t> &parts, std::string &log) const;

  // Written by loadPart, before its part is ready (see kernels()).
  mutable std::vector<compiler::KernelDescription> kernels_;
  uint64_t global_variable_bytes_ = 0;
  std::vector<size_t> part_of_; // by kernel index
  std::vector<std::unique_ptr<Part>> parts_;
  std::string cache_key_;

  mutable std::mutex mutex_;
  // The program as the binary and the cache hold it: compiled parts replace
  // their bitcode, their kernels gain their frame sizes. Guarded by mutex_.
  mutable ProgramImage image_;
  // Why a part failed to compile, so that it is not tried at every launch;
  // by part, guarded by mutex_.
  mutable std::vector<std::string> failures_;
};

} // namespace weft
