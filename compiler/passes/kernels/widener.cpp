// The widener's values, instructions and blocks: each scalar value becomes
// one scalar for all work-items or a vector of one per work-item, and each
// block is written under the mask of the work-items on it.
#include "compiler/passes/kernels/widener.h"

#include "compiler/analysis/builtin_identity.h"

#include "compiler/passes/kernels/widening_checks.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::Instruction;
using llvm::PHINode;
using llvm::Value;

void Widener::run() {
  llvm::LLVMContext &ctx = vector_fn_.getContext();
  BasicBlock *entry = BasicBlock::Create(ctx, "entry", &vector_fn_);
  b_.SetInsertPoint(entry);
  std::vector<llvm::Constant *> lanes;
  for (unsigned lane = 0; lane < lanes_; ++lane)
    lanes.push_back(b_.getInt64(lane));
  Value *lane_ids = llvm::ConstantVector::get(lanes);
  Value *first = vector_fn_.getArg(kernel_args_ + 1);
  Value *count = vector_fn_.getArg(kernel_args_ + 4);
  vector_[x_] = b_.CreateAdd(b_.CreateVectorSplat(lanes_, first),
                             lane_ids, "local_id_x");
  masks_.setBlock(&scalar_.getEntryBlock(),
                  b_.CreateICmpULT(lane_ids,
                                   b_.CreateVectorSplat(lanes_, count),
                                   "active"));
  emitRegion(nullptr, &scalar_.getEntryBlock());
  b_.CreateRetVoid();
}

Value *Widener::uniform(Value *v) {
  if (llvm::isa<llvm::Constant>(v))
    return v;
  if (auto *arg = llvm::dyn_cast<llvm::Argument>(v))
    return vector_fn_.getArg(arg->getArgNo());
  return uniform_.at(v);
}

Value *Widener::widened(Value *v) {
  if (varies(v))
    return vector_.at(v);
  if (auto *c = llvm::dyn_cast<llvm::Constant>(v)) {
    if (!c->getType()->isVectorTy())
      return llvm::ConstantVector::getSplat(
          llvm::ElementCount::getFixed(lanes_), c);
    std::vector<llvm::Constant *> repeated;
    unsigned elements = elementsOf(c->getType());
    for (unsigned lane = 0; lane < lanes_; ++lane)
      for (unsigned e = 0; e < elements; ++e)
        repeated.push_back(c->getAggregateElement(e));
    return llvm::ConstantVector::get(repeated);
  }
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
  Value *splat;
  if (scalar->getType()->isVectorTy()) {
    // One vector for all, repeated for each work-item.
    llvm::SmallVector<int, 64> repeat;
    unsigned elements = elementsOf(scalar->getType());
    for (unsigned lane = 0; lane < lanes_; ++lane)
      for (unsigned e = 0; e < elements; ++e)
        repeat.push_back(int(e));
    splat = b_.CreateShuffleVector(scalar, repeat);
  } else {
    splat = b_.CreateVectorSplat(lanes_, scalar);
  }
  splats_[v] = splat;
  return splat;
}

// The lanes' pointers for a load or store through `pointer`: for a gather
// or scatter whose work-items are a known distance apart, the first one's
// and constant offsets (LaneMasks::stridedPointers).
Value *Widener::accessPointers(Value *pointer, unsigned spacing) {
  Value *pointers = widened(pointer);
  if (spacing != 0 || !pointers->getType()->isVectorTy())
    return pointers;
  std::optional<int64_t> stride = varying_.laneStride(pointer);
  return stride ? masks_.stridedPointers(pointers, *stride) : pointers;
}

bool Widener::emitExchange(Instruction &inst, Value *mask) {
  Builtin builtin = calledBuiltin(inst);
  if (builtin == Builtin::SubGroupInLanes) {
    uniform_[&inst] = llvm::ConstantInt::get(inst.getType(), 1);
    return true;
  }
  if (builtin != Builtin::SubGroupSync && builtin != Builtin::SubGroupRead)
    return false;
  auto &call = llvm::cast<llvm::CallInst>(inst);
  llvm::Type *i64 = b_.getInt64Ty();
  auto *slots = llvm::ArrayType::get(i64, lanes_);
  if (!exchanged_) {
    llvm::IRBuilderBase::InsertPointGuard keep(b_);
    BasicBlock &entry = vector_fn_.getEntryBlock();
    b_.SetInsertPoint(&entry, entry.getFirstInsertionPt());
    auto *alloca = b_.CreateAlloca(slots, nullptr, "sub_group_values");
    alloca->setAlignment(llvm::Align(64));
    exchanged_ = alloca;
  }
  if (builtin == Builtin::SubGroupSync) {
    exchanged_vector_ = widened(call.getArgOperand(0));
    exchanged_block_ = b_.GetInsertBlock();
    b_.CreateAlignedStore(exchanged_vector_, exchanged_, llvm::Align(64));
    Value *lanes = mask->getType()->isVectorTy()
                       ? mask
                       : b_.CreateVectorSplat(lanes_, mask);
    Value *bits = b_.CreateBitCast(lanes, b_.getIntNTy(lanes_));
    uniform_[&inst] = b_.CreateZExtOrTrunc(bits, i64, "sub_group_members");
    return true;
  }
  Value *member = call.getArgOperand(0);
  // Reads right after their exchange, the members named by constants (a
  // lane's number xor or minus a constant: the log-step folds of
  // builtins/subgroups.cl): one permutation of the vector stored.
  if (exchanged_vector_ && exchanged_block_ == b_.GetInsertBlock()) {
    Value *index = varies(member) ? widened(member) : uniform(member);
    if (auto *constant = llvm::dyn_cast<llvm::Constant>(index)) {
      llvm::SmallVector<int, 64> picks;
      for (unsigned lane = 0; lane < (varies(member) ? lanes_ : 1); ++lane) {
        auto *pick = llvm::dyn_cast_or_null<llvm::ConstantInt>(
            index->getType()->isVectorTy() ? constant->getAggregateElement(lane)
                                           : constant);
        picks.push_back(pick ? int(pick->getZExtValue() % lanes_) : 0);
      }
      if (varies(member))
        vector_[&inst] = b_.CreateShuffleVector(exchanged_vector_, picks,
                                                "sub_group_values");
      else
        uniform_[&inst] = b_.CreateExtractElement(
            exchanged_vector_, uint64_t(picks[0]), "sub_group_value");
      return true;
    }
  }
  if (!varies(member)) {
    Value *slot = b_.CreateInBoundsGEP(
        slots, exchanged_, {b_.getInt64(0), b_.CreateZExt(uniform(member), i64)});
    uniform_[&inst] = b_.CreateLoad(i64, slot, "sub_group_value");
    return true;
  }
  Value *index = b_.CreateZExt(widened(member), vectorOf(i64, lanes_));
  Value *pointers = b_.CreateInBoundsGEP(i64, exchanged_, index);
  vector_[&inst] = b_.CreateMaskedGather(
      vectorOf(i64, lanes_), pointers, llvm::Align(8),
      llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(lanes_),
                                     b_.getTrue()),
      nullptr, "sub_group_values");
  return true;
}

void Widener::emitPrefetch(Instruction &prefetch) {
  auto &call = llvm::cast<llvm::CallInst>(prefetch);
  Value *pointer = call.getArgOperand(0);
  auto hint = [&](Value *address) {
    b_.CreateIntrinsic(llvm::Intrinsic::prefetch, {address->getType()},
                       {address, call.getArgOperand(1), call.getArgOperand(2),
                        call.getArgOperand(3)});
  };
  if (!varies(pointer)) {
    hint(uniform(pointer));
    return;
  }
  // Lanes off the path prefetch too: a hint never faults.
  constexpr int64_t kLineBytes = 64, kMostLines = 4;
  std::optional<int64_t> stride = varying_.laneStride(pointer);
  int64_t span = stride ? *stride * int64_t(lanes_ - 1) : 0;
  if (stride && std::abs(span) <= kMostLines * kLineBytes) {
    Value *pointers = widened(pointer);
    int64_t low = std::min<int64_t>(0, span), high = std::max<int64_t>(0, span);
    Value *first = b_.CreateExtractElement(pointers, uint64_t(0));
    // A line from each lane's start on (tiles are laid out on whole lines
    // more often than not; a second prefetch for the same line would cost
    // an instruction and a slot in the load queue).
    for (int64_t offset = low; offset <= high; offset += kLineBytes)
      hint(b_.CreateGEP(b_.getInt8Ty(), first, b_.getInt64(offset)));
    return;
  }
  // Lanes far apart, or a distance known only at run time (a tile walked
  // across its rows, `ld` apart): a prefetch per lane, each address taken
  // out of a vector, costs more than the misses it saves (CLBlast's direct
  // DGEMM 256 with them ran several times slower on the Xeon), and lanes
  // off the path may point anywhere.
}

void Widener::emitInstruction(Instruction &inst, Value *mask) {
  if (ignorable(inst) || emitExchange(inst, mask))
    return;
  if (isPrefetch(inst)) {
    emitPrefetch(inst);
    return;
  }
  if (emitChosenAccess(inst, mask))
    return;
  if (calledBuiltin(inst) == Builtin::SubGroupLocalId) {
    if (!sub_groups_)
      throw std::out_of_range("a sub-group local id outside sub-groups");
    std::vector<llvm::Constant *> lanes;
    for (unsigned lane = 0; lane < lanes_; ++lane)
      lanes.push_back(llvm::ConstantInt::get(inst.getType(), lane));
    vector_[&inst] = llvm::ConstantVector::get(lanes);
    return;
  }
  if (!varies(&inst) && !llvm::isa<llvm::StoreInst>(inst)) {
    std::vector<Value *> operands; // mapped first: this may throw
    for (Value *operand : inst.operands())
      operands.push_back(uniform(operand));
    if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(&inst);
        op && op->isIntDivRem() && !llvm::isSafeToSpeculativelyExecute(op)) {
      // One division for all, which divides by one when no work-item is on
      // this path (a chunk runs a side none of its work-items takes), as a
      // load for all is made only when one is.
      Value *any = masks_.anyLane(mask);
      operands[1] = b_.CreateSelect(any, operands[1],
                                    llvm::ConstantInt::get(op->getType(), 1));
      if (op->getOpcode() == Instruction::SDiv ||
          op->getOpcode() == Instruction::SRem)
        operands[0] = b_.CreateSelect(any, operands[0],
                                      llvm::ConstantInt::get(op->getType(), 0));
    }
    Instruction *copy = inst.clone();
    for (unsigned i = 0; i < operands.size(); ++i)
      copy->setOperand(i, operands[i]);
    auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
    if (!load || load->hasMetadata(llvm::LLVMContext::MD_invariant_load)) {
      b_.Insert(copy, inst.getName());
      uniform_[&inst] = copy;
      return;
    }
    uniform_[&inst] = masks_.loadIfAnyLane(copy, inst.getName(), mask);
    return;
  }
  Value *result = nullptr;
  if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(&inst)) {
    Value *lhs = widened(op->getOperand(0)), *rhs = widened(op->getOperand(1));
    if (op->isIntDivRem() && !llvm::isSafeToSpeculativelyExecute(op)) {
      // Lanes off the path divide by one, never by zero or to overflow (a
      // constant divisor that cannot trap keeps LLVM's shifts and multiplies
      // instead of a division per lane).
      llvm::Type *t = vectorOf(op->getType(), lanes_);
      rhs = masks_.select(mask, rhs, llvm::ConstantInt::get(t, 1));
      if (op->getOpcode() == Instruction::SDiv ||
          op->getOpcode() == Instruction::SRem)
        lhs = masks_.select(mask, lhs, llvm::ConstantInt::get(t, 0));
    }
    result = b_.CreateBinOp(op->getOpcode(), lhs, rhs);
  } else if (auto *op = llvm::dyn_cast<llvm::UnaryOperator>(&inst)) {
    result = b_.CreateUnOp(op->getOpcode(), widened(op->getOperand(0)));
  } else if (auto *cmp = llvm::dyn_cast<llvm::CmpInst>(&inst)) {
    result = b_.CreateCmp(cmp->getPredicate(), widened(cmp->getOperand(0)),
                          widened(cmp->getOperand(1)));
  } else if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&inst)) {
    result = b_.CreateCast(cast->getOpcode(), widened(cast->getOperand(0)),
                           vectorOf(cast->getType(), lanes_));
  } else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&inst)) {
    Value *condition = select->getCondition();
    result = masks_.select(
        varies(condition) ? widened(condition) : uniform(condition),
        widened(select->getTrueValue()), widened(select->getFalseValue()));
  } else if (auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(&inst)) {
    // Element i of each work-item's vector (the checks let only constant
    // indices through).
    unsigned elements = elementsOf(extract->getVectorOperandType());
    auto index = llvm::cast<llvm::ConstantInt>(extract->getIndexOperand())
                     ->getZExtValue();
    result = elementOfEach(*extract);
    if (!result) {
      llvm::SmallVector<int, 64> picks;
      for (unsigned lane = 0; lane < lanes_; ++lane)
        picks.push_back(int(lane * elements + index));
      result = b_.CreateShuffleVector(widened(extract->getVectorOperand()),
                                      picks);
    }
  } else if (auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(&inst)) {
    unsigned elements = elementsOf(insert->getType());
    auto index = llvm::cast<llvm::ConstantInt>(insert->getOperand(2))
                     ->getZExtValue();
    // Each work-item's scalar moved to its element i, then blended in.
    llvm::SmallVector<int, 64> spread, blend;
    for (unsigned lane = 0; lane < lanes_; ++lane)
      for (unsigned e = 0; e < elements; ++e) {
        spread.push_back(e == index ? int(lane) : -1);
        blend.push_back(int(lane * elements + e) +
                        (e == index ? int(lanes_ * elements) : 0));
      }
    Value *spread_out =
        b_.CreateShuffleVector(widened(insert->getOperand(1)), spread);
    result = b_.CreateShuffleVector(widened(insert->getOperand(0)), spread_out,
                                    blend);
  } else if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&inst)) {
    // The same shuffle within each work-item's vectors.
    unsigned from = elementsOf(shuffle->getOperand(0)->getType());
    llvm::ArrayRef<int> mask_of_one = shuffle->getShuffleMask();
    llvm::SmallVector<int, 64> picks;
    for (unsigned lane = 0; lane < lanes_; ++lane)
      for (int pick : mask_of_one)
        picks.push_back(pick < 0 ? -1
                        : unsigned(pick) < from
                            ? int(lane * from) + pick
                            : int(lanes_ * from + lane * from) + pick -
                                  int(from));
    result = b_.CreateShuffleVector(widened(shuffle->getOperand(0)),
                                    widened(shuffle->getOperand(1)), picks);
  } else if (auto *freeze = llvm::dyn_cast<llvm::FreezeInst>(&inst)) {
    result = b_.CreateFreeze(widened(freeze->getOperand(0)));
  } else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&inst)) {
    Value *base = gep->getPointerOperand();
    std::vector<Value *> indices;
    for (Value *index : gep->indices())
      indices.push_back(varies(index) ? widened(index) : uniform(index));
    result = b_.CreateGEP(gep->getSourceElementType(),
                          varies(base) ? widened(base) : uniform(base), indices,
                          "", gep->getNoWrapFlags());
    if (!result->getType()->isVectorTy())
      result = b_.CreateVectorSplat(lanes_, result);
  } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
    llvm::Type *t = load->getType();
    Value *pointer = load->getPointerOperand();
    unsigned spacing = varying_.spacing(pointer, t);
    auto in_row = row_loads_.find(load);
    if (in_row != row_loads_.end())
      result = in_row->second;
    else if (spacing == 0 && rows_)
      result = loadRows(*load, mask);
    if (!result)
      result = loadInterleaved(
          *load,
          varying_.spacing(pointer, t, VaryingValues::kMostRunSpacing), mask);
    if (!result && load->isSimple() && varying_.laneStride(pointer) == 0) {
      // Every lane at one address (a counter all work-items step alike in
      // a loop they leave apart: `for (k = 0; k < i; ++k) ... in[k]`): one
      // load when some work-item is on, its value in every lane.
      Instruction *one = load->clone();
      one->setOperand(0, b_.CreateExtractElement(widened(pointer),
                                                 uint64_t(0)));
      Value *value = masks_.loadIfAnyLane(one, load->getName(), mask);
      if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(t)) {
        llvm::SmallVector<int, 64> picks;
        for (unsigned lane = 0; lane < lanes_; ++lane)
          for (unsigned e = 0; e < vector->getNumElements(); ++e)
            picks.push_back(int(e));
        result = b_.CreateShuffleVector(value, picks);
      } else {
        result = b_.CreateVectorSplat(lanes_, value);
      }
    }
    if (!result)
      result = masks_.load(t, accessPointers(pointer, spacing), spacing,
                           load->getAlign(), mask);
  } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
    Value *pointer = store->getPointerOperand();
    Value *value = store->getValueOperand();
    if (!varies(pointer)) {
      bool per_lane = varies(value);
      Value *stored = per_lane ? widened(value) : uniform(value);
      masks_.storeToOneAddress(*store, stored, per_lane, uniform(pointer),
                               mask);
      return;
    }
    if (store->isSimple() && varying_.laneStride(pointer) == 0) {
      // Every lane at one address: as a store to a uniform one.
      Value *one = b_.CreateExtractElement(widened(pointer), uint64_t(0));
      bool per_lane = varies(value);
      Value *stored = per_lane ? widened(value) : uniform(value);
      masks_.storeToOneAddress(*store, stored, per_lane, one, mask);
      return;
    }
    if (storeInterleaved(*store,
                         varying_.spacing(pointer, value->getType(),
                                          VaryingValues::kMostRunSpacing),
                         mask))
      return;
    unsigned spacing = varying_.spacing(pointer, value->getType());
    Value *values = widened(value);
    masks_.store(values, value->getType(), accessPointers(pointer, spacing),
                 spacing, store->getAlign(), mask);
    return;
  } else if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
    std::vector<Value *> args;
    for (Value *arg : call->args())
      args.push_back(arg->getType()->isIntegerTy(1) &&
                             llvm::isa<llvm::Constant>(arg)
                         ? arg // the immediate flag of abs, ctlz, cttz
                         : widened(arg));
    result = b_.CreateIntrinsic(call->getIntrinsicID(),
                                {vectorOf(call->getType(), lanes_)}, args);
  }
  if (auto *widened_inst = llvm::dyn_cast<Instruction>(result))
    if (widened_inst->getOpcode() == inst.getOpcode())
      widened_inst->copyIRFlags(&inst);
  vector_[&inst] = result;
}

void Widener::emitTerminator(BasicBlock *block, Value *mask) {
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
    Value *round =
        branch->getSuccessor(0) == exit.exit_block ? b_.CreateNot(test) : test;
    auto *go =
        BasicBlock::Create(vector_fn_.getContext(), "wi.round", &vector_fn_);
    b_.CreateCondBr(b_.CreateAnd(round, exit.entered), go, exit.after);
    b_.SetInsertPoint(go);
    masks_.setEdge(block, branch->getSuccessor(0), mask);
    masks_.setEdge(block, branch->getSuccessor(1), mask);
    return;
  }
  if (branch->isUnconditional()) {
    masks_.setEdge(block, branch->getSuccessor(0), mask);
    return;
  }
  Value *condition = widened(branch->getCondition());
  masks_.branch(block, branch->getSuccessor(0), branch->getSuccessor(1), mask,
                condition);
}

// A phi where paths join: each work-item's value from the edge it came by.
void Widener::emitJoin(PHINode &phi, BasicBlock *block) {
  auto exit_value = loop_exit_values_.find(&phi);
  if (exit_value != loop_exit_values_.end()) {
    vector_[&phi] = exit_value->second;
    return;
  }
  if (varying_.uniformJoin(block)) {
    // Every work-item here came by the same edge: the value of the edge
    // that any came by, whole (lanes off keep their steps, so a uniform
    // choice between two runs of addresses is still a run), or one scalar
    // for all where every edge brings one. Where the two sides of one
    // branch join, its condition chooses.
    bool per_lane = varies(&phi);
    auto value_of = [&](Value *v) { return per_lane ? widened(v) : uniform(v); };
    if (auto choice = varying_.choiceOf(&phi)) {
      (per_lane ? vector_ : uniform_)[&phi] =
          b_.CreateSelect(uniform(choice->condition),
                          value_of(choice->if_true), value_of(choice->if_false));
      return;
    }
    Value *result = nullptr;
    for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i) {
      Value *value = value_of(phi.getIncomingValue(i));
      result = result ? b_.CreateSelect(masks_.anyLane(masks_.edge(
                                            phi.getIncomingBlock(i), block)),
                                        value, result)
                      : value;
    }
    (per_lane ? vector_ : uniform_)[&phi] = result;
    return;
  }
  Value *result = nullptr;
  for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i) {
    Value *value = widened(phi.getIncomingValue(i));
    result = result
                 ? masks_.select(masks_.edge(phi.getIncomingBlock(i), block),
                                 value, result)
                 : value;
  }
  vector_[&phi] = result;
}

void Widener::emitBlock(BasicBlock *block) {
  Value *mask = masks_.block(block);
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

} // namespace weft::compiler
