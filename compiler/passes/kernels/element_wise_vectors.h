// weft-element-wise-vectors: whole-vector operations rebuilt from code that
// computes a vector one element at a time. OpenCL libraries write their
// vector arithmetic per component (CLBlast's `c.x = mad(a.x, b, c.x); c.y =
// ...` for a float4 register tile); in IR that is an extract, a scalar
// operation and an insert per element, which the widener would take apart
// into a shuffle per element. Rebuilt, it is one vector FMA that stays whole
// per work-item: its loads and stores stay single vector accesses.
#pragma once
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/PassManager.h>

namespace llvm {
class Function;
} // namespace llvm

namespace weft::compiler {

// Intrinsics whose vector form is the same intrinsic on vector types,
// overloaded on their result type only (their other operands, if any, are
// immediates): what is rebuilt whole here, and what the widener widens.
bool elementWiseIntrinsic(llvm::Intrinsic::ID id);

// Replaces each vector built element by element (a chain of inserts that
// sets every element) whose elements are the same operation on the same
// elements of other vectors, or on one value for all, by that operation on
// whole vectors. Returns whether `f` changed.
bool rebuildElementWiseVectors(llvm::Function &f);

// The rebuilding on every function of a module (weft-opt, for IR tests; the
// widener calls rebuildElementWiseVectors on the copy it reads).
class ElementWiseVectorsPass
    : public llvm::PassInfoMixin<ElementWiseVectorsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
