// The copy of a body weft-widen-work-items reads, and the checks it makes on
// it: which instructions and loops it has a widened form of, and which
// bodies LLVM's loop vectorizer covers as well or better.
#include "compiler/passes/kernels/widening_checks.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/passes/kernels/demanded_id_bits.h"
#include "compiler/passes/kernels/element_wise_vectors.h"
#include "compiler/passes/kernels/varying_values.h"
#include "compiler/support/analysis_managers.h"
#include "compiler/support/standalone_evolution.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/IVDescriptors.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Scalar/IndVarSimplify.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopRotation.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LowerSwitch.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <cstdlib>
#include <optional>
#include <vector>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::Instruction;
using llvm::Loop;
using llvm::PHINode;
using llvm::Value;

// The clone of the body the vectorizer reads: promoted to registers, with
// loops in the shape it expects (a preheader, one latch, exits reached only
// from inside, values leaving a loop through phis in its exit block).
void unrollLoopsIndexingPrivateArrays(llvm::Function &f, bool simplify_cfg) {
  // A private array indexed by the counters of loops with constant trip
  // counts (a register tile, an FFT's points) becomes registers once those
  // loops are unrolled: the widener then sees values, not memory. Only
  // bodies that still have such an array are unrolled; the rest keep their
  // loops as written.
  auto hasPrivateArray = [&] {
    for (Instruction &inst : f.getEntryBlock())
      if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst))
        if (!llvm::isAllocaPromotable(alloca))
          return true;
    return false;
  };
  // Loops the source asks to unroll (`#pragma unroll`,
  // `opencl_unroll_hint`) are unrolled before widening too, not only by O3
  // afterwards: the widener then sees each round's accesses side by side.
  // CLBlast's XgemvFastRot reads `tile[lid_mod*8 + v][lid_div*4 + kl]` in
  // an unrolled kl loop, four neighbouring elements per work-item: as a loop
  // that was a 32-lane gather per element, unrolled it is a load of four
  // per work-item (widener_rows.cpp).
  auto askedToUnroll = [&] {
    for (BasicBlock &block : f)
      if (llvm::MDNode *loop =
              block.getTerminator()->getMetadata(llvm::LLVMContext::MD_loop))
        for (const llvm::MDOperand &operand : loop->operands())
          if (auto *hint = llvm::dyn_cast<llvm::MDNode>(operand.get()))
            if (hint->getNumOperands() != 0)
              if (auto *name =
                      llvm::dyn_cast<llvm::MDString>(hint->getOperand(0)))
                if (name->getString() == "llvm.loop.unroll.enable" ||
                    name->getString() == "llvm.loop.unroll.full")
                  return true;
    return false;
  };
  llvm::PassBuilder builder;
  AnalysisManagers analyses(builder);
  // A few rounds: a loop's counter may only become a value SCEV can count
  // in the clean-up after the round before.
  for (int round = 0; round < 3 && (askedToUnroll() || hasPrivateArray());
       ++round) {
    llvm::FunctionPassManager unroll;
    unroll.addPass(llvm::LoopSimplifyPass());
    unroll.addPass(llvm::LCSSAPass());
    unroll.addPass(llvm::createFunctionToLoopPassAdaptor(
        llvm::LoopRotatePass(), /*UseMemorySSA=*/false));
    unroll.addPass(llvm::createFunctionToLoopPassAdaptor(
        llvm::IndVarSimplifyPass(), /*UseMemorySSA=*/false));
    unroll.addPass(llvm::createFunctionToLoopPassAdaptor(
        llvm::LoopFullUnrollPass(/*OptLevel=*/3), /*UseMemorySSA=*/false));
    if (simplify_cfg) {
      addCleanupPasses(unroll);
    } else {
      unroll.addPass(llvm::SROAPass(llvm::SROAOptions::PreserveCFG));
      unroll.addPass(llvm::EarlyCSEPass());
      unroll.addPass(llvm::InstCombinePass());
    }
    unroll.addPass(llvm::LoopSimplifyPass());
    unroll.addPass(llvm::LCSSAPass());
    unroll.run(f, analyses.functions);
  }
}

namespace {
// Address space casts taken before the offsets: `addrspacecast (gep p, i)`
// becomes `gep (addrspacecast p), i` (the spaces are one memory on the
// CPU). A region reaches its local arrays as the group's local memory plus
// each array's offset, cast to the local space; ScalarEvolution does not
// look through a cast, so two arrays of one block (CLBlast's A and B
// tiles) had no known distance, and the widener could not tell that a
// store into one leaves the other alone (widener_interleaved.cpp).
bool castBeforeOffsets(llvm::Function &f) {
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    for (Instruction &inst : llvm::make_early_inc_range(llvm::instructions(f))) {
      auto *cast = llvm::dyn_cast<llvm::AddrSpaceCastInst>(&inst);
      auto *gep = cast ? llvm::dyn_cast<llvm::GetElementPtrInst>(
                             cast->getPointerOperand())
                       : nullptr;
      if (!gep || gep->getType()->isVectorTy() ||
          gep->getPointerOperandType()->isVectorTy())
        continue;
      llvm::IRBuilder<> b(cast);
      Value *base = b.CreateAddrSpaceCast(
          gep->getPointerOperand(),
          llvm::PointerType::get(f.getContext(),
                                 cast->getType()->getPointerAddressSpace()));
      llvm::SmallVector<Value *, 4> indices(gep->indices());
      Value *moved = b.CreateGEP(gep->getSourceElementType(), base, indices,
                                 cast->getName(), gep->getNoWrapFlags());
      cast->replaceAllUsesWith(moved);
      cast->eraseFromParent();
      changed = again = true;
    }
  }
  return changed;
}
} // namespace

void prepareForWidening(llvm::Function &f, bool whole_vectors) {
  // The builtins a work-item calls (fabs, mad, clamp, ...) are in the module
  // already: inlined, most become arithmetic or intrinsics with vector
  // forms. Calls into libraries (SLEEF, libm) stay calls and keep the body
  // scalar.
  for (bool inlined = true; inlined;) {
    inlined = false;
    for (Instruction &inst : llvm::instructions(f))
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (llvm::Function *callee = call->getCalledFunction())
          if (!callee->isDeclaration() && callee != &f &&
              familyOf(identifyBuiltin(*callee)) != BuiltinFamily::Printf) {
            llvm::InlineFunctionInfo info;
            if (llvm::InlineFunction(*call, info).isSuccess()) {
              inlined = true;
              break; // the instruction list changed
            }
          }
  }
  llvm::PassBuilder builder;
  AnalysisManagers analyses(builder);
  llvm::FunctionPassManager passes;
  addCleanupPasses(passes);
  if (!whole_vectors) {
    // OpenCL C's vector types (an n-body step's float4 positions, float3
    // arithmetic) become one value per element: widened across work-items,
    // each element is then a vector of lanes, which the widener handles.
    llvm::ScalarizerPassOptions elements;
    elements.ScalarizeLoadStore = true;
    elements.ScalarizeVariableInsertExtract = true;
    passes.addPass(llvm::ScalarizerPass(elements));
    addCleanupPasses(passes);
  }
  // Switches become branches, which the widener masks or, on a value all
  // work-items share, keeps: SimplifyCFG makes a switch of CLBlast's
  // `(parameter == 0 && y <= x) || (parameter == 1 && x <= y)` (SYMV's
  // triangle, a kernel argument), which kept its regions a work-item at a
  // time.
  passes.addPass(llvm::LowerSwitchPass());
  passes.addPass(llvm::LoopSimplifyPass());
  passes.addPass(llvm::LCSSAPass());
  passes.run(f, analyses.functions);
  bool casts = castBeforeOffsets(f);
  unrollLoopsIndexingPrivateArrays(f, true);
  // Ids taken apart into bit fields (`tid % 8`, `tid / 8`) read the field
  // they need, and InstCombine folds what is left; vectors computed element
  // by element become whole again, their broadcasts merged.
  bool fields = readDemandedIdBits(f);
  bool rebuilt = whole_vectors && rebuildElementWiseVectors(f);
  if (fields || rebuilt || casts) {
    // Fresh analyses: the unrolling and these rewrites left the ones above
    // stale.
    llvm::PassBuilder tidy_builder;
    AnalysisManagers tidy_analyses(tidy_builder);
    llvm::FunctionPassManager tidy;
    if (fields)
      tidy.addPass(llvm::InstCombinePass());
    tidy.addPass(llvm::EarlyCSEPass());
    tidy.addPass(llvm::LCSSAPass());
    tidy.run(f, tidy_analyses.functions);
  }
}

namespace {

bool scalarType(const llvm::Type *t) {
  return t->isVoidTy() || t->isHalfTy() || t->isFloatTy() || t->isDoubleTy() ||
         t->isPointerTy() ||
         (t->isIntegerTy() && t->getIntegerBitWidth() <= 64);
}

// A vector of numbers or i1, which the widener keeps whole per work-item.
bool wholeVectorType(const llvm::Type *t) {
  const auto *v = llvm::dyn_cast<llvm::FixedVectorType>(t);
  return v && !v->getElementType()->isPointerTy() &&
         scalarType(v->getElementType());
}

bool widenableType(const llvm::Type *t, bool whole_vectors) {
  return scalarType(t) || (whole_vectors && wholeVectorType(t));
}

// A shuffle that broadcasts element 0, as OpenCL C writes (float4)(x).
bool splatShuffle(const llvm::Instruction &inst) {
  const auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&inst);
  return shuffle && shuffle->isZeroEltSplat();
}

} // namespace

// Dropped from the vector body: they only inform the optimizer.
bool ignorable(const Instruction &inst) {
  if (const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
    return intrinsic->isLifetimeStartOrEnd() ||
           llvm::isa<llvm::DbgInfoIntrinsic>(intrinsic) ||
           intrinsic->getIntrinsicID() == llvm::Intrinsic::assume;
  return false;
}

bool isPrefetch(const Instruction &inst) {
  const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
  return intrinsic && intrinsic->getIntrinsicID() == llvm::Intrinsic::prefetch;
}

bool supportedInstruction(const Instruction &inst, std::string &why,
                          bool whole_vectors) {
  if (ignorable(inst) || isPrefetch(inst))
    return true;
  if (!widenableType(inst.getType(), whole_vectors)) {
    why = "a value of a vector or aggregate type";
    return false;
  }
  for (const Value *operand : inst.operands())
    if (!llvm::isa<BasicBlock>(operand) &&
        !llvm::isa<llvm::Function>(operand) &&
        !widenableType(operand->getType(), whole_vectors)) {
      why = "an operand of a vector or aggregate type";
      return false;
    }
  if (llvm::isa<llvm::ExtractElementInst>(inst) ||
      llvm::isa<llvm::InsertElementInst>(inst)) {
    if (llvm::isa<llvm::ConstantInt>(
            inst.getOperand(inst.getNumOperands() - 1)))
      return true;
    why = "a vector element chosen at run time";
    return false;
  }
  if (llvm::isa<llvm::ShuffleVectorInst>(inst))
    return true;
  if (const auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&inst))
    if (gep->getType()->isVectorTy()) {
      why = "a vector of addresses";
      return false;
    }
  if (llvm::isa<llvm::BinaryOperator>(inst) ||
      llvm::isa<llvm::UnaryOperator>(inst) || llvm::isa<llvm::CmpInst>(inst) ||
      llvm::isa<llvm::CastInst>(inst) || llvm::isa<llvm::SelectInst>(inst) ||
      llvm::isa<llvm::GetElementPtrInst>(inst) || llvm::isa<PHINode>(inst) ||
      llvm::isa<llvm::FreezeInst>(inst) || llvm::isa<llvm::ReturnInst>(inst))
    return true;
  if (const auto *branch = llvm::dyn_cast<llvm::BranchInst>(&inst))
    return branch->getNumSuccessors() <= 2;
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
    if (load->isSimple())
      return true;
    why = "an atomic or volatile load";
    return false;
  }
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
    if (store->isSimple())
      return true;
    why = "an atomic or volatile store";
    return false;
  }
  if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
    if (elementWiseIntrinsic(call->getIntrinsicID()))
      return true;
    // A sub-group's exchanges are lane operations (Widener::emitExchange).
    if (familyOf(calledBuiltin(inst)) == BuiltinFamily::SubGroupExchange ||
        calledBuiltin(inst) == Builtin::SubGroupLocalId)
      return true;
    if (familyOf(calledBuiltin(inst)) == BuiltinFamily::Printf) {
      // Kept whole for the message: each record is reserved and written by
      // one work-item at a time.
      why = "printf, whose records are written one work-item at a time";
      return false;
    }
  }
  why = std::string("an instruction it does not widen (") +
        inst.getOpcodeName() + ")";
  return false;
}

// An add (or other operation) of a vector and one of its elements moved
// into element 0, the rest undefined: a step of a horizontal sum (how
// InstCombine writes dot()'s and integer dot products' v.x + v.y + v.z +
// v.w), which only element 0 of needs. Split, it is one scalar operation;
// whole, a shuffle and a vector operation per step.
bool reductionStep(const Instruction &inst) {
  if (!llvm::isa<llvm::BinaryOperator>(inst))
    return false;
  for (const Value *operand : inst.operands()) {
    const auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(operand);
    if (!shuffle)
      continue;
    llvm::ArrayRef<int> mask = shuffle->getShuffleMask();
    if (!mask.empty() && mask[0] != llvm::PoisonMaskElem &&
        std::all_of(mask.begin() + 1, mask.end(),
                    [](int m) { return m == llvm::PoisonMaskElem; }))
      return true;
  }
  return false;
}

// Counted in the loops (the whole body when it has none), since that is
// where the time goes: a vector op done element by element costs the same
// whole as split; an element taken out of or put into a vector, or a
// shuffle, is free split and a shuffle whole. Splats are cheap either way.
bool keepsVectorsWhole(llvm::Function &f, llvm::Value *x, std::string &why) {
  llvm::DominatorTree dominators(f);
  llvm::LoopInfo loops(dominators);
  VaryingValues varying(f, loops, x);
  unsigned elementwise = 0, crossing = 0;
  bool has_vectors = false;
  for (Instruction &inst : llvm::instructions(f)) {
    // A vector result, or a vector operand (a store, an extract).
    bool vector_typed = inst.getType()->isVectorTy();
    for (const Value *operand : inst.operands())
      vector_typed |= operand->getType()->isVectorTy();
    if (!vector_typed)
      continue;
    has_vectors = true;
    std::string unsupported;
    if (!supportedInstruction(inst, unsupported, true)) {
      why = unsupported;
      return false;
    }
    if (!loops.empty() && !loops.getLoopFor(inst.getParent()))
      continue;
    if (llvm::isa<PHINode>(inst) || splatShuffle(inst))
      continue; // carried, or broadcast, alike either way
    if (llvm::isa<llvm::InsertElementInst>(inst) && inst.hasOneUse() &&
        splatShuffle(*llvm::cast<Instruction>(*inst.user_begin())))
      continue;
    if (llvm::isa<llvm::ExtractElementInst>(inst) ||
        llvm::isa<llvm::InsertElementInst>(inst) ||
        llvm::isa<llvm::ShuffleVectorInst>(inst) || reductionStep(inst)) {
      // Taking apart a vector every work-item holds alike (CLBlast's B
      // values, the same for a row of work-items) is done once, on
      // scalars, either way.
      if (varying.varies(&inst))
        ++crossing;
    } else {
      ++elementwise;
    }
  }
  if (!has_vectors)
    return false;
  if (elementwise == 0 || crossing * 2 > elementwise) {
    why = "its vectors are taken apart more than computed on whole";
    return false;
  }
  return true;
}

// Natural loops with a preheader and one latch, whose exit blocks are
// reached only from inside and lie in the enclosing loop (or outside every
// loop): a loop left by a break or a return qualifies, one left straight out
// of its enclosing loop too does not.
bool supportedLoops(llvm::LoopInfo &loops, std::string &why) {
  std::vector<Loop *> pending(loops.begin(), loops.end());
  while (!pending.empty()) {
    Loop *loop = pending.back();
    pending.pop_back();
    llvm::SmallVector<BasicBlock *, 4> exits;
    loop->getUniqueExitBlocks(exits);
    bool ok = loop->getLoopPreheader() && loop->getLoopLatch() &&
              !exits.empty() && loop->hasDedicatedExits();
    for (BasicBlock *exit : exits)
      ok &= loops.getLoopFor(exit) == loop->getParentLoop();
    if (!ok) {
      why = "a loop with several latches, or one left out of two loops";
      return false;
    }
    pending.insert(pending.end(), loop->begin(), loop->end());
  }
  return true;
}

// Every edge that goes back in reverse post-order is a loop's back edge.
bool reducible(llvm::Function &f, llvm::LoopInfo &loops) {
  llvm::ReversePostOrderTraversal<llvm::Function *> order(&f);
  llvm::DenseMap<BasicBlock *, unsigned> position;
  for (BasicBlock *block : order)
    position[block] = position.size();
  for (BasicBlock *block : order)
    for (BasicBlock *next : llvm::successors(block))
      if (position[next] <= position[block]) {
        Loop *loop = loops.getLoopFor(next);
        if (!loop || loop->getHeader() != next || loop->getLoopLatch() != block)
          return false;
      }
  return true;
}

// Whether some loop's work-items may leave it at different times: an exit
// branch whose condition may differ between work-items. Only such loops
// keep LLVM's loop vectorizer from widening the loop over work-items (it
// unrolls or vectorizes loops whose trip count all work-items share, and
// does that better than masks would). A value is taken to differ when it
// depends on the x id, on a load from an address that differs, on a loop
// its work-items leave at different times, or on which side of a branch
// that differs it came by.
bool hasDivergentLoop(llvm::Function &f, llvm::LoopInfo &loops,
                      llvm::DominatorTree &dominators, Value *x) {
  llvm::DenseSet<Value *> varying{x};
  llvm::DenseSet<Loop *> divergent;
  llvm::DenseSet<BasicBlock *> divergent_branches;
  auto dependsOnDivergentBranch = [&](BasicBlock *block) {
    for (llvm::DomTreeNode *node = dominators.getNode(block)->getIDom(); node;
         node = node->getIDom())
      if (divergent_branches.count(node->getBlock()))
        return true;
    return false;
  };
  for (bool grew = true; grew;) {
    grew = false;
    for (BasicBlock &block : f) {
      auto *branch = llvm::dyn_cast<llvm::BranchInst>(block.getTerminator());
      if (branch && branch->isConditional() &&
          varying.count(branch->getCondition()) &&
          divergent_branches.insert(&block).second) {
        grew = true;
        for (Loop *loop = loops.getLoopFor(&block); loop;
             loop = loop->getParentLoop())
          if (loop->isLoopExiting(&block))
            divergent.insert(loop);
      }
      for (Instruction &inst : block) {
        if (varying.count(&inst) || inst.getType()->isVoidTy())
          continue;
        bool varies = false;
        for (Value *operand : inst.operands())
          varies |= varying.count(operand) != 0;
        if (auto *phi = llvm::dyn_cast<PHINode>(&inst)) {
          Loop *loop = loops.getLoopFor(&block);
          if (loop && loop->getHeader() == &block)
            varies |= divergent.count(loop) != 0;
          else if (phi->getNumIncomingValues() > 1)
            varies |= dependsOnDivergentBranch(&block);
          // Values leaving a loop at different times.
          for (BasicBlock *from : phi->blocks())
            if (Loop *left = loops.getLoopFor(from))
              varies |= !left->contains(&block) && divergent.count(left);
        }
        if (varies && varying.insert(&inst).second)
          grew = true;
      }
    }
  }
  return !divergent.empty();
}

// Whether the kernel is compiled for a CPU whose gathers are fast enough to
// widen loops that need them (AVX-512's).
bool hasFastGathers(const llvm::Function &f) {
  return f.getFnAttribute("target-features")
      .getValueAsString()
      .contains("+avx512f");
}

namespace {

// Whether `phi` is a reduction LLVM's loop vectorizer may reorder: the
// value it takes round the loop is the phi combined with other values by a
// chain of one associative operation (integer add, mul, and, or, xor, or a
// float one the kernel allows to reassociate). LLVM's own
// RecurrenceDescriptor wants the loop rotated, which it is only later.
bool reorderableReduction(PHINode &phi, const Loop &loop) {
  BasicBlock *latch = loop.getLoopLatch();
  if (!latch)
    return false;
  auto *op =
      llvm::dyn_cast<llvm::BinaryOperator>(phi.getIncomingValueForBlock(latch));
  if (!op)
    return false;
  llvm::Instruction::BinaryOps kind = op->getOpcode();
  if (op->getType()->isFPOrFPVectorTy()) {
    if ((kind != llvm::Instruction::FAdd && kind != llvm::Instruction::FMul) ||
        !op->hasAllowReassoc())
      return false;
  } else if (kind != llvm::Instruction::Add && kind != llvm::Instruction::Mul &&
             kind != llvm::Instruction::And && kind != llvm::Instruction::Or &&
             kind != llvm::Instruction::Xor) {
    return false;
  }
  // Down the chain of that operation to the phi, within the loop.
  for (unsigned steps = 0; op && steps < 64; ++steps) {
    if (op->getOperand(0) == &phi || op->getOperand(1) == &phi)
      return true;
    llvm::BinaryOperator *next = nullptr;
    for (Value *operand : op->operands())
      if (auto *inner = llvm::dyn_cast<llvm::BinaryOperator>(operand))
        if (!next && inner->getOpcode() == kind && loop.contains(inner))
          next = inner;
    op = next;
  }
  return false;
}

} // namespace

// Whether LLVM's loop vectorizer leaves some innermost loop scalar, which
// it widens only when every access walks memory element by element and
// every value the loop carries from one round to the next is its counter
// or a reduction it may reorder. It leaves scalar:
// - an access at addresses that do not follow the counter one element at
//   a time (a matrix column walked down, b[k * n + col]; the elements of
//   float4 values, 16 bytes apart), which would need gathers;
// - a carried value that is neither: a chain of dependent FMAs (clpeak's
//   x = mad(y, x, y); y = mad(x, y, x)), or a float sum, whose order
//   OpenCL C keeps (LLVM vectorizes ordered reductions only where the
//   target asks for it, and x86 does not).
// Neighbouring work-items usually touch neighbouring or equal addresses
// there and run independent chains, so widening across work-items pays
// even though every work-item runs the loop as many times. `why` names the
// first such loop's reason.
bool loadsAlongOwnRows(llvm::Function &f, llvm::LoopInfo &loops,
                       llvm::DominatorTree &dominators,
                       VaryingValues &varying) {
  constexpr int64_t kCacheLine = 64;
  StandaloneEvolution standalone(f, dominators, loops);
  llvm::ScalarEvolution &evolution = standalone.evolution;
  const llvm::DataLayout &layout = f.getParent()->getDataLayout();
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost())
      continue;
    for (BasicBlock *block : loop->blocks())
      for (Instruction &inst : *block) {
        auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
        if (!load || !varying.gathers(*load))
          continue;
        std::optional<int64_t> apart =
            varying.laneStride(load->getPointerOperand());
        if (!apart || std::abs(*apart) < kCacheLine)
          continue;
        auto *walk = llvm::dyn_cast<llvm::SCEVAddRecExpr>(
            evolution.getSCEV(load->getPointerOperand()));
        if (!walk || walk->getLoop() != loop || !walk->isAffine())
          continue;
        auto *step = llvm::dyn_cast<llvm::SCEVConstant>(
            walk->getStepRecurrence(evolution));
        if (step && step->getAPInt().getSExtValue() ==
                        int64_t(layout.getTypeStoreSize(load->getType())))
          return true;
      }
  }
  return false;
}

bool innermostLoopLeftScalar(llvm::Function &f, llvm::LoopInfo &loops,
                             llvm::DominatorTree &dominators,
                             std::string &why) {
  StandaloneEvolution standalone(f, dominators, loops);
  llvm::ScalarEvolution &evolution = standalone.evolution;
  const llvm::DataLayout &layout = f.getParent()->getDataLayout();
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost())
      continue;
    for (PHINode &phi : loop->getHeader()->phis()) {
      llvm::InductionDescriptor induction;
      if (llvm::InductionDescriptor::isInductionPHI(&phi, loop, &evolution,
                                                    induction))
        continue;
      if (reorderableReduction(phi, *loop))
        continue;
      why = "a value carried round a loop that is neither its counter nor a "
            "reduction LLVM may reorder";
      return true;
    }
    for (BasicBlock *block : loop->blocks())
      for (Instruction &inst : *block) {
        Value *address = llvm::getLoadStorePointerOperand(&inst);
        if (!address)
          continue;
        const llvm::SCEV *where = evolution.getSCEV(address);
        if (evolution.isLoopInvariant(where, loop))
          continue; // the same address every iteration: hoisted
        auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(where);
        auto *step = recurrence && recurrence->getLoop() == loop
                         ? llvm::dyn_cast<llvm::SCEVConstant>(
                               recurrence->getStepRecurrence(evolution))
                         : nullptr;
        uint64_t size = layout.getTypeStoreSize(llvm::getLoadStoreType(&inst));
        if (!step || step->getAPInt().abs() != size) {
          why = "an access that does not walk memory element by element";
          return true;
        }
      }
  }
  return false;
}

namespace {

// Whether `v` may differ between work-items, seen from its operands alone:
// it depends on the x id `x`, or on a phi (control flow may differ).
bool mayDependOnId(Value *v, Value *x, llvm::DenseMap<Value *, bool> &known) {
  if (v == x)
    return true;
  auto *inst = llvm::dyn_cast<Instruction>(v);
  if (!inst)
    return false;
  auto found = known.find(v);
  if (found != known.end())
    return found->second;
  known[v] = true; // cycles go through phis, which count as depending
  bool depends = llvm::isa<PHINode>(inst);
  for (Value *operand : inst->operands())
    depends = depends || mayDependOnId(operand, x, known);
  known[v] = depends;
  return depends;
}

} // namespace

// Whether a loop-free work-item stores to one address for all work-items
// on a path not every work-item takes (`if (id == k) *flag = 1;`): LLVM's
// loop vectorizer leaves such a loop over the work-items scalar, and the
// widener stores once, the last active work-item's value.
bool storesToOneAddressConditionally(llvm::Function &f, Value *x) {
  llvm::DenseMap<Value *, bool> known;
  BasicBlock &entry = f.getEntryBlock();
  for (BasicBlock &block : f) {
    bool every_work_item = &block == &entry;
    if (!every_work_item) {
      // Reached by a chain of unconditional branches from the entry.
      BasicBlock *walk = &entry;
      while (auto *branch =
                 llvm::dyn_cast<llvm::BranchInst>(walk->getTerminator())) {
        if (branch->isConditional())
          break;
        walk = branch->getSuccessor(0);
        if (walk == &block) {
          every_work_item = true;
          break;
        }
      }
    }
    if (every_work_item)
      continue;
    for (Instruction &inst : block)
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
        if (!mayDependOnId(store->getPointerOperand(), x, known))
          return true;
  }
  return false;
}

bool computesInVectors(const llvm::BasicBlock &block) {
  for (const Instruction &inst : block) {
    if (inst.getType()->isVectorTy())
      return true;
    if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
      if (store->getValueOperand()->getType()->isVectorTy())
        return true;
  }
  return false;
}

bool computesInVectors(const llvm::Function &f) {
  return llvm::any_of(f, [](const BasicBlock &block) {
    return computesInVectors(block);
  });
}

// Whether `f` gathers or scatters (what a widened access to elements that
// are not neighbours becomes), anywhere or only in a loop (once per
// work-item costs little beside a loop's rounds).
bool gathers(llvm::Function &f, bool in_loops) {
  llvm::DominatorTree dominators(f);
  llvm::LoopInfo loops(dominators);
  for (Instruction &inst : llvm::instructions(f))
    if (const auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
      if ((call->getIntrinsicID() == llvm::Intrinsic::masked_gather ||
           call->getIntrinsicID() == llvm::Intrinsic::masked_scatter) &&
          (!in_loops || loops.getLoopFor(inst.getParent())))
        return true;
  return false;
}

} // namespace weft::compiler
