#include "compiler/frontend/source_limits.h"

#include <cctype>
#include <cstddef>

namespace weft::compiler {
namespace {

// Walks the source a token at a time, skipping what is no code.
class Scanner {
public:
  explicit Scanner(const std::string &text) : text_(text) {}

  // The next token's first character position, or npos at the end; `word`
  // is the identifier or keyword there ("" for punctuation).
  size_t next(std::string &word) {
    skipSpaceAndComments();
    word.clear();
    if (at_ >= text_.size())
      return std::string::npos;
    size_t start = at_;
    char c = text_[at_];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (at_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[at_])) ||
              text_[at_] == '_'))
        ++at_;
      word = text_.substr(start, at_ - start);
    } else if (c == '"' || c == '\'') {
      skipLiteral(c);
    } else {
      ++at_;
    }
    return start;
  }

  char charAt(size_t position) const { return text_[position]; }

private:
  void skipSpaceAndComments() {
    while (at_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[at_]))) {
        ++at_;
      } else if (text_.compare(at_, 2, "//") == 0) {
        size_t end = text_.find('\n', at_);
        at_ = end == std::string::npos ? text_.size() : end;
      } else if (text_.compare(at_, 2, "/*") == 0) {
        size_t end = text_.find("*/", at_ + 2);
        at_ = end == std::string::npos ? text_.size() : end + 2;
      } else {
        return;
      }
    }
  }
  void skipLiteral(char quote) {
    for (++at_; at_ < text_.size() && text_[at_] != quote; ++at_)
      if (text_[at_] == '\\')
        ++at_;
    ++at_;
  }

  const std::string &text_;
  size_t at_ = 0;
};

bool isPrefixOperator(char c) {
  return c == '!' || c == '~' || c == '-' || c == '+' || c == '*' ||
         c == '&';
}

} // namespace

std::string sourceLimitError(const std::string &source) {
  Scanner scanner(source);
  std::string word;
  // Statements nested without braces: control headers since the last `;`,
  // `{` or `}`. Prefix operators: punctuation of that kind in a row.
  int nested = 0, deepest = 0, operators = 0, longest = 0;
  int parentheses = 0; // inside a control header's condition
  bool in_header = false;
  for (size_t at = scanner.next(word); at != std::string::npos;
       at = scanner.next(word)) {
    char c = scanner.charAt(at);
    operators = word.empty() && isPrefixOperator(c) ? operators + 1 : 0;
    if (operators > longest)
      longest = operators;
    if (in_header) {
      if (c == '(')
        ++parentheses;
      else if (c == ')' && --parentheses == 0)
        in_header = false; // the statement it governs follows
      continue;
    }
    if (word == "if" || word == "for" || word == "while" || word == "switch") {
      in_header = true;
      parentheses = 0;
      deepest = ++nested > deepest ? nested : deepest;
    } else if (word.empty() && (c == ';' || c == '{' || c == '}')) {
      nested = 0;
    }
  }
  if (deepest > kMostNestedStatements)
    return "error: " + std::to_string(deepest) +
           " statements nested without braces; Weft builds at most " +
           std::to_string(kMostNestedStatements);
  if (longest > kMostPrefixOperators)
    return "error: " + std::to_string(longest) +
           " prefix operators in a row; Weft builds at most " +
           std::to_string(kMostPrefixOperators);
  return "";
}

} // namespace weft::compiler
