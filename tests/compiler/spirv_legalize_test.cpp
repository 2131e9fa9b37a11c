// The SPIR-V rewrites made before llvm-spirv-15 reads a module
// (compiler/spirv_legalize.h), on hand-assembled instruction words.
#define CATCH_CONFIG_MAIN
#include "compiler/spirv_legalize.h"

#include <catch2/catch.hpp>

namespace {

uint32_t op(uint32_t words, uint32_t opcode) { return words << 16 | opcode; }

// Header: magic, version 1.4, generator, bound, schema.
std::vector<uint32_t> module(std::vector<uint32_t> body, uint32_t bound = 20) {
  std::vector<uint32_t> words = {0x07230203, 0x00010400, 0, bound, 0};
  words.insert(words.end(), body.begin(), body.end());
  return words;
}

} // namespace

TEST_CASE("UserSemantic string decorations are dropped", "[spirv]") {
  std::vector<uint32_t> words = module({
      op(4, 5632), 2, 5635, 0x004f4f46,    // OpDecorateString %2 "FOO"
      op(5, 5633), 3, 0, 5635, 0x006f6f66, // OpMemberDecorateString %3 0
      op(3, 71), 2, 22,                    // OpDecorate %2 Constant
  });
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  CHECK(words == module({op(3, 71), 2, 22}));
}

TEST_CASE("OpCopyMemory becomes a load and a store", "[spirv]") {
  std::vector<uint32_t> types = {
      op(4, 21), 1, 32, 0, // %1 = OpTypeInt 32 0
      op(4, 32), 2, 7,  1, // %2 = OpTypePointer Function %1
      op(4, 32), 3, 5,  1, // %3 = OpTypePointer CrossWorkgroup %1
      op(4, 59), 2, 10, 7, // %10 = OpVariable %2 Function
      op(3, 55), 3, 11,    // %11 = OpFunctionParameter %3 (shape only)
  };
  std::vector<uint32_t> body = types;
  // OpCopyMemory %11 %10 Volatile|Aligned 8 Aligned 4: two sets.
  body.insert(body.end(), {op(7, 63), 11, 10, 3, 8, 2, 4});
  std::vector<uint32_t> words = module(body, 20);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  std::vector<uint32_t> expected = types;
  // %20 = OpLoad %1 %10 Volatile|Aligned 4; OpStore %11 %20 Volatile|Aligned 4
  expected.insert(expected.end(),
                  {op(6, 61), 1, 20, 10, 3, 4, op(5, 62), 11, 20, 3, 4});
  CHECK(words == module(expected, 21));
}

TEST_CASE("OpCopyMemorySized keeps one set of memory operands", "[spirv]") {
  // OpCopyMemorySized %5 %6 %7 Volatile Aligned 16 (types unknown).
  std::vector<uint32_t> words = module({op(7, 64), 5, 6, 7, 1, 2, 16});
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  CHECK(words == module({op(5, 64), 5, 6, 7, 1}));
  // One set stays as it is.
  std::vector<uint32_t> one = module({op(6, 64), 5, 6, 7, 2, 16});
  std::vector<uint32_t> copy = one;
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(copy));
  CHECK(copy == one);
}

TEST_CASE("a malformed module is left to the translator", "[spirv]") {
  std::vector<uint32_t> words = module({op(9, 71), 2});
  CHECK_FALSE(weft::compiler::legalizeSpirvForTranslator(words));
}

TEST_CASE("a scalar OpConstantNull becomes its zero", "[spirv]") {
  std::vector<uint32_t> types = {
      op(2, 20), 1,        // %1 = OpTypeBool
      op(4, 21), 2, 32, 0, // %2 = OpTypeInt 32 0
      op(3, 22), 3, 64,    // %3 = OpTypeFloat 64
      op(4, 23), 4, 2,  4, // %4 = OpTypeVector %2 4
  };
  std::vector<uint32_t> body = types;
  body.insert(body.end(), {op(3, 46), 1, 10, op(3, 46), 2, 11, op(3, 46), 3, 12,
                           op(3, 46), 4, 13});
  std::vector<uint32_t> words = module(body);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  std::vector<uint32_t> expected = types;
  expected.insert(expected.end(),
                  {op(3, 42), 1, 10,       // OpConstantFalse
                   op(4, 43), 2, 11, 0,    // OpConstant 0
                   op(5, 43), 3, 12, 0, 0, // OpConstant 0.0 (two words)
                   op(3, 46), 4, 13});     // a vector's null stays
  CHECK(words == module(expected));
}
