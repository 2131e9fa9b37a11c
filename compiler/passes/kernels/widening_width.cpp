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
#include "compiler/passes/kernels/widening_checks.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

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

// The register bytes a value of `type` is counted as. Without AVX-512 FP16
// each half operation converts to float and back (F16C), and the values
// held need room beside them for the conversions. With AVX-512 code a half
// counts as 8 bytes: counted as a float's 4, clpeak's half8 and half16
// kernels ran 32 and 16 work-items at once, spilled (968-1,176 bytes of
// stack a work-item) and ran 25-28 GFLOP/s, against 30.6-51 over three
// runs at half the work-items without spills (Ice Lake, two threads; the
// F16C bound there is 50.8). With AVX2 code
// (16 registers of 32 bytes) half the work-items ran slower (21 against
// 26-34 GFLOP/s: fewer independent chains for the conversions' latency),
// so there it counts as a float.
uint64_t heldBytes(llvm::Type *type, const VectorRegisters &registers,
                   const llvm::DataLayout &layout) {
  uint64_t size = layout.getTypeStoreSize(type);
  if (type->getScalarType()->isHalfTy() && !registers.fp16)
    size = size / 2 * std::max(4u, registers.bytes / 8);
  return size;
}

VectorRegisters registersOf(const llvm::Function &f) {
  llvm::StringRef features =
      f.getFnAttribute("target-features").getValueAsString();
  if (features.contains("+avx512f"))
    return {32, 64, features.contains("+avx512fp16")};
  if (features.contains("+avx"))
    return {16, 32, false};
  return {16, 16, false};
}

// Loops that mostly stream memory, about one operation per element they
// load (clpeak's bandwidth kernels: 16 float8 loads per work-item from 16
// places far apart, an add each), are paced by the memory system, which
// copes worse with long bursts from many places at once: a widened load of
// a vector per work-item reads lanes x its size from each place. On a Zen 3
// core clpeak's float8 kernel read 7.8-10.3 GB/s at 8 work-items (256 bytes
// a place) and 13-14 GB/s at 4 (128 bytes; PoCL, a work-item's 32 bytes at
// a time, 10.9-14.6); float16 at 4 and 2 work-items, two cores, 11.8 and
// 14.9-16.2; with 64 bytes a place (float8 at 2, float16 at 1) clpeak's
// float16 row ran 20.6-22.4 GB/s against 16.7-19.4 at 128 (PoCL
// 19.5-22.2), float8 15.5-24.1 against 17.8-18.0. The bytes of the widest
// vector such loops load per work-item, else 0.
uint64_t streamedVectorBytes(llvm::LoopInfo &loops,
                             const VaryingValues &varying,
                             const llvm::DataLayout &layout) {
  uint64_t loaded = 0, operated = 0, widest = 0;
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost())
      continue;
    for (llvm::BasicBlock *block : loop->blocks())
      for (llvm::Instruction &inst : *block) {
        unsigned elements = 1;
        if (auto *v = llvm::dyn_cast<llvm::FixedVectorType>(inst.getType()))
          elements = v->getNumElements();
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
          if (!varying.varies(load->getPointerOperand()))
            continue;
          loaded += elements;
          if (load->getType()->isVectorTy())
            widest = std::max<uint64_t>(
                widest, layout.getTypeStoreSize(load->getType()));
        } else if ((llvm::isa<llvm::BinaryOperator>(inst) ||
                    llvm::isa<llvm::CallInst>(inst)) &&
                   (inst.getType()->isFPOrFPVectorTy() ||
                    inst.getType()->isVectorTy())) {
          operated += elements; // the data's arithmetic, not addresses'
        }
      }
  }
  return loaded != 0 && operated <= loaded ? widest : 0;
}

// Where each instruction of a body without loops would stand once
// scheduled for registers: a value without side effects is computed just
// before its first use in its block (a load no later than the next write to
// memory), as LLVM's machine scheduler places it under register pressure.
// In the order the front end leaves, CLBlast's XgemvFast issues the 64
// loads of its unrolled row loop before the multiply-adds that use them
// one at a time; counted there, 64 values looked live at once and the
// region ran 4 work-items (16 bytes of each row) at a time, so each of a
// group's rows, 16 KiB apart, was read 16 bytes at a time in 16 passes.
llvm::DenseMap<const llvm::Instruction *, unsigned>
scheduledPositions(llvm::Function &f) {
  llvm::DenseMap<const llvm::Instruction *, unsigned> position;
  auto movable = [](const llvm::Instruction &inst) {
    if (llvm::isa<llvm::PHINode>(inst) || inst.isTerminator() ||
        inst.mayHaveSideEffects())
      return false;
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
      return !load->isVolatile();
    return !inst.mayReadFromMemory();
  };
  llvm::ReversePostOrderTraversal<llvm::Function *> order(&f);
  for (llvm::BasicBlock *block : order) {
    // How many movable values each one's operand tree holds (shared
    // parts counted again: a guide, not a count).
    llvm::DenseMap<const llvm::Instruction *, uint64_t> tree;
    auto operandsHere = [&](llvm::Instruction *inst) {
      std::vector<llvm::Instruction *> here;
      if (llvm::isa<llvm::PHINode>(inst)) // its values come round or in
        return here;
      for (llvm::Value *operand : inst->operands())
        if (auto *def = llvm::dyn_cast<llvm::Instruction>(operand))
          if (def->getParent() == block && movable(*def))
            here.push_back(def);
      return here;
    };
    for (llvm::Instruction &inst : *block) {
      uint64_t size = 1;
      for (llvm::Instruction *def : operandsHere(&inst))
        size = std::min<uint64_t>(size + tree.lookup(def), 1u << 30);
      tree[&inst] = size;
    }
    // Placed where it is used: each movable value's operands just before
    // it, one operand's whole tree after the other, the largest first (as
    // a list scheduler working for registers does: a chain of multiply-adds
    // then reads each load just before the step that uses it).
    // Depth first with a stack of its own: a chain of thousands of steps
    // would be as deep a recursion on the building thread's stack.
    struct Frame {
      llvm::Instruction *inst;
      std::vector<llvm::Instruction *> operands;
      size_t next;
    };
    std::vector<Frame> stack;
    auto open = [&](llvm::Instruction *inst) {
      std::vector<llvm::Instruction *> here = operandsHere(inst);
      std::stable_sort(here.begin(), here.end(),
                       [&](llvm::Instruction *a, llvm::Instruction *b) {
                         return tree.lookup(a) > tree.lookup(b);
                       });
      stack.push_back({inst, std::move(here), 0});
    };
    auto place = [&](llvm::Instruction *root, bool operands_only = false) {
      if (position.count(root))
        return;
      open(root);
      while (!stack.empty()) {
        if (stack.back().next < stack.back().operands.size()) {
          llvm::Instruction *def = stack.back().operands[stack.back().next++];
          if (!position.count(def))
            open(def);
          continue;
        }
        llvm::Instruction *done = stack.back().inst;
        stack.pop_back();
        if ((done != root || !operands_only) && !position.count(done))
          position[done] = position.size();
      }
    };
    // Anchors keep their order: what has side effects, phis, the
    // terminator, and values used only outside the block.
    auto usedHere = [&](llvm::Instruction &inst) {
      for (llvm::User *user : inst.users())
        if (auto *use = llvm::dyn_cast<llvm::Instruction>(user))
          if (use->getParent() == block && !llvm::isa<llvm::PHINode>(use))
            return true;
      return false;
    };
    std::vector<llvm::Instruction *> loads; // not yet placed, in order
    for (llvm::Instruction &inst : *block) {
      if (movable(inst) && usedHere(inst)) {
        if (llvm::isa<llvm::LoadInst>(inst))
          loads.push_back(&inst);
        continue;
      }
      // No load moves past a write (a prefetch writes nothing).
      if (inst.mayWriteToMemory() && !isPrefetch(inst)) {
        place(&inst, /*operands_only=*/true);
        for (llvm::Instruction *load : loads)
          place(load);
      }
      place(&inst);
    }
  }
  return position;
}

// The most bytes of varying values a work-item of a body without loops
// holds at one point, counting each value from where it is computed
// (`scheduledPositions`) to its last use (a straight line, or a few
// branches); and the widest of them. Widened over n work-items, that is n
// times as many bytes of registers: a radix-16 FFT holding 16 float2 at
// once, widened over 16 work-items on AVX2, spilled and ran 10-14 GFLOP/s
// against 14 a work-item at a time (Zen 3).
std::pair<uint64_t, uint64_t> liveBytes(llvm::Function &f,
                                        const VaryingValues &varying,
                                        const llvm::DataLayout &layout,
                                        const VectorRegisters &registers) {
  llvm::DenseMap<const llvm::Instruction *, unsigned> position =
      scheduledPositions(f);
  unsigned next = position.size();
  // +size where a value starts, -size after its last use.
  std::vector<int64_t> change(next + 1, 0);
  uint64_t widest = 0;
  for (auto &[inst, at] : position) {
    llvm::Type *type = inst->getType();
    if (type->isVoidTy() || !type->isSized() || type->isPointerTy() ||
        !varying.varies(const_cast<llvm::Instruction *>(inst)))
      continue;
    uint64_t size = heldBytes(type, registers, layout);
    unsigned last = at;
    for (const llvm::User *user : inst->users())
      if (auto *use = llvm::dyn_cast<llvm::Instruction>(user)) {
        auto found = position.find(use);
        if (found != position.end())
          last = std::max(last, found->second);
      }
    change[at] += int64_t(size);
    change[last + 1] -= int64_t(size);
    widest = std::max(widest, size);
  }
  int64_t live = 0, most = 0;
  for (int64_t step : change) {
    live += step;
    most = std::max(most, live);
  }
  return {uint64_t(most), widest};
}

// Whether a loop of `scalar` accesses memory where neighbouring work-items'
// addresses are not neighbours: widened, a gather or scatter in each round.
bool gathersInLoops(llvm::LoopInfo &loops, VaryingValues &varying) {
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    for (llvm::BasicBlock *block : loop->blocks())
      for (llvm::Instruction &inst : *block)
        if (varying.gathers(inst))
          return true;
  return false;
}

// A value an inner loop starts from an enclosing loop's carried value and
// hands back to it (a GEMM's accumulators round its k tiles and round the
// steps of each tile): one value held, counted at the outer loop.
bool carriedOn(llvm::PHINode &phi, llvm::Loop &loop) {
  llvm::BasicBlock *preheader = loop.getLoopPreheader();
  int from_preheader = preheader ? phi.getBasicBlockIndex(preheader) : -1;
  if (from_preheader < 0)
    return false;
  auto *outer = llvm::dyn_cast<llvm::PHINode>(
      phi.getIncomingValue(unsigned(from_preheader)));
  for (llvm::Loop *parent = loop.getParentLoop(); outer && parent;
       parent = parent->getParentLoop())
    if (outer->getParent() == parent->getHeader())
      return true;
  return false;
}

// How many elements each work-item's carried values make together, when
// they are a run: every value its innermost loops carry changes each round
// only by lane-wise arithmetic on itself, values the same for all
// work-items, and loads of a work-item's run of that many elements
// (CLBlast's XgemmDirect: `cpd[_mi] += a[_mi + lid * 4] * b`). Widened,
// those values are kept together in memory order (weft-whole-runs-in-
// loops): the run's elements of all lanes fill registers, so fewer lanes
// fill them; else 1.
unsigned carriedRunLength(llvm::LoopInfo &loops, VaryingValues &varying) {
  unsigned run = 0;
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost())
      continue;
    llvm::BasicBlock *latch = loop->getLoopLatch();
    if (!latch)
      return 1;
    for (llvm::PHINode &phi : loop->getHeader()->phis()) {
      if (!varying.varies(&phi) || !phi.getType()->isFloatingPointTy())
        continue;
      std::vector<llvm::Value *> pending{phi.getIncomingValueForBlock(latch)};
      unsigned steps = 0;
      while (!pending.empty()) {
        llvm::Value *v = pending.back();
        pending.pop_back();
        if (v == &phi || !varying.varies(v))
          continue;
        auto *inst = llvm::dyn_cast<llvm::Instruction>(v);
        if (!inst || !loop->contains(inst) || ++steps > 16)
          return 1;
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
          unsigned spacing =
              varying.spacing(load->getPointerOperand(), load->getType(),
                              VaryingValues::kMostRunSpacing);
          if (spacing < 2 || (run != 0 && spacing != run))
            return 1;
          run = spacing;
          continue;
        }
        auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(inst);
        if (!(llvm::isa<llvm::BinaryOperator>(inst) ||
              (call && (call->getIntrinsicID() == llvm::Intrinsic::fmuladd ||
                        call->getIntrinsicID() == llvm::Intrinsic::fma))))
          return 1;
        for (llvm::Value *operand :
             call ? llvm::SmallVector<llvm::Value *, 3>(call->args())
                  : llvm::SmallVector<llvm::Value *, 3>(inst->operands()))
          pending.push_back(operand);
      }
    }
  }
  return run == 0 ? 1 : run;
}

unsigned powerOfTwoAtMost(unsigned n) {
  unsigned p = 1;
  while (p * 2 <= n)
    p *= 2;
  return p;
}

} // namespace

unsigned chooseLanes(llvm::Function &scalar, llvm::LoopInfo &loops,
                     VaryingValues &varying, bool uniform_loops_only,
                     std::string &why, bool narrow_for_gathers) {
  if (forced_lanes) {
    why = "forced by -weft-lanes";
    return forced_lanes;
  }
  const llvm::DataLayout &layout = scalar.getParent()->getDataLayout();
  VectorRegisters registers = registersOf(scalar);
  // Bytes each work-item carries round its loops (the varying phis of loop
  // headers; a loop's counter is one scalar for all), and its widest
  // carried element.
  uint64_t carried = 0, widest = 0, reused = 0;
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    for (llvm::PHINode &phi : loop->getHeader()->phis())
      if (varying.varies(&phi) && !carriedOn(phi, *loop)) {
        uint64_t size = heldBytes(phi.getType(), registers, layout);
        carried += size;
        widest = std::max(widest, size);
      }
  // Values an innermost loop loads and uses more than once each round (a
  // GEMM's row of A, one multiply-add per column of its tile) are held
  // beside the carried ones: counted with them. CLBlast's Xgemm in a
  // barrier region (its 8 float4 accumulators carried, 128 bytes) ran 16
  // work-items at once, its accumulators alone filling AVX-512's 32
  // registers, at 110 GFLOP/s on the Ice Lake with its loads made to hit
  // the L1; at 8, with its two float4 of A a round counted, 230.
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    if (loop->isInnermost())
      for (llvm::BasicBlock *block : loop->blocks())
        for (llvm::Instruction &inst : *block)
          if (llvm::isa<llvm::LoadInst>(inst) && !inst.hasOneUse() &&
              varying.varies(&inst))
            reused += heldBytes(inst.getType(), registers, layout);
  if (carried == 0 && loops.empty()) {
    // No loop: as many work-items as the values held at once fit in the
    // registers, but never fewer than fill a register with the widest.
    auto [live, widest_live] =
        liveBytes(scalar, varying, layout, registers);
    if (live == 0) {
      why = "";
      return kDefaultLanes;
    }
    // Up to two register files of held values: what does not fit spills, a
    // store and a load each, while half the work-items at once run twice
    // the passes, each a dependent chain of its own. CLBlast's XgemvFastRot
    // sums 32 products a work-item in one chain, 96 bytes held at once:
    // at 8 work-items (AVX2) SGEMV 1024 row-major ran 12.7-14.9 GB/s
    // against 9.6-10.4 at 4 (Zen 3, three rounds alternating).
    constexpr uint64_t kHeldRegisterFiles = 2;
    unsigned fit = powerOfTwoAtMost(unsigned(std::min<uint64_t>(
        kHeldRegisterFiles * registers.count * registers.bytes / live,
        kDefaultLanes)));
    unsigned least = unsigned(
        std::min<uint64_t>(registers.bytes / widest_live, kDefaultLanes));
    unsigned lanes = std::clamp(fit, std::max(1u, least), kDefaultLanes);
    // Bytes and shorts of neighbouring work-items' vectors (uchar4 pixels
    // taken apart) are read as one span and dealt out by shuffles; LLVM
    // deals a span wider than a register out byte by byte (vpinsrb): a
    // luminance kernel on uchar4 pixels ran 1,611-1,626 Mpix/s at 16
    // work-items against 1,759-1,777 at 8 (Zen 3).
    for (llvm::Instruction &inst : llvm::instructions(scalar))
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
        uint64_t size = layout.getTypeStoreSize(load->getType());
        unsigned apart =
            size < 4 && varying.varies(load->getPointerOperand())
                ? varying.spacing(load->getPointerOperand(), load->getType())
                : 0;
        if (apart > 1)
          while (lanes > 1 && lanes * apart * size > registers.bytes)
            lanes /= 2;
      }
    why = std::to_string(live) + " bytes held at once per work-item";
    return lanes;
  }
  if (carried == 0) {
    why = "";
    return kDefaultLanes;
  }
  unsigned fit = powerOfTwoAtMost(unsigned(
      std::min<uint64_t>(registers.count * registers.bytes / (carried + reused),
                         kMostLanes)));
  // Fewer work-items than a register's lanes of the widest element would
  // leave registers part empty, unless each carries a run. CLBlast's
  // XgemmDirectNN k loop (16 accumulators a work-item, a run of 4 loaded
  // each round) ran 8 work-items at once with AVX2 code and spilled
  // accumulators every step; at 4 its runs fill the registers.
  unsigned least =
      std::max(1u, unsigned(registers.bytes /
                            (widest * carriedRunLength(loops, varying))));
  // Loops the work-items leave at different times waste the lanes of those
  // that left: wider than the default costs more than it gains there.
  unsigned most = uniform_loops_only ? kMostLanes : kDefaultLanes;
  unsigned lanes = std::clamp(fit, std::min(least, most), most);
  why = std::to_string(carried) + " bytes carried per work-item";
  if (reused != 0)
    why += ", " + std::to_string(reused) + " loaded and reused each round";
  // Without fast gathers a gather is an access per lane, its code as long:
  // no wider than a register of floats. CLBlast's SYMV (8 bytes carried,
  // 64 work-items) unrolled its k loop of 64-lane gathers into a megabyte
  // of code that ran from outside the instruction cache.
  if (unsigned most_gathered = registers.bytes / 4;
      narrow_for_gathers && !hasFastGathers(scalar) &&
      lanes > most_gathered && gathersInLoops(loops, varying)) {
    lanes = most_gathered;
    why += ", gathers in its loops";
  }
  constexpr uint64_t kStreamBurst = 64; // bytes a place, a widened load
  if (uint64_t streamed = streamedVectorBytes(loops, varying, layout);
      streamed != 0 && lanes * streamed > kStreamBurst) {
    lanes = std::max(1u, powerOfTwoAtMost(unsigned(kStreamBurst / streamed)));
    why += ", " + std::to_string(lanes * streamed) +
           " bytes of each streamed load at once";
  }
  return lanes;
}

} // namespace weft::compiler
