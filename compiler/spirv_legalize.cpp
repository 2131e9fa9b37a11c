#include "compiler/spirv_legalize.h"

#include <algorithm>
#include <map>

namespace weft::compiler {
namespace {

// SPIR-V specification, section 3.
constexpr uint32_t kOpTypeBool = 20, kOpTypeInt = 21, kOpTypeFloat = 22,
                   kOpConstantFalse = 42, kOpConstant = 43,
                   kOpConstantNull = 46, kOpTypePointer = 32, kOpLoad = 61,
                   kOpStore = 62, kOpCopyMemory = 63, kOpCopyMemorySized = 64,
                   kOpDecorateString = 5632, kOpMemberDecorateString = 5633;
constexpr uint32_t kDecorationUserSemantic = 5635;
constexpr uint32_t kMemoryVolatile = 0x1, kMemoryAligned = 0x2;
// Memory operand bits followed by one more word (a literal or an id).
constexpr uint32_t kMemoryBitsWithWord[] = {0x2, 0x8, 0x10, 0x10000, 0x20000};

struct MemoryOperands {
  uint32_t mask = 0;
  uint32_t alignment = 0; // with kMemoryAligned
  size_t words = 0;       // the mask and its extra words
};

// Reads one set of memory operands at `at`, within `end`.
bool readMemoryOperands(const std::vector<uint32_t> &words, size_t at,
                        size_t end, MemoryOperands &out) {
  if (at >= end)
    return false;
  out.mask = words[at];
  out.words = 1;
  for (uint32_t bit : kMemoryBitsWithWord)
    if (out.mask & bit) {
      if (at + out.words >= end)
        return false;
      if (bit == kMemoryAligned)
        out.alignment = words[at + out.words];
      ++out.words;
    }
  return true;
}

// Whether `opcode` is one of the instructions that can give OpCopyMemory a
// pointer (variables, parameters, loads, calls, access chains, pointer
// casts, phis, selects): each starts with its result type and result id.
bool hasResultType(uint32_t opcode) {
  switch (opcode) {
  case 54:  // OpFunction
  case 55:  // OpFunctionParameter
  case 57:  // OpFunctionCall
  case 59:  // OpVariable
  case 61:  // OpLoad
  case 65:  // OpAccessChain
  case 66:  // OpInBoundsAccessChain
  case 67:  // OpPtrAccessChain
  case 70:  // OpInBoundsPtrAccessChain
  case 83:  // OpCopyObject
  case 120: // OpConvertUToPtr
  case 121: // OpPtrCastToGeneric
  case 122: // OpGenericCastToPtr
  case 123: // OpGenericCastToPtrExplicit
  case 124: // OpBitcast
  case 245: // OpPhi
  case 169: // OpSelect
    return true;
  default:
    return false;
  }
}

} // namespace

constexpr uint32_t op3(uint32_t opcode) { return 3u << 16 | opcode; }

bool legalizeSpirvForTranslator(std::vector<uint32_t> &words) {
  if (words.size() < 5)
    return false;
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  out.reserve(words.size());
  // For rewriting OpCopyMemory as a load and a store: each pointer type's
  // pointee, and each pointer value's type.
  std::map<uint32_t, uint32_t> pointee_of, type_of;
  // Scalar types by id: their width in bits, 0 for bool.
  std::map<uint32_t, uint32_t> scalar_bits;
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size())
      return false;
    size_t end = at + count;
    if (opcode == kOpTypePointer && count >= 4)
      pointee_of[words[at + 1]] = words[at + 3];
    else if (opcode == kOpTypeBool && count >= 2)
      scalar_bits[words[at + 1]] = 0;
    else if ((opcode == kOpTypeInt || opcode == kOpTypeFloat) && count >= 3)
      scalar_bits[words[at + 1]] = words[at + 2];
    else if (hasResultType(opcode) && count >= 3)
      type_of[words[at + 2]] = words[at + 1];
    if ((opcode == kOpDecorateString && count >= 3 &&
         words[at + 2] == kDecorationUserSemantic) ||
        (opcode == kOpMemberDecorateString && count >= 4 &&
         words[at + 3] == kDecorationUserSemantic)) {
      at = end;
      continue;
    }
    // The translator takes OpConstantNull only of composite and pointer
    // types: a scalar null is its zero (or false).
    if (opcode == kOpConstantNull && count == 3) {
      auto scalar = scalar_bits.find(words[at + 1]);
      if (scalar != scalar_bits.end()) {
        if (scalar->second == 0) {
          out.insert(out.end(),
                     {op3(kOpConstantFalse), words[at + 1], words[at + 2]});
        } else {
          uint32_t value_words = scalar->second > 32 ? 2 : 1;
          out.push_back(static_cast<uint32_t>((3 + value_words) << 16) |
                        kOpConstant);
          out.insert(out.end(), {words[at + 1], words[at + 2]});
          out.insert(out.end(), value_words, 0u);
        }
        at = end;
        continue;
      }
    }
    if (opcode == kOpCopyMemory || opcode == kOpCopyMemorySized) {
      size_t operands = at + (opcode == kOpCopyMemory ? 3 : 4);
      MemoryOperands target, source;
      bool first =
          operands < end && readMemoryOperands(words, operands, end, target);
      bool second =
          first && operands + target.words < end &&
          readMemoryOperands(words, operands + target.words, end, source);
      if (!second)
        source = target;
      // One set for both: volatile if either is, aligned to the smaller
      // alignment if both are.
      uint32_t mask = 0, alignment = 0;
      if (first) {
        mask = (target.mask | source.mask) & kMemoryVolatile;
        if (target.mask & source.mask & kMemoryAligned) {
          mask |= kMemoryAligned;
          alignment = std::min(target.alignment, source.alignment);
        }
      }
      auto pushOperands = [&] {
        if (!first)
          return;
        out.push_back(mask);
        if (mask & kMemoryAligned)
          out.push_back(alignment);
      };
      size_t operand_words = first ? 1 + ((mask & kMemoryAligned) ? 1 : 0) : 0;
      uint32_t target_id = words[at + 1], source_id = words[at + 2];
      auto type = type_of.find(source_id);
      auto pointee = type == type_of.end() ? pointee_of.end()
                                           : pointee_of.find(type->second);
      if (opcode == kOpCopyMemory && pointee != pointee_of.end()) {
        // The translator cannot read OpCopyMemory: a load and a store of
        // the pointee type do the same.
        uint32_t value = out[3]++; // a new id: the bound grows by one
        out.push_back(static_cast<uint32_t>((4 + operand_words) << 16) |
                      kOpLoad);
        out.insert(out.end(), {pointee->second, value, source_id});
        pushOperands();
        out.push_back(static_cast<uint32_t>((3 + operand_words) << 16) |
                      kOpStore);
        out.insert(out.end(), {target_id, value});
        pushOperands();
        at = end;
        continue;
      }
      if (second) {
        out.push_back(
            static_cast<uint32_t>((operands - at + operand_words) << 16) |
            opcode);
        out.insert(out.end(), words.begin() + at + 1, words.begin() + operands);
        pushOperands();
        at = end;
        continue;
      }
    }
    out.insert(out.end(), words.begin() + at, words.begin() + end);
    at = end;
  }
  words.swap(out);
  return true;
}

} // namespace weft::compiler
