#include "compiler/codegen/shared_object_linker.h"

#include "compiler/support/scratch_directory.h"

#include <lld/Common/Driver.h>
#include <llvm/Support/raw_ostream.h>

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>

LLD_HAS_DRIVER(elf)

namespace weft::compiler {
namespace {

// The full path of a library the process has loaded (or can load), so lld
// can read its symbols and record its soname.
std::string loadedLibraryPath(const char *soname) {
  void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return {};
  link_map *map = nullptr;
  std::string path;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
    path = map->l_name;
  dlclose(handle);
  return path;
}

// Libraries kernels may call into: libc (memcpy), libm (the scalar math
// builtins), libgcc (the conversions between double or 64-bit integers and
// half that LLVM leaves to it), SLEEF (vector math) when it is installed.
const std::vector<std::string> &runtimeLibraries() {
  static const std::vector<std::string> libraries = [] {
    std::vector<std::string> found;
    for (const char *soname :
         {"libc.so.6", "libm.so.6", "libgcc_s.so.1", "libsleef.so.3"}) {
      std::string path = loadedLibraryPath(soname);
      if (!path.empty())
        found.push_back(path);
    }
    return found;
  }();
  return libraries;
}

} // namespace

bool linkSharedObject(const std::vector<std::vector<char>> &objects,
                      const std::string &temporary_directory,
                      std::vector<unsigned char> &shared_object,
                      std::string &error) {
  ScratchDirectory scratch(temporary_directory, "weft-link");
  if (!scratch.valid()) {
    error = "error: cannot create a temporary directory for linking\n";
    return false;
  }
  std::vector<std::string> inputs;
  std::string output = scratch.file("program.so");
  for (const std::vector<char> &object : objects) {
    inputs.push_back(
        scratch.file("part" + std::to_string(inputs.size()) + ".o"));
    std::ofstream out(inputs.back(), std::ios::binary);
    out.write(object.data(), static_cast<std::streamsize>(object.size()));
    if (!out) {
      error = "error: cannot write " + inputs.back() + "\n";
      return false;
    }
  }

  std::vector<const char *> args = {
      "ld.lld", "-shared", "--no-undefined", "--as-needed", "-z", "now", "-z",
      "relro", "--hash-style=gnu", "--build-id=none",
      // Written from memory, not through an
      // mmap'ed temporary file: LLVM keeps a
      // node per temporary file forever in
      // its remove-on-signal list.
      "--no-mmap-output-file", "-o", output.c_str()};
  for (const std::string &input : inputs)
    args.push_back(input.c_str());
  for (const std::string &library : runtimeLibraries())
    args.push_back(library.c_str());

  // lld keeps global state while it runs: one link at a time per process.
  static std::mutex lld_mutex;
  static bool lld_usable = true;
  std::string messages;
  llvm::raw_string_ostream message_stream(messages);
  {
    std::lock_guard<std::mutex> lock(lld_mutex);
    if (!lld_usable) {
      error = "error: the linker cannot run again in this process\n";
      return false;
    }
    lld::Result result = lld::lldMain(args, message_stream, message_stream,
                                      {{lld::Gnu, &lld::elf::link}});
    lld_usable = result.canRunAgain;
    if (result.retCode != 0) {
      error = "error: linking the kernels failed:\n" + messages;
      return false;
    }
  }
  std::ifstream in(output, std::ios::binary);
  shared_object.assign(std::istreambuf_iterator<char>(in),
                       std::istreambuf_iterator<char>());
  if (shared_object.empty()) {
    error = "error: the linker produced no output\n";
    return false;
  }
  return true;
}

} // namespace weft::compiler
