// weft-opt: Weft's passes (compiler/pipeline/passes.def) on the command line,
// for the IR tests in tests/compiler and for compiler work.
//
//   weft-opt -passes=weft-kernel-bodies,print<weft-kernels> in.ll
//   weft-opt --opencl -passes=weft-kernel-pipeline kernel.cl
//       OpenCL C compiled as a build would, up to the Kernels stage
//   weft-opt --build kernel.cl
//       the whole build; prints each kernel's description (plan, frames)
#include "compiler/analysis/kernel_metadata.h"
#include "compiler/codegen/kernel_partitions.h"
#include "compiler/codegen/native_code.h"
#include "compiler/frontend/spirv_translator.h"
#include "compiler/passes/kernels/memory_checks.h"
#include "compiler/pipeline/compiler.h"
#include "compiler/pipeline/pipeline.h"
#include "runtime/device_features.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/InitLLVM.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/ToolOutputFile.h>
#include <llvm/Support/raw_ostream.h>

#include "compiler/support/analysis_managers.h"

namespace cl = llvm::cl;
using namespace weft::compiler;

static cl::opt<std::string> input_path(cl::Positional, cl::desc("<input>"),
                                       cl::Required);
static cl::opt<std::string>
    pipeline("passes", cl::desc("passes to run, as for opt"), cl::init(""));
static cl::opt<std::string> output_path("o", cl::desc("output file"),
                                        cl::init("-"));
static cl::opt<bool>
    opencl_input("opencl",
                 cl::desc("the input is OpenCL C: compile it as a build would, "
                          "up to the Kernels stage"));
static cl::opt<bool>
    whole_build("build",
                cl::desc("build the OpenCL C input whole and print each "
                         "kernel's description"));
static cl::opt<std::string>
    build_options("cl-options", cl::desc("OpenCL build options"), cl::init(""));
static cl::opt<std::string>
    builtins_path("builtins",
                  cl::desc("the builtin library (default: ../lib/"
                           "weft-builtins.bc beside this program)"),
                  cl::init(""));
static cl::opt<bool> optimize_for_host(
    "optimize", cl::desc("after -passes, optimize as a build does (O3 for "
                         "the host CPU, Weft's function passes included)"));
static cl::opt<std::string>
    target_cpu("target-cpu",
               cl::desc("compile for this CPU (LLVM's name) instead of the "
                        "host's, as WEFT_TARGET_CPU does"),
               cl::init(""));
static cl::opt<bool> spirv_conventions(
    "spirv-conventions",
    cl::desc("the input is what the SPIR-V translator wrote: give it the "
             "frontend's conventions first, as a SPIR-V build does"));
static cl::opt<unsigned> split_parts(
    "split-kernels",
    cl::desc("after the passes, split the module into up to this many parts "
             "of whole kernels as a build on that many threads would "
             "(whatever their size), and print each part"),
    cl::init(0));
static cl::opt<bool> split_separately(
    "split-separately",
    cl::desc("with --split-kernels: parts for separate shared objects, as "
             "deferred compilation makes them (a module whose parts would "
             "share a definition is not split)"));
static cl::opt<bool> check_memory(
    "check-memory",
    cl::desc("check every memory access, as WEFT_CHECK_MEMORY does "
             "(weft-check-memory, first in the Kernels stage, acts)"));
static cl::opt<bool> disable_output("disable-output",
                                    cl::desc("print no module"));
static cl::opt<bool> text_output("S", cl::desc("print the module as text "
                                               "(the only form; accepted "
                                               "for opt's habits)"));

namespace {

std::string defaultBuiltinsPath(const char *argv0) {
  std::string self = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&defaultBuiltinsPath));
  llvm::SmallString<256> path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)));
  llvm::sys::path::append(path, "lib", "weft-builtins.bc");
  return std::string(path);
}

DeviceDescription deviceDescription() {
  DeviceDescription device;
  device.max_global_variable_size = weft::kMaxGlobalVariableSize;
  for (const weft::FeatureEntry &feature : weft::kOpenClCFeatures)
    device.opencl_c_features.emplace_back(feature.name);
  for (const weft::ExtensionEntry &extension : weft::kDeviceExtensions)
    if (extension.opencl_c)
      device.opencl_c_features.emplace_back(extension.name);
  return device;
}

void printDescription(llvm::raw_ostream &out, const KernelDescription &k) {
  out << "kernel " << k.name << ": " << describePlan(k.plan) << "\n"
      << "  private_memory: " << k.private_memory << "\n"
      << "  group_entry_frame: " << k.group_entry_frame << "\n"
      << "  static_local_memory: " << k.static_local_memory << "\n";
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "Weft's compiler passes\n");
  std::string builtins =
      builtins_path.empty() ? defaultBuiltinsPath(argv[0]) : builtins_path;
  std::string why;
  if (!target_cpu.empty() &&
      !chooseTargetCpu(target_cpu, /*runs_here=*/false, why)) {
    llvm::errs() << "weft-opt: " << why << "\n";
    return 1;
  }

  std::error_code code;
  llvm::ToolOutputFile output(output_path, code, llvm::sys::fs::OF_Text);
  if (code) {
    llvm::errs() << "weft-opt: " << code.message() << "\n";
    return 1;
  }

  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
  std::unique_ptr<ClangCompiler> compiler;
  if (opencl_input || whole_build) {
    std::string error;
    CompilerSettings settings;
    settings.target_cpu = target_cpu;
    settings.target_cpu_runs_here = false;
    settings.check_memory = check_memory;
    compiler = createClangCompiler(builtins, settings, error);
    if (!compiler) {
      llvm::errs() << "weft-opt: " << error << "\n";
      return 1;
    }
    auto source = llvm::MemoryBuffer::getFile(input_path);
    if (!source) {
      llvm::errs() << "weft-opt: cannot read " << input_path << "\n";
      return 1;
    }
    if (whole_build) {
      BuildResult result = compiler->buildFromSource(
          (*source)->getBuffer().str(), build_options, deviceDescription());
      llvm::errs() << result.log;
      if (result.status != BuildResult::Status::Success)
        return 1;
      // What a program's first launches compile: every deferred part.
      if (!result.deferred.empty()) {
        output.os() << "; deferred parts: " << result.deferred.size() << "\n";
        for (const PartCode &code :
             compiler->compileDeferred(result.deferred, result.kernels))
          if (code.shared_object.empty()) {
            llvm::errs() << code.log;
            return 1;
          }
      }
      for (const KernelDescription &k : result.kernels)
        printDescription(output.os(), k);
      output.keep();
      return 0;
    }
    std::string log;
    module =
        compiler->kernelStageInput((*source)->getBuffer().str(), build_options,
                                   deviceDescription(), context, log);
    llvm::errs() << log;
  } else {
    llvm::SMDiagnostic diagnostic;
    module = llvm::parseIRFile(input_path, diagnostic, context);
    if (!module)
      diagnostic.print(argv[0], llvm::errs());
  }
  if (!module)
    return 1;
  if (spirv_conventions)
    adoptFrontendConventions(*module);
  if (check_memory)
    requestMemoryChecks(*module);

  if (!pipeline.empty()) {
    llvm::PassBuilder builder;
    registerWeftPasses(builder);
    AnalysisManagers analyses(builder);
    llvm::ModulePassManager passes;
    if (llvm::Error error = builder.parsePassPipeline(passes, pipeline)) {
      llvm::errs() << "weft-opt: " << llvm::toString(std::move(error)) << "\n";
      return 1;
    }
    passes.run(*module, analyses.modules);
  }
  if (optimize_for_host) {
    std::string error;
    if (!optimizeForHost(*module, /*full_optimization=*/true, error)) {
      llvm::errs() << "weft-opt: " << error << "\n";
      return 1;
    }
  }
  if (llvm::verifyModule(*module, &llvm::errs())) {
    llvm::errs() << "weft-opt: the module is not valid after the passes\n";
    return 1;
  }
  if (split_parts > 0) {
    std::vector<KernelGroup> groups;
    for (const std::string &kernel : kernelsWithEntries(*module))
      groups.push_back({kernel});
    std::vector<ModulePart> parts =
        splitByKernel(*module, groups, split_parts, /*smallest_part=*/0,
                      split_separately ? PartLinkage::SeparateObjects
                                       : PartLinkage::OneObject);
    for (size_t i = 0; i < parts.size(); ++i) {
      output.os() << "; part " << i << ":";
      for (const std::string &kernel : parts[i].kernels)
        output.os() << " " << kernel;
      output.os() << "\n";
      if (llvm::verifyModule(*parts[i].module, &llvm::errs())) {
        llvm::errs() << "weft-opt: part " << i << " is not valid\n";
        return 1;
      }
      if (!disable_output)
        parts[i].module->print(output.os(), nullptr);
    }
    if (parts.empty())
      output.os() << "; not split\n";
    output.keep();
    return 0;
  }
  if (!disable_output)
    module->print(output.os(), nullptr);
  output.keep();
  return 0;
}
