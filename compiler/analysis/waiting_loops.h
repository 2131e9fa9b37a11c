// Loops in which a work-item waits for another: a loop whose way out
// depends on an atomic (or volatile) load made in it, `while
// (atomic_load(flag) != ready);`. Such a loop needs the other work-item to
// run meanwhile, which only the fibers give (a yield at its back edge,
// weft-fiber-barriers): the independent forward progress of sub-groups
// (cl_khr_subgroups). A loop of atomic read-modify-writes (a histogram's,
// a compare-and-swap retry) finishes on its own and is not one.
#pragma once
#include <vector>

namespace llvm {
class Function;
class Loop;
class LoopInfo;
} // namespace llvm

namespace weft::compiler {

std::vector<llvm::Loop *> loopsWaitingOnOthers(llvm::LoopInfo &loops);
bool waitsOnOtherWorkItems(llvm::Function &body);

} // namespace weft::compiler
