// The compiler library's implementation of compiler::Compiler: OpenCL C to
// native work-group functions. This file holds the pipeline; each step lives
// in its own file.
#include "compiler/build_options.h"
#include "compiler/clang_frontend.h"
#include "compiler/compiler_interface.h"
#include "compiler/native_code.h"
#include "compiler/shared_object_linker.h"
#include "compiler/stack_sizes.h"
#include "compiler/workgroup_function.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>

#include <dlfcn.h>

namespace weft::compiler {
namespace {

constexpr const char *kBuiltinLibraryName = "weft-builtins.bc";
// The CPU the front end targets decides how vectors are passed between
// functions (a float16 in a register or through memory). The builtin library
// is compiled for the same one so calls into it agree; code generation later
// uses the real host CPU (setHostTarget).
constexpr const char *kFrontendCpu = WEFT_FRONTEND_CPU;

std::string directoryOfThisLibrary() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void *>(&weft_compiler_create), &info) ||
      !info.dli_fname)
    return ".";
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// OpenCL C has no recursion, and work-item queries must end up in the kernel
// that owns the context: inline every function of the program into its kernel.
void inlineIntoKernels(llvm::Module &module) {
  for (llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    // Helpers are only reachable from kernels: once inlined everywhere the
    // inliner drops them, so no copy outside a kernel keeps work-item calls.
    if (f.getCallingConv() != llvm::CallingConv::SPIR_KERNEL)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
    f.removeFnAttr(llvm::Attribute::NoInline);
    f.removeFnAttr(llvm::Attribute::OptimizeNone);
    f.addFnAttr(llvm::Attribute::AlwaysInline);
  }
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes;
  passes.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  passes.run(module, mam);
}

// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: the program's variables in
// the global address space (program scope and function-scope static).
uint64_t globalVariableBytes(const llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  uint64_t total = 0;
  for (const llvm::GlobalVariable &g : module.globals())
    if (!g.isDeclaration() && g.getAddressSpace() == 1)
      total += layout.getTypeAllocSize(g.getValueType());
  return total;
}

void setHostTarget(llvm::Module &module) {
  const HostTarget &host = hostTarget();
  for (llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", host.cpu_name);
    f.addFnAttr("target-features", host.cpu_features);
  }
}

class ClangCompiler : public Compiler {
public:
  explicit ClangCompiler(std::unique_ptr<llvm::MemoryBuffer> builtins)
      : builtins_(std::move(builtins)) {}

  bool validateOptions(const std::string &options, std::string &error) override {
    BuildOptions parsed;
    return parseBuildOptions(options, parsed, error);
  }

  BuildResult buildFromSource(const std::string &source,
                              const std::string &options,
                              const DeviceDescription &device) override {
    BuildResult result;
    BuildOptions parsed;
    std::string error;
    if (!parseBuildOptions(options, parsed, error)) {
      result.status = BuildResult::Status::InvalidOptions;
      result.log = "error: " + error + "\n";
      return result;
    }

    auto context = std::make_unique<llvm::LLVMContext>();
    FrontendResult frontend =
        compileOpenCLC(source, parsed, device.opencl_c_features,
                       kFrontendCpu, *context);
    result.log = frontend.log;
    if (!frontend.module) {
      result.status = BuildResult::Status::CompileError;
      return result;
    }
    std::unique_ptr<llvm::Module> module = std::move(frontend.module);

    inlineIntoKernels(*module);
    if (!linkBuiltins(*module, error)) {
      result.status = BuildResult::Status::LinkError;
      result.log += error;
      return result;
    }
    setHostTarget(*module);

    result.global_variable_bytes = globalVariableBytes(*module);
    std::vector<KernelDescription> kernels;
    if (!buildWorkGroupFunctions(*module, kernels, error)) {
      result.status = BuildResult::Status::CompileError;
      result.log += "error: " + error + "\n";
      return result;
    }
    for (KernelDescription &k : kernels)
      k.preferred_work_group_multiple = preferredMultiple();

    std::vector<char> object;
    if (!emitObject(*module, kernels, parsed.optimize, object, error) ||
        !linkSharedObject(object, result.shared_object, error)) {
      result.status = BuildResult::Status::LinkError;
      result.log += error;
      return result;
    }
    std::map<std::string, uint64_t> frames =
        readStackSizes(result.shared_object);
    // A leaf function may also use the 128-byte red zone below its frame.
    constexpr uint64_t kRedZone = 128;
    for (KernelDescription &k : kernels) {
      k.group_entry_frame = frames[groupEntrySymbol(k.name)] + kRedZone;
      k.private_memory = k.reaches_barrier
                             ? frames[workItemEntrySymbol(k.name)] + kRedZone
                             : k.group_entry_frame;
    }
    result.kernels = std::move(kernels);
    result.status = BuildResult::Status::Success;
    return result;
  }

private:
  bool linkBuiltins(llvm::Module &module, std::string &error) {
    auto builtins = llvm::getLazyBitcodeModule(builtins_->getMemBufferRef(),
                                               module.getContext());
    if (!builtins) {
      error = "error: cannot read the builtin library: " +
              llvm::toString(builtins.takeError()) + "\n";
      return false;
    }
    (*builtins)->setDataLayout(module.getDataLayout());
    (*builtins)->setTargetTriple(module.getTargetTriple());
    if (llvm::Linker::linkModules(module, std::move(*builtins),
                                  llvm::Linker::LinkOnlyNeeded)) {
      error = "error: linking the builtin library failed\n";
      return false;
    }
    return true;
  }

  // The SIMD width in 32-bit lanes the vectorizer targets on this CPU.
  static uint32_t preferredMultiple() {
    const std::string &features = hostTarget().cpu_features;
    if (features.find("+avx512f") != std::string::npos)
      return 16;
    if (features.find("+avx2") != std::string::npos ||
        features.find("+avx,") != std::string::npos)
      return 8;
    return 4;
  }

  std::unique_ptr<llvm::MemoryBuffer> builtins_;
};

} // namespace
} // namespace weft::compiler

extern "C" __attribute__((visibility("default"))) weft::compiler::Compiler *
weft_compiler_create(std::string *error) {
  std::string path = weft::compiler::directoryOfThisLibrary() + "/" +
                     weft::compiler::kBuiltinLibraryName;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    if (error)
      *error = "cannot read the builtin library " + path + ": " +
               buffer.getError().message();
    return nullptr;
  }
  return new weft::compiler::ClangCompiler(std::move(*buffer));
}
