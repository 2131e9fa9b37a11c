#include "compiler/jit_program.h"

#include "compiler/workgroup_function.h"

#include <llvm/Demangle/Demangle.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include <mutex>

namespace weft::compiler {
namespace {

class JitProgram : public CompiledProgram {
public:
  JitProgram(std::unique_ptr<llvm::orc::LLJIT> jit,
             std::vector<KernelDescription> kernels)
      : jit_(std::move(jit)), kernels_(std::move(kernels)) {}
  const std::vector<KernelDescription> &kernels() const override {
    return kernels_;
  }
  std::vector<std::string> programScopeVariables() const override { return {}; }
  uint64_t programScopeVariablesSize() const override { return 0; }

private:
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::vector<KernelDescription> kernels_;
};

void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Kernels call libm (sinf, ...) and libc (memcpy, printf) from the process.
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  });
}

// Everything but the entry points becomes internal so O3 can drop or inline it.
void internalizeAllButEntries(llvm::Module &module,
                              const std::vector<KernelDescription> &kernels) {
  std::set<std::string> entries;
  for (const KernelDescription &k : kernels) {
    entries.insert(groupEntryName(k.name));
    entries.insert(workItemEntryName(k.name));
  }
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && !entries.count(f.getName().str()))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable &g : module.globals())
    if (!g.isDeclaration())
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
}

void optimize(llvm::Module &module, llvm::TargetMachine &machine, bool full) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = full;
  tuning.SLPVectorization = full;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  // Even -cl-opt-disable needs O1: the work-item body must be inlined into
  // its loop for the entry points to exist as one function.
  llvm::ModulePassManager passes = builder.buildPerModuleDefaultPipeline(
      full ? llvm::OptimizationLevel::O3 : llvm::OptimizationLevel::O1);
  passes.run(module, mam);
}

// A call the JIT could not resolve would only fail at lookup with an opaque
// message; name the missing builtin in the build log instead.
bool checkResolvable(const llvm::Module &module, std::string &error) {
  for (const llvm::Function &f : module) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty())
      continue;
    std::string name = f.getName().str();
    if (llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name))
      continue;
    error += "error: the builtin function '" + llvm::demangle(name) +
             "' is not implemented by Weft yet\n";
  }
  return error.empty();
}

} // namespace

const HostTarget &hostTarget() {
  static const HostTarget target = [] {
    HostTarget t;
    t.cpu_name = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    for (const auto &feature : features) {
      if (!t.cpu_features.empty())
        t.cpu_features += ",";
      t.cpu_features += (feature.second ? "+" : "-") + feature.first().str();
    }
    return t;
  }();
  return target;
}

std::unique_ptr<CompiledProgram>
jitCompile(std::unique_ptr<llvm::LLVMContext> context_argument,
           std::unique_ptr<llvm::Module> module_argument,
           std::vector<KernelDescription> kernels, bool full_optimization,
           std::string &error) {
  // Parameters are destroyed in an unspecified order; a module must go before
  // its context, so hold them as locals declared in that order.
  std::unique_ptr<llvm::LLVMContext> context = std::move(context_argument);
  std::unique_ptr<llvm::Module> module = std::move(module_argument);
  initializeNativeTarget();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    error = "cannot describe the host CPU: " + llvm::toString(builder.takeError());
    return nullptr;
  }
  builder->setCodeGenOptLevel(full_optimization ? llvm::CodeGenOptLevel::Aggressive
                                                : llvm::CodeGenOptLevel::Less);
  auto machine = builder->createTargetMachine();
  if (!machine) {
    error = "cannot create the target machine: " +
            llvm::toString(machine.takeError());
    return nullptr;
  }
  module->setDataLayout((*machine)->createDataLayout());
  module->setTargetTriple((*machine)->getTargetTriple().str());

  internalizeAllButEntries(*module, kernels);
  optimize(*module, **machine, full_optimization);
  if (!checkResolvable(*module, error))
    return nullptr;

  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(*builder))
                 .create();
  if (!jit) {
    error = "cannot start the JIT: " + llvm::toString(jit.takeError());
    return nullptr;
  }
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process) {
    error = llvm::toString(process.takeError());
    return nullptr;
  }
  (*jit)->getMainJITDylib().addGenerator(std::move(*process));
  if (auto err = (*jit)->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))) {
    error = "cannot add the module to the JIT: " + llvm::toString(std::move(err));
    return nullptr;
  }
  for (KernelDescription &kernel : kernels) {
    auto group = (*jit)->lookup(groupEntryName(kernel.name));
    if (!group) {
      error = "code generation failed for kernel '" + kernel.name +
              "': " + llvm::toString(group.takeError());
      return nullptr;
    }
    kernel.entry = group->toPtr<WorkGroupFunction>();
    if (kernel.reaches_barrier) {
      auto item = (*jit)->lookup(workItemEntryName(kernel.name));
      if (!item) {
        error = "code generation failed for kernel '" + kernel.name +
                "': " + llvm::toString(item.takeError());
        return nullptr;
      }
      kernel.work_item_entry = item->toPtr<WorkItemFunction>();
    }
  }
  return std::make_unique<JitProgram>(std::move(*jit), std::move(kernels));
}

} // namespace weft::compiler
