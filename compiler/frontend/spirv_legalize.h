// SPIR-V forms that llvm-spirv-15 cannot read, rewritten into older
// equivalent ones before it runs (compiler/frontend/spirv_translator.h):
// - OpDecorateString / OpMemberDecorateString with UserSemantic, a hint
//   for tools with no meaning for execution: dropped.
// - OpCopyMemory / OpCopyMemorySized with two sets of memory operands (one
//   for the target, one for the source): one set that holds for both
//   (volatile if either is, aligned to the smaller alignment if both are);
//   OpCopyMemory itself, which it cannot read either, as a load and a store.
// - OpConstantNull of a scalar type (any version): its zero, or false.
// - OpPtrEqual / OpPtrNotEqual / OpPtrDiff (1.4): the pointers converted
//   to integers of pointer width, compared or subtracted (and divided by
//   the pointee's size).
// - OpCopyLogical (1.4): aggregates extracted member by member and
//   constructed again as the other, identically shaped type.
// - OpVectorShuffle of vectors of two lengths: the shorter one widened to
//   the longer one's type first.
// - OpExecutionModeId (1.2), which it cannot read: OpExecutionMode with the
//   constants' values (specialized), LocalSizeId and LocalSizeHintId as
//   LocalSize and LocalSizeHint, SubgroupsPerWorkgroupId as
//   SubgroupsPerWorkgroup (which compiler/frontend/spirv_execution_modes.h
//   reads).
// - SPIR-V 1.5 and 1.6 modules are read as 1.4, with what those versions
//   added rewritten: OpBitcast between a pointer and an integer scalar or
//   vector as OpConvertPtrToU / OpConvertUToPtr (and a bitcast of the
//   integer to or from the vector); the Nontemporal image operand cleared;
//   the Uniform and UniformId decorations, hints, dropped with the
//   UniformDecoration capability. Anything else new in them reaches the
//   translator as written, which says what it cannot read.
// - OpReadClockKHR (SPV_KHR_shader_clock, unknown to the translator): a
//   call of cl_khr_kernel_clock's builtin of its scope, declared with Import
//   linkage (the capability becomes Linkage, the extension is dropped).
// - OpImageQueryLevels, which crashes it: a call of get_image_num_mip_levels
//   for the image's type, imported the same way (Linkage added if absent).
// - OpCompositeConstruct of anything but constants, which it reads only as
//   a constant (and crashes on otherwise): OpCompositeInsert into an
//   undefined composite, a vector constituent of a vector taken apart with
//   OpCompositeExtract.
#pragma once
#include "compiler/interface/compiler_interface.h"

#include <cstdint>
#include <vector>

namespace weft::compiler {

// Rewrites `words` (a SPIR-V module in host byte order) in place, with
// `constants` the specialization constants set for the build; false if the
// module is malformed (the translator then says why).
bool legalizeSpirvForTranslator(
    std::vector<uint32_t> &words,
    const std::vector<SpecializationConstant> &constants = {});

} // namespace weft::compiler
