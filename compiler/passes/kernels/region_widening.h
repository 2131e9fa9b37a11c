// A region of weft-barrier-regions run across work-items at once: the region
// written out as a work-item function of its own, which weft-widen-work-items'
// vectorizer (work_item_vectorizer.h) widens as it does a body without
// barriers. A region with a loop of its own (a GEMM's k steps between the
// barriers that fill its local tiles, a register tile's FMAs) otherwise runs
// one work-item at a time: LLVM's loop vectorizer widens only innermost
// loops, and the loop over the work-items is the outer one.
#pragma once
#include "compiler/passes/kernels/entry_builder.h"
#include "compiler/passes/kernels/region_analysis.h"
#include "compiler/passes/kernels/region_state_layout.h"

#include <string>
#include <utility>
#include <vector>

namespace llvm {
class AllocaInst;
class Function;
class Value;
} // namespace llvm

namespace weft::compiler {

struct WidenedRegion {
  // (kernel arguments..., `extra`..., context, first x, y, z, count): runs
  // work-items first .. first + min(count, lanes) - 1 of row (y, z) through
  // the region, each from its saved variables to the barrier it reaches,
  // and records where it resumes.
  llvm::Function *simd = nullptr;
  // The same for at most kDefaultLanes work-items (a row's end), when simd
  // is wider; else null.
  llvm::Function *narrow_simd = nullptr;
  // The group entry's values for the parameters between the kernel's
  // arguments and the context.
  std::vector<llvm::Value *> extra;
  // Versions for a chunk whose work-items each hold the same value in every
  // variable of `alike` (integers of their own, by the base of their arrays
  // in the storage and their type): they read those values once, from the
  // chunk's first work-item, and take its x as one more parameter after
  // `extra`. A loop counter kept across barriers under a branch the
  // uniformity analysis cannot prove all work-items take (CLBlast's `kwg`)
  // is then one value, and the addresses computed from it are no gathers.
  // Null when they would gather no less.
  llvm::Function *alike_simd = nullptr;
  llvm::Function *alike_narrow_simd = nullptr;
  std::vector<std::pair<llvm::Value *, llvm::Type *>> alike;
};

// Writes region `r` of the kernel's `work` function as a function and
// widens it, for a region that
// has a loop and no async copy or question of which work-item is last.
// Inside, each variable the region uses is a private copy: one of the
// variables every work-item shares within a run (`shared`) starts empty; a
// work-item's own (`per_item`, kept in `storage`) is loaded at the start and
// stored at the end when the region writes it; a group-uniform one
// (`uniform`) starts at the group's current value. A kernel's
// `required_size` (zeros: none) bounds the local ids and the lanes: a
// group of 8 x 8 needs no more than 8 at once. Returns no simd,
// and `why`, when the region does not qualify or the vectorizer declined
// (`why` empty: the region has no loop, and LLVM's loop vectorizer covers
// it); `how` says how many lanes and why.
struct RegionKernel {
  llvm::Function &work;
  const Regions &regions;
  const GroupEntryValues &values;
  const RegionStorage &storage;
  const std::vector<llvm::AllocaInst *> &shared;
  const std::vector<llvm::AllocaInst *> &per_item;
  const std::vector<bool> &uniform;
  const uint64_t *required_size; // 3
  uint32_t sub_group_size;       // KernelDescription::sub_group_size
};
WidenedRegion widenRegion(const RegionKernel &kernel, unsigned r,
                          std::string &why, std::string &how);

} // namespace weft::compiler
