// What weft-widen-work-items takes: the copy of a work-item body it reads,
// and the checks that decide whether widening that body can be done and pays.
#pragma once
#include <string>

namespace llvm {
class DominatorTree;
class Function;
class Instruction;
class LoopInfo;
class Value;
} // namespace llvm

namespace weft::compiler {

// Inlines the builtins the body calls and brings it into the shape the
// widener reads: registers, one value per vector element, simplified loops
// in LCSSA form.
void prepareForWidening(llvm::Function &f);

// Instructions that only inform the optimizer, left out of the widened body.
bool ignorable(const llvm::Instruction &inst);

// Whether the widener has a widened form of `inst`; `why` says what it lacks.
bool supportedInstruction(const llvm::Instruction &inst, std::string &why);

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

// Whether a work-item stores to one address for all on a path not every
// work-item takes.
bool storesToOneAddressConditionally(llvm::Function &f, llvm::Value *x);

// Whether the widened function `f` gathers or scatters inside a loop.
bool gathersInLoops(llvm::Function &f);

} // namespace weft::compiler
