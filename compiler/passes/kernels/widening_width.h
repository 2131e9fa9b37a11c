// How many work-items weft-widen-work-items runs at once: enough for the
// values a kernel's loops carry to fill the vector registers, so that
// independent work-items cover the latency of each other's dependent
// chains (clpeak's FMA chains, a GEMM's k loop), and not so many that
// they spill.
#pragma once
#include <string>

namespace llvm {
class Function;
class LoopInfo;
} // namespace llvm

namespace weft::compiler {

class VaryingValues;

// The most work-items a widened body runs at once; and the count for a body
// whose loops carry nothing per work-item, which is also the most for loops
// work-items leave at different times (and the width of the function that
// runs what is left of a row).
inline constexpr unsigned kMostLanes = 128;
inline constexpr unsigned kDefaultLanes = 16;

// The work-items to widen `scalar` (a prepared body whose varying values
// are `varying`) across; `uniform_loops_only` when every work-item goes
// round every loop as often, so that wider costs no divergence. `why`
// says how the count was reached, for the plan. `narrow_for_gathers`:
// without fast gathers, no wider than a register of floats when a loop
// gathers.
unsigned chooseLanes(llvm::Function &scalar, llvm::LoopInfo &loops,
                     VaryingValues &varying, bool uniform_loops_only,
                     std::string &why, bool narrow_for_gathers = true);

} // namespace weft::compiler
