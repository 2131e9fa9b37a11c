// The widened body's lane count, from the values its loops carry and the
// target's vector registers.
//
// A loop that carries a value from one round to the next (an FMA chain, an
// accumulator) runs as fast as the chain's latency allows unless several
// chains are in flight: with two FMA units of 4 cycles, eight vector
// registers' worth. Widened over n work-items, each carried value fills
// n / (lanes per register) registers, so n should be as large as the
// register file allows for all the carried values together. clpeak's float4
// kernel (8 floats carried per work-item) at 16 work-items fills AVX2's 16
// registers exactly and runs at 98% of the FMA peak; its float kernel at 16
// work-items has 4 registers of chains and runs at 26%, its float16 kernel
// needs 64 registers and spills (20%).
#include "compiler/passes/kernels/widening_width.h"

#include "compiler/passes/kernels/varying_values.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>

#include <algorithm>
#include <string>

namespace weft::compiler {

namespace {

// For IR tests of the widener's mechanics (masks, uniform values), which
// read the same at any width: weft-opt -weft-lanes=16.
llvm::cl::opt<unsigned> forced_lanes(
    "weft-lanes", llvm::cl::Hidden, llvm::cl::init(0),
    llvm::cl::desc("widen every kernel across this many work-items"));

struct VectorRegisters {
  unsigned count;
  unsigned bytes;
  bool fp16; // half arithmetic in half lanes
};

VectorRegisters registersOf(const llvm::Function &f) {
  llvm::StringRef features =
      f.getFnAttribute("target-features").getValueAsString();
  if (features.contains("+avx512f"))
    return {32, 64, features.contains("+avx512fp16")};
  if (features.contains("+avx"))
    return {16, 32, false};
  return {16, 16, false};
}

unsigned powerOfTwoAtMost(unsigned n) {
  unsigned p = 1;
  while (p * 2 <= n)
    p *= 2;
  return p;
}

} // namespace

unsigned chooseLanes(llvm::Function &scalar, llvm::LoopInfo &loops,
                     const VaryingValues &varying, bool uniform_loops_only,
                     std::string &why) {
  if (forced_lanes) {
    why = "forced by -weft-lanes";
    return forced_lanes;
  }
  const llvm::DataLayout &layout = scalar.getParent()->getDataLayout();
  VectorRegisters registers = registersOf(scalar);
  // Bytes each work-item carries round its loops (the varying phis of loop
  // headers; a loop's counter is one scalar for all), and its widest
  // carried element.
  uint64_t carried = 0, widest = 0;
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    for (llvm::PHINode &phi : loop->getHeader()->phis())
      if (varying.varies(&phi)) {
        uint64_t size = layout.getTypeStoreSize(phi.getType());
        // Half arithmetic is done in float registers unless the CPU has
        // AVX-512 FP16.
        if (phi.getType()->getScalarType()->isHalfTy() && !registers.fp16)
          size *= 2;
        carried += size;
        widest = std::max(widest, size);
      }
  if (carried == 0) {
    why = "";
    return kDefaultLanes;
  }
  unsigned fit = powerOfTwoAtMost(
      unsigned(std::min<uint64_t>(registers.count * registers.bytes / carried,
                                  kMostLanes)));
  // Fewer work-items than a register's lanes of the widest element would
  // leave registers part empty.
  unsigned least = unsigned(registers.bytes / widest);
  // Loops the work-items leave at different times waste the lanes of those
  // that left: wider than the default costs more than it gains there.
  unsigned most = uniform_loops_only ? kMostLanes : kDefaultLanes;
  unsigned lanes = std::clamp(fit, std::min(least, most), most);
  why = std::to_string(carried) + " bytes carried per work-item";
  return lanes;
}

} // namespace weft::compiler
