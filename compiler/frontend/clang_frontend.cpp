#include "compiler/frontend/clang_frontend.h"

#include "compiler/frontend/source_limits.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/OpenCLOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace weft::compiler {
namespace {

constexpr const char *kInputName = "<program source>";
constexpr const char *kDeclarationsName = "/weft/extension_declarations.h";
constexpr const char *kExtensionDeclarations =
#include "extension_declarations.inc"
    ;

std::vector<std::string>
frontendArguments(const BuildOptions &options,
                  const std::vector<std::string> &extensions,
                  const std::string &cpu_name) {
  std::vector<std::string> args = {
      "-triple", "x86_64-unknown-linux-gnu", "-target-cpu", cpu_name,
      // Keeps __global, __constant and __local apart in the IR so Weft can
      // tell argument kinds and lower __local variables.
      "-ffake-address-space-map",
      // Table-driven builtin declarations: ~6x faster than opencl-c.h.
      "-fdeclare-opencl-builtins", "-finclude-default-header",
      "-cl-std=" + options.language_standard,
      // O2 without running passes, so functions are not marked optnone and
      // Weft's own pipeline optimizes after linking the builtins.
      "-O2", "-disable-llvm-passes", "-cl-kernel-arg-info", "-resource-dir",
      WEFT_CLANG_RESOURCE_DIR, "-internal-isystem",
      WEFT_CLANG_RESOURCE_DIR "/include", "-fno-caret-diagnostics",
      "-fmessage-length=0", "-emit-llvm-only",
      // The platform's OpenCL version; Clang leaves this macro to drivers.
      "-D__OPENCL_VERSION__=300"};
  std::string ext = "-cl-ext=-all";
  const clang::OpenCLOptions known_to_clang;
  for (const std::string &name : extensions) {
    ext += ",+" + name;
    // Clang defines the macro of each extension it knows; Weft defines the
    // rest (the extended async copies, the copy fence, the float atomics).
    // Some OpenCL C 3.0 features are "header-only" to Clang: it knows them
    // but leaves their macros to the header, which defines them only for
    // SPIR targets, and declares their builtins only when the macro is
    // defined. Every feature's macro is therefore defined here too (the
    // same definition twice is no redefinition).
    if (!known_to_clang.isKnown(name) || name.rfind("__opencl_c_", 0) == 0)
      args.push_back("-D" + name + "=1");
  }
  args.push_back(ext);
  // OpenCL C: defined to 1 when the device supports images (Clang leaves it
  // to drivers too).
  if (std::find(extensions.begin(), extensions.end(), "__opencl_c_images") !=
      extensions.end())
    args.push_back("-D__IMAGE_SUPPORT__=1");
  args.push_back("-include");
  args.push_back(kDeclarationsName);
  // Program-scope objects are not destroyed: their storage goes with the
  // program (compiler/passes/prepare/program_constructors.h).
  if (options.cxx_for_opencl)
    args.push_back("-fno-c++-static-destructors");
  for (const std::string &arg : options.frontend_arguments)
    args.push_back(arg);
  args.push_back("-x");
  args.push_back(options.cxx_for_opencl ? "clcpp" : "cl");
  args.push_back(kInputName);
  return args;
}

NestingToken nestingTokenOf(const clang::Token &token) {
  switch (token.getKind()) {
  case clang::tok::kw_if:
  case clang::tok::kw_for:
  case clang::tok::kw_while:
  case clang::tok::kw_switch:
    return NestingToken::Control;
  case clang::tok::l_paren:
    return NestingToken::OpenParen;
  case clang::tok::r_paren:
    return NestingToken::CloseParen;
  case clang::tok::semi:
  case clang::tok::l_brace:
  case clang::tok::r_brace:
    return NestingToken::StatementEnd;
  case clang::tok::exclaim:
  case clang::tok::tilde:
  case clang::tok::minus:
  case clang::tok::plus:
  case clang::tok::star:
  case clang::tok::amp:
    return NestingToken::PrefixOperator;
  default:
    return NestingToken::Other;
  }
}

// The nesting limits (source_limits.h) on the tokens the parser would get,
// macros expanded: a few macros can write out nesting the text check
// cannot see. Stops at the first limit passed.
class ExpandedNestingCheck : public clang::PreprocessorFrontendAction {
public:
  std::string error;

protected:
  void ExecuteAction() override {
    clang::Preprocessor &preprocessor = getCompilerInstance().getPreprocessor();
    preprocessor.EnterMainSourceFile();
    NestingLimits limits;
    clang::Token token;
    do {
      preprocessor.Lex(token);
      limits.feed(nestingTokenOf(token));
    } while (token.isNot(clang::tok::eof) && !limits.exceeded());
    error = limits.error();
  }
};

// Whether macros may shape the program: a directive in the source, or a
// macro defined by the build options.
bool mayUseMacros(const std::string &source, const BuildOptions &options) {
  if (source.find('#') != std::string::npos)
    return true;
  for (const std::string &arg : options.frontend_arguments)
    if (arg.rfind("-D", 0) == 0)
      return true;
  return false;
}

} // namespace

FrontendResult compileOpenCLC(const std::string &source,
                              const BuildOptions &options,
                              const std::vector<std::string> &extensions,
                              const std::string &cpu_name,
                              llvm::LLVMContext &context) {
  FrontendResult result;
  std::string too_deep = sourceLimitError(source);
  if (!too_deep.empty()) {
    result.log = too_deep + "\n";
    return result;
  }
  llvm::raw_string_ostream log(result.log);

  std::vector<std::string> args =
      frontendArguments(options, extensions, cpu_name);
  std::vector<const char *> argv;
  for (const std::string &arg : args)
    argv.push_back(arg.c_str());

  auto instance = std::make_unique<clang::CompilerInstance>();
  // The options are parsed with a first diagnostics engine; the one that
  // compiles is made after, from the parsed options, so -w and -Werror
  // take effect.
  {
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> parse_options =
        new clang::DiagnosticOptions();
    clang::DiagnosticsEngine parse_diagnostics(
        new clang::DiagnosticIDs(), parse_options,
        new clang::TextDiagnosticPrinter(log, parse_options.get()),
        /*ShouldOwnClient=*/true);
    if (!clang::CompilerInvocation::CreateFromArgs(instance->getInvocation(),
                                                   argv, parse_diagnostics)) {
      log << "error: the compiler rejected the build options\n";
      log.flush();
      return result;
    }
  }
  instance->getDiagnosticOpts().ShowCarets = false;
  instance->createDiagnostics(
      new clang::TextDiagnosticPrinter(log, &instance->getDiagnosticOpts()),
      /*ShouldOwnClient=*/true);
  if (mayUseMacros(source, options)) {
    // On an instance of its own, whose diagnostics go nowhere: the build
    // below reports the program's errors once. Its files are this scope's
    // (the build's are added after, so a refused program leaks none).
    std::unique_ptr<llvm::MemoryBuffer> input =
        llvm::MemoryBuffer::getMemBufferCopy(source);
    std::unique_ptr<llvm::MemoryBuffer> declarations =
        llvm::MemoryBuffer::getMemBuffer(kExtensionDeclarations);
    clang::CompilerInstance checker; // destroyed before the buffers
    checker.setInvocation(
        std::make_shared<clang::CompilerInvocation>(instance->getInvocation()));
    checker.createDiagnostics(new clang::IgnoringDiagConsumer(),
                              /*ShouldOwnClient=*/true);
    checker.getPreprocessorOpts().RetainRemappedFileBuffers = true;
    checker.getPreprocessorOpts().addRemappedFile(kInputName, input.get());
    checker.getPreprocessorOpts().addRemappedFile(kDeclarationsName,
                                                  declarations.get());
    ExpandedNestingCheck check;
    checker.ExecuteAction(check);
    if (!check.error.empty()) {
      log << check.error << " (after macro expansion)\n";
      log.flush();
      return result;
    }
  }
  instance->getPreprocessorOpts().addRemappedFile(
      kInputName, llvm::MemoryBuffer::getMemBufferCopy(source).release());
  instance->getPreprocessorOpts().addRemappedFile(
      kDeclarationsName,
      llvm::MemoryBuffer::getMemBuffer(kExtensionDeclarations).release());

  clang::EmitLLVMOnlyAction action(&context);
  bool ok = instance->ExecuteAction(action);
  log.flush();
  if (ok && !instance->getDiagnostics().hasErrorOccurred())
    result.module = action.takeModule();
  return result;
}

} // namespace weft::compiler
