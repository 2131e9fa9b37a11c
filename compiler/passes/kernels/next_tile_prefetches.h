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
class LoadInst;
class Loop;
class LoopInfo;
class ScalarEvolution;
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

// A loop of a work-item's own that walks a matrix down its columns (CLBlast's
// Xgemm without local tiles reads a row of A and of B per k, rows a whole
// matrix width apart) takes a cache miss per row: the hardware's prefetchers
// follow strides within a page only, and the lines come from memory one
// round after another (Xgemm at n = 2048 ran at a ninth of the Ice Lake's
// peak, at 89% of it with the same loads made to hit). For each plain load
// of global or constant memory in an innermost loop of `body` whose
// address moves with counters that step by constants, by a step not known
// to be under 1 KiB: a prefetch, beside the load, of the address it reads
// kStreamRoundsAhead rounds later (the step taken from the next round's
// address). Without poison flags, as prefetchNextTiles'. `loops` stays
// valid (no block is added). Returns whether it added any.
bool prefetchStridedStreams(llvm::Function &body, llvm::LoopInfo &loops);

// Whether `load` reads global or constant memory at an address that moves
// each round of `loop` (counters stepping by constants) by a distance not
// known to be under 1 KiB: a stream prefetchStridedStreams prefetches.
// Leaves the function as it was.
bool stepsFar(llvm::LoadInst &load, llvm::Loop &loop,
              llvm::ScalarEvolution &evolution);

} // namespace weft::compiler
