// The compiler library's Compiler (compiler/interface/compiler_interface.h),
// open to weft-opt: it also hands out the module the Kernels stage of
// passes.def starts from, so tests can run single passes on real kernels.
#pragma once
#include "compiler/interface/compiler_interface.h"

#include <llvm/Support/MemoryBuffer.h>

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace weft::compiler {

class ClangCompiler : public Compiler {
public:
  ClangCompiler(std::unique_ptr<llvm::MemoryBuffer> builtins,
                CompilerSettings settings);
  ~ClangCompiler() override;

  BuildResult buildFromSource(const std::string &source,
                              const std::string &options,
                              const DeviceDescription &device) override;
  CompileResult compileToBitcode(const std::string &source,
                                 const std::string &options,
                                 const std::vector<EmbeddedHeader> &headers,
                                 const DeviceDescription &device) override;
  BuildResult
  linkBitcode(const std::vector<std::vector<unsigned char>> &objects,
              const std::string &options, const DeviceDescription &device,
              CompileResult &library) override;

  BuildResult
  buildFromSpirv(const std::vector<unsigned char> &il,
                 const std::vector<SpecializationConstant> &constants,
                 const std::string &options,
                 const DeviceDescription &device) override;
  CompileResult
  compileSpirv(const std::vector<unsigned char> &il,
               const std::vector<SpecializationConstant> &constants,
               const std::string &options,
               const DeviceDescription &device) override;
  std::vector<PartCode>
  compileDeferred(const std::vector<DeferredPart> &parts,
                  std::vector<KernelDescription> &kernels) override;
  bool validateSpirv(const std::vector<unsigned char> &il,
                     std::string &why) override;

  // `source` compiled, inlined into its kernels and linked with the builtin
  // library, for the host CPU: what the Kernels stage receives. Null, with
  // the reason in `log`, when that fails.
  std::unique_ptr<llvm::Module>
  kernelStageInput(const std::string &source, const std::string &options,
                   const DeviceDescription &device, llvm::LLVMContext &context,
                   std::string &log);

private:
  // The work of the three calls above, on the calling thread's stack (they
  // run it on a large stack of their own).
  BuildResult buildFromSourceHere(const std::string &source,
                                  const std::string &options,
                                  const DeviceDescription &device);
  CompileResult compileToBitcodeHere(const std::string &source,
                                     const std::string &options,
                                     const std::vector<EmbeddedHeader> &headers,
                                     const DeviceDescription &device);
  BuildResult
  linkBitcodeHere(const std::vector<std::vector<unsigned char>> &objects,
                  const std::string &options, const DeviceDescription &device,
                  CompileResult &library);
  // Recursion check, the Prepare stage, the builtin library, the host CPU.
  bool prepareModule(llvm::Module &module, std::string &log);
  // The rest of every build: the Kernels and Finish stages, native code,
  // the lld link into a shared object. `module`'s context must outlive the
  // call.
  void finishExecutable(std::unique_ptr<llvm::Module> module, bool optimize,
                        const DeviceDescription &device, BuildResult &result);
  bool linkBuiltins(llvm::Module &module, std::string &error);
  static std::vector<unsigned char> writeBitcode(const llvm::Module &module);
  static uint32_t preferredMultiple();

  std::unique_ptr<llvm::MemoryBuffer> builtins_;
  const CompilerSettings settings_;
};

// The builtin library is read from `builtins_path` (weft-builtins.bc).
std::unique_ptr<ClangCompiler>
createClangCompiler(const std::string &builtins_path, CompilerSettings settings,
                    std::string &error);

} // namespace weft::compiler
