// weft-plain-local-atomics: a work-group's __local memory belongs to the one
// thread that runs the group (device/ndrange.cpp gives each group to one
// thread, and its work-items, widened, one at a time or on fibers, switch
// only at barriers), so no other thread can see an atomic operation on it
// half done. Each atomicrmw and cmpxchg on an addrspace(3) pointer becomes
// a plain load, the operation and a store: the lock prefix cost a
// histogram's local counting loop several times its work (locked
// read-modify-writes serialise the core's memory accesses). Runs last in
// the optimizer, after the loop vectorizer, which must never see these
// accesses as independent between work-items. Atomics on global, generic
// or private pointers are left alone.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class PlainLocalAtomicsPass
    : public llvm::PassInfoMixin<PlainLocalAtomicsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace weft::compiler
