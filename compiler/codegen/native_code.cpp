#include "compiler/codegen/native_code.h"

#include "compiler/analysis/work_item_loops.h"

#include "compiler/codegen/kernel_partitions.h"
#include "compiler/pipeline/pipeline.h"
#include "compiler/support/analysis_managers.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBufferRef.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Host.h>

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <set>

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
// before optimization, as <first kernel>.pre.ll, and after, as <first
// kernel>.opt.ll, one file for each part a split build compiled.
void dumpModule(const llvm::Module &module, const std::string &name,
                const std::string &directory, const char *stage) {
  if (directory.empty() || name.empty())
    return;
  std::error_code error;
  llvm::raw_fd_ostream out(directory + "/" + name + "." + stage + ".ll", error);
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

bool &chosenCpuRunsHere() {
  static bool runs_here = true;
  return runs_here;
}

// The features LLVM gives `cpu`, as "+name,..."; empty for an unknown CPU.
std::string featuresOfCpu(const std::string &cpu) {
  std::string error, triple = "x86_64-unknown-linux-gnu";
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
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

bool chooseTargetCpu(const std::string &cpu, bool runs_here,
                     std::string &error) {
  initializeNativeTarget();
  if (featuresOfCpu(cpu).empty()) {
    error = "WEFT_TARGET_CPU names a CPU LLVM does not know: '" + cpu + "'";
    return false;
  }
  chosenCpu() = cpu;
  chosenCpuRunsHere() = runs_here;
  return true;
}

const HostTarget &hostTarget() {
  static const HostTarget target = [] {
    HostTarget t;
    if (!chosenCpu().empty()) {
      // The named CPU's instruction sets and tuning, less the instruction
      // sets this CPU lacks, so the code runs here: znver3's SSE4a on an
      // Intel CPU raised SIGILL in CLBlast's transpose kernel.
      t.cpu_name = chosenCpu();
      llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
      std::string all = featuresOfCpu(t.cpu_name);
      llvm::SmallVector<llvm::StringRef, 64> named;
      llvm::StringRef(all).split(named, ',');
      for (llvm::StringRef feature : named) {
        auto known = host.find(feature.drop_front());
        bool lacking =
            chosenCpuRunsHere() && known != host.end() && !known->second;
        if (!t.cpu_features.empty())
          t.cpu_features += ",";
        t.cpu_features += (lacking ? "-" : "+") + feature.drop_front().str();
      }
    } else {
      t.cpu_name = llvm::sys::getHostCPUName().str();
      llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
      for (const auto &feature : features) {
        if (!t.cpu_features.empty())
          t.cpu_features += ",";
        t.cpu_features += (feature.second ? "+" : "-") + feature.first().str();
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

namespace {

// Whether `f` computes anything in vector registers: an arithmetic,
// memory, comparison or conversion instruction on a vector type.
bool hasVectorCode(const llvm::Function &f) {
  for (const llvm::BasicBlock &block : f)
    for (const llvm::Instruction &inst : block) {
      const llvm::Type *t = inst.getType();
      if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
        t = store->getValueOperand()->getType();
      const auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(t);
      if (!vector || vector->getNumElements() < 2)
        continue;
      if (llvm::isa<llvm::BinaryOperator>(inst) ||
          llvm::isa<llvm::UnaryOperator>(inst) ||
          llvm::isa<llvm::LoadInst>(inst) || llvm::isa<llvm::StoreInst>(inst) ||
          llvm::isa<llvm::CmpInst>(inst) || llvm::isa<llvm::CastInst>(inst) ||
          llvm::isa<llvm::SelectInst>(inst) ||
          llvm::isa<llvm::IntrinsicInst>(inst))
        return true;
    }
  return false;
}

// The plan of a kernel on the work-item loop (or on regions) counts on
// LLVM's loop vectorizer; whether it delivered is only known once the
// optimizer ran. A group entry whose loop over work-items survived with no
// vector instruction anywhere gets a remark line in `log`, so WEFT_DEBUG
// and the build log never promise vector code that is not there.
void remarkScalarWorkItemLoops(const llvm::Module &module, std::string &log) {
  const llvm::StringRef prefix = "__weft_group_";
  for (const llvm::Function &f : module)
    if (!f.isDeclaration() && f.getName().starts_with(prefix) &&
        hasWorkItemLoop(f) && !hasVectorCode(f))
      log += "remark: kernel '" + f.getName().drop_front(prefix.size()).str() +
             "': its loop over work-items stayed scalar (LLVM's loop "
             "vectorizer did not vectorize it)\n";
}

// Optimizes `module` and emits its object code; `name` names the dump.
bool compileToObject(llvm::Module &module, const std::string &name,
                     bool full_optimization,
                     const std::string &dump_ir_directory,
                     std::vector<char> &object, std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine =
      targetModuleToHost(module, full_optimization, error);
  if (!machine)
    return false;
  optimize(module, *machine, full_optimization);
  dumpModule(module, name, dump_ir_directory, "opt");
  if (!checkResolvable(module, error))
    return false;
  if (full_optimization)
    remarkScalarWorkItemLoops(module, error);

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

// Each part is written as bitcode and read back into an LLVM context of its
// own: a context may be used by one thread at a time.
struct PartJob {
  std::string name;
  llvm::MemoryBufferRef bitcode;
  bool full_optimization = true;
  std::vector<char> object;
  std::string error;
  bool compiled = false;
};

void compilePart(PartJob &job, const std::string &dump_ir_directory) {
  llvm::LLVMContext context;
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(job.bitcode, context);
  if (!module) {
    job.error = "error: reading back a part of the program failed: " +
                llvm::toString(module.takeError()) + "\n";
    return;
  }
  job.compiled = compileToObject(**module, job.name, job.full_optimization,
                                 dump_ir_directory, job.object, job.error);
}

// The stack each helper thread reserves (only the pages touched are
// committed). Optimization and code generation recurse far less than
// Clang's parser, for which the build's own thread reserves 512 MiB
// (compiler/pipeline/compiler.cpp); a smaller reservation keeps helpers
// affordable under address-space limits.
constexpr size_t kPartStackBytes = size_t{64} << 20;

// Runs `work` on a new thread with that stack; false when the system gives
// none (address space limits, say), and the caller does without it.
bool startHelper(pthread_t &thread, std::function<void()> &work) {
  pthread_attr_t attributes;
  if (pthread_attr_init(&attributes) != 0)
    return false;
  bool started = pthread_attr_setstacksize(&attributes, kPartStackBytes) == 0 &&
                 pthread_create(
                     &thread, &attributes,
                     [](void *argument) -> void * {
                       (*static_cast<std::function<void()> *>(argument))();
                       return nullptr;
                     },
                     &work) == 0;
  pthread_attr_destroy(&attributes);
  return started;
}

// Compiles the jobs on up to `threads` threads, the calling one among
// them, each taking the next job left.
void compileJobs(std::vector<PartJob> &jobs, size_t threads,
                 const std::string &dump_ir_directory) {
  std::atomic<size_t> next{0};
  std::function<void()> work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < jobs.size();)
      compilePart(jobs[i], dump_ir_directory);
  };
  std::vector<pthread_t> helpers;
  for (size_t i = 1; i < std::min(threads, jobs.size()); ++i) {
    pthread_t helper;
    if (!startHelper(helper, work))
      break;
    helpers.push_back(helper);
  }
  work();
  for (pthread_t helper : helpers)
    pthread_join(helper, nullptr);
}

llvm::SmallVector<char, 0> bitcodeOf(const llvm::Module &module) {
  llvm::SmallVector<char, 0> bitcode;
  llvm::raw_svector_ostream stream(bitcode);
  llvm::WriteBitcodeToFile(module, stream);
  return bitcode;
}

// Compiles the parts on up to `threads` threads; the log lines of all
// parts, each once.
bool compileParts(std::vector<ModulePart> parts, size_t threads,
                  bool full_optimization, const std::string &dump_ir_directory,
                  std::vector<std::vector<char>> &objects, std::string &error) {
  std::vector<llvm::SmallVector<char, 0>> bitcode(parts.size());
  std::vector<PartJob> jobs(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    bitcode[i] = bitcodeOf(*parts[i].module);
    parts[i].module.reset();
    jobs[i].name = parts[i].kernels.front();
    jobs[i].bitcode = llvm::MemoryBufferRef(
        llvm::StringRef(bitcode[i].data(), bitcode[i].size()), jobs[i].name);
    jobs[i].full_optimization = full_optimization;
  }
  compileJobs(jobs, threads, dump_ir_directory);
  std::set<std::string> lines;
  bool compiled = true;
  for (PartJob &job : jobs) {
    compiled = compiled && job.compiled;
    llvm::SmallVector<llvm::StringRef, 4> split;
    llvm::StringRef(job.error).split(split, '\n', -1, false);
    for (llvm::StringRef line : split)
      if (lines.insert(line.str()).second)
        error += line.str() + "\n";
    objects.push_back(std::move(job.object));
  }
  return compiled;
}

} // namespace

bool emitObjects(llvm::Module &module,
                 const std::vector<KernelDescription> &kernels,
                 bool full_optimization, const std::string &dump_ir_directory,
                 size_t compile_threads,
                 std::vector<std::vector<char>> &objects, std::string &error) {
  std::string name = kernels.empty() ? "" : kernels[0].name;
  dumpModule(module, name, dump_ir_directory, "pre");
  // Twice as many parts as threads: instruction counts before optimization
  // foretell a kernel's compile time only roughly, and a thread that
  // finishes early takes the next part.
  std::vector<ModulePart> parts =
      splitByKernel(module, kernelGroups(kernels), compile_threads * 2);
  if (!parts.empty())
    return compileParts(std::move(parts), compile_threads, full_optimization,
                        dump_ir_directory, objects, error);
  objects.emplace_back();
  return compileToObject(module, name, full_optimization, dump_ir_directory,
                         objects.back(), error);
}

bool deferKernels(llvm::Module &module,
                  const std::vector<KernelDescription> &kernels,
                  bool full_optimization, const std::string &dump_ir_directory,
                  std::vector<DeferredPart> &parts) {
  // A call nothing resolves is reported by the build, as without deferral
  // (optimization may still remove it: the whole module is compiled then).
  initializeNativeTarget();
  std::string unresolved;
  if (!checkResolvable(module, unresolved))
    return false;
  std::vector<KernelGroup> groups = kernelGroups(kernels);
  std::vector<ModulePart> split =
      splitByKernel(module, groups, groups.size(), /*smallest_part=*/0,
                    PartLinkage::SeparateObjects);
  if (split.empty())
    return false;
  dumpModule(module, kernels.front().name, dump_ir_directory, "pre");
  for (ModulePart &part : split) {
    llvm::SmallVector<char, 0> bitcode = bitcodeOf(*part.module);
    DeferredPart deferred;
    deferred.kernels = std::move(part.kernels);
    deferred.bitcode.assign(bitcode.begin(), bitcode.end());
    deferred.optimize = full_optimization;
    parts.push_back(std::move(deferred));
  }
  return true;
}

void compileDeferredParts(const std::vector<DeferredPart> &parts,
                          const std::string &dump_ir_directory,
                          size_t compile_threads,
                          std::vector<std::vector<char>> &objects,
                          std::vector<std::string> &errors) {
  std::vector<PartJob> jobs(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    jobs[i].name = parts[i].kernels.empty() ? "" : parts[i].kernels.front();
    jobs[i].bitcode = llvm::MemoryBufferRef(
        llvm::StringRef(reinterpret_cast<const char *>(parts[i].bitcode.data()),
                        parts[i].bitcode.size()),
        jobs[i].name);
    jobs[i].full_optimization = parts[i].optimize;
  }
  compileJobs(jobs, compile_threads, dump_ir_directory);
  for (PartJob &job : jobs) {
    objects.push_back(job.compiled ? std::move(job.object)
                                   : std::vector<char>());
    errors.push_back(std::move(job.error));
  }
}

} // namespace weft::compiler
