#include "runtime/compiler_loader.h"

#include "compiler/interface/compiler_interface.h"
#include "device/cpu_info.h"
#include "runtime/settings.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mutex>

namespace weft {
namespace {

constexpr const char *kCompilerLibraryName = "libweft-compiler.so";
// Beside the compiler library (compiler/pipeline/compiler.cpp loads it from
// there).
constexpr const char *kBuiltinLibraryName = "weft-builtins.bc";

// WEFT_COMPILER_LIBRARY overrides the location (tests use it to simulate a
// machine without the compiler).
std::string compilerLibraryPath() {
  if (const Text &path = settings().compiler_library)
    return *path;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&compilerLibraryPresent), &info) &&
      info.dli_fname) {
    std::string self = info.dli_fname;
    size_t slash = self.rfind('/');
    if (slash != std::string::npos)
      return self.substr(0, slash + 1) + kCompilerLibraryName;
  }
  return kCompilerLibraryName;
}

struct LoadedCompiler {
  compiler::Compiler *instance = nullptr;
  std::string error;
};

} // namespace

bool compilerLibraryPresent() {
  struct stat info {};
  return stat(compilerLibraryPath().c_str(), &info) == 0 &&
         S_ISREG(info.st_mode);
}

bool spirvProgramsSupported() {
  if (!compilerLibraryPresent())
    return false;
  for (const char *path : compiler::kSpirvTranslatorPaths)
    if (access(path, X_OK) == 0)
      return true;
  return false;
}

const std::string &compilerIdentity() {
  // Never destroyed (usable from static destructors during exit).
  static const std::string &identity = *new std::string([] {
    std::string library = compilerLibraryPath();
    size_t slash = library.rfind('/');
    std::string builtins =
        (slash == std::string::npos ? std::string()
                                    : library.substr(0, slash + 1)) +
        kBuiltinLibraryName;
    std::string text;
    for (const std::string &path : {library, builtins}) {
      struct stat info {};
      if (stat(path.c_str(), &info) != 0)
        return std::string();
      text += path + ":" + std::to_string(info.st_size) + ":" +
              std::to_string(info.st_mtim.tv_sec) + "." +
              std::to_string(info.st_mtim.tv_nsec) + ";";
    }
    return text;
  }());
  return identity;
}

compiler::Compiler *loadCompiler(std::string &error) {
  static std::once_flag once;
  static LoadedCompiler &loaded = *new LoadedCompiler();
  std::call_once(once, [] {
    std::string path = compilerLibraryPath();
    // RTLD_LOCAL keeps LLVM's symbols away from the application's.
    void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char *why = dlerror();
      loaded.error = "the Weft compiler library could not be loaded (" +
                     std::string(why ? why : path) + ")";
      return;
    }
    using Create = compiler::Compiler *(*)(const compiler::CompilerSettings *,
                                           std::string *);
    auto create =
        reinterpret_cast<Create>(dlsym(library, WEFT_COMPILER_CREATE_SYMBOL));
    if (!create) {
      loaded.error =
          "the Weft compiler library " + path + " has no entry point";
      return;
    }
    compiler::CompilerSettings compiler_settings;
    compiler_settings.dump_ir_directory =
        settings().dump_ir_directory.value_or(std::string());
    compiler_settings.temporary_directory = settings().temporaryDirectory();
    compiler_settings.target_cpu =
        settings().target_cpu.value_or(std::string());
    compiler_settings.check_memory = settings().check_memory;
    compiler_settings.compile_threads = settings().compile_threads.value
                                            ? settings().compile_threads.value
                                            : hostCpuInfo().cores;
    loaded.instance = create(&compiler_settings, &loaded.error);
  });
  error = loaded.error;
  return loaded.instance;
}

} // namespace weft
