#include "compiler/frontend/spirv_validation.h"

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <cstring>

namespace weft::compiler {
namespace {

constexpr uint32_t kMagic = 0x07230203;

uint32_t byteSwap(uint32_t w) {
  return (w >> 24) | ((w >> 8) & 0xff00) | ((w << 8) & 0xff0000) | (w << 24);
}

// The validator's rules for the module's own version: the universal
// environments check the core rules without an API's extra restrictions,
// which for OpenCL are the translator's to enforce (and it reports them).
spv_target_env environmentFor(uint32_t version_word) {
  switch ((version_word >> 8) & 0xff) {
  case 0:
    return SPV_ENV_UNIVERSAL_1_0;
  case 1:
    return SPV_ENV_UNIVERSAL_1_1;
  case 2:
    return SPV_ENV_UNIVERSAL_1_2;
  case 3:
    return SPV_ENV_UNIVERSAL_1_3;
  case 4:
    return SPV_ENV_UNIVERSAL_1_4;
  case 5:
    return SPV_ENV_UNIVERSAL_1_5;
  default:
    return SPV_ENV_UNIVERSAL_1_6;
  }
}

// OpImageWrite with a Lod operand: the OpenCL SPIR-V environment takes it
// for cl_khr_mipmap_image_writes (the translator emits it for write_image*
// with a level), while the universal rules allow Lod only on explicit-lod
// reads. The validator gets the module with those Lods taken out, so every
// other rule still holds for the rest of the write.
void dropImageWriteLods(std::vector<uint32_t> &words) {
  constexpr uint32_t kOpImageWrite = 99, kImageOperandBias = 0x1,
                     kImageOperandLod = 0x2;
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  out.reserve(words.size());
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size())
      return; // malformed: left for the validator to report
    const size_t mask_at = at + 4;
    if (opcode == kOpImageWrite && count >= 6 &&
        (words[mask_at] & kImageOperandLod) &&
        !(words[mask_at] & kImageOperandBias)) {
      // The Lod's id is the first operand after the mask.
      uint32_t mask = words[mask_at] & ~kImageOperandLod;
      std::vector<uint32_t> write(words.begin() + at, words.begin() + mask_at);
      if (mask != 0 || count > 6) {
        write.push_back(mask);
        write.insert(write.end(), words.begin() + mask_at + 2,
                     words.begin() + at + count);
      }
      write[0] = static_cast<uint32_t>(write.size() << 16) | opcode;
      out.insert(out.end(), write.begin(), write.end());
    } else {
      out.insert(out.end(), words.begin() + at, words.begin() + at + count);
    }
    at += count;
  }
  words.swap(out);
}

} // namespace

bool validateSpirv(const std::vector<unsigned char> &il, std::string &log) {
  if (il.size() < 20 || il.size() % 4 != 0) {
    log += "error: the SPIR-V module is not valid: its " +
           std::to_string(il.size()) +
           " bytes are no whole header and instructions\n";
    return false;
  }
  std::vector<uint32_t> words(il.size() / 4);
  std::memcpy(words.data(), il.data(), il.size());
  if (words[0] != kMagic)
    for (uint32_t &w : words)
      w = byteSwap(w);
  uint32_t version = words[1];
  dropImageWriteLods(words);
  spv_context context = spvContextCreate(environmentFor(version));
  spv_validator_options options = spvValidatorOptionsCreate();
  spv_const_binary_t binary{words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result =
      spvValidateWithOptions(context, options, &binary, &diagnostic);
  if (result != SPV_SUCCESS) {
    log += "error: the SPIR-V module is not valid: ";
    log += diagnostic && diagnostic->error ? diagnostic->error
                                           : "the validator refused it";
    log += "\n";
  }
  spvDiagnosticDestroy(diagnostic);
  spvValidatorOptionsDestroy(options);
  spvContextDestroy(context);
  return result == SPV_SUCCESS;
}

} // namespace weft::compiler
