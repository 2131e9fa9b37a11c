// weft-lockstep-rounds: a barrier at the top of a kernel's outer loop when
// its work-items read the same strided rows in its inner loop, so the group
// goes round the outer loop together.
//
// CLBlast's Xgemm with its default parameters (no local tiles) reads, at
// each k, a float4 row of A that every work-item of a column of the group
// shares and a row of B that a row of the group shares, rows a matrix
// width apart. Run work-item after work-item (a chunk of 8 lanes through
// all of k, then the next chunk), each chunk streams its whole panel of A
// and B through the caches, and the next chunk, needing the same A, finds
// it evicted: at n = 2048 the widened kernel ran 37-51 GFLOP/s on the Ice
// Lake against 311 with its loads made to hit the L1. With a barrier at the
// top of the outer loop (CLBlast's k tiles of 32), the loop is cut into
// regions: every chunk runs one tile of k before the next tile, the tile's
// rows stay in the L1 and L2 for all of them, and the accumulators are
// saved per lane between tiles: 82.5 GFLOP/s.
//
// Only where adding the barrier changes nothing a program can see: a
// kernel without barriers, work-group collectives, async copies, pipes,
// sub-group exchanges or printf; an outer loop that every work-item of a
// group reaches (its preheader post-dominates the entry) and goes round as
// often (no exit depends on a local id); a group with rows (the kernel
// reads the y local id, and no reqd_work_group_size makes its groups one
// row) that share a stream (a load of an inner loop that
// steps far each round, next_tile_prefetches.h's stepsFar, at an address
// that does not depend on the y local id).
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class LockstepRoundsPass : public llvm::PassInfoMixin<LockstepRoundsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
