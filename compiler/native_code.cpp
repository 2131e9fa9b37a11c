#include "compiler/native_code.h"

#include "compiler/analysis_managers.h"
#include "compiler/pipeline.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>

namespace weft::compiler {
namespace {

void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Lets checkResolvable see libc and libm, which kernel libraries link.
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  });
}

void optimize(llvm::Module &module, llvm::TargetMachine &machine, bool full) {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = full;
  tuning.SLPVectorization = full;
  llvm::PassBuilder builder(&machine, tuning);
  AnalysisManagers analyses(builder);
  registerOptimizerPasses(builder);
  // Even -cl-opt-disable needs O1: the work-item body must be inlined into
  // its loop for the entry points to exist as one function.
  llvm::ModulePassManager passes = builder.buildPerModuleDefaultPipeline(
      full ? llvm::OptimizationLevel::O3 : llvm::OptimizationLevel::O1);
  passes.run(module, analyses.modules);
}

// For compiler work: WEFT_DUMP_IR=<directory> writes each program's module
// before and after optimization, as <first kernel>.<stage>.ll.
void dumpModule(const llvm::Module &module,
                const std::vector<KernelDescription> &kernels,
                const std::string &directory, const char *stage) {
  if (directory.empty() || kernels.empty())
    return;
  std::error_code error;
  llvm::raw_fd_ostream out(
      directory + "/" + kernels[0].name + "." + stage + ".ll", error);
  if (!error)
    module.print(out, nullptr);
}

// A call nothing provides would only fail when the shared object is loaded,
// with dlopen's terse message; name the missing builtin in the build log.
bool checkResolvable(const llvm::Module &module, std::string &error) {
  for (const llvm::Function &f : module) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty())
      continue;
    std::string name = f.getName().str();
    if (llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name))
      continue;
    error += "error: '" + llvm::demangle(name) +
             "' is called but defined nowhere: neither the program nor "
             "Weft's builtin library provides it\n";
  }
  return error.empty();
}

std::unique_ptr<llvm::TargetMachine> hostMachine(bool full_optimization,
                                                 std::string &error) {
  std::string triple = llvm::sys::getProcessTriple();
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  const HostTarget &host = hostTarget();
  llvm::TargetOptions options;
  // Frame sizes tell CL_KERNEL_PRIVATE_MEM_SIZE and size the fiber stacks.
  options.EmitStackSizeSection = true;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, host.cpu_name, host.cpu_features, options, llvm::Reloc::PIC_,
      std::nullopt,
      full_optimization ? llvm::CodeGenOptLevel::Aggressive
                        : llvm::CodeGenOptLevel::Less));
  if (!machine)
    error = "cannot create a target machine for " + triple;
  return machine;
}

} // namespace

namespace {

std::string &chosenCpu() {
  static std::string cpu;
  return cpu;
}

// The features LLVM gives `cpu`, as "+name,..."; empty for an unknown CPU.
std::string featuresOfCpu(const std::string &cpu) {
  std::string error, triple = "x86_64-unknown-linux-gnu";
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return "";
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, cpu, ""));
  if (!info || !info->isCPUStringValid(cpu))
    return "";
  std::string features;
  for (const llvm::SubtargetFeatureKV &feature :
       info->getAllProcessorFeatures())
    if (info->checkFeatures(std::string("+") + feature.Key)) {
      if (!features.empty())
        features += ",";
      features += std::string("+") + feature.Key;
    }
  return features;
}

} // namespace

bool chooseTargetCpu(const std::string &cpu, std::string &error) {
  initializeNativeTarget();
  if (featuresOfCpu(cpu).empty()) {
    error = "WEFT_TARGET_CPU names a CPU LLVM does not know: '" + cpu + "'";
    return false;
  }
  chosenCpu() = cpu;
  return true;
}

const HostTarget &hostTarget() {
  static const HostTarget target = [] {
    HostTarget t;
    if (!chosenCpu().empty()) {
      t.cpu_name = chosenCpu();
      t.cpu_features = featuresOfCpu(t.cpu_name);
    } else {
      t.cpu_name = llvm::sys::getHostCPUName().str();
      llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
      for (const auto &feature : features) {
        if (!t.cpu_features.empty())
          t.cpu_features += ",";
        t.cpu_features +=
            (feature.second ? "+" : "-") + feature.first().str();
      }
    }
    // AMD's gathers and scatters are slower than the scalar loads and
    // stores they replace (LLVM 19's znver4 model does not know it yet):
    // strided accesses across work-items vectorize with shuffles instead.
    if (t.cpu_name.rfind("znver", 0) == 0)
      t.cpu_features += ",+prefer-no-gather,+prefer-no-scatter";
    return t;
  }();
  return target;
}

namespace {

// The host's target machine, with `module` set up for it (null and why on
// failure).
std::unique_ptr<llvm::TargetMachine> targetModuleToHost(llvm::Module &module,
                                                        bool full_optimization,
                                                        std::string &error) {
  initializeNativeTarget();
  std::unique_ptr<llvm::TargetMachine> machine =
      hostMachine(full_optimization, error);
  if (machine) {
    module.setDataLayout(machine->createDataLayout());
    module.setTargetTriple(machine->getTargetTriple().str());
  }
  return machine;
}

} // namespace

bool optimizeForHost(llvm::Module &module, bool full_optimization,
                     std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine =
      targetModuleToHost(module, full_optimization, error);
  if (!machine)
    return false;
  optimize(module, *machine, full_optimization);
  return true;
}

namespace {

// IR instructions in one function above which code generation uses LLVM's
// fast path (emitObject): far beyond hand-written kernels (the largest
// benchmark kernel has a few thousand), reached by generated ones.
constexpr size_t kLargestFunctionForFullCodegen = 50000;

size_t largestFunctionSize(const llvm::Module &module) {
  size_t largest = 0;
  for (const llvm::Function &f : module)
    largest = std::max<size_t>(largest, f.getInstructionCount());
  return largest;
}

} // namespace

bool emitObject(llvm::Module &module,
                const std::vector<KernelDescription> &kernels,
                bool full_optimization, const std::string &dump_ir_directory,
                std::vector<char> &object, std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine =
      targetModuleToHost(module, full_optimization, error);
  if (!machine)
    return false;

  dumpModule(module, kernels, dump_ir_directory, "pre");
  optimize(module, *machine, full_optimization);
  dumpModule(module, kernels, dump_ir_directory, "opt");
  if (!checkResolvable(module, error))
    return false;

  if (largestFunctionSize(module) > kLargestFunctionForFullCodegen) {
    // LLVM's optimizing back end grows faster than linearly with a
    // function's size (live-range shrinking, the greedy register allocator
    // and the scheduler on huge blocks): a 10,000-line straight-line kernel
    // took 57 s there and takes 3 s in the fast instruction selector and
    // register allocator. The IR is still fully optimized.
    machine->setOptLevel(llvm::CodeGenOptLevel::None);
    machine->setO0WantsFastISel(true);
  }
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, stream, nullptr,
                                   llvm::CodeGenFileType::ObjectFile)) {
    error = "error: the target cannot emit object files\n";
    return false;
  }
  codegen.run(module);
  object.assign(buffer.begin(), buffer.end());
  return true;
}

} // namespace weft::compiler
