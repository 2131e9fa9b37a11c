// A private temporary directory, removed with everything in it when the
// object goes: for the linker's files and for the headers of
// clCompileProgram, which Clang reads from disk.
#pragma once
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace weft::compiler {

class ScratchDirectory {
public:
  // A new directory named `prefix`-XXXXXX under `base` (the settings'
  // temporary directory).
  ScratchDirectory(const std::string &base, const char *prefix) {
    std::string pattern =
        (base.empty() ? std::string("/tmp") : base) + "/" + prefix + "-XXXXXX";
    if (mkdtemp(pattern.data()))
      path_ = pattern;
  }
  ~ScratchDirectory() {
    if (!path_.empty())
      nftw(path_.c_str(), removeEntry, 16, FTW_DEPTH | FTW_PHYS);
  }
  ScratchDirectory(const ScratchDirectory &) = delete;
  ScratchDirectory &operator=(const ScratchDirectory &) = delete;

  bool valid() const { return !path_.empty(); }
  const std::string &path() const { return path_; }
  // The path of `name` inside the directory (not created).
  std::string file(const std::string &name) const { return path_ + "/" + name; }

  // Writes `contents` to `relative` (which may name subdirectories, but may
  // not leave the directory). Returns false on failure.
  bool write(const std::string &relative, const std::string &contents) const {
    if (relative.empty() || relative[0] == '/' ||
        relative.find("..") != std::string::npos)
      return false;
    for (size_t slash = relative.find('/'); slash != std::string::npos;
         slash = relative.find('/', slash + 1))
      mkdir(file(relative.substr(0, slash)).c_str(), 0700);
    std::ofstream out(file(relative), std::ios::binary);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    return static_cast<bool>(out);
  }

private:
  static int removeEntry(const char *path, const struct stat *, int, FTW *) {
    std::remove(path);
    return 0;
  }
  std::string path_;
};

} // namespace weft::compiler
