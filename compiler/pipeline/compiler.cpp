// The compiler library's implementation of compiler::Compiler: OpenCL C to
// native work-group functions. This file holds the pipeline; each step lives
// in its own file.
#include "compiler/pipeline/compiler.h"

#include "compiler/analysis/kernel_metadata.h"
#include "compiler/codegen/native_code.h"
#include "compiler/codegen/shared_object_linker.h"
#include "compiler/codegen/stack_sizes.h"
#include "compiler/frontend/build_options.h"
#include "compiler/frontend/clang_frontend.h"
#include "compiler/frontend/spirv_translator.h"
#include "compiler/frontend/spirv_validation.h"
#include "compiler/passes/kernels/memory_checks.h"
#include "compiler/pipeline/pipeline.h"
#include "compiler/support/scratch_directory.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>

#include <clang/Basic/Stack.h>

#include <dlfcn.h>
#include <pthread.h>

#include <optional>

#include <functional>
#include <map>

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

// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE bounds each program-scope variable
// (and function-scope static) in the global address space.
bool checkGlobalVariableSizes(const llvm::Module &module, uint64_t limit,
                              std::string &log) {
  if (limit == 0)
    return true;
  const llvm::DataLayout &layout = module.getDataLayout();
  bool ok = true;
  for (const llvm::GlobalVariable &g : module.globals()) {
    if (g.isDeclaration() || g.getAddressSpace() != 1)
      continue;
    uint64_t bytes = layout.getTypeAllocSize(g.getValueType());
    if (bytes <= limit)
      continue;
    log += "error: program-scope variable '" + g.getName().str() + "' is " +
           std::to_string(bytes) + " bytes; the device allows at most " +
           std::to_string(limit) + " (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE)\n";
    ok = false;
  }
  return ok;
}

void setHostTarget(llvm::Module &module) {
  const HostTarget &host = hostTarget();
  for (llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", host.cpu_name);
    f.addFnAttr("target-features", host.cpu_features);
    // Frames larger than a page touch each page on the way down, so running
    // off a fiber stack always hits its guard (device/fiber_group.cpp)
    // instead of jumping over it into other memory.
    f.addFnAttr("probe-stack", "inline-asm");
    // The C builtins are compiled freestanding, which marks them
    // "no-builtins", and LLVM never inlines such a function into one without
    // it: the pipe and copy engines would stay calls in every work-item loop.
    f.removeFnAttr("no-builtins");
  }
}

// Whether the module calls a Weft library function ("__weft_...") that it
// does not define yet.
bool callsUnlinkedBuiltins(const llvm::Module &module) {
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && !f.use_empty() &&
        f.getName().starts_with("__weft_"))
      return true;
  return false;
}

// OpenCL C forbids recursion, and Weft sizes each work-item's stack from its
// frames: a program with a call cycle gets a build error that names it.
bool rejectRecursion(const llvm::Module &module, std::string &error) {
  std::map<const llvm::Function *, int> state; // 1: on the path, 2: done
  std::function<const llvm::Function *(const llvm::Function &)> visit =
      [&](const llvm::Function &f) -> const llvm::Function * {
    state[&f] = 1;
    for (const llvm::BasicBlock &block : f)
      for (const llvm::Instruction &inst : block) {
        const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
        const llvm::Function *callee =
            call ? call->getCalledFunction() : nullptr;
        if (!callee || callee->isDeclaration())
          continue;
        int seen = state[callee];
        if (seen == 1)
          return callee;
        if (seen == 0)
          if (const llvm::Function *cycle = visit(*callee))
            return cycle;
      }
    state[&f] = 2;
    return nullptr;
  };
  for (const llvm::Function &f : module)
    if (!f.isDeclaration() && state[&f] == 0)
      if (const llvm::Function *cycle = visit(f)) {
        error = "error: function '" + cycle->getName().str() +
                "' is recursive; OpenCL C does not allow recursion\n";
        return false;
      }
  return true;
}

// The stack frames of the kernels' entry points in `shared_object`.
void setFrameSizes(const std::vector<unsigned char> &shared_object,
                   std::vector<KernelDescription> &kernels) {
  std::map<std::string, uint64_t> frames = readStackSizes(shared_object);
  // A leaf function may also use the 128-byte red zone below its frame.
  constexpr uint64_t kRedZone = 128;
  for (KernelDescription &k : kernels) {
    k.group_entry_frame = std::max(frames[groupEntrySymbol(k.name)],
                                   frames[readThroughEntrySymbol(k.name)]) +
                          kRedZone;
    // A kernel without barriers may still have a work-item entry (async
    // copies, for the checking mode): its stack must fit that one too.
    uint64_t item_frame = frames[workItemEntrySymbol(k.name)] + kRedZone;
    k.private_memory = k.plan.reachesBarrier()
                           ? item_frame
                           : std::max(k.group_entry_frame, item_frame);
  }
}

} // namespace

ClangCompiler::ClangCompiler(std::unique_ptr<llvm::MemoryBuffer> builtins,
                             CompilerSettings settings)
    : builtins_(std::move(builtins)), settings_(std::move(settings)) {}

ClangCompiler::~ClangCompiler() = default;

namespace {

// Clang and LLVM recurse over the program: a deeply nested expression or a
// very long kernel takes megabytes of stack, and the application may call
// clBuildProgram from a thread with 128 KiB. Each build runs on a thread of
// the compiler's own, whose stack is reserved large (only the pages touched
// are ever committed); Clang is told where that stack starts so that it
// moves deeper recursion onto fresh threads itself.
constexpr size_t kCompilerStackBytes = size_t{512} << 20;

template <typename Work> auto onCompilerStack(Work &&work) {
  using Result = decltype(work());
  struct Job {
    Work *work;
    std::optional<Result> result;
  } job{&work, std::nullopt};
  pthread_attr_t attributes;
  pthread_t thread;
  bool started =
      pthread_attr_init(&attributes) == 0 &&
      pthread_attr_setstacksize(&attributes, kCompilerStackBytes) == 0 &&
      pthread_create(
          &thread, &attributes,
          [](void *argument) -> void * {
            auto *running = static_cast<Job *>(argument);
            clang::noteBottomOfStack();
            running->result.emplace((*running->work)());
            return nullptr;
          },
          &job) == 0;
  pthread_attr_destroy(&attributes);
  if (!started) // no thread to be had: the caller's stack it is
    return work();
  pthread_join(thread, nullptr);
  return std::move(*job.result);
}

} // namespace

BuildResult ClangCompiler::buildFromSource(const std::string &source,
                                           const std::string &options,
                                           const DeviceDescription &device) {
  return onCompilerStack(
      [&] { return buildFromSourceHere(source, options, device); });
}

CompileResult
ClangCompiler::compileToBitcode(const std::string &source,
                                const std::string &options,
                                const std::vector<EmbeddedHeader> &headers,
                                const DeviceDescription &device) {
  return onCompilerStack(
      [&] { return compileToBitcodeHere(source, options, headers, device); });
}

BuildResult ClangCompiler::linkBitcode(
    const std::vector<std::vector<unsigned char>> &objects,
    const std::string &options, const DeviceDescription &device,
    CompileResult &library) {
  return onCompilerStack(
      [&] { return linkBitcodeHere(objects, options, device, library); });
}

namespace {

// Parses build options for a build or compile; on failure `result` says
// InvalidOptions, with the reason in its log.
template <typename Result>
bool parseOptionsFor(const std::string &options, BuildOptions &parsed,
                     Result &result) {
  std::string error;
  if (parseBuildOptions(options, parsed, error))
    return true;
  result.status = Result::Status::InvalidOptions;
  result.log = "error: " + error + "\n";
  return false;
}

} // namespace

BuildResult ClangCompiler::buildFromSpirv(
    const std::vector<unsigned char> &il,
    const std::vector<SpecializationConstant> &constants,
    const std::string &options, const DeviceDescription &device) {
  return onCompilerStack([&] {
    BuildResult result;
    BuildOptions parsed;
    if (!parseOptionsFor(options, parsed, result))
      return result;
    auto context = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> module = translateSpirv(
        il, constants, settings_.temporary_directory, *context, result.log);
    if (!module) {
      result.status = BuildResult::Status::CompileError;
      return result;
    }
    finishExecutable(std::move(module), parsed.optimize, device, result);
    return result;
  });
}

CompileResult ClangCompiler::compileSpirv(
    const std::vector<unsigned char> &il,
    const std::vector<SpecializationConstant> &constants,
    const std::string &options, const DeviceDescription &) {
  return onCompilerStack([&] {
    CompileResult result;
    BuildOptions parsed;
    if (!parseOptionsFor(options, parsed, result))
      return result;
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = translateSpirv(
        il, constants, settings_.temporary_directory, context, result.log);
    if (!module)
      return result;
    result.bitcode = writeBitcode(*module);
    result.status = CompileResult::Status::Success;
    return result;
  });
}

BuildResult
ClangCompiler::buildFromSourceHere(const std::string &source,
                                   const std::string &options,
                                   const DeviceDescription &device) {
  BuildResult result;
  BuildOptions parsed;
  if (!parseOptionsFor(options, parsed, result))
    return result;
  auto context = std::make_unique<llvm::LLVMContext>();
  FrontendResult frontend = compileOpenCLC(
      source, parsed, device.opencl_c_features, kFrontendCpu, *context);
  result.log = frontend.log;
  if (!frontend.module) {
    result.status = BuildResult::Status::CompileError;
    return result;
  }
  finishExecutable(std::move(frontend.module), parsed.optimize, device, result);
  return result;
}

CompileResult
ClangCompiler::compileToBitcodeHere(const std::string &source,
                                    const std::string &options,
                                    const std::vector<EmbeddedHeader> &headers,
                                    const DeviceDescription &device) {
  CompileResult result;
  BuildOptions parsed;
  if (!parseOptionsFor(options, parsed, result))
    return result;
  // Clang reads included files from disk: the embedded headers go to a
  // private directory searched before any -I of the application.
  ScratchDirectory header_directory(settings_.temporary_directory,
                                    "weft-headers");
  if (!headers.empty()) {
    if (!header_directory.valid()) {
      result.log = "error: cannot create a directory for the headers\n";
      return result;
    }
    for (const EmbeddedHeader &header : headers)
      if (!header_directory.write(header.include_name, header.source)) {
        result.log =
            "error: cannot use the header name '" + header.include_name + "'\n";
        return result;
      }
    parsed.frontend_arguments.insert(parsed.frontend_arguments.begin(),
                                     {"-I", header_directory.path()});
  }
  llvm::LLVMContext context;
  FrontendResult frontend = compileOpenCLC(
      source, parsed, device.opencl_c_features, kFrontendCpu, context);
  result.log = frontend.log;
  if (!frontend.module)
    return result;
  result.bitcode = writeBitcode(*frontend.module);
  result.status = CompileResult::Status::Success;
  return result;
}

BuildResult ClangCompiler::linkBitcodeHere(
    const std::vector<std::vector<unsigned char>> &objects,
    const std::string &options, const DeviceDescription &device,
    CompileResult &library) {
  BuildResult result;
  LinkOptions parsed;
  std::string error;
  if (!parseLinkOptions(options, parsed, error)) {
    result.status = BuildResult::Status::InvalidOptions;
    result.log = "error: " + error + "\n";
    return result;
  }
  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> linked;
  for (const std::vector<unsigned char> &object : objects) {
    llvm::StringRef bytes(reinterpret_cast<const char *>(object.data()),
                          object.size());
    auto module = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(bytes, "program"), *context);
    if (!module) {
      result.status = BuildResult::Status::LinkError;
      result.log += "error: cannot read a compiled program: " +
                    llvm::toString(module.takeError()) + "\n";
      return result;
    }
    if (!linked) {
      linked = std::move(*module);
      continue;
    }
    // Linker diagnostics (duplicate definitions, ...) go to the log.
    std::string messages;
    llvm::raw_string_ostream stream(messages);
    context->setDiagnosticHandlerCallBack(
        [](const llvm::DiagnosticInfo *info, void *out) {
          llvm::DiagnosticPrinterRawOStream printer(
              *static_cast<llvm::raw_string_ostream *>(out));
          info->print(printer);
          *static_cast<llvm::raw_string_ostream *>(out) << "\n";
        },
        &stream);
    bool failed = llvm::Linker::linkModules(*linked, std::move(*module));
    context->setDiagnosticHandlerCallBack(nullptr, nullptr);
    if (failed) {
      result.status = BuildResult::Status::LinkError;
      result.log += "error: linking the programs failed: " + stream.str();
      return result;
    }
  }
  if (!linked) {
    result.status = BuildResult::Status::LinkError;
    result.log = "error: nothing to link\n";
    return result;
  }
  if (parsed.create_library) {
    library.bitcode = writeBitcode(*linked);
    library.status = CompileResult::Status::Success;
    result.status = BuildResult::Status::Success;
    return result;
  }
  finishExecutable(std::move(linked), parsed.optimize, device, result);
  return result;
}

std::unique_ptr<llvm::Module>
ClangCompiler::kernelStageInput(const std::string &source,
                                const std::string &options,
                                const DeviceDescription &device,
                                llvm::LLVMContext &context, std::string &log) {
  BuildOptions parsed;
  std::string error;
  if (!parseBuildOptions(options, parsed, error)) {
    log = "error: " + error + "\n";
    return nullptr;
  }
  FrontendResult frontend = compileOpenCLC(
      source, parsed, device.opencl_c_features, kFrontendCpu, context);
  log = frontend.log;
  if (!frontend.module || !prepareModule(*frontend.module, log))
    return nullptr;
  return std::move(frontend.module);
}

bool ClangCompiler::prepareModule(llvm::Module &module, std::string &log) {
  std::string error;
  if (!rejectRecursion(module, error) ||
      !runPassStage(module, PassStage::Prepare, error) ||
      !linkBuiltins(module, error)) {
    log += error;
    return false;
  }
  setHostTarget(module);
  return true;
}

void ClangCompiler::finishExecutable(std::unique_ptr<llvm::Module> module,
                                     bool optimize,
                                     const DeviceDescription &device,
                                     BuildResult &result) {
  if (!checkGlobalVariableSizes(*module, device.max_global_variable_size,
                                result.log) ||
      !prepareModule(*module, result.log)) {
    result.status = BuildResult::Status::CompileError;
    return;
  }
  result.global_variable_bytes = globalVariableBytes(*module);
  std::string error;
  if (settings_.check_memory)
    requestMemoryChecks(*module);
  if (!runPassStage(*module, PassStage::Kernels, error)) {
    result.status = BuildResult::Status::CompileError;
    result.log += error;
    return;
  }
  std::vector<KernelDescription> kernels;
  for (KernelRecord &record : readKernelRecords(*module))
    kernels.push_back(std::move(record.description));
  // The entry points may call library functions no kernel called.
  if (callsUnlinkedBuiltins(*module)) {
    if (!linkBuiltins(*module, error)) {
      result.status = BuildResult::Status::LinkError;
      result.log += error;
      return;
    }
    setHostTarget(*module);
  }
  runPassStage(*module, PassStage::Finish, error);
  eraseKernelRecords(*module);
  for (KernelDescription &k : kernels)
    k.preferred_work_group_multiple = preferredMultiple();
  if (deferKernels(*module, kernels, optimize, settings_.dump_ir_directory,
                   result.deferred)) {
    result.kernels = std::move(kernels);
    result.status = BuildResult::Status::Success;
    return;
  }
  std::vector<std::vector<char>> objects;
  if (!emitObjects(*module, kernels, optimize, settings_.dump_ir_directory,
                   settings_.compile_threads, objects, error) ||
      !linkSharedObject(objects, settings_.temporary_directory,
                        result.shared_object, error)) {
    result.status = BuildResult::Status::LinkError;
    result.log += error;
    return;
  }
  setFrameSizes(result.shared_object, kernels);
  result.log += error; // remarks (codegen/native_code.cpp)
  result.kernels = std::move(kernels);
  result.status = BuildResult::Status::Success;
}

std::vector<PartCode>
ClangCompiler::compileDeferred(const std::vector<DeferredPart> &parts,
                               std::vector<KernelDescription> &kernels) {
  return onCompilerStack([&] {
    std::vector<std::vector<char>> objects;
    std::vector<std::string> errors;
    compileDeferredParts(parts, settings_.dump_ir_directory,
                         settings_.compile_threads, objects, errors);
    std::vector<PartCode> code(parts.size());
    for (size_t i = 0; i < parts.size(); ++i) {
      code[i].log = std::move(errors[i]);
      if (objects[i].empty() ||
          !linkSharedObject({objects[i]}, settings_.temporary_directory,
                            code[i].shared_object, code[i].log)) {
        code[i].shared_object.clear();
        continue;
      }
      std::vector<KernelDescription> own;
      for (const KernelDescription &k : kernels)
        if (std::find(parts[i].kernels.begin(), parts[i].kernels.end(),
                      k.name) != parts[i].kernels.end())
          own.push_back(k);
      setFrameSizes(code[i].shared_object, own);
      for (KernelDescription &k : kernels)
        for (const KernelDescription &o : own)
          if (k.name == o.name) {
            k.private_memory = o.private_memory;
            k.group_entry_frame = o.group_entry_frame;
          }
    }
    return code;
  });
}

bool ClangCompiler::validateSpirv(const std::vector<unsigned char> &il,
                                  std::string &why) {
  return compiler::validateSpirv(il, why);
}

std::vector<unsigned char>
ClangCompiler::writeBitcode(const llvm::Module &module) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::WriteBitcodeToFile(module, stream);
  return std::vector<unsigned char>(buffer.begin(), buffer.end());
}

bool ClangCompiler::linkBuiltins(llvm::Module &module, std::string &error) {
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
uint32_t ClangCompiler::preferredMultiple() {
  const std::string &features = hostTarget().cpu_features;
  if (features.find("+avx512f") != std::string::npos)
    return 16;
  if (features.find("+avx2") != std::string::npos ||
      features.find("+avx,") != std::string::npos)
    return 8;
  return 4;
}

std::unique_ptr<ClangCompiler>
createClangCompiler(const std::string &builtins_path, CompilerSettings settings,
                    std::string &error) {
  if (!settings.target_cpu.empty() &&
      !chooseTargetCpu(settings.target_cpu, settings.target_cpu_runs_here,
                       error))
    return nullptr;
  auto buffer = llvm::MemoryBuffer::getFile(builtins_path);
  if (!buffer) {
    error = "cannot read the builtin library " + builtins_path + ": " +
            buffer.getError().message();
    return nullptr;
  }
  return std::make_unique<ClangCompiler>(std::move(*buffer),
                                         std::move(settings));
}

} // namespace weft::compiler

extern "C" __attribute__((visibility("default"))) weft::compiler::Compiler *
weft_compiler_create(const weft::compiler::CompilerSettings *settings,
                     std::string *error) {
  std::string path = weft::compiler::directoryOfThisLibrary() + "/" +
                     weft::compiler::kBuiltinLibraryName;
  std::string why;
  auto compiler = weft::compiler::createClangCompiler(
      path, settings ? *settings : weft::compiler::CompilerSettings(), why);
  if (!compiler && error)
    *error = why;
  return compiler.release();
}
