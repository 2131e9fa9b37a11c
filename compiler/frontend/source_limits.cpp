#include "compiler/frontend/source_limits.h"

#include <algorithm>
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
  return c == '!' || c == '~' || c == '-' || c == '+' || c == '*' || c == '&';
}

} // namespace

void NestingLimits::feed(NestingToken token) {
  operators_ = token == NestingToken::PrefixOperator ? operators_ + 1 : 0;
  longest_ = std::max(longest_, operators_);
  if (in_header_) {
    if (token == NestingToken::OpenParen)
      ++parentheses_;
    else if (token == NestingToken::CloseParen && --parentheses_ == 0)
      in_header_ = false; // the statement it governs follows
    return;
  }
  if (token == NestingToken::Control) {
    in_header_ = true;
    parentheses_ = 0;
    deepest_ = std::max(deepest_, ++nested_);
  } else if (token == NestingToken::StatementEnd) {
    nested_ = 0;
  }
}

std::string NestingLimits::error() const {
  if (deepest_ > kMostNestedStatements)
    return "error: " + std::to_string(deepest_) +
           " statements nested without braces; Weft builds at most " +
           std::to_string(kMostNestedStatements);
  if (longest_ > kMostPrefixOperators)
    return "error: " + std::to_string(longest_) +
           " prefix operators in a row; Weft builds at most " +
           std::to_string(kMostPrefixOperators);
  return "";
}

std::string sourceLimitError(const std::string &source) {
  Scanner scanner(source);
  NestingLimits limits;
  std::string word;
  for (size_t at = scanner.next(word); at != std::string::npos;
       at = scanner.next(word)) {
    char c = scanner.charAt(at);
    NestingToken token = NestingToken::Other;
    if (word == "if" || word == "for" || word == "while" || word == "switch")
      token = NestingToken::Control;
    else if (!word.empty())
      token = NestingToken::Other;
    else if (c == '(')
      token = NestingToken::OpenParen;
    else if (c == ')')
      token = NestingToken::CloseParen;
    else if (c == ';' || c == '{' || c == '}')
      token = NestingToken::StatementEnd;
    else if (isPrefixOperator(c))
      token = NestingToken::PrefixOperator;
    limits.feed(token);
  }
  return limits.error();
}

} // namespace weft::compiler
