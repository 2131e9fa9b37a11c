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
  uint32_t version = words[0] == kMagic ? words[1] : byteSwap(words[1]);
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
