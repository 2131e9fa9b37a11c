#include "runtime/spirv_module.h"

#include "compiler/interface/compiler_interface.h"
#include "runtime/compiler_loader.h"
#include "runtime/debug_log.h"

#include <cstring>

namespace weft {
namespace {

constexpr uint32_t kMagic = 0x07230203;
// The instructions read here (SPIR-V specification, section 3).
constexpr uint32_t kOpTypeBool = 20, kOpTypeInt = 21, kOpTypeFloat = 22,
                   kOpSpecConstantTrue = 48, kOpSpecConstantFalse = 49,
                   kOpSpecConstant = 50, kOpDecorate = 71;
constexpr uint32_t kDecorationSpecId = 1;

uint32_t byteSwap(uint32_t w) {
  return (w >> 24) | ((w >> 8) & 0xff00) | ((w << 8) & 0xff0000) | (w << 24);
}

} // namespace

bool readSpirvModule(const void *il, size_t length, SpirvModuleInfo &info,
                     std::string &why) {
  info = SpirvModuleInfo();
  if (!il || length < 20 || length % 4 != 0) {
    why = "not a SPIR-V module: its size is not a whole number of words";
    return false;
  }
  std::vector<uint32_t> words(length / 4);
  std::memcpy(words.data(), il, length);
  if (words[0] == byteSwap(kMagic))
    for (uint32_t &w : words)
      w = byteSwap(w);
  else if (words[0] != kMagic) {
    why = "not a SPIR-V module: wrong magic number";
    return false;
  }
  info.major = (words[1] >> 16) & 0xff;
  info.minor = (words[1] >> 8) & 0xff;
  if (info.major != 1 || info.minor > kSpirvMaxMinor) {
    why = "SPIR-V " + std::to_string(info.major) + "." +
          std::to_string(info.minor) + " is not supported (1.0 to 1." +
          std::to_string(kSpirvMaxMinor) + ")";
    return false;
  }
  struct Type {
    SpirvSpecConstant::Kind kind;
    uint32_t bits;
  };
  std::map<uint32_t, Type> types;          // by result id
  std::map<uint32_t, uint32_t> spec_ids;   // result id -> SpecId
  std::map<uint32_t, Type> spec_constants; // result id -> its type
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) {
      why = "malformed SPIR-V: an instruction runs past the module's end";
      return false;
    }
    const uint32_t *op = &words[at];
    switch (opcode) {
    case kOpTypeBool:
      if (count >= 2)
        types[op[1]] = {SpirvSpecConstant::Kind::Bool, 1};
      break;
    case kOpTypeInt:
      if (count >= 3)
        types[op[1]] = {SpirvSpecConstant::Kind::Int, op[2]};
      break;
    case kOpTypeFloat:
      if (count >= 3)
        types[op[1]] = {SpirvSpecConstant::Kind::Float, op[2]};
      break;
    case kOpSpecConstantTrue:
    case kOpSpecConstantFalse:
    case kOpSpecConstant:
      if (count >= 3 && types.count(op[1]))
        spec_constants[op[2]] = types[op[1]];
      break;
    case kOpDecorate:
      if (count >= 4 && op[2] == kDecorationSpecId)
        spec_ids[op[1]] = op[3];
      break;
    default:
      break;
    }
    at += count;
  }
  for (const auto &[result, spec_id] : spec_ids) {
    auto found = spec_constants.find(result);
    if (found == spec_constants.end())
      continue; // a composite or an operation: not settable by id
    info.spec_constants[spec_id] = {found->second.kind, found->second.bits};
  }
  return true;
}

bool validSpirvModule(const void *il, size_t length) {
  std::string error;
  compiler::Compiler *compiler = loadCompiler(error);
  if (!compiler)
    return true;
  const auto *bytes = static_cast<const unsigned char *>(il);
  std::string log;
  if (compiler->validateSpirv(std::vector<unsigned char>(bytes, bytes + length),
                              log))
    return true;
  while (!log.empty() && log.back() == '\n')
    log.pop_back();
  debugLog("clCreateProgramWithIL: %s", log.c_str());
  return false;
}

} // namespace weft
