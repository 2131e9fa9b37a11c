// The on-disk program cache: program binaries (runtime/program_binary.h)
// keyed by everything that decides the generated code, so rebuilding a
// program the machine has built before skips the compiler, and does not even
// load it.
//
// Location: $WEFT_CACHE_DIR, else $XDG_CACHE_HOME/weft, else
// $HOME/.cache/weft. WEFT_CACHE_DIR=off (or empty) disables it. Entries are
// written atomically (temporary file, then rename); a damaged entry is
// ignored and rewritten.
#pragma once
#include "compiler/interface/compiler_interface.h"

#include <string>
#include <vector>

namespace weft {

class ProgramCache {
public:
  // The process's cache, configured from the environment on first use.
  static const ProgramCache &instance();
  explicit ProgramCache(std::string directory);

  bool enabled() const { return !directory_.empty(); }

  // Everything the code of a program built from source depends on.
  static std::string sourceKey(const std::string &source,
                               const std::string &options,
                               const std::string &code_target,
                               const compiler::DeviceDescription &device,
                               const std::string &compiler_identity);

  // The binary stored under `key`, if there is one.
  bool lookup(const std::string &key, std::vector<unsigned char> &binary) const;
  // Best effort: a cache that cannot be written only costs speed.
  void store(const std::string &key,
             const std::vector<unsigned char> &binary) const;

private:
  std::string entryPath(const std::string &key) const;
  std::string directory_; // empty when disabled
};

} // namespace weft
