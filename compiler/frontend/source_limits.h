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

// What the limits look at in a token.
enum class NestingToken {
  Control, // if, for, while, switch
  OpenParen,
  CloseParen,
  StatementEnd,   // ; { }
  PrefixOperator, // ! ~ - + * &
  Other,
};

// Follows a program a token at a time: statements nested without braces
// are control headers since the last `;`, `{` or `}`; prefix operators are
// punctuation of that kind in a row. Fed by the text scanner below and by
// the frontend's macro-expanded token stream (clang_frontend.cpp).
class NestingLimits {
public:
  void feed(NestingToken token);
  bool exceeded() const {
    return deepest_ > kMostNestedStatements || longest_ > kMostPrefixOperators;
  }
  // The build log line naming the limit passed, or "".
  std::string error() const;

private:
  int nested_ = 0, deepest_ = 0, operators_ = 0, longest_ = 0;
  int parentheses_ = 0; // inside a control header's condition
  bool in_header_ = false;
};

// A build log line naming the limit `source` goes past, or "" when it keeps
// to them. Looks at the text itself (comments, string and character
// literals skipped), not at what macros expand to.
std::string sourceLimitError(const std::string &source);

} // namespace weft::compiler
