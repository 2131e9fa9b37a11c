// A program's native code: an ELF shared object made by the compiler
// library, loaded with the system's dynamic loader. Loading needs no LLVM,
// which is how cached and binary programs run without the compiler library.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace weft {

class KernelLibrary {
public:
  // Loads a private copy (from an anonymous in-memory file, so two programs
  // never share their program-scope variables), or where memory files
  // cannot be executed from a temporary file in `temporary_directory`
  // (TMPDIR, read by the runtime). Null with the loader's message in `error`
  // on failure.
  static std::unique_ptr<KernelLibrary>
  load(const std::vector<unsigned char> &shared_object,
       const std::string &temporary_directory, std::string &error);
  ~KernelLibrary();
  KernelLibrary(const KernelLibrary &) = delete;
  KernelLibrary &operator=(const KernelLibrary &) = delete;

  // Address of an exported symbol, or null.
  void *symbol(const std::string &name) const;
  // The addresses of the library's executable code: [begin, end).
  uintptr_t codeBegin() const { return code_begin_; }
  uintptr_t codeEnd() const { return code_end_; }
  // The addresses of everything it loaded, its variables too.
  uintptr_t imageBegin() const { return image_begin_; }
  uintptr_t imageEnd() const { return image_end_; }

private:
  KernelLibrary(void *handle, int memory_file)
      : handle_(handle), memory_file_(memory_file) {}
  void *handle_;
  // Kept open while loaded: the dynamic loader recognises libraries by path,
  // and /proc/self/fd/N must not name another program's file meanwhile.
  int memory_file_;
  uintptr_t code_begin_ = 0, code_end_ = 0;
  uintptr_t image_begin_ = 0, image_end_ = 0;
};

} // namespace weft
