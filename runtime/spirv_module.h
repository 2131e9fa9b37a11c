// What the runtime reads of a SPIR-V module itself (clCreateProgramWithIL),
// without the compiler: that it is one, its version, and its
// specialization constants (id and size), which clSetProgramSpecialization-
// Constant validates against.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace weft {

struct SpirvSpecConstant {
  enum class Kind { Bool, Int, Float } kind = Kind::Int;
  uint32_t bits = 32; // 1 for bool
  // The bytes clSetProgramSpecializationConstant takes: 1 for bool.
  size_t size() const { return kind == Kind::Bool ? 1 : bits / 8; }
};

struct SpirvModuleInfo {
  uint32_t major = 0, minor = 0;
  std::map<uint32_t, SpirvSpecConstant> spec_constants; // by SpecId
};

// The newest SPIR-V version Weft reads: 1.5 and 1.6 modules are rewritten
// into 1.4, the translator's own limit (compiler/frontend/spirv_legalize.h).
inline constexpr uint32_t kSpirvMaxMinor = 6; // SPIR-V 1.6, read as 1.4

// Reads the header and the specialization constants; false with `why` when
// the bytes are no SPIR-V module Weft can take.
bool readSpirvModule(const void *il, size_t length, SpirvModuleInfo &info,
                     std::string &why);

// Whether the compiler's validator (spirv-tools) accepts the module (its
// reason goes to WEFT_DEBUG's log); true when the compiler library cannot
// be loaded (the build then fails anyway).
bool validSpirvModule(const void *il, size_t length);

} // namespace weft
