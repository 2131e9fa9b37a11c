#include "compiler/frontend/spirv_legalize.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace weft::compiler {
namespace {

// SPIR-V specification, section 3.
constexpr uint32_t kOpCapability = 17, kOpMemoryModel = 14,
                   kOpExecutionMode = 16, kOpSpecConstant = 50,
                   kOpExecutionModeId = 331, kOpTypeBool = 20, kOpTypeInt = 21,
                   kOpTypeFloat = 22, kOpTypeVector = 23, kOpTypeArray = 28,
                   kOpTypeStruct = 30, kOpTypePointer = 32,
                   kOpConstantFalse = 42, kOpConstant = 43,
                   kOpConstantComposite = 44, kOpConstantNull = 46,
                   kOpFunction = 54, kOpLoad = 61, kOpStore = 62,
                   kOpCopyMemory = 63, kOpCopyMemorySized = 64,
                   kOpDecorate = 71, kOpVectorShuffle = 79,
                   kOpCompositeConstruct = 80, kOpCompositeExtract = 81,
                   kOpCopyObject = 83, kOpSDiv = 135, kOpISub = 130,
                   kOpConvertPtrToU = 117, kOpSConvert = 114, kOpIEqual = 170,
                   kOpINotEqual = 171, kOpCopyLogical = 400, kOpPtrEqual = 401,
                   kOpPtrNotEqual = 402, kOpPtrDiff = 403,
                   kOpDecorateString = 5632, kOpMemberDecorateString = 5633,
                   kOpConvertUToPtr = 120, kOpBitcast = 124,
                   kOpDecorateId = 332, kOpImageWrite = 99, kOpExtension = 10,
                   kOpTypeFunction = 33, kOpFunctionEnd = 56,
                   kOpFunctionCall = 57, kOpReadClockKHR = 5056,
                   kOpTypeImage = 25, kOpFunctionParameter = 55,
                   kOpImageQueryLevels = 106, kOpUndef = 1,
                   kOpCompositeInsert = 82;
constexpr uint32_t kCapabilityLinkage = 5, kCapabilityShaderClock = 5055;
constexpr uint32_t kDecorationLinkageAttributes = 41, kLinkageImport = 1;
// Memory scopes (SPIR-V 3.27).
constexpr uint32_t kScopeWorkgroup = 2, kScopeSubgroup = 3;
// SPIR-V 1.4, the newest version llvm-spirv-15 reads.
constexpr uint32_t kVersion14 = 0x00010400;
constexpr uint32_t kDecorationUniform = 26, kDecorationUniformId = 27;
constexpr uint32_t kCapabilityUniformDecoration = 71;
constexpr uint32_t kImageOperandNontemporal = 0x4000;
constexpr uint32_t kDecorationSpecId = 1, kDecorationCPacked = 10,
                   kDecorationUserSemantic = 5635;
constexpr uint32_t kCapabilityInt64 = 11;
constexpr uint32_t kAddressingPhysical32 = 1;
constexpr uint32_t kMemoryVolatile = 0x1, kMemoryAligned = 0x2;
// Memory operand bits followed by one more word (a literal or an id).
constexpr uint32_t kMemoryBitsWithWord[] = {0x2, 0x8, 0x10, 0x10000, 0x20000};

constexpr uint32_t opHeader(size_t words, uint32_t opcode) {
  return static_cast<uint32_t>(words << 16) | opcode;
}

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

// Whether `opcode` is one of the instructions that can give a rewritten
// instruction its operand (values and pointers: constants, variables,
// parameters, loads, calls, access chains, casts, composites, phis,
// selects): each starts with its result type and result id.
bool hasResultType(uint32_t opcode) {
  // Conversions, arithmetic, bit and relational instructions, and the
  // composite instructions (OpVectorExtractDynamic to OpTranspose).
  if ((opcode >= 109 && opcode <= 205) || (opcode >= 77 && opcode <= 84))
    return true;
  switch (opcode) {
  case 12:   // OpExtInst
  case 5631: // OpExpectKHR
  case 1:    // OpUndef
  case 41:   // OpConstantTrue
  case 42:   // OpConstantFalse
  case 43:   // OpConstant
  case 44:   // OpConstantComposite
  case 46:   // OpConstantNull
  case 51:   // OpSpecConstantComposite
  case 54:   // OpFunction
  case 55:   // OpFunctionParameter
  case 57:   // OpFunctionCall
  case 59:   // OpVariable
  case 61:   // OpLoad
  case 65:   // OpAccessChain
  case 66:   // OpInBoundsAccessChain
  case 67:   // OpPtrAccessChain
  case 70:   // OpInBoundsPtrAccessChain
  case 80:   // OpCompositeConstruct
  case 81:   // OpCompositeExtract
  case 82:   // OpCompositeInsert
  case 83:   // OpCopyObject
  case 120:  // OpConvertUToPtr
  case 121:  // OpPtrCastToGeneric
  case 122:  // OpGenericCastToPtr
  case 123:  // OpGenericCastToPtrExplicit
  case 124:  // OpBitcast
  case 245:  // OpPhi
  case 169:  // OpSelect
  case 400:  // OpCopyLogical
    return true;
  default:
    return false;
  }
}

// One pass over a module, copying it into `out` with the rewrites made.
// What the rewrites learn of the module on the way: types, constants,
// and the result types of values. Declarations a rewrite needs (an
// integer type, a constant) are collected and placed ahead of the first
// function, where module-level declarations may go.
class Legalizer {
public:
  Legalizer(const std::vector<uint32_t> &words,
            const std::vector<SpecializationConstant> &constants)
      : in_(words), specialized_(constants) {}

  bool run(std::vector<uint32_t> &result);

private:
  struct Type {
    uint32_t opcode = 0;
    std::vector<uint32_t> operands; // the words after the result id
  };

  uint32_t newId() { return out_[3]++; }
  void emit(std::initializer_list<uint32_t> instruction) {
    out_.insert(out_.end(), instruction);
  }
  uint32_t pointerBits() const {
    return addressing_ == kAddressingPhysical32 ? 32 : 64;
  }
  uint32_t integerType(uint32_t bits);
  uint32_t integerConstant(uint32_t type, uint64_t value);
  std::optional<uint32_t> constantValue(uint32_t id) const;
  std::optional<std::pair<uint64_t, uint64_t>> sizeAndAlignment(uint32_t type,
                                                                int depth = 0);
  std::optional<uint32_t> scalarBits(uint32_t type) const;

  void learn(uint32_t opcode, size_t at, size_t count);
  bool rewriteConstantNull(size_t at);
  bool rewriteCopyMemory(uint32_t opcode, size_t at, size_t end);
  bool rewritePointerOp(uint32_t opcode, size_t at, size_t count);
  bool rewriteCopyLogical(size_t at, size_t count);
  bool rewriteExecutionModeId(size_t at, size_t count);
  bool rewriteVectorShuffle(size_t at, size_t count);
  bool rewritePointerBitcast(size_t at, size_t count);
  bool rewriteReadClock(size_t at, size_t count);
  bool rewriteImageQueryLevels(size_t at, size_t count);
  bool rewriteCompositeConstruct(size_t at, size_t count);
  uint32_t importedFunction(const std::string &name, uint32_t result_type,
                            const std::vector<uint32_t> &parameters = {});
  void clearNontemporal(uint32_t opcode, size_t at, size_t count);
  bool isPointerType(uint32_t type) const {
    auto t = types_.find(type);
    return t != types_.end() && t->second.opcode == kOpTypePointer;
  }
  std::map<uint32_t, uint64_t> scalarConstants() const;
  std::optional<uint32_t> copyLogical(uint32_t to_type, uint32_t from_type,
                                      uint32_t value, uint32_t result,
                                      int depth);

  const std::vector<uint32_t> &in_;
  const std::vector<SpecializationConstant> &specialized_;
  std::vector<uint32_t> out_;
  std::map<uint32_t, Type> types_;
  std::map<uint32_t, uint32_t> type_of_;       // value -> its type
  std::map<uint32_t, uint64_t> constants_;     // integer constant -> value
  std::map<uint32_t, uint32_t> integer_types_; // bits -> OpTypeInt id
  std::vector<uint32_t> packed_;               // CPacked structs
  std::vector<uint32_t> declarations_;         // to insert
  std::optional<size_t> first_function_;       // where in out_
  // Where the first type is in out_: imported functions' linkage
  // decorations go before it, their declarations before the first function.
  std::optional<size_t> first_type_;
  std::vector<uint32_t> linkage_decorations_;
  std::vector<uint32_t> function_declarations_;
  std::map<std::string, uint32_t> imported_; // name -> function id
  uint32_t addressing_ = 2;                  // Physical64
  bool has_int64_ = false;
  bool has_linkage_ = false;
  std::set<uint32_t> constant_ids_; // constants and undefs, composites too
};

uint32_t Legalizer::integerType(uint32_t bits) {
  auto known = integer_types_.find(bits);
  if (known != integer_types_.end())
    return known->second;
  uint32_t id = newId();
  declarations_.insert(declarations_.end(),
                       {opHeader(4, kOpTypeInt), id, bits, 0});
  integer_types_[bits] = id;
  types_[id] = {kOpTypeInt, {bits, 0}};
  return id;
}

uint32_t Legalizer::integerConstant(uint32_t type, uint64_t value) {
  uint32_t id = newId();
  if (scalarBits(type).value_or(32) > 32)
    declarations_.insert(declarations_.end(),
                         {opHeader(5, kOpConstant), type, id,
                          static_cast<uint32_t>(value),
                          static_cast<uint32_t>(value >> 32)});
  else
    declarations_.insert(
        declarations_.end(),
        {opHeader(4, kOpConstant), type, id, static_cast<uint32_t>(value)});
  return id;
}

std::optional<uint32_t> Legalizer::scalarBits(uint32_t type) const {
  auto t = types_.find(type);
  if (t == types_.end())
    return std::nullopt;
  if (t->second.opcode == kOpTypeBool)
    return 0;
  if ((t->second.opcode == kOpTypeInt || t->second.opcode == kOpTypeFloat) &&
      !t->second.operands.empty())
    return t->second.operands[0];
  return std::nullopt;
}

std::optional<uint32_t> Legalizer::constantValue(uint32_t id) const {
  auto c = constants_.find(id);
  if (c == constants_.end())
    return std::nullopt;
  return static_cast<uint32_t>(c->second);
}

// The size and alignment of a type in memory (OpenCL C's layout: vectors
// of three take four elements' room, structs pad to their members'
// alignment unless CPacked), for OpPtrDiff's element size.
std::optional<std::pair<uint64_t, uint64_t>>
Legalizer::sizeAndAlignment(uint32_t type, int depth) {
  auto t = types_.find(type);
  if (t == types_.end() || depth > 64)
    return std::nullopt;
  const std::vector<uint32_t> &ops = t->second.operands;
  switch (t->second.opcode) {
  case kOpTypeInt:
  case kOpTypeFloat:
    if (ops.empty() || ops[0] % 8)
      return std::nullopt;
    return std::make_pair(uint64_t(ops[0] / 8), uint64_t(ops[0] / 8));
  case kOpTypePointer:
    return std::make_pair(uint64_t(pointerBits() / 8),
                          uint64_t(pointerBits() / 8));
  case kOpTypeVector: {
    if (ops.size() < 2)
      return std::nullopt;
    auto element = sizeAndAlignment(ops[0], depth + 1);
    if (!element)
      return std::nullopt;
    uint64_t size = element->first * (ops[1] == 3 ? 4 : ops[1]);
    return std::make_pair(size, size);
  }
  case kOpTypeArray: {
    auto length = ops.size() < 2 ? std::nullopt : constantValue(ops[1]);
    auto element =
        ops.empty() ? std::nullopt : sizeAndAlignment(ops[0], depth + 1);
    if (!length || !element)
      return std::nullopt;
    return std::make_pair(element->first * *length, element->second);
  }
  case kOpTypeStruct: {
    bool packed =
        std::find(packed_.begin(), packed_.end(), type) != packed_.end();
    uint64_t size = 0, alignment = 1;
    for (uint32_t member : ops) {
      auto m = sizeAndAlignment(member, depth + 1);
      if (!m)
        return std::nullopt;
      uint64_t align = packed ? 1 : m->second;
      size = (size + align - 1) / align * align + m->first;
      alignment = std::max(alignment, align);
    }
    return std::make_pair((size + alignment - 1) / alignment * alignment,
                          alignment);
  }
  default:
    return std::nullopt;
  }
}

void Legalizer::learn(uint32_t opcode, size_t at, size_t count) {
  const uint32_t *w = &in_[at];
  switch (opcode) {
  case kOpCapability:
    if (count >= 2 && w[1] == kCapabilityInt64)
      has_int64_ = true;
    if (count >= 2 && w[1] == kCapabilityLinkage)
      has_linkage_ = true;
    return;
  case kOpMemoryModel:
    if (count >= 2)
      addressing_ = w[1];
    return;
  case kOpDecorate:
    if (count >= 3 && w[2] == kDecorationCPacked)
      packed_.push_back(w[1]);
    return;
  case kOpFunction:
    if (!first_function_)
      first_function_ = out_.size();
    break;
  default:
    break;
  }
  if (opcode >= 19 && opcode <= 39 && !first_type_) // OpTypeVoid..
    first_type_ = out_.size();
  if (opcode >= kOpTypeBool && opcode <= kOpTypePointer && count >= 2) {
    types_[w[1]] = {opcode, std::vector<uint32_t>(w + 2, w + count)};
    if (opcode == kOpTypeInt && count >= 4 && w[3] == 0 &&
        !integer_types_.count(w[2]))
      integer_types_[w[2]] = w[1];
  }
  if (opcode == kOpConstant && count >= 4) {
    uint64_t value = w[3];
    if (count >= 5)
      value |= uint64_t(w[4]) << 32;
    constants_[w[2]] = value;
  }
  if (hasResultType(opcode) && count >= 3)
    type_of_[w[2]] = w[1];
  // OpUndef, OpConstantTrue .. OpConstantNull.
  if ((opcode == kOpUndef || (opcode >= 41 && opcode <= 46)) && count >= 3)
    constant_ids_.insert(w[2]);
}

// The translator takes OpConstantNull only of composite and pointer types:
// a scalar null is its zero (or false).
bool Legalizer::rewriteConstantNull(size_t at) {
  uint32_t type = in_[at + 1], id = in_[at + 2];
  auto bits = scalarBits(type);
  if (!bits)
    return false;
  if (*bits == 0) {
    emit({opHeader(3, kOpConstantFalse), type, id});
  } else {
    uint32_t value_words = *bits > 32 ? 2 : 1;
    emit({opHeader(3 + value_words, kOpConstant), type, id});
    out_.insert(out_.end(), value_words, 0u);
  }
  return true;
}

// OpCopyMemory / OpCopyMemorySized with two sets of memory operands (SPIR-V
// 1.4): one set that holds for both. OpCopyMemory, which the translator
// cannot read at all, as a load and a store.
bool Legalizer::rewriteCopyMemory(uint32_t opcode, size_t at, size_t end) {
  size_t operands = at + (opcode == kOpCopyMemory ? 3 : 4);
  MemoryOperands target, source;
  bool first = operands < end && readMemoryOperands(in_, operands, end, target);
  bool second = first && operands + target.words < end &&
                readMemoryOperands(in_, operands + target.words, end, source);
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
    out_.push_back(mask);
    if (mask & kMemoryAligned)
      out_.push_back(alignment);
  };
  size_t operand_words = first ? 1 + ((mask & kMemoryAligned) ? 1 : 0) : 0;
  uint32_t target_id = in_[at + 1], source_id = in_[at + 2];
  auto type = type_of_.find(source_id);
  auto pointer =
      type == type_of_.end() ? types_.end() : types_.find(type->second);
  if (opcode == kOpCopyMemory && pointer != types_.end() &&
      pointer->second.opcode == kOpTypePointer &&
      pointer->second.operands.size() >= 2) {
    uint32_t pointee = pointer->second.operands[1];
    uint32_t value = newId();
    emit({opHeader(4 + operand_words, kOpLoad), pointee, value, source_id});
    pushOperands();
    emit({opHeader(3 + operand_words, kOpStore), target_id, value});
    pushOperands();
    return true;
  }
  if (!second)
    return false;
  out_.push_back(opHeader(operands - at + operand_words, opcode));
  out_.insert(out_.end(), in_.begin() + at + 1, in_.begin() + operands);
  pushOperands();
  return true;
}

// OpPtrEqual / OpPtrNotEqual / OpPtrDiff (SPIR-V 1.4), which the translator
// cannot read: the pointers as integers of their width, compared, or
// subtracted and divided by the size of what they point to.
bool Legalizer::rewritePointerOp(uint32_t opcode, size_t at, size_t count) {
  if (count != 5)
    return false;
  uint32_t result_type = in_[at + 1], result = in_[at + 2], a = in_[at + 3],
           b = in_[at + 4];
  std::optional<uint64_t> element_size;
  if (opcode == kOpPtrDiff) {
    auto type = type_of_.find(a);
    auto pointer =
        type == type_of_.end() ? types_.end() : types_.find(type->second);
    if (pointer == types_.end() || pointer->second.opcode != kOpTypePointer ||
        pointer->second.operands.size() < 2)
      return false;
    auto layout = sizeAndAlignment(pointer->second.operands[1]);
    if (!layout || layout->first == 0)
      return false;
    element_size = layout->first;
  }
  // The arithmetic in the result's own type when it is as wide as a
  // pointer, else in an integer of pointer width, converted at the end.
  uint32_t bits = pointerBits();
  if (bits == 64 && !has_int64_)
    return false; // 64-bit integers would need a capability it lacks
  uint32_t work_type = (opcode == kOpPtrDiff && scalarBits(result_type) == bits)
                           ? result_type
                           : integerType(bits);
  uint32_t ua = newId(), ub = newId();
  emit({opHeader(4, kOpConvertPtrToU), work_type, ua, a});
  emit({opHeader(4, kOpConvertPtrToU), work_type, ub, b});
  if (opcode != kOpPtrDiff) {
    emit({opHeader(5, opcode == kOpPtrEqual ? kOpIEqual : kOpINotEqual),
          result_type, result, ua, ub});
    return true;
  }
  bool convert = work_type != result_type;
  bool divide = *element_size != 1;
  uint32_t difference = (convert || divide) ? newId() : result;
  emit({opHeader(5, kOpISub), work_type, difference, ua, ub});
  uint32_t elements = difference;
  if (divide) {
    elements = convert ? newId() : result;
    uint32_t size = integerConstant(work_type, *element_size);
    emit({opHeader(5, kOpSDiv), work_type, elements, difference, size});
  }
  if (convert)
    emit({opHeader(4, kOpSConvert), result_type, result, elements});
  return true;
}

// A value of `from_type` as `to_type`, a type of the same shape
// (OpCopyLogical): aggregates member by member, extracted and constructed
// again. `result` is the id to define (0: a new one); the id defined, or
// nothing if the types do not match.
std::optional<uint32_t> Legalizer::copyLogical(uint32_t to_type,
                                               uint32_t from_type,
                                               uint32_t value, uint32_t result,
                                               int depth) {
  if (depth > 64)
    return std::nullopt;
  if (to_type == from_type) {
    if (!result)
      return value;
    emit({opHeader(4, kOpCopyObject), to_type, result, value});
    return result;
  }
  auto to = types_.find(to_type), from = types_.find(from_type);
  if (to == types_.end() || from == types_.end() ||
      to->second.opcode != from->second.opcode)
    return std::nullopt;
  std::vector<std::pair<uint32_t, uint32_t>> members; // to, from
  if (to->second.opcode == kOpTypeStruct) {
    if (to->second.operands.size() != from->second.operands.size())
      return std::nullopt;
    for (size_t i = 0; i < to->second.operands.size(); ++i)
      members.emplace_back(to->second.operands[i], from->second.operands[i]);
  } else if (to->second.opcode == kOpTypeArray) {
    auto length = constantValue(to->second.operands.at(1));
    if (!length || length != constantValue(from->second.operands.at(1)))
      return std::nullopt;
    members.assign(*length, {to->second.operands[0], from->second.operands[0]});
  } else {
    return std::nullopt;
  }
  std::vector<uint32_t> parts;
  for (uint32_t i = 0; i < members.size(); ++i) {
    uint32_t part = newId();
    emit({opHeader(5, kOpCompositeExtract), members[i].second, part, value, i});
    auto copied =
        copyLogical(members[i].first, members[i].second, part, 0, depth + 1);
    if (!copied)
      return std::nullopt;
    parts.push_back(*copied);
  }
  if (!result)
    result = newId();
  out_.push_back(opHeader(3 + parts.size(), kOpCompositeConstruct));
  out_.insert(out_.end(), {to_type, result});
  out_.insert(out_.end(), parts.begin(), parts.end());
  return result;
}

bool Legalizer::rewriteCopyLogical(size_t at, size_t count) {
  if (count != 4)
    return false;
  uint32_t type = in_[at + 1], result = in_[at + 2], operand = in_[at + 3];
  auto from = type_of_.find(operand);
  if (from == type_of_.end())
    return false;
  // Undone if a member does not match: the translator then says why.
  size_t mark = out_.size();
  uint32_t bound = out_[3];
  if (copyLogical(type, from->second, operand, result, 0))
    return true;
  out_.resize(mark);
  out_[3] = bound;
  return false;
}

// Every integer constant of the module, specialization constants with the
// values set for this build: execution modes come before the constants
// they name, so these are read ahead of the rewrites.
std::map<uint32_t, uint64_t> Legalizer::scalarConstants() const {
  std::map<uint32_t, uint64_t> values, spec_ids;
  for (size_t at = 5; at < in_.size();) {
    uint32_t count = in_[at] >> 16, opcode = in_[at] & 0xffff;
    if (count == 0 || at + count > in_.size())
      break;
    const uint32_t *w = &in_[at];
    if (opcode == kOpDecorate && count >= 4 && w[2] == kDecorationSpecId)
      spec_ids[w[1]] = w[3];
    if ((opcode == kOpConstant || opcode == kOpSpecConstant) && count >= 4) {
      uint64_t value = w[3] | (count >= 5 ? uint64_t(w[4]) << 32 : 0);
      auto spec = spec_ids.find(w[2]);
      if (opcode == kOpSpecConstant && spec != spec_ids.end())
        for (const SpecializationConstant &c : specialized_)
          if (c.id == spec->second)
            value = c.value_bits;
      values[w[2]] = value;
    }
    at += count;
  }
  return values;
}

// OpVectorShuffle of two vectors of different lengths (valid SPIR-V, which
// the translator asserts against): the shorter vector first widened to the
// longer one's type by a shuffle of its own (extracting components into a
// composite instead crashes the translator where a vector is constant).
bool Legalizer::rewriteVectorShuffle(size_t at, size_t count) {
  if (count < 5)
    return false;
  uint32_t result_type = in_[at + 1], result = in_[at + 2], first = in_[at + 3],
           second = in_[at + 4];
  auto lengthOf = [&](uint32_t value) -> std::pair<uint32_t, uint32_t> {
    auto type = type_of_.find(value);
    if (type == type_of_.end())
      return {0, 0};
    auto vector = types_.find(type->second);
    if (vector == types_.end() || vector->second.opcode != kOpTypeVector ||
        vector->second.operands.size() < 2)
      return {0, 0};
    return {type->second, vector->second.operands[1]};
  };
  auto [first_type, first_length] = lengthOf(first);
  auto [second_type, second_length] = lengthOf(second);
  if (!first_length || !second_length || first_length == second_length)
    return false;
  bool widen_first = first_length < second_length;
  uint32_t shorter = widen_first ? first : second;
  uint32_t shorter_length = std::min(first_length, second_length),
           longer_length = std::max(first_length, second_length);
  uint32_t widened = newId();
  out_.push_back(opHeader(5 + longer_length, kOpVectorShuffle));
  out_.insert(out_.end(), {widen_first ? second_type : first_type, widened,
                           shorter, shorter});
  for (uint32_t i = 0; i < longer_length; ++i)
    out_.push_back(i < shorter_length ? i : 0); // the rest: any component
  out_.push_back(opHeader(count, kOpVectorShuffle));
  out_.insert(out_.end(), {result_type, result, widen_first ? widened : first,
                           widen_first ? second : widened});
  for (size_t i = at + 5; i < at + count; ++i) {
    uint32_t index = in_[i];
    // Components of the second vector move up when the first grew.
    if (widen_first && index != 0xFFFFFFFFu && index >= first_length)
      index = longer_length + (index - first_length);
    out_.push_back(index);
  }
  return true;
}

// OpBitcast between a pointer and an integer scalar or vector (SPIR-V
// 1.5), which the translator cannot read: OpConvertPtrToU / OpConvertUToPtr
// with an integer of pointer width, bitcast to or from the vector.
bool Legalizer::rewritePointerBitcast(size_t at, size_t count) {
  if (count != 4)
    return false;
  uint32_t result_type = in_[at + 1], result = in_[at + 2],
           operand = in_[at + 3];
  auto operand_type = type_of_.find(operand);
  if (operand_type == type_of_.end())
    return false;
  bool from_pointer = isPointerType(operand_type->second);
  bool to_pointer = isPointerType(result_type);
  if (from_pointer == to_pointer)
    return false; // pointer to pointer, or no pointer: 1.4 has it
  uint32_t other = from_pointer ? result_type : operand_type->second;
  auto type = types_.find(other);
  if (type == types_.end())
    return false;
  bool vector = type->second.opcode == kOpTypeVector;
  if (!vector && type->second.opcode != kOpTypeInt)
    return false;
  uint32_t word = integerType(pointerBits());
  if (from_pointer) {
    uint32_t as_integer = vector ? newId() : result;
    emit({opHeader(4, kOpConvertPtrToU), vector ? word : result_type,
          as_integer, operand});
    if (vector)
      emit({opHeader(4, kOpBitcast), result_type, result, as_integer});
  } else {
    uint32_t as_integer = operand;
    if (vector) {
      as_integer = newId();
      emit({opHeader(4, kOpBitcast), word, as_integer, operand});
    }
    emit({opHeader(4, kOpConvertUToPtr), result_type, result, as_integer});
  }
  return true;
}

// A function of the builtin library, declared with Import linkage under
// its mangled name (once per name); its id.
uint32_t Legalizer::importedFunction(const std::string &name,
                                     uint32_t result_type,
                                     const std::vector<uint32_t> &parameters) {
  auto known = imported_.find(name);
  if (known != imported_.end())
    return known->second;
  uint32_t function_type = newId(), function = newId();
  declarations_.insert(declarations_.end(),
                       {opHeader(3 + parameters.size(), kOpTypeFunction),
                        function_type, result_type});
  declarations_.insert(declarations_.end(), parameters.begin(),
                       parameters.end());
  // The name as a nul-terminated string packed four bytes to a word.
  std::vector<uint32_t> literal((name.size() + 4) / 4, 0);
  for (size_t i = 0; i < name.size(); ++i)
    literal[i / 4] |= uint32_t(uint8_t(name[i])) << (8 * (i % 4));
  linkage_decorations_.push_back(opHeader(4 + literal.size(), kOpDecorate));
  linkage_decorations_.push_back(function);
  linkage_decorations_.push_back(kDecorationLinkageAttributes);
  linkage_decorations_.insert(linkage_decorations_.end(), literal.begin(),
                              literal.end());
  linkage_decorations_.push_back(kLinkageImport);
  function_declarations_.insert(
      function_declarations_.end(),
      {opHeader(5, kOpFunction), result_type, function, 0, function_type});
  for (uint32_t parameter : parameters)
    function_declarations_.insert(
        function_declarations_.end(),
        {opHeader(3, kOpFunctionParameter), parameter, newId()});
  function_declarations_.push_back(opHeader(1, kOpFunctionEnd));
  imported_[name] = function;
  return function;
}

// OpCompositeConstruct, which the translator reads only as a constant (it
// crashes on any other constituent): OpCompositeInsert into an undefined
// composite, one member or vector component at a time, a vector
// constituent of a vector taken apart with OpCompositeExtract.
bool Legalizer::rewriteCompositeConstruct(size_t at, size_t count) {
  if (count < 4)
    return false;
  uint32_t result_type = in_[at + 1], result = in_[at + 2];
  bool all_constant = true;
  for (size_t i = at + 3; i < at + count; ++i)
    all_constant &= constant_ids_.count(in_[i]) > 0;
  auto type = types_.find(result_type);
  if (all_constant || type == types_.end())
    return false;
  const bool vector = type->second.opcode == kOpTypeVector;
  if (vector && type->second.operands.empty())
    return false;
  // The parts: (constituent, component of it or ~0 for all of it).
  std::vector<std::pair<uint32_t, uint32_t>> parts;
  for (size_t i = at + 3; i < at + count; ++i) {
    uint32_t constituent = in_[i];
    auto constituent_type = type_of_.find(constituent);
    auto t = constituent_type == type_of_.end()
                 ? types_.end()
                 : types_.find(constituent_type->second);
    if (vector && t != types_.end() && t->second.opcode == kOpTypeVector) {
      if (t->second.operands.size() < 2)
        return false;
      for (uint32_t c = 0; c < t->second.operands[1]; ++c)
        parts.push_back({constituent, c});
    } else {
      parts.push_back({constituent, ~0u});
    }
  }
  if (parts.size() < 2)
    return false;
  uint32_t composite = newId();
  emit({opHeader(3, kOpUndef), result_type, composite});
  for (size_t index = 0; index < parts.size(); ++index) {
    auto [constituent, component] = parts[index];
    uint32_t object = constituent;
    if (component != ~0u) {
      object = newId();
      emit({opHeader(5, kOpCompositeExtract), type->second.operands[0], object,
            constituent, component});
    }
    uint32_t next = index + 1 == parts.size() ? result : newId();
    emit({opHeader(6, kOpCompositeInsert), result_type, next, object, composite,
          static_cast<uint32_t>(index)});
    composite = next;
  }
  return true;
}

// OpImageQueryLevels, which the translator crashes on: a call of
// get_image_num_mip_levels (cl_khr_mipmap_image) for the image's type,
// under the name OpenCL C mangles it to.
bool Legalizer::rewriteImageQueryLevels(size_t at, size_t count) {
  if (count != 4)
    return false;
  uint32_t result_type = in_[at + 1], result = in_[at + 2], image = in_[at + 3];
  auto image_type = type_of_.find(image);
  if (image_type == type_of_.end())
    return false;
  auto type = types_.find(image_type->second);
  // OpTypeImage: sampled type, Dim, Depth, Arrayed, MS, Sampled, Format,
  // access qualifier.
  if (type == types_.end() || type->second.opcode != kOpTypeImage ||
      type->second.operands.size() < 7)
    return false;
  const std::vector<uint32_t> &ops = type->second.operands;
  uint32_t dim = ops[1], depth = ops[2], arrayed = ops[3];
  uint32_t access = ops.size() > 7 ? ops[7] : 0;
  static const char *const kDims[] = {"1d", "2d", "3d"};
  static const char *const kAccess[] = {"_ro", "_wo", "_rw"};
  if (dim > 2 || access > 2 || (dim == 2 && (arrayed || depth == 1)) ||
      (dim == 0 && depth == 1))
    return false;
  std::string name = std::string("ocl_image") + kDims[dim] +
                     (arrayed ? "_array" : "") + (depth == 1 ? "_depth" : "") +
                     kAccess[access];
  std::string mangled =
      "_Z24get_image_num_mip_levels" + std::to_string(name.size()) + name;
  uint32_t function =
      importedFunction(mangled, result_type, {image_type->second});
  emit({opHeader(5, kOpFunctionCall), result_type, result, function, image});
  return true;
}

// OpReadClockKHR (SPV_KHR_shader_clock, which the translator does not
// know): a call of cl_khr_kernel_clock's builtin of its scope, 64 bits or
// the hi/lo pair as its result type says.
bool Legalizer::rewriteReadClock(size_t at, size_t count) {
  if (count != 4)
    return false;
  uint32_t result_type = in_[at + 1], result = in_[at + 2];
  std::optional<uint32_t> scope = constantValue(in_[at + 3]);
  auto type = types_.find(result_type);
  if (!scope || type == types_.end())
    return false;
  std::string which = *scope == kScopeSubgroup    ? "sub_group"
                      : *scope == kScopeWorkgroup ? "work_group"
                                                  : "device";
  std::string name = type->second.opcode == kOpTypeVector
                         ? "clock_read_hilo_" + which
                         : "clock_read_" + which;
  std::string mangled = "_Z" + std::to_string(name.size()) + name + "v";
  uint32_t function = importedFunction(mangled, result_type);
  emit({opHeader(4, kOpFunctionCall), result_type, result, function});
  return true;
}

// The Nontemporal image operand (SPIR-V 1.6), a hint without operands of
// its own: cleared from an image instruction's operand mask.
void Legalizer::clearNontemporal(uint32_t opcode, size_t at, size_t count) {
  size_t mask_at = 0;
  switch (opcode) {
  case 87: // OpImageSampleImplicitLod
  case 88: // OpImageSampleExplicitLod
  case 91: // OpImageSampleProjImplicitLod
  case 92: // OpImageSampleProjExplicitLod
  case 95: // OpImageFetch
  case 98: // OpImageRead
    mask_at = 5;
    break;
  case 89: // OpImageSampleDrefImplicitLod
  case 90: // OpImageSampleDrefExplicitLod
  case 93: // OpImageSampleProjDrefImplicitLod
  case 94: // OpImageSampleProjDrefExplicitLod
  case 96: // OpImageGather
  case 97: // OpImageDrefGather
    mask_at = 6;
    break;
  case kOpImageWrite:
    mask_at = 4;
    break;
  default:
    return;
  }
  if (mask_at < count)
    out_[out_.size() - count + mask_at] &= ~kImageOperandNontemporal;
}

// OpExecutionModeId as OpExecutionMode with the constants' values.
bool Legalizer::rewriteExecutionModeId(size_t at, size_t count) {
  static const std::map<uint32_t, uint32_t> kLiteralModes = {
      {37, 36}, // SubgroupsPerWorkgroupId -> SubgroupsPerWorkgroup
      {38, 17}, // LocalSizeId -> LocalSize
      {39, 18}, // LocalSizeHintId -> LocalSizeHint
  };
  auto mode = kLiteralModes.find(count >= 3 ? in_[at + 2] : 0);
  if (mode == kLiteralModes.end())
    return false;
  std::map<uint32_t, uint64_t> values = scalarConstants();
  std::vector<uint32_t> literals;
  for (size_t i = at + 3; i < at + count; ++i) {
    auto value = values.find(in_[i]);
    if (value == values.end())
      return false; // a computed constant: left to the translator
    literals.push_back(static_cast<uint32_t>(value->second));
  }
  out_.insert(out_.end(), {opHeader(3 + literals.size(), kOpExecutionMode),
                           in_[at + 1], mode->second});
  out_.insert(out_.end(), literals.begin(), literals.end());
  return true;
}

bool Legalizer::run(std::vector<uint32_t> &result) {
  if (in_.size() < 5)
    return false;
  out_.assign(in_.begin(), in_.begin() + 5);
  out_.reserve(in_.size());
  // SPIR-V 1.5 and 1.6 modules are read as 1.4 once what those versions
  // added is rewritten (spirv_legalize.h).
  if (out_[1] > kVersion14)
    out_[1] = kVersion14;
  for (size_t at = 5; at < in_.size();) {
    uint32_t count = in_[at] >> 16, opcode = in_[at] & 0xffff;
    if (count == 0 || at + count > in_.size())
      return false;
    size_t end = at + count;
    learn(opcode, at, count);
    bool rewritten = false;
    if ((opcode == kOpDecorateString && count >= 3 &&
         in_[at + 2] == kDecorationUserSemantic) ||
        (opcode == kOpMemberDecorateString && count >= 4 &&
         in_[at + 3] == kDecorationUserSemantic))
      rewritten = true; // a hint for tools: dropped
    else if (opcode == kOpConstantNull && count == 3)
      rewritten = rewriteConstantNull(at);
    else if (opcode == kOpCopyMemory || opcode == kOpCopyMemorySized)
      rewritten = rewriteCopyMemory(opcode, at, end);
    else if (opcode == kOpPtrEqual || opcode == kOpPtrNotEqual ||
             opcode == kOpPtrDiff)
      rewritten = rewritePointerOp(opcode, at, count);
    else if (opcode == kOpCopyLogical)
      rewritten = rewriteCopyLogical(at, count);
    else if (opcode == kOpExecutionModeId)
      rewritten = rewriteExecutionModeId(at, count);
    else if (opcode == kOpVectorShuffle)
      rewritten = rewriteVectorShuffle(at, count);
    else if (opcode == kOpBitcast)
      rewritten = rewritePointerBitcast(at, count);
    else if (opcode == kOpReadClockKHR)
      rewritten = rewriteReadClock(at, count);
    else if (opcode == kOpImageQueryLevels)
      rewritten = rewriteImageQueryLevels(at, count);
    else if (opcode == kOpCompositeConstruct && first_function_)
      rewritten = rewriteCompositeConstruct(at, count);
    // SPV_KHR_shader_clock: its clock reads become calls of imported
    // functions, which need Linkage.
    else if (opcode == kOpCapability && count == 2 &&
             in_[at + 1] == kCapabilityShaderClock) {
      emit({opHeader(2, kOpCapability), kCapabilityLinkage});
      rewritten = true;
    } else if (opcode == kOpExtension &&
               std::string(reinterpret_cast<const char *>(&in_[at + 1]),
                           strnlen(reinterpret_cast<const char *>(&in_[at + 1]),
                                   (count - 1) * 4)) == "SPV_KHR_shader_clock")
      rewritten = true;
    // Uniformity hints (SPIR-V 1.6's UniformDecoration, 1.5's UniformId):
    // dropped with their capability.
    else if ((opcode == kOpCapability && count == 2 &&
              in_[at + 1] == kCapabilityUniformDecoration) ||
             (opcode == kOpDecorate && count == 3 &&
              in_[at + 2] == kDecorationUniform) ||
             (opcode == kOpDecorateId && count == 4 &&
              in_[at + 2] == kDecorationUniformId))
      rewritten = true;
    if (!rewritten) {
      out_.insert(out_.end(), in_.begin() + at, in_.begin() + end);
      clearNontemporal(opcode, at, count);
    }
    at = end;
  }
  if (!declarations_.empty() || !function_declarations_.empty()) {
    if (!first_function_)
      return false; // rewrites happen in functions
    declarations_.insert(declarations_.end(), function_declarations_.begin(),
                         function_declarations_.end());
    out_.insert(out_.begin() + *first_function_, declarations_.begin(),
                declarations_.end());
  }
  if (!linkage_decorations_.empty()) {
    if (!first_type_)
      return false;
    out_.insert(out_.begin() + *first_type_, linkage_decorations_.begin(),
                linkage_decorations_.end());
    // Imports need Linkage (a clock read's came in place of its
    // capability); the capabilities come first.
    bool linkage = has_linkage_;
    for (size_t at = 5; !linkage && at + 1 < out_.size() &&
                        (out_[at] & 0xffff) == kOpCapability;
         at += out_[at] >> 16)
      linkage = out_[at + 1] == kCapabilityLinkage;
    if (!linkage)
      out_.insert(out_.begin() + 5,
                  {opHeader(2, kOpCapability), kCapabilityLinkage});
  }
  result.swap(out_);
  return true;
}

} // namespace

bool legalizeSpirvForTranslator(
    std::vector<uint32_t> &words,
    const std::vector<SpecializationConstant> &constants) {
  return Legalizer(words, constants).run(words);
}

} // namespace weft::compiler
