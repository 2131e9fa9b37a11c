// What weft-widen-work-items takes: the copy of a work-item body it reads,
// and the checks that decide whether widening that body can be done and pays.
#pragma once
#include <string>

namespace llvm {
class BasicBlock;
class DominatorTree;
class Function;
class Instruction;
class LoopInfo;
class Value;
} // namespace llvm

namespace weft::compiler {

class VaryingValues;

// Inlines the builtins the body calls and brings it into the shape the
// widener reads: registers, simplified loops in LCSSA form, and vectors
// kept whole or one value per element.
void prepareForWidening(llvm::Function &f, bool whole_vectors);

// While `f` has private arrays (allocas), fully unrolls its loops with
// constant trip counts and promotes what the unrolled code indexes by
// constants to registers (SROA): a register tile, an FFT's points. Without
// `simplify_cfg`, blocks are neither merged nor duplicated (a body with
// barriers keeps each barrier where its work-items meet).
void unrollLoopsIndexingPrivateArrays(llvm::Function &f, bool simplify_cfg);

// Instructions that only inform the optimizer, left out of the widened body.
bool ignorable(const llvm::Instruction &inst);

// A prefetch (next_tile_prefetches.h): a hint that reads and writes nothing
// the body sees, though LLVM counts it as touching memory.
bool isPrefetch(const llvm::Instruction &inst);

// Whether the widener has a widened form of `inst` (with `whole_vectors`,
// of vector-typed values kept whole); `why` says what it lacks.
bool supportedInstruction(const llvm::Instruction &inst, std::string &why,
                          bool whole_vectors);

// Whether a body prepared with its vectors whole has vector-typed values and
// computes on them mostly element by element (clpeak's float16 FMA chains, a
// float4 sum of loads), so the widener should keep each work-item's vectors
// whole, side by side: a vector load then stays one load, and a float16
// work-item needs only 4 of AVX2's registers per value at 2 work-items. A
// body that mostly takes its vectors apart (an n-body step's .x, .y, .z)
// is better split into elements; `why` says which. Elements taken out of
// vectors that do not vary between work-items (`x`: the body's x id) are
// not counted: those are scalars either way.
bool keepsVectorsWhole(llvm::Function &f, llvm::Value *x, std::string &why);

// Whether every loop has the shape the widener runs under a mask.
bool supportedLoops(llvm::LoopInfo &loops, std::string &why);

// Whether the only edges back in reverse post-order are loops' back edges.
bool reducible(llvm::Function &f, llvm::LoopInfo &loops);

// Whether the work-items of some loop may leave it at different times (`x`:
// the body's x id).
bool hasDivergentLoop(llvm::Function &f, llvm::LoopInfo &loops,
                      llvm::DominatorTree &dominators, llvm::Value *x);

// Whether `f` is compiled for a CPU with fast gathers (AVX-512).
bool hasFastGathers(const llvm::Function &f);

// Whether LLVM's loop vectorizer would leave some innermost loop scalar (a
// strided access, or a carried value that is no counter or reorderable
// reduction); `why` says which.
bool innermostLoopLeftScalar(llvm::Function &f, llvm::LoopInfo &loops,
                             llvm::DominatorTree &dominators, std::string &why);

// Whether `f` computes in vector types (a value or a stored value of type
// floatN, intN, ...): LLVM's loop vectorizer leaves a loop holding any such
// instruction scalar, one work-item's vector at a time.
bool computesInVectors(const llvm::Function &f);
bool computesInVectors(const llvm::BasicBlock &block);

// Whether a work-item stores to one address for all on a path not every
// work-item takes.
bool storesToOneAddressConditionally(llvm::Function &f, llvm::Value *x);

// Whether `f` gathers or scatters (what a widened access to elements that
// are not neighbours becomes): anywhere, or only in a loop (`in_loops`).
bool gathers(llvm::Function &f, bool in_loops);

// Whether an innermost loop of `f` loads along each work-item's own row:
// one element further each round, neighbouring work-items a cache line or
// more apart. Widened, each round gathers one element from as many lines
// as lanes, and the lanes stream as many rows at once: a dot product of
// 64 floats a work-item (16 Mi of each) took 23 ms widened with AVX-512's
// gathers at any width from 8 to 128 lanes, and 8-9.5 ms a work-item at a
// time (Ice Lake, PoCL 11).
bool loadsAlongOwnRows(llvm::Function &f, llvm::LoopInfo &loops,
                       llvm::DominatorTree &dominators, VaryingValues &varying);

} // namespace weft::compiler
