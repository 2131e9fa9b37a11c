// Kernels without barriers run as a loop over their work-items, which LLVM's
// loop vectorizer widens across work-items. It widens only innermost loops,
// though: a body with a loop of its own (an escape-time fractal's per-pixel
// loop, a search) stays one work-item at a time. For those, this pass widens
// the whole body: it writes a function that runs neighbouring work-items in
// x at once (as many as widening_width.h chooses), each control-flow path and loop under a mask of
// the work-items still on it. A loop runs while any of its work-items
// continues; work-items that left keep the values they left with.
//
// It handles bodies made of arithmetic, comparisons, casts, selects, address
// arithmetic, plain loads and stores, branches and natural loops with one
// exit block, and the math intrinsics that have vector forms. Anything else
// (calls, private arrays, atomics, vector-typed values) keeps the loop over
// single work-items.
#pragma once
#include <llvm/IR/PassManager.h>
#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace weft::compiler {

// For a body (kernel arguments..., context, local id x, y, z) that has a
// loop, returns a function (kernel arguments..., context, first x, y, z,
// count) that runs work-items first .. first + min(count, lanes) - 1 of row
// (y, z), where `lanes` is its attribute kLanesAttribute. Returns null and
// says why when the body does not qualify; `how` says how lanes was chosen.
struct WideningLimits {
  // A power of two, or 0 for no limit: rows are known to be no wider.
  unsigned most_lanes = 0;
  // Widen even when uniform loops would then gather without AVX-512's fast
  // gathers: the alternative is scalar code, not LLVM's loop vectorizer.
  bool gathers_pay = false;
  // Widen a body with no loop of its own too: the loop over work-items it
  // would otherwise run in is one LLVM's loop vectorizer leaves scalar.
  bool without_loops = false;
  // The kernel's sub-groups exchange values (builtins/subgroups.cl): a
  // sub-group is one chunk, so exactly this many lanes (its size), whatever
  // the widening would otherwise pay; 0 for none.
  unsigned sub_group_lanes = 0;
  // Without fast gathers, loops that gather keep to a register's floats
  // (widening_width.cpp); a region with a version for chunks alike, which
  // gathers less, keeps its width instead.
  bool narrow_for_gathers = true;
};
llvm::Function *vectorizeWorkItems(llvm::Function &body, std::string &why,
                                   std::string &how,
                                   const WideningLimits &limits = {});

inline constexpr const char *kLanesAttribute = "weft-lanes";

// On a kernel body whose loop over work-items LLVM's loop vectorizer is to
// leave scalar: widened, each work-item's walk along a row of its own would
// gather (loadsAlongOwnRows), and once LLVM unrolls the body's loop away
// it would vectorize the loop over work-items with the same gathers.
inline constexpr const char *kScalarWorkItemLoopAttribute =
    "weft-scalar-work-item-loop";

// The work-items a function vectorizeWorkItems wrote runs at once.
unsigned widenedLanes(const llvm::Function &simd);

// weft-widen-work-items: body.simd for kernels whose plan is Widened; a
// body the vectorizer declines falls back to the work-item loop, and the
// plan says why.
class WorkItemVectorizerPass
    : public llvm::PassInfoMixin<WorkItemVectorizerPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
