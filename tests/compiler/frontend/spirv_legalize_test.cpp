// The SPIR-V rewrites made before llvm-spirv-15 reads a module
// (compiler/frontend/spirv_legalize.h), on hand-assembled instruction words.
#define CATCH_CONFIG_MAIN
#include "compiler/frontend/spirv_legalize.h"

#include <catch2/catch.hpp>

#include <cstring>

namespace {

uint32_t op(uint32_t words, uint32_t opcode) { return words << 16 | opcode; }

// Header: magic, version (1.4 unless said), generator, bound, schema.
std::vector<uint32_t> module(std::vector<uint32_t> body, uint32_t bound = 20,
                             uint32_t version = 0x00010400) {
  std::vector<uint32_t> words = {0x07230203, version, 0, bound, 0};
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

namespace {

// A Physical64 module with 64-bit integers: the capability, the memory
// model, and the types the pointer tests use.
std::vector<uint32_t> pointerPreamble() {
  return {
      op(2, 17), 11,           // OpCapability Int64
      op(3, 14), 2,  2,        // OpMemoryModel Physical64 OpenCL
      op(2, 20), 1,            // %1 = OpTypeBool
      op(4, 21), 2,  32, 0,    // %2 = OpTypeInt 32 0
      op(4, 21), 3,  64, 0,    // %3 = OpTypeInt 64 0
      op(4, 23), 4,  2,  3,    // %4 = OpTypeVector %2 3 (16 bytes)
      op(4, 32), 5,  5,  4,    // %5 = OpTypePointer CrossWorkgroup %4
      op(2, 19), 6,            // %6 = OpTypeVoid
      op(5, 54), 6,  7,  0, 8, // %7 = OpFunction %6 None %8
      op(3, 55), 5,  9,        // %9 = OpFunctionParameter %5
      op(3, 55), 5,  10,       // %10 = OpFunctionParameter %5
  };
}

} // namespace

TEST_CASE("pointer comparisons compare the pointers as integers", "[spirv]") {
  std::vector<uint32_t> body = pointerPreamble();
  body.insert(body.end(), {op(5, 401), 1, 11, 9, 10,   // OpPtrEqual
                           op(5, 402), 1, 12, 9, 10}); // OpPtrNotEqual
  std::vector<uint32_t> words = module(body, 20);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  std::vector<uint32_t> expected = pointerPreamble();
  expected.insert(expected.end(),
                  {op(4, 117), 3, 20, 9,        // %20 = OpConvertPtrToU %3 %9
                   op(4, 117), 3, 21, 10,       // %21 = OpConvertPtrToU %3 %10
                   op(5, 170), 1, 11, 20, 21,   // %11 = OpIEqual %1 %20 %21
                   op(4, 117), 3, 22, 9,        //
                   op(4, 117), 3, 23, 10,       //
                   op(5, 171), 1, 12, 22, 23}); // OpINotEqual
  CHECK(words == module(expected, 24));
}

TEST_CASE("a pointer difference counts elements of the pointee", "[spirv]") {
  std::vector<uint32_t> body = pointerPreamble();
  // %11 = OpPtrDiff %2 %9 %10: a 32-bit result of 64-bit pointers.
  body.insert(body.end(), {op(5, 403), 2, 11, 9, 10});
  std::vector<uint32_t> words = module(body, 20);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  std::vector<uint32_t> expected = pointerPreamble();
  // The element size, 16, a new constant ahead of the function.
  auto function = expected.begin() + 25;
  REQUIRE(*function == op(5, 54));
  expected.insert(function, {op(5, 43), 3, 24, 16, 0});
  expected.insert(expected.end(),
                  {op(4, 117), 3, 20, 9,      // %20 = OpConvertPtrToU
                   op(4, 117), 3, 21, 10,     // %21 = OpConvertPtrToU
                   op(5, 130), 3, 22, 20, 21, // %22 = OpISub %3
                   op(5, 135), 3, 23, 22, 24, // %23 = OpSDiv %3 %22 16
                   op(4, 114), 2, 11, 23});   // %11 = OpSConvert %2 %23
  CHECK(words == module(expected, 25));
}

TEST_CASE("OpCopyLogical copies member by member", "[spirv]") {
  std::vector<uint32_t> types = {
      op(4, 21), 1, 32, 0, // %1 = OpTypeInt 32 0
      op(3, 22), 2, 32,    // %2 = OpTypeFloat 32
      op(4, 30), 3, 1,  2, // %3 = OpTypeStruct %1 %2
      op(4, 30), 4, 1,  2, // %4 = OpTypeStruct %1 %2
      op(4, 43), 1, 5,  2, // %5 = OpConstant %1 2
      op(4, 28), 6, 3,  5, // %6 = OpTypeArray %3 %5
      op(4, 28), 7, 4,  5, // %7 = OpTypeArray %4 %5
      op(3, 1),  6, 8,     // %8 = OpUndef %6
  };
  std::vector<uint32_t> body = types;
  body.insert(body.end(), {op(4, 400), 7, 9, 8}); // %9 = OpCopyLogical %7 %8
  std::vector<uint32_t> words = module(body, 20);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  std::vector<uint32_t> got(words.begin() + 5 + types.size(), words.end());
  REQUIRE(got.size() >= 4);
  // The last instruction constructs %9 of type %7 from the two elements.
  CHECK(std::vector<uint32_t>(got.end() - 5, got.end()) ==
        std::vector<uint32_t>{op(5, 80), 7, 9, got[got.size() - 2],
                              got[got.size() - 1]});
  // Every member is extracted from the source and rebuilt as %4.
  size_t extracts = 0, constructs = 0;
  for (size_t at = 0; at < got.size(); at += got[at] >> 16) {
    extracts += (got[at] & 0xffff) == 81;
    constructs += (got[at] & 0xffff) == 80 && got[at + 1] == 4;
  }
  CHECK(extracts == 6);
  CHECK(constructs == 2);
}

TEST_CASE("OpCopyLogical of types of different shapes is left alone",
          "[spirv]") {
  std::vector<uint32_t> body = {
      op(4, 21),  1, 32, 0,  // %1 = OpTypeInt 32 0
      op(3, 22),  2, 32,     // %2 = OpTypeFloat 32
      op(4, 30),  3, 1,  2,  // %3 = OpTypeStruct %1 %2
      op(3, 30),  4, 1,      // %4 = OpTypeStruct %1
      op(3, 1),   3, 8,      // %8 = OpUndef %3
      op(4, 400), 4, 9,  8}; // %9 = OpCopyLogical %4 %8
  std::vector<uint32_t> words = module(body, 20);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  CHECK(words == module(body, 20));
}

TEST_CASE("OpExecutionModeId takes its constants' values", "[spirv]") {
  using weft::compiler::SpecializationConstant;
  std::vector<uint32_t> declarations = {
      op(4, 71), 11, 1,  5,  // OpDecorate %11 SpecId 5
      op(4, 21), 10, 32, 0,  // %10 = OpTypeInt 32 0
      op(4, 43), 10, 12, 8,  // %12 = OpConstant %10 8
      op(4, 50), 10, 11, 16, // %11 = OpSpecConstant %10 16
  };
  std::vector<uint32_t> body = {
      op(6, 331), 1, 38, 12, 11, 12, // LocalSizeId %12 %11 %12
      op(4, 331), 1, 37, 11,         // SubgroupsPerWorkgroupId %11
      op(4, 331), 1, 99, 11,         // a mode it does not know: kept
  };
  body.insert(body.end(), declarations.begin(), declarations.end());
  std::vector<uint32_t> words = module(body);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  std::vector<uint32_t> expected = {
      op(6, 16),  1, 17, 8,  16, 8, // LocalSize 8 16 8
      op(4, 16),  1, 36, 16,        // SubgroupsPerWorkgroup 16
      op(4, 331), 1, 99, 11,
  };
  expected.insert(expected.end(), declarations.begin(), declarations.end());
  CHECK(words == module(expected));

  SpecializationConstant four;
  four.id = 5;
  four.value_bits = 4;
  words = module(body);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words, {four}));
  expected[4] = 4; // LocalSize 8 4 8
  expected[9] = 4; // SubgroupsPerWorkgroup 4
  CHECK(words == module(expected));
}

TEST_CASE("a shuffle of vectors of two lengths widens the shorter one",
          "[spirv]") {
  std::vector<uint32_t> types = {
      op(4, 21), 1, 32, 0, // %1 = OpTypeInt 32 0
      op(4, 23), 2, 1,  2, // %2 = OpTypeVector %1 2
      op(4, 23), 3, 1,  3, // %3 = OpTypeVector %1 3
      op(4, 23), 4, 1,  4, // %4 = OpTypeVector %1 4
      op(3, 1),  3, 5,     // %5 = OpUndef %3
      op(3, 1),  2, 6,     // %6 = OpUndef %2
  };
  std::vector<uint32_t> body = types;
  // %7 = OpVectorShuffle %4 %5 %6 2 3 0xFFFFFFFF 4
  body.insert(body.end(), {op(9, 79), 4, 7, 5, 6, 2, 3, 0xFFFFFFFF, 4});
  std::vector<uint32_t> words = module(body, 20);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  std::vector<uint32_t> expected = types;
  // %20 = OpVectorShuffle %3 %6 %6 0 1 0: %6 widened to three components;
  // then the shuffle of %5 and %20, its indices unchanged.
  expected.insert(expected.end(), {op(8, 79), 3, 20, 6, 6, 0, 1, 0, op(9, 79),
                                   4, 7, 5, 20, 2, 3, 0xFFFFFFFF, 4});
  CHECK(words == module(expected, 21));

  // The first vector the shorter: the second's components move up.
  std::vector<uint32_t> swapped = types;
  // %7 = OpVectorShuffle %4 %6 %5 0 2 4 1
  swapped.insert(swapped.end(), {op(9, 79), 4, 7, 6, 5, 0, 2, 4, 1});
  words = module(swapped, 20);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  expected = types;
  expected.insert(expected.end(), {op(8, 79), 3, 20, 6, 6, 0, 1, 0, op(9, 79),
                                   4, 7, 20, 5, 0, 3, 5, 1});
  CHECK(words == module(expected, 21));

  // Vectors of one type stay a shuffle.
  std::vector<uint32_t> same = types;
  same.insert(same.end(), {op(7, 79), 2, 7, 5, 5, 0, 1});
  std::vector<uint32_t> kept = module(same, 20);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(kept));
  CHECK(kept == module(same, 20));
}

TEST_CASE("SPIR-V 1.5 and 1.6 modules are read as 1.4", "[spirv]") {
  for (uint32_t version : {0x00010500u, 0x00010600u}) {
    std::vector<uint32_t> words = module({op(3, 71), 2, 22}, 20, version);
    REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
    CHECK(words == module({op(3, 71), 2, 22}));
  }
}

TEST_CASE("a bitcast between a pointer and integers converts the pointer",
          "[spirv]") {
  std::vector<uint32_t> types = {
      op(4, 21), 1, 32, 0, // %1 = OpTypeInt 32 0
      op(4, 21), 2, 64, 0, // %2 = OpTypeInt 64 0
      op(4, 23), 3, 1,  2, // %3 = OpTypeVector %1 2
      op(4, 32), 4, 7,  1, // %4 = OpTypePointer Function %1
      op(4, 59), 4, 10, 7, // %10 = OpVariable %4 Function
  };
  std::vector<uint32_t> body = types;
  body.insert(body.end(), {
                              op(4, 124), 2, 11, 10, // %11 = bitcast ulong
                              op(4, 124), 3, 12, 10, // %12 = bitcast uint2
                              op(4, 124), 4, 13, 11, // %13 = ulong to ptr
                              op(4, 124), 4, 14, 12, // %14 = uint2 to ptr
                              op(4, 124), 1, 15, 1,  // not a pointer: kept
                          });
  std::vector<uint32_t> words = module(body, 20, 0x00010500);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  std::vector<uint32_t> expected = types;
  expected.insert(expected.end(), {
                                      op(4, 117), 2, 11, 10, // ConvertPtrToU
                                      op(4, 117), 2, 20, 10, // to ulong...
                                      op(4, 124), 3, 12, 20, // ...as uint2
                                      op(4, 120), 4, 13, 11, // ConvertUToPtr
                                      op(4, 124), 2, 21, 12, // uint2 as ulong
                                      op(4, 120), 4, 14, 21, // ...to pointer
                                      op(4, 124), 1, 15, 1,
                                  });
  CHECK(words == module(expected, 22));
}

TEST_CASE("Nontemporal image operands and uniformity hints are dropped",
          "[spirv]") {
  std::vector<uint32_t> words = module(
      {
          op(2, 17),  71,        // OpCapability UniformDecoration
          op(2, 17),  6,         // OpCapability Kernel
          op(3, 71),  5,  26,    // OpDecorate %5 Uniform
          op(4, 332), 6,  27, 7, // OpDecorateId %6 UniformId %7
          op(3, 71),  5,  22,    // OpDecorate %5 Constant: kept
          op(7, 88),  1,  9,  2, 3,
          0x4002,     4,                 // SampleExplicitLod Lod|NT %4
          op(5, 99),  2,  3,  9, 0x4000, // ImageWrite ... Nontemporal
          op(5, 98),  1,  10, 2, 3,      // ImageRead, no operands
      },
      20, 0x00010600);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  CHECK(words ==
        module({
            op(2, 17), 6, op(3, 71), 5, 22, op(7, 88), 1, 9,  2, 3, 0x2, 4,
            op(5, 99), 2, 3,         9, 0,  op(5, 98), 1, 10, 2, 3,
        }));
}

TEST_CASE("a clock read becomes a call of the kernel clock builtin",
          "[spirv]") {
  // "SPV_KHR_shader_clock" as a literal: 20 bytes and a nul, 6 words.
  const char name[24] = "SPV_KHR_shader_clock";
  std::vector<uint32_t> literal(6);
  std::memcpy(literal.data(), name, sizeof name);
  std::vector<uint32_t> head = {op(2, 17), 6,     // OpCapability Kernel
                                op(2, 17), 5055}; // ShaderClockKHR
  std::vector<uint32_t> extension = {op(7, 10)};
  extension.insert(extension.end(), literal.begin(), literal.end());
  std::vector<uint32_t> types = {
      op(4, 21), 1, 64, 0, // %1 = OpTypeInt 64 0
      op(4, 21), 2, 32, 0, // %2 = OpTypeInt 32 0
      op(4, 43), 2, 3,  3, // %3 = OpConstant %2 3 (Subgroup)
  };
  std::vector<uint32_t> body = {op(5, 54),   1, 4, 0, 5, // OpFunction
                                op(4, 5056), 1, 6, 3,    // %6 = OpReadClockKHR
                                op(1, 56)};              // OpFunctionEnd
  std::vector<uint32_t> in = head;
  in.insert(in.end(), extension.begin(), extension.end());
  in.insert(in.end(), types.begin(), types.end());
  in.insert(in.end(), body.begin(), body.end());
  std::vector<uint32_t> words = module(in, 20);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  // "_Z20clock_read_sub_groupv" as a literal, then Import (1).
  const char mangled[28] = "_Z20clock_read_sub_groupv";
  std::vector<uint32_t> import(7);
  std::memcpy(import.data(), mangled, sizeof mangled);
  std::vector<uint32_t> expected = {op(2, 17), 6, op(2, 17), 5}; // Linkage
  expected.insert(expected.end(), {op(11, 71), 21, 41});
  expected.insert(expected.end(), import.begin(), import.end());
  expected.push_back(1);
  expected.insert(expected.end(), types.begin(), types.end());
  // %20 = OpTypeFunction %1; %21 = OpFunction %1 None %20; OpFunctionEnd
  expected.insert(expected.end(),
                  {op(3, 33), 20, 1, op(5, 54), 1, 21, 0, 20, op(1, 56)});
  expected.insert(expected.end(),
                  {op(5, 54), 1, 4, 0, 5, op(4, 57), 1, 6, 21, op(1, 56)});
  CHECK(words == module(expected, 22));
}

TEST_CASE("a composite built from values becomes a chain of inserts",
          "[spirv]") {
  std::vector<uint32_t> types = {
      op(3, 22), 1, 32,    // %1 = OpTypeFloat 32
      op(4, 23), 2, 1,  4, // %2 = OpTypeVector %1 4
      op(4, 23), 3, 1,  2, // %3 = OpTypeVector %1 2
      op(4, 43), 1, 4,  0, // %4 = OpConstant %1 0
      op(3, 55), 1, 5,     // %5 = OpFunctionParameter %1 (shape only)
      op(3, 55), 3, 6,     // %6 = OpFunctionParameter %3
  };
  std::vector<uint32_t> function = {op(5, 54), 1, 9, 0, 10}; // OpFunction
  // %7 = OpCompositeConstruct %2 %5 %6 %4: a scalar, a two-component
  // vector, a constant.
  std::vector<uint32_t> body = types;
  body.insert(body.end(), function.begin(), function.end());
  body.insert(body.end(), {op(6, 80), 2, 7, 5, 6, 4});
  // Constants alone stay for the translator.
  body.insert(body.end(), {op(7, 80), 2, 8, 4, 4, 4, 4});
  std::vector<uint32_t> words = module(body, 20);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  std::vector<uint32_t> expected = types;
  expected.insert(expected.end(), function.begin(), function.end());
  expected.insert(expected.end(), {
                                      op(3, 1),  2, 20,            // undef
                                      op(6, 82), 2, 21, 5,  20, 0, // x
                                      op(5, 81), 1, 22, 6,  0,     // %6.x
                                      op(6, 82), 2, 23, 22, 21, 1, // y
                                      op(5, 81), 1, 24, 6,  1,     // %6.y
                                      op(6, 82), 2, 25, 24, 23, 2, // z
                                      op(6, 82), 2, 7,  4,  25, 3, // w
                                      op(7, 80), 2, 8,  4,  4,  4, 4,
                                  });
  CHECK(words == module(expected, 26));
}

TEST_CASE("a mip level count query becomes a call of the builtin", "[spirv]") {
  std::vector<uint32_t> head = {op(2, 17), 6}; // OpCapability Kernel
  std::vector<uint32_t> types = {
      op(2, 19),  1,                          // %1 = OpTypeVoid
      op(4, 21),  2, 32, 0,                   // %2 = OpTypeInt 32 0
      op(10, 25), 3, 1,  1, 0, 1, 0, 0, 0, 0, // %3 = image2d_array_t, RO
      op(3, 55),  3, 4,                       // %4 = OpFunctionParameter %3
  };
  std::vector<uint32_t> body = {op(5, 54),  1, 5, 0, 6, // OpFunction
                                op(4, 106), 2, 7, 4,    // OpImageQueryLevels
                                op(1, 56)};
  std::vector<uint32_t> in = head;
  in.insert(in.end(), types.begin(), types.end());
  in.insert(in.end(), body.begin(), body.end());
  std::vector<uint32_t> words = module(in, 20);
  REQUIRE(weft::compiler::legalizeSpirvForTranslator(words));
  // The mangled name, 50 bytes and a nul, as 13 words.
  const char mangled[52] = "_Z24get_image_num_mip_levels20ocl_image2d_array_ro";
  std::vector<uint32_t> import(13);
  std::memcpy(import.data(), mangled, sizeof mangled);
  // Linkage first, the import's decoration before the types, its
  // declaration (type, function, parameter) before the first function.
  std::vector<uint32_t> expected = {op(2, 17), 5, op(2, 17), 6};
  expected.insert(expected.end(), {op(17, 71), 21, 41});
  expected.insert(expected.end(), import.begin(), import.end());
  expected.push_back(1);
  expected.insert(expected.end(), types.begin(), types.end());
  expected.insert(expected.end(), {op(4, 33), 20, 2, 3,     // OpTypeFunction
                                   op(5, 54), 2, 21, 0, 20, // OpFunction
                                   op(3, 55), 3, 22,        // its parameter
                                   op(1, 56)});
  expected.insert(expected.end(),
                  {op(5, 54), 1, 5, 0, 6, op(5, 57), 2, 7, 21, 4, op(1, 56)});
  CHECK(words == module(expected, 23));
}
