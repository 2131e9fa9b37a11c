// The execution modes read from SPIR-V before the translator drops them
// (compiler/frontend/spirv_execution_modes.h), on hand-assembled instruction
// words.
#include "compiler/frontend/spirv_execution_modes.h"

#include <catch2/catch.hpp>

namespace {

uint32_t op(uint32_t words, uint32_t opcode) { return words << 16 | opcode; }

std::vector<uint32_t> module(std::vector<uint32_t> body) {
  std::vector<uint32_t> words = {0x07230203, 0x00010100, 0, 30, 0};
  words.insert(words.end(), body.begin(), body.end());
  return words;
}

} // namespace

TEST_CASE("required sub-group counts by entry point", "[spirv]") {
  std::vector<uint32_t> words = module({
      op(4, 15),  6, 1,  0x0000616b, // OpEntryPoint Kernel %1 "ka"
      op(5, 15),  6, 2,  0x6e6f6c6b,
      0x00000067,                    // OpEntryPoint Kernel %2 "klong"
      op(4, 15),  6, 3,  0x0000636b, // OpEntryPoint Kernel %3 "kc"
      op(4, 16),  1, 36, 4,          // SubgroupsPerWorkgroup 4
      op(4, 16),  2, 36, 16,         // SubgroupsPerWorkgroup 16
      op(4, 16),  3, 18, 8,          // LocalSizeHint: not counted
  });
  CHECK(weft::compiler::requiredSubGroupCounts(words) ==
        std::map<std::string, uint64_t>{{"ka", 4}, {"klong", 16}});
  // A cut instruction: nothing is read.
  std::vector<uint32_t> cut = module({op(9, 15), 6, 1});
  CHECK(weft::compiler::requiredSubGroupCounts(cut).empty());
}
