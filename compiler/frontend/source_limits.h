// Nesting that Clang's recursive parser and LLVM's passes do not survive in
// reasonable time or stack, refused before the source reaches them. Clang
// itself limits brackets (256 deep); it does not limit statements nested
// without braces (`if (c) if (c) ...`: 20,000 took 163 s to build, most
// of it in LLVM's passes) nor chains of prefix operators (`!!!...x`:
// 100,000 overflowed even the compiler's 512 MiB stack and killed the
// application). No program written by hand or generated for real comes
// near the limits here.
#pragma once
#include <string>

namespace weft::compiler {

inline constexpr int kMostNestedStatements = 1024;
inline constexpr int kMostPrefixOperators = 1024;

// A build log line naming the limit `source` goes past, or "" when it keeps
// to them. Looks at the text itself (comments, string and character
// literals skipped), not at what macros expand to.
std::string sourceLimitError(const std::string &source);

} // namespace weft::compiler
