#include "compiler/passes/kernels/work_item_vectorizer.h"

#include "compiler/analysis/kernel_metadata.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/support/analysis_managers.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>

#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

namespace weft::compiler {
namespace {

using llvm::BasicBlock;
using llvm::Instruction;
using llvm::Loop;
using llvm::PHINode;
using llvm::Value;

// The clone of the body the vectorizer reads: promoted to registers, with
// loops in the shape it expects (a preheader, one latch, exits reached only
// from inside, values leaving a loop through phis in its exit block).
void prepare(llvm::Function &f) {
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
  // OpenCL C's vector types (an n-body step's float4 positions, float3
  // arithmetic) become one value per element: widened across work-items,
  // each element is then a vector of lanes, which the widener handles.
  llvm::ScalarizerPassOptions elements;
  elements.ScalarizeLoadStore = true;
  elements.ScalarizeVariableInsertExtract = true;
  passes.addPass(llvm::ScalarizerPass(elements));
  addCleanupPasses(passes);
  passes.addPass(llvm::LoopSimplifyPass());
  passes.addPass(llvm::LCSSAPass());
  passes.run(f, analyses.functions);
}

bool scalarType(const llvm::Type *t) {
  return t->isVoidTy() || t->isHalfTy() || t->isFloatTy() || t->isDoubleTy() ||
         t->isPointerTy() ||
         (t->isIntegerTy() && t->getIntegerBitWidth() <= 64);
}

// Intrinsics whose vector form is the same intrinsic on vector types,
// overloaded on their result type only.
bool widenableIntrinsic(llvm::Intrinsic::ID id) {
  switch (id) {
  case llvm::Intrinsic::fmuladd:
  case llvm::Intrinsic::fma:
  case llvm::Intrinsic::fabs:
  case llvm::Intrinsic::sqrt:
  case llvm::Intrinsic::floor:
  case llvm::Intrinsic::ceil:
  case llvm::Intrinsic::trunc:
  case llvm::Intrinsic::rint:
  case llvm::Intrinsic::nearbyint:
  case llvm::Intrinsic::round:
  case llvm::Intrinsic::roundeven:
  case llvm::Intrinsic::minnum:
  case llvm::Intrinsic::maxnum:
  case llvm::Intrinsic::minimum:
  case llvm::Intrinsic::maximum:
  case llvm::Intrinsic::copysign:
  case llvm::Intrinsic::smin:
  case llvm::Intrinsic::smax:
  case llvm::Intrinsic::umin:
  case llvm::Intrinsic::umax:
  case llvm::Intrinsic::abs:
  case llvm::Intrinsic::ctpop:
  case llvm::Intrinsic::ctlz:
  case llvm::Intrinsic::cttz:
  case llvm::Intrinsic::bitreverse:
  case llvm::Intrinsic::bswap:
  case llvm::Intrinsic::fshl:
  case llvm::Intrinsic::fshr:
    return true;
  default:
    return false;
  }
}

// Dropped from the vector body: they only inform the optimizer.
bool ignorable(const Instruction &inst) {
  if (const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
    return intrinsic->isLifetimeStartOrEnd() ||
           llvm::isa<llvm::DbgInfoIntrinsic>(intrinsic) ||
           intrinsic->getIntrinsicID() == llvm::Intrinsic::assume;
  return false;
}

bool supportedInstruction(const Instruction &inst, std::string &why) {
  if (ignorable(inst))
    return true;
  if (!scalarType(inst.getType())) {
    why = "a value of a vector or aggregate type";
    return false;
  }
  for (const Value *operand : inst.operands())
    if (!llvm::isa<BasicBlock>(operand) &&
        !llvm::isa<llvm::Function>(operand) &&
        !scalarType(operand->getType())) {
      why = "an operand of a vector or aggregate type";
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
    if (widenableIntrinsic(call->getIntrinsicID()))
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

// Whether an innermost loop reads or writes memory at addresses that do not
// follow its induction variable one element at a time: LLVM's loop
// vectorizer, which widens only innermost loops, then needs gathers and
// leaves the loop scalar (a matrix column walked down, b[k * n + col]; the
// elements of float4 values, 16 bytes apart). Neighbouring work-items
// usually touch neighbouring or equal addresses there instead, so widening
// across work-items pays even though every work-item runs the loop as many
// times.
bool hasStridedInnermostAccess(llvm::Function &f, llvm::LoopInfo &loops,
                               llvm::DominatorTree &dominators) {
  llvm::AssumptionCache assumptions(f);
  llvm::TargetLibraryInfoImpl library_info(
      llvm::Triple(f.getParent()->getTargetTriple()));
  llvm::TargetLibraryInfo library(library_info);
  llvm::ScalarEvolution evolution(f, library, assumptions, dominators, loops);
  const llvm::DataLayout &layout = f.getParent()->getDataLayout();
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost())
      continue;
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
        if (!step || step->getAPInt().abs() != size)
          return true;
      }
  }
  return false;
}

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

// Whether `f` gathers or scatters (what a widened access to elements that
// are not neighbours becomes) in a loop; once per work-item costs little.
bool gathersInLoops(llvm::Function &f) {
  llvm::DominatorTree dominators(f);
  llvm::LoopInfo loops(dominators);
  for (Instruction &inst : llvm::instructions(f))
    if (const auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
      if ((call->getIntrinsicID() == llvm::Intrinsic::masked_gather ||
           call->getIntrinsicID() == llvm::Intrinsic::masked_scatter) &&
          loops.getLoopFor(inst.getParent()))
        return true;
  return false;
}

class Widener {
public:
  Widener(llvm::Function &scalar, llvm::LoopInfo &loops, llvm::Function &vector,
          unsigned kernel_args)
      : scalar_(scalar), loops_(loops), vector_fn_(vector),
        kernel_args_(kernel_args), b_(vector.getContext()),
        layout_(vector.getParent()->getDataLayout()) {}

  void run() {
    llvm::LLVMContext &ctx = vector_fn_.getContext();
    BasicBlock *entry = BasicBlock::Create(ctx, "entry", &vector_fn_);
    b_.SetInsertPoint(entry);
    x_ = scalar_.getArg(kernel_args_ + 1);
    findVarying();
    std::vector<llvm::Constant *> lanes;
    for (unsigned lane = 0; lane < kVectorWidth; ++lane)
      lanes.push_back(b_.getInt64(lane));
    Value *lane_ids = llvm::ConstantVector::get(lanes);
    Value *first = vector_fn_.getArg(kernel_args_ + 1);
    Value *count = vector_fn_.getArg(kernel_args_ + 4);
    vector_[x_] = b_.CreateAdd(b_.CreateVectorSplat(kVectorWidth, first),
                               lane_ids, "local_id_x");
    block_mask_[&scalar_.getEntryBlock()] = b_.CreateICmpULT(
        lane_ids, b_.CreateVectorSplat(kVectorWidth, count), "active");
    emitRegion(nullptr, &scalar_.getEntryBlock());
    b_.CreateRetVoid();
  }

private:
  // Values that may differ between work-items: the x id and what depends on
  // it, phis (control flow may differ) other than those of loops every
  // work-item goes round as often, loads from addresses that differ (or
  // volatile and atomic ones), and divisions (their masked-off lanes must
  // not trap). The rest is computed once, as scalars: a loop's counter and
  // what it alone addresses, say `a[row * n + k]` in a loop over k, is one
  // load and a broadcast instead of a gather of one address.
  void findVarying() {
    // Loops whose exits no work-item takes apart from the others, found
    // optimistically: a loop leaves the set when an exit's condition turns
    // out to vary, and the search starts again.
    for (Loop *loop : loops_.getLoopsInPreorder())
      if (loop->getLoopPreheader() && loop->getLoopLatch())
        uniform_loops_.insert(loop);
    for (;;) {
      varying_.clear();
      varying_.insert(x_);
      for (bool grew = true; grew;) {
        grew = false;
        for (Instruction &inst : llvm::instructions(scalar_)) {
          if (varying_.count(&inst) || inst.getType()->isVoidTy())
            continue;
          bool varies = false;
          if (auto *phi = llvm::dyn_cast<PHINode>(&inst)) {
            Loop *loop = loops_.getLoopFor(phi->getParent());
            varies = !loop || loop->getHeader() != phi->getParent() ||
                     !uniform_loops_.count(loop);
          }
          if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
            varies |= !load->isSimple();
          if (const auto *op = llvm::dyn_cast<llvm::BinaryOperator>(&inst))
            varies |= op->isIntDivRem();
          for (Value *operand : inst.operands())
            varies |= varying_.count(operand) != 0;
          if (varies) {
            varying_.insert(&inst);
            grew = true;
          }
        }
      }
      Loop *divergent = nullptr;
      for (Loop *loop : uniform_loops_) {
        llvm::SmallVector<BasicBlock *, 4> exiting;
        loop->getExitingBlocks(exiting);
        for (BasicBlock *block : exiting) {
          auto *branch =
              llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
          if (!branch || (branch->isConditional() &&
                          varying_.count(branch->getCondition())))
            divergent = loop;
        }
        if (divergent)
          break;
      }
      if (!divergent)
        return;
      uniform_loops_.erase(divergent);
    }
  }

  bool varies(Value *v) const { return varying_.count(v) != 0; }

  llvm::FixedVectorType *vectorOf(llvm::Type *t) {
    return llvm::FixedVectorType::get(t, kVectorWidth);
  }
  llvm::Type *maskType() { return vectorOf(b_.getInt1Ty()); }

  Value *anyLane(Value *mask) {
    return b_.CreateICmpNE(b_.CreateBitCast(mask, b_.getIntNTy(kVectorWidth)),
                           b_.getIntN(kVectorWidth, 0));
  }

  Value *uniform(Value *v) {
    if (llvm::isa<llvm::Constant>(v))
      return v;
    if (auto *arg = llvm::dyn_cast<llvm::Argument>(v))
      return vector_fn_.getArg(arg->getArgNo());
    return uniform_.at(v);
  }

  Value *widened(Value *v) {
    if (varies(v))
      return vector_.at(v);
    if (auto *c = llvm::dyn_cast<llvm::Constant>(v))
      return llvm::ConstantVector::getSplat(
          llvm::ElementCount::getFixed(kVectorWidth), c);
    auto found = splats_.find(v);
    if (found != splats_.end())
      return found->second;
    // A splat right after the scalar dominates every use of the scalar.
    Value *scalar = uniform(v);
    llvm::IRBuilderBase::InsertPointGuard keep(b_);
    if (auto *inst = llvm::dyn_cast<Instruction>(scalar)) {
      if (llvm::isa<PHINode>(inst)) // a loop's counter: after all its phis
        b_.SetInsertPoint(inst->getParent(),
                          inst->getParent()->getFirstInsertionPt());
      else if (Instruction *next = inst->getNextNode())
        b_.SetInsertPoint(next);
      else
        b_.SetInsertPoint(inst->getParent()); // the block being written
    } else {
      BasicBlock &entry = vector_fn_.getEntryBlock();
      b_.SetInsertPoint(&entry, entry.getFirstInsertionPt());
    }
    Value *splat = b_.CreateVectorSplat(kVectorWidth, scalar);
    splats_[v] = splat;
    return splat;
  }

  // Bytes (pointers) or units (integers) between the values of neighbouring
  // work-items, when they follow the x id linearly.
  std::optional<int64_t> laneStride(Value *v) {
    if (!varies(v))
      return 0;
    if (v == x_)
      return 1;
    auto known = strides_.find(v);
    if (known != strides_.end())
      return known->second;
    std::optional<int64_t> stride;
    if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(v)) {
      auto a = laneStride(op->getOperand(0));
      auto c = llvm::dyn_cast<llvm::ConstantInt>(op->getOperand(1));
      switch (op->getOpcode()) {
      case Instruction::Add:
        if (auto b2 = laneStride(op->getOperand(1)); a && b2)
          stride = *a + *b2;
        break;
      case Instruction::Sub:
        if (auto b2 = laneStride(op->getOperand(1)); a && b2)
          stride = *a - *b2;
        break;
      case Instruction::Mul:
        if (a && c)
          stride = *a * c->getSExtValue();
        break;
      case Instruction::Shl:
        if (a && c && c->getZExtValue() < 32)
          stride = *a << c->getZExtValue();
        break;
      case Instruction::AShr: {
        // ashr (shl v, k), m with m <= k: v sign-extended from its low
        // bits, times 2^(k - m), as InstCombine writes sext (trunc v) and
        // the scaling of an index (an id narrowed to int, see TruncInst
        // below).
        auto *inner = llvm::dyn_cast<llvm::BinaryOperator>(op->getOperand(0));
        auto *k = inner && inner->getOpcode() == Instruction::Shl
                      ? llvm::dyn_cast<llvm::ConstantInt>(inner->getOperand(1))
                      : nullptr;
        if (c && k && c->getZExtValue() <= k->getZExtValue() &&
            op->getType()->getIntegerBitWidth() - k->getZExtValue() >= 32)
          if (auto v = laneStride(inner->getOperand(0)))
            stride = *v << (k->getZExtValue() - c->getZExtValue());
        break;
      }
      default:
        break;
      }
    } else if (auto *trunc = llvm::dyn_cast<llvm::TruncInst>(v)) {
      // An id narrowed to int (`int col = get_global_id(0)`): neighbouring
      // work-items stay neighbours unless the ids pass 2^31, where OpenCL C's
      // int arithmetic on them would overflow anyway.
      if (trunc->getType()->getIntegerBitWidth() >= 32)
        stride = laneStride(trunc->getOperand(0));
    } else if (auto *ext = llvm::dyn_cast<llvm::SExtInst>(v)) {
      // Sign extension keeps the steps when the narrow sum cannot wrap, or
      // of an id narrowed to int (see TruncInst above).
      auto *narrow =
          llvm::dyn_cast<llvm::OverflowingBinaryOperator>(ext->getOperand(0));
      if ((narrow && narrow->hasNoSignedWrap()) ||
          llvm::isa<llvm::TruncInst>(ext->getOperand(0)))
        stride = laneStride(ext->getOperand(0));
    } else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(v)) {
      stride = laneStride(gep->getPointerOperand());
      for (auto it = llvm::gep_type_begin(gep);
           stride && it != llvm::gep_type_end(gep); ++it) {
        if (it.isStruct())
          continue;
        auto index = laneStride(it.getOperand());
        if (!index) {
          stride.reset();
          break;
        }
        *stride += *index * int64_t(it.getSequentialElementStride(layout_));
      }
    }
    strides_[v] = stride;
    return stride;
  }

  // Loads and stores: whole vectors where neighbouring work-items touch
  // neighbouring elements, gathers and scatters elsewhere, all masked.
  bool consecutive(Value *pointer, llvm::Type *element) {
    auto stride = laneStride(pointer);
    uint64_t size = layout_.getTypeAllocSize(element);
    return stride && *stride == int64_t(size) &&
           size == layout_.getTypeStoreSize(element);
  }

  Value *firstLane(Value *pointer) {
    return b_.CreateExtractElement(widened(pointer), uint64_t(0));
  }

  // A store to one address for all: made once, when some work-item is on
  // this path, of the value of the last of them (work-item order, as the
  // plain loop over the work-items would leave it).
  void storeToOneAddress(llvm::StoreInst &store, Value *mask) {
    llvm::LLVMContext &ctx = vector_fn_.getContext();
    Value *value = store.getValueOperand();
    Value *bits = b_.CreateBitCast(mask, b_.getIntNTy(kVectorWidth));
    BasicBlock *store_block =
        BasicBlock::Create(ctx, "wi.uniform_store", &vector_fn_);
    BasicBlock *after = BasicBlock::Create(ctx, "wi.stored", &vector_fn_);
    b_.CreateCondBr(b_.CreateICmpNE(bits, b_.getIntN(kVectorWidth, 0)),
                    store_block, after);
    b_.SetInsertPoint(store_block);
    Value *stored;
    if (varies(value)) {
      Value *leading =
          b_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, bits, b_.getTrue());
      Value *last =
          b_.CreateSub(b_.getIntN(kVectorWidth, kVectorWidth - 1), leading);
      stored = b_.CreateExtractElement(widened(value), last);
    } else {
      stored = uniform(value);
    }
    llvm::StoreInst *copy = b_.CreateAlignedStore(
        stored, uniform(store.getPointerOperand()), store.getAlign());
    copy->copyMetadata(store);
    b_.CreateBr(after);
    b_.SetInsertPoint(after);
  }

  void emitInstruction(Instruction &inst, Value *mask) {
    if (ignorable(inst))
      return;
    if (!varies(&inst) && !llvm::isa<llvm::StoreInst>(inst)) {
      std::vector<Value *> operands; // mapped first: this may throw
      for (Value *operand : inst.operands())
        operands.push_back(uniform(operand));
      Instruction *copy = inst.clone();
      for (unsigned i = 0; i < operands.size(); ++i)
        copy->setOperand(i, operands[i]);
      auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
      if (!load || load->hasMetadata(llvm::LLVMContext::MD_invariant_load)) {
        b_.Insert(copy, inst.getName());
        uniform_[&inst] = copy;
        return;
      }
      // A load of one address for all: made only when some work-item is
      // on this path, as its scalar code would.
      llvm::LLVMContext &ctx = vector_fn_.getContext();
      BasicBlock *before = b_.GetInsertBlock();
      BasicBlock *load_block =
          BasicBlock::Create(ctx, "wi.uniform_load", &vector_fn_);
      BasicBlock *after = BasicBlock::Create(ctx, "wi.loaded", &vector_fn_);
      b_.CreateCondBr(anyLane(mask), load_block, after);
      b_.SetInsertPoint(load_block);
      b_.Insert(copy, inst.getName());
      b_.CreateBr(after);
      b_.SetInsertPoint(after);
      PHINode *value = b_.CreatePHI(inst.getType(), 2, inst.getName());
      value->addIncoming(copy, load_block);
      value->addIncoming(llvm::PoisonValue::get(inst.getType()), before);
      uniform_[&inst] = value;
      return;
    }
    Value *result = nullptr;
    if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(&inst)) {
      Value *lhs = widened(op->getOperand(0)),
            *rhs = widened(op->getOperand(1));
      if (op->isIntDivRem()) {
        // Lanes off the path divide by one, never by zero or to overflow.
        llvm::Type *t = vectorOf(op->getType());
        rhs = b_.CreateSelect(mask, rhs, llvm::ConstantInt::get(t, 1));
        if (op->getOpcode() == Instruction::SDiv ||
            op->getOpcode() == Instruction::SRem)
          lhs = b_.CreateSelect(mask, lhs, llvm::ConstantInt::get(t, 0));
      }
      result = b_.CreateBinOp(op->getOpcode(), lhs, rhs);
    } else if (auto *op = llvm::dyn_cast<llvm::UnaryOperator>(&inst)) {
      result = b_.CreateUnOp(op->getOpcode(), widened(op->getOperand(0)));
    } else if (auto *cmp = llvm::dyn_cast<llvm::CmpInst>(&inst)) {
      result = b_.CreateCmp(cmp->getPredicate(), widened(cmp->getOperand(0)),
                            widened(cmp->getOperand(1)));
    } else if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&inst)) {
      result = b_.CreateCast(cast->getOpcode(), widened(cast->getOperand(0)),
                             vectorOf(cast->getType()));
    } else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&inst)) {
      Value *condition = select->getCondition();
      result = b_.CreateSelect(
          varies(condition) ? widened(condition) : uniform(condition),
          widened(select->getTrueValue()), widened(select->getFalseValue()));
    } else if (auto *freeze = llvm::dyn_cast<llvm::FreezeInst>(&inst)) {
      result = b_.CreateFreeze(widened(freeze->getOperand(0)));
    } else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&inst)) {
      Value *base = gep->getPointerOperand();
      std::vector<Value *> indices;
      for (Value *index : gep->indices())
        indices.push_back(varies(index) ? widened(index) : uniform(index));
      result = b_.CreateGEP(gep->getSourceElementType(),
                            varies(base) ? widened(base) : uniform(base),
                            indices, "", gep->getNoWrapFlags());
      if (!result->getType()->isVectorTy())
        result = b_.CreateVectorSplat(kVectorWidth, result);
    } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
      llvm::Type *t = load->getType();
      Value *pointer = load->getPointerOperand();
      result = consecutive(pointer, t)
                   ? b_.CreateMaskedLoad(vectorOf(t), firstLane(pointer),
                                         load->getAlign(), mask)
                   : b_.CreateMaskedGather(vectorOf(t), widened(pointer),
                                           load->getAlign(), mask);
    } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
      Value *pointer = store->getPointerOperand();
      if (!varies(pointer)) {
        storeToOneAddress(*store, mask);
        return;
      }
      Value *value = widened(store->getValueOperand());
      if (consecutive(pointer, store->getValueOperand()->getType()))
        b_.CreateMaskedStore(value, firstLane(pointer), store->getAlign(),
                             mask);
      else
        b_.CreateMaskedScatter(value, widened(pointer), store->getAlign(),
                               mask);
      return;
    } else if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
      std::vector<Value *> args;
      for (Value *arg : call->args())
        args.push_back(arg->getType()->isIntegerTy(1) &&
                               llvm::isa<llvm::Constant>(arg)
                           ? arg // the immediate flag of abs, ctlz, cttz
                           : widened(arg));
      result = b_.CreateIntrinsic(call->getIntrinsicID(),
                                  {vectorOf(call->getType())}, args);
    }
    if (auto *widened_inst = llvm::dyn_cast<Instruction>(result))
      if (widened_inst->getOpcode() == inst.getOpcode())
        widened_inst->copyIRFlags(&inst);
    vector_[&inst] = result;
  }

  Value *edgeMask(BasicBlock *from, BasicBlock *to) {
    return edge_mask_.at({from, to});
  }

  void emitTerminator(BasicBlock *block, Value *mask) {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    if (!branch)
      return; // ret: the lanes are done
    auto together = together_exits_.find(block);
    if (together != together_exits_.end()) {
      // Every work-item in the loop passes here and leaves, or not, with
      // the others: a scalar branch decides the round, and the edges keep
      // the block's mask.
      const TogetherExit &exit = together->second;
      Value *test = uniform(branch->getCondition());
      Value *round = branch->getSuccessor(0) == exit.exit_block
                         ? b_.CreateNot(test)
                         : test;
      auto *go =
          BasicBlock::Create(vector_fn_.getContext(), "wi.round", &vector_fn_);
      b_.CreateCondBr(b_.CreateAnd(round, exit.entered), go, exit.after);
      b_.SetInsertPoint(go);
      edge_mask_[{block, branch->getSuccessor(0)}] = mask;
      edge_mask_[{block, branch->getSuccessor(1)}] = mask;
      return;
    }
    if (branch->isUnconditional()) {
      edge_mask_[{block, branch->getSuccessor(0)}] = mask;
      return;
    }
    Value *condition = widened(branch->getCondition());
    BasicBlock *taken = branch->getSuccessor(0),
               *other = branch->getSuccessor(1);
    if (taken == other) {
      edge_mask_[{block, taken}] = mask;
      return;
    }
    edge_mask_[{block, taken}] = b_.CreateAnd(mask, condition);
    edge_mask_[{block, other}] = b_.CreateAnd(mask, b_.CreateNot(condition));
  }

  // A phi where paths join: each work-item's value from the edge it came by.
  void emitJoin(PHINode &phi, BasicBlock *block) {
    auto exit_value = loop_exit_values_.find(&phi);
    if (exit_value != loop_exit_values_.end()) {
      vector_[&phi] = exit_value->second;
      return;
    }
    Value *result = nullptr;
    for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i) {
      Value *value = widened(phi.getIncomingValue(i));
      result = result
                   ? b_.CreateSelect(edgeMask(phi.getIncomingBlock(i), block),
                                     value, result)
                   : value;
    }
    vector_[&phi] = result;
  }

  void emitBlock(BasicBlock *block) {
    Value *mask = block_mask_.at(block);
    for (Instruction &inst : *block) {
      if (auto *phi = llvm::dyn_cast<PHINode>(&inst)) {
        if (!vector_.count(phi) && !uniform_.count(phi)) // loop headers'
          emitJoin(*phi, block);
      } else if (inst.isTerminator()) {
        emitTerminator(block, mask);
      } else {
        emitInstruction(inst, mask);
      }
    }
  }

  // The blocks of `loop` (the function when null) outside its inner loops,
  // and those inner loops as single steps, in an order where each comes
  // after everything that reaches it without going round a loop.
  std::vector<BasicBlock *> regionOrder(Loop *loop, BasicBlock *header) {
    auto stepOf = [&](BasicBlock *block) -> BasicBlock * {
      Loop *inner = loops_.getLoopFor(block);
      if (inner == loop)
        return block;
      if (!inner || (loop && !loop->contains(inner)))
        return nullptr; // outside the region
      while (inner->getParentLoop() != loop)
        inner = inner->getParentLoop();
      return inner->getHeader();
    };
    auto next = [&](BasicBlock *step) {
      std::vector<BasicBlock *> result;
      Loop *inner = loops_.getLoopFor(step);
      if (inner != loop && inner->getHeader() == step) {
        llvm::SmallVector<BasicBlock *, 4> exits;
        inner->getUniqueExitBlocks(exits);
        for (BasicBlock *exit : exits)
          if (BasicBlock *s = stepOf(exit))
            result.push_back(s);
        return result;
      }
      for (BasicBlock *successor : llvm::successors(step))
        if (successor != header)
          if (BasicBlock *s = stepOf(successor))
            result.push_back(s);
      return result;
    };
    std::vector<BasicBlock *> post;
    llvm::DenseSet<BasicBlock *> seen;
    std::vector<std::pair<BasicBlock *, size_t>> stack{{header, 0}};
    seen.insert(header);
    while (!stack.empty()) {
      auto &[step, index] = stack.back();
      std::vector<BasicBlock *> successors = next(step);
      if (index < successors.size()) {
        BasicBlock *s = successors[index++];
        if (seen.insert(s).second)
          stack.push_back({s, 0});
        continue;
      }
      post.push_back(step);
      stack.pop_back();
    }
    return std::vector<BasicBlock *>(post.rbegin(), post.rend());
  }

  void emitRegion(Loop *loop, BasicBlock *header) {
    for (BasicBlock *step : regionOrder(loop, header)) {
      Loop *inner = loops_.getLoopFor(step);
      if (inner != loop && inner->getHeader() == step) {
        emitLoop(inner);
        continue;
      }
      if (step != header && !block_mask_.count(step)) {
        Value *mask = nullptr;
        for (BasicBlock *from : llvm::predecessors(step)) {
          Value *m = edgeMask(from, step);
          mask = mask ? b_.CreateOr(mask, m) : m;
        }
        block_mask_[step] = mask;
      }
      emitBlock(step);
    }
  }

  // A loop runs while any work-item continues round it. Work-items that
  // leave keep the values they leave with in accumulators, which the phis
  // of the exit blocks then read, and each exit block runs for the
  // work-items that left by it.
  //
  // A loop whose one way out is a test every work-item going round makes
  // alike, in its header or latch, lets them all leave together: the loop
  // keeps the mask it was entered with, a scalar branch on the test decides
  // each round, and the values leaving are those of the last round. With
  // all lanes active (a row's full chunks: entry_builder.cpp) that mask is
  // all true, and the loop's masked loads and stores fold into plain ones
  // (naive sgemm's k loop loaded through vmaskmov at every step on AVX2).
  void emitLoop(Loop *loop) {
    llvm::LLVMContext &ctx = vector_fn_.getContext();
    BasicBlock *header = loop->getHeader(),
               *preheader = loop->getLoopPreheader();
    BasicBlock *latch = loop->getLoopLatch();
    llvm::SmallVector<BasicBlock *, 4> exits;
    loop->getUniqueExitBlocks(exits);
    Value *entry_mask = edgeMask(preheader, header);
    BasicBlock *exiting = loop->getExitingBlock();
    auto *exit_branch =
        exiting ? llvm::dyn_cast<llvm::BranchInst>(exiting->getTerminator())
                : nullptr;
    bool together =
        uniform_loops_.count(loop) && exits.size() == 1 &&
        (exiting == header || exiting == latch) && exit_branch &&
        exit_branch->isConditional() && !varies(exit_branch->getCondition()) &&
        exit_branch->getSuccessor(0) != exit_branch->getSuccessor(1) &&
        std::none_of(loop->block_begin(), loop->block_end(),
                     [](BasicBlock *block) {
                       // A work-item returning inside stops.
                       return llvm::succ_empty(block);
                     });
    BasicBlock *before = b_.GetInsertBlock();
    BasicBlock *body = BasicBlock::Create(ctx, "wi.loop", &vector_fn_);
    BasicBlock *after = BasicBlock::Create(ctx, "wi.exit", &vector_fn_);
    if (together)
      // A loop in a branch no work-item took must not go round on its
      // scalar test alone.
      together_exits_[exiting] = {
          exits[0], after,
          b_.CreateICmpNE(
              b_.CreateBitCast(entry_mask, b_.getIntNTy(kVectorWidth)),
              b_.getIntN(kVectorWidth, 0))};
    b_.CreateBr(body);
    b_.SetInsertPoint(body);
    PHINode *mask = b_.CreatePHI(maskType(), 2, "wi.mask");
    mask->addIncoming(entry_mask, before);
    // Per exit block: the work-items that left by it so far.
    // (Work-items leaving together need none: they leave in the last round.)
    std::vector<PHINode *> left;
    for (size_t i = 0; i < exits.size() && !together; ++i) {
      left.push_back(b_.CreatePHI(maskType(), 2, "wi.left"));
      left.back()->addIncoming(llvm::Constant::getNullValue(maskType()),
                               before);
    }
    std::vector<std::pair<PHINode *, PHINode *>> carried, kept, counters;
    for (PHINode &phi : header->phis()) {
      if (!varies(&phi)) { // the loop's own counter, one for all
        PHINode *s = b_.CreatePHI(phi.getType(), 2, phi.getName());
        s->addIncoming(uniform(phi.getIncomingValueForBlock(preheader)),
                       before);
        uniform_[&phi] = s;
        counters.push_back({&phi, s});
        continue;
      }
      PHINode *v = b_.CreatePHI(vectorOf(phi.getType()), 2, phi.getName());
      v->addIncoming(widened(phi.getIncomingValueForBlock(preheader)), before);
      vector_[&phi] = v;
      carried.push_back({&phi, v});
    }
    for (BasicBlock *exit : exits)
      for (PHINode &phi : exit->phis()) {
        if (together) {
          kept.push_back({&phi, nullptr});
          continue;
        }
        PHINode *v = b_.CreatePHI(vectorOf(phi.getType()), 2, phi.getName());
        v->addIncoming(llvm::PoisonValue::get(v->getType()), before);
        kept.push_back({&phi, v});
      }
    block_mask_[header] = mask;
    emitRegion(loop, header);
    BasicBlock *end = b_.GetInsertBlock();
    if (together) {
      // Only the values leaving are needed after the loop: those its
      // exiting block had in the last round, which dominate `after`.
      for (auto [phi, none] : kept)
        loop_exit_values_[phi] =
            widened(phi->getIncomingValueForBlock(exiting));
      for (auto [phi, v] : carried)
        v->addIncoming(widened(phi->getIncomingValueForBlock(latch)), end);
      for (auto [phi, s] : counters)
        s->addIncoming(uniform(phi->getIncomingValueForBlock(latch)), end);
      mask->addIncoming(mask, end);
      // The exiting block's scalar branch (emitTerminator) decided whether
      // this round goes on; here it has.
      b_.CreateBr(body);
      together_exits_.erase(exiting);
      b_.SetInsertPoint(after);
      block_mask_[exits[0]] = entry_mask;
      return;
    }
    std::vector<Value *> all_left;
    for (size_t i = 0; i < exits.size(); ++i) {
      Value *leaving = left[i];
      for (BasicBlock *from : llvm::predecessors(exits[i]))
        leaving = b_.CreateOr(leaving, edgeMask(from, exits[i]));
      left[i]->addIncoming(leaving, end);
      all_left.push_back(leaving);
    }
    for (auto [phi, accumulator] : kept) {
      Value *value = accumulator;
      for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
        value = b_.CreateSelect(
            edgeMask(phi->getIncomingBlock(i), phi->getParent()),
            widened(phi->getIncomingValue(i)), value);
      accumulator->addIncoming(value, end);
      loop_exit_values_[phi] = value;
    }
    for (auto [phi, v] : carried)
      v->addIncoming(widened(phi->getIncomingValueForBlock(latch)), end);
    for (auto [phi, s] : counters)
      s->addIncoming(uniform(phi->getIncomingValueForBlock(latch)), end);
    Value *again = edgeMask(latch, header);
    mask->addIncoming(again, end);
    Value *any =
        b_.CreateICmpNE(b_.CreateBitCast(again, b_.getIntNTy(kVectorWidth)),
                        b_.getIntN(kVectorWidth, 0));
    b_.CreateCondBr(any, body, after);
    b_.SetInsertPoint(after);
    for (size_t i = 0; i < exits.size(); ++i)
      block_mask_[exits[i]] = all_left[i];
  }

  // A loop's one exiting block whose work-items leave together (emitLoop).
  struct TogetherExit {
    BasicBlock *exit_block; // where they go, in the scalar body
    BasicBlock *after;      // the widened code after the loop
    Value *entered;         // whether any work-item entered the loop
  };
  llvm::DenseMap<BasicBlock *, TogetherExit> together_exits_;

  llvm::Function &scalar_;
  llvm::LoopInfo &loops_;
  llvm::Function &vector_fn_;
  unsigned kernel_args_;
  llvm::IRBuilder<> b_;
  const llvm::DataLayout &layout_;
  Value *x_ = nullptr;
  llvm::DenseSet<Value *> varying_;
  llvm::SmallPtrSet<Loop *, 8> uniform_loops_;
  llvm::DenseMap<Value *, Value *> uniform_, vector_, splats_;
  llvm::DenseMap<Value *, std::optional<int64_t>> strides_;
  llvm::DenseMap<BasicBlock *, Value *> block_mask_;
  std::map<std::pair<BasicBlock *, BasicBlock *>, Value *> edge_mask_;
  llvm::DenseMap<PHINode *, Value *> loop_exit_values_;
};

} // namespace

llvm::Function *vectorizeWorkItems(llvm::Function &body, std::string &why) {
  llvm::ValueToValueMapTy map;
  llvm::Function *scalar = llvm::CloneFunction(&body, map);
  prepare(*scalar);
  llvm::DominatorTree dominators(*scalar);
  llvm::LoopInfo loops(dominators);
  bool ok = true;
  if (loops.empty() && !storesToOneAddressConditionally(
                           *scalar, scalar->getArg(body.arg_size() - 3))) {
    why = "no loop in the work-item (LLVM's loop vectorizer covers it)";
    ok = false;
  }
  for (Instruction &inst : llvm::instructions(*scalar))
    if (ok && (llvm::isa<llvm::AllocaInst>(inst) ||
               !supportedInstruction(inst, why))) {
      if (llvm::isa<llvm::AllocaInst>(inst))
        why = "a private array";
      ok = false;
    }
  if (ok)
    ok = supportedLoops(loops, why);
  if (ok && !reducible(*scalar, loops)) {
    why = "irreducible control flow";
    ok = false;
  }
  bool uniform_loops_only =
      ok && !loops.empty() &&
      !hasDivergentLoop(*scalar, loops, dominators,
                        scalar->getArg(body.arg_size() - 3));
  if (uniform_loops_only &&
      !hasStridedInnermostAccess(*scalar, loops, dominators)) {
    why = "every loop runs as many times for all work-items and walks "
          "memory element by element (LLVM's loop vectorizer covers it)";
    ok = false;
  }
  llvm::Function *vector = nullptr;
  if (ok) {
    // (kernel arguments..., context, first x, y, z, count)
    unsigned kernel_args = body.arg_size() - 4;
    std::vector<llvm::Type *> params;
    for (unsigned i = 0; i <= kernel_args; ++i)
      params.push_back(body.getArg(i)->getType());
    llvm::Type *i64 = llvm::Type::getInt64Ty(body.getContext());
    params.insert(params.end(), {i64, i64, i64, i64});
    vector = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(body.getContext()),
                                params, false),
        llvm::GlobalValue::InternalLinkage, body.getName() + ".simd",
        body.getParent());
    vector->addFnAttrs(llvm::AttrBuilder(body.getContext(),
                                         body.getAttributes().getFnAttrs()));
    // The widened function is checked before it replaces anything: a shape
    // this pass mishandles costs speed, never a wrong or crashing kernel.
    bool widened = true;
    try {
      Widener(*scalar, loops, *vector, kernel_args).run();
    } catch (const std::out_of_range &) {
      widened = false; // a value or edge it never reached
    }
    std::string problems;
    llvm::raw_string_ostream out(problems);
    if (!widened || llvm::verifyFunction(*vector, &out)) {
      why = "internal: the widened function was not valid";
      vector->eraseFromParent();
      vector = nullptr;
    } else if (uniform_loops_only && !hasFastGathers(body) &&
               gathersInLoops(*vector)) {
      // Widened, the loop's strided accesses are gathers: worth it with
      // AVX-512's (2.1x PoCL's naive sgemm on a Xeon), a loss with AVX2's
      // (0.77x on the same Xeon with code for znver3). Accesses the same
      // for all work-items or to neighbouring elements need none.
      why = "every loop runs as many times for all work-items and, widened, "
            "would gather (LLVM's loop vectorizer covers it; without "
            "AVX-512, gathers cost more)";
      vector->eraseFromParent();
      vector = nullptr;
    }
  }
  scalar->eraseFromParent();
  return vector;
}

llvm::PreservedAnalyses
WorkItemVectorizerPass::run(llvm::Module &module,
                            llvm::ModuleAnalysisManager &) {
  std::vector<KernelRecord> records = readKernelRecords(module);
  bool changed = false;
  for (KernelRecord &record : records) {
    ExecutionPlan &plan = record.description.plan;
    if (!record.body || plan.path != ExecutionPath::Widened)
      continue;
    std::string why;
    if (vectorizeWorkItems(*record.body, why)) {
      changed = true;
      continue;
    }
    plan.path = ExecutionPath::WorkItemLoop;
    plan.fallback = why;
  }
  writeKernelRecords(module, records);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
