// Loads of global memory in a loop with barriers (a tiled GEMM's k loop,
// which fills its local tiles from A and B) prefetch what the same load
// reads in the loop's next round. Cut into regions, such a loop runs every
// work-item through one load before the next load runs at all: each load
// instruction walks across the work-items, then jumps to the next tile, a
// pattern the hardware's stride prefetchers do not follow, so every round
// starts with a burst of cache misses (CLBlast's Xgemm at n = 2048 spent
// twice as long in its tile loads as in its FMAs). A prefetch one round
// ahead brings the next tiles in while the region between the barriers
// computes.
#pragma once

namespace llvm {
class Function;
} // namespace llvm

namespace weft::compiler {

// For each plain load of global or constant memory in a loop of `work` that
// calls `marker` (the barrier), outside the loop's inner loops, whose
// address moves with the loop's counters: a prefetch of the address the
// load reads one round later, computed from the counters' next values (an
// add of an invariant step), right after the first barrier the load reaches
// in every round (beside the load when there is none). The prefetches carry
// no poison flags: the address past the last round need not exist, and a
// prefetch never faults. Returns whether it added any.
bool prefetchNextTiles(llvm::Function &work, llvm::Function &marker);

} // namespace weft::compiler
