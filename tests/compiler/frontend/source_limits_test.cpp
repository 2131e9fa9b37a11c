// The frontend's nesting limits (compiler/frontend/source_limits.h): what
// Clang's parser or LLVM's passes would not survive is refused with a log
// line naming the limit; ordinary code, and code that only looks alike in
// comments and literals, passes.
#define CATCH_CONFIG_MAIN
#include "compiler/frontend/source_limits.h"

#include <catch2/catch.hpp>

#include <string>

using weft::compiler::kMostNestedStatements;
using weft::compiler::kMostPrefixOperators;
using weft::compiler::sourceLimitError;

namespace {

std::string repeated(const std::string &piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i)
    out += piece;
  return out;
}

std::string kernelWith(const std::string &body) {
  return "kernel void k(global int *o, int a) {\n int x = 0;\n" + body +
         "\n o[0] = x;\n}\n";
}

} // namespace

TEST_CASE("statements nested without braces, up to the limit") {
  std::string at_limit =
      kernelWith(repeated("if (a > 0)\n", kMostNestedStatements) + "x = 1;");
  CHECK(sourceLimitError(at_limit).empty());
  std::string past = kernelWith(
      repeated("if (a > 0)\n", kMostNestedStatements + 1) + "x = 1;");
  std::string error = sourceLimitError(past);
  CHECK(error.find("statements nested without braces") != std::string::npos);
  CHECK(error.find("at most 1024") != std::string::npos);
  // Loops count too; a for's own semicolons do not end the nesting.
  CHECK(
      !sourceLimitError(
           kernelWith(repeated("for (int i = 0; i < a; ++i)\n", 2000) + "x++;"))
           .empty());
}

TEST_CASE("braces, semicolons and else-if chains end the nesting") {
  CHECK(sourceLimitError(kernelWith(repeated("if (a > 0) {\n", 2000) +
                                    repeated("}\n", 2000)))
            .empty());
  CHECK(sourceLimitError(kernelWith(repeated("if (a > 1) x = 1;\n", 5000)))
            .empty());
  CHECK(
      sourceLimitError(kernelWith("if (a == 0) x = 0;\n" +
                                  repeated("else if (a == 1) x = 1;\n", 5000)))
          .empty());
}

TEST_CASE("chains of prefix operators, up to the limit") {
  CHECK(sourceLimitError(
            kernelWith("x = " + repeated("!", kMostPrefixOperators) + "a;"))
            .empty());
  std::string error =
      sourceLimitError(kernelWith("x = " + repeated("! ", 100000) + "a;"));
  CHECK(error.find("prefix operators in a row") != std::string::npos);
  CHECK(!sourceLimitError(kernelWith("x = " + repeated("- ", 2000) + "a;"))
             .empty());
  // Binary operators between operands never form a chain.
  CHECK(sourceLimitError(kernelWith("x = a" + repeated(" - a", 5000) + ";"))
            .empty());
}

TEST_CASE("comments and literals are not code") {
  std::string in_comments =
      kernelWith("/* " + repeated("if (a) ", 3000) + " */\n// " +
                 repeated("!", 3000) + "\nx = 1;");
  CHECK(sourceLimitError(in_comments).empty());
  std::string in_string = "constant char s[] = \"" + repeated("!", 3000) +
                          "\";\n" + kernelWith("x = 1;");
  CHECK(sourceLimitError(in_string).empty());
}

TEST_CASE("the limits follow a stream of tokens", "[source-limits]") {
  using weft::compiler::NestingLimits;
  using weft::compiler::NestingToken;
  NestingLimits limits;
  // if (a) while (b) ... 1,024 deep: at the limit.
  for (int i = 0; i < kMostNestedStatements; ++i)
    for (NestingToken t : {NestingToken::Control, NestingToken::OpenParen,
                           NestingToken::Other, NestingToken::CloseParen})
      limits.feed(t);
  CHECK(!limits.exceeded());
  CHECK(limits.error().empty());
  // A `;` ends the nesting; braces too.
  limits.feed(NestingToken::StatementEnd);
  for (NestingToken t : {NestingToken::Control, NestingToken::OpenParen,
                         NestingToken::CloseParen})
    limits.feed(t);
  CHECK(!limits.exceeded());
  NestingLimits operators;
  for (int i = 0; i <= kMostPrefixOperators; ++i)
    operators.feed(NestingToken::PrefixOperator);
  CHECK(operators.exceeded());
  CHECK(operators.error().find("prefix operators") != std::string::npos);
  // Parentheses inside a header do not end it early.
  NestingLimits headers;
  for (int i = 0; i <= kMostNestedStatements; ++i)
    for (NestingToken t : {NestingToken::Control, NestingToken::OpenParen,
                           NestingToken::OpenParen, NestingToken::CloseParen,
                           NestingToken::CloseParen})
      headers.feed(t);
  CHECK(headers.exceeded());
  CHECK(headers.error().find("nested without braces") != std::string::npos);
}
