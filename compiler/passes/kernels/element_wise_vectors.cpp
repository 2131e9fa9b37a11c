// Whole-vector operations rebuilt from vectors computed element by element
// (element_wise_vectors.h).
#include "compiler/passes/kernels/element_wise_vectors.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ValueHandle.h>
#include <llvm/Transforms/Utils/Local.h>

namespace weft::compiler {

using llvm::ArrayRef;
using llvm::BasicBlock;
using llvm::Instruction;
using llvm::Value;

bool elementWiseIntrinsic(llvm::Intrinsic::ID id) {
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
  case llvm::Intrinsic::sadd_sat:
  case llvm::Intrinsic::uadd_sat:
  case llvm::Intrinsic::ssub_sat:
  case llvm::Intrinsic::usub_sat:
    return true;
  default:
    return false;
  }
}

namespace {

// A number (not a pointer, not a vector): what a vector's element may be.
bool numberType(const llvm::Type *t) {
  return t->isIntegerTy() || t->isFloatingPointTy();
}

// Builds, before one insert, the vector whose element i is lanes[i]; what it
// creates is recorded so that a failed attempt leaves nothing behind.
class VectorRebuilder {
public:
  explicit VectorRebuilder(Instruction *at) : builder_(at) {}

  Value *build(ArrayRef<Value *> lanes, unsigned depth) {
    if (depth > kMostDepth)
      return nullptr;
    if (Value *v = fromConstants(lanes))
      return v;
    if (Value *v = fromOneValue(lanes))
      return v;
    if (Value *v = fromElements(lanes))
      return v;
    return fromOperations(lanes, depth);
  }

  // Erases what was built (after a failure: none of it is used).
  void discard() {
    for (auto it = created_.rbegin(); it != created_.rend(); ++it)
      (*it)->eraseFromParent();
    created_.clear();
  }

private:
  // Deep enough for a multiply feeding an add feeding a conversion; a chain
  // deeper than that is left element by element.
  static constexpr unsigned kMostDepth = 6;

  Value *record(Value *v) {
    if (auto *inst = llvm::dyn_cast<Instruction>(v))
      created_.push_back(inst);
    return v;
  }

  static llvm::FixedVectorType *vectorOf(llvm::Type *element, size_t n) {
    return llvm::FixedVectorType::get(element, static_cast<unsigned>(n));
  }

  Value *fromConstants(ArrayRef<Value *> lanes) {
    llvm::SmallVector<llvm::Constant *, 16> constants;
    for (Value *lane : lanes) {
      auto *constant = llvm::dyn_cast<llvm::Constant>(lane);
      if (!constant)
        return nullptr;
      constants.push_back(constant);
    }
    return llvm::ConstantVector::get(constants);
  }

  // The same value in every element: a broadcast.
  Value *fromOneValue(ArrayRef<Value *> lanes) {
    for (Value *lane : lanes)
      if (lane != lanes[0])
        return nullptr;
    if (lanes[0]->getType()->isVectorTy())
      return nullptr;
    Value *splat = builder_.CreateVectorSplat(
        static_cast<unsigned>(lanes.size()), lanes[0]);
    // CreateVectorSplat makes an insert and a shuffle.
    if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(splat)) {
      record(shuffle->getOperand(0));
      record(shuffle);
    }
    return splat;
  }

  // Elements taken out of one or two vectors: those vectors, or a shuffle.
  Value *fromElements(ArrayRef<Value *> lanes) {
    Value *sources[2] = {nullptr, nullptr};
    llvm::SmallVector<int, 16> mask;
    for (Value *lane : lanes) {
      auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(lane);
      if (!extract)
        return nullptr;
      auto *index =
          llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand());
      Value *source = extract->getVectorOperand();
      if (!index || (sources[0] && source->getType() != sources[0]->getType()))
        return nullptr;
      unsigned which = 0;
      if (!sources[0] || sources[0] == source) {
        sources[0] = source;
      } else if (!sources[1] || sources[1] == source) {
        sources[1] = source;
        which = 1;
      } else {
        return nullptr;
      }
      unsigned width = llvm::cast<llvm::FixedVectorType>(source->getType())
                           ->getNumElements();
      mask.push_back(static_cast<int>(which * width + index->getZExtValue()));
    }
    unsigned width = llvm::cast<llvm::FixedVectorType>(sources[0]->getType())
                         ->getNumElements();
    bool identity = !sources[1] && width == lanes.size();
    for (size_t i = 0; identity && i < mask.size(); ++i)
      identity = mask[i] == static_cast<int>(i);
    if (identity)
      return sources[0];
    Value *second =
        sources[1] ? sources[1] : llvm::PoisonValue::get(sources[0]->getType());
    return record(builder_.CreateShuffleVector(sources[0], second, mask));
  }

  // The same operation in every element, each computed for that element
  // alone: that operation on vectors of its operands.
  Value *fromOperations(ArrayRef<Value *> lanes, unsigned depth) {
    auto *first = llvm::dyn_cast<Instruction>(lanes[0]);
    if (!first || llvm::isa<llvm::PHINode>(first))
      return nullptr;
    for (Value *lane : lanes) {
      auto *inst = llvm::dyn_cast<Instruction>(lane);
      if (!inst || !inst->hasOneUse() ||
          inst->getOpcode() != first->getOpcode() ||
          inst->getNumOperands() != first->getNumOperands())
        return nullptr;
      for (unsigned i = 0; i < inst->getNumOperands(); ++i)
        if (inst->getOperand(i)->getType() != first->getOperand(i)->getType())
          return nullptr;
    }
    size_t n = lanes.size();
    auto operandLanes = [&](unsigned i) {
      llvm::SmallVector<Value *, 16> operands;
      for (Value *lane : lanes)
        operands.push_back(llvm::cast<Instruction>(lane)->getOperand(i));
      return operands;
    };
    Value *result = nullptr;
    if (llvm::isa<llvm::BinaryOperator>(first)) {
      Value *left = build(operandLanes(0), depth + 1);
      Value *right = left ? build(operandLanes(1), depth + 1) : nullptr;
      if (!right)
        return nullptr;
      result = builder_.CreateBinOp(
          llvm::cast<llvm::BinaryOperator>(first)->getOpcode(), left, right);
    } else if (llvm::isa<llvm::UnaryOperator>(first)) {
      Value *operand = build(operandLanes(0), depth + 1);
      if (!operand)
        return nullptr;
      result = builder_.CreateUnOp(
          llvm::cast<llvm::UnaryOperator>(first)->getOpcode(), operand);
    } else if (auto *cast = llvm::dyn_cast<llvm::CastInst>(first)) {
      if (!numberType(first->getType()) || !numberType(cast->getSrcTy()))
        return nullptr;
      Value *operand = build(operandLanes(0), depth + 1);
      if (!operand)
        return nullptr;
      result = builder_.CreateCast(cast->getOpcode(), operand,
                                   vectorOf(first->getType(), n));
    } else if (auto *compare = llvm::dyn_cast<llvm::CmpInst>(first)) {
      for (Value *lane : lanes)
        if (llvm::cast<llvm::CmpInst>(lane)->getPredicate() !=
            compare->getPredicate())
          return nullptr;
      if (!numberType(compare->getOperand(0)->getType()))
        return nullptr;
      Value *left = build(operandLanes(0), depth + 1);
      Value *right = left ? build(operandLanes(1), depth + 1) : nullptr;
      if (!right)
        return nullptr;
      result = builder_.CreateCmp(compare->getPredicate(), left, right);
    } else if (llvm::isa<llvm::SelectInst>(first)) {
      if (!numberType(first->getType()))
        return nullptr;
      Value *condition = build(operandLanes(0), depth + 1);
      Value *chosen = condition ? build(operandLanes(1), depth + 1) : nullptr;
      Value *other = chosen ? build(operandLanes(2), depth + 1) : nullptr;
      if (!other)
        return nullptr;
      result = builder_.CreateSelect(condition, chosen, other);
    } else if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(first)) {
      result = fromIntrinsics(lanes, call, depth);
    }
    if (!result)
      return nullptr;
    record(result);
    if (auto *inst = llvm::dyn_cast<Instruction>(result)) {
      inst->copyIRFlags(first);
      for (Value *lane : lanes)
        inst->andIRFlags(lane);
    }
    return result;
  }

  Value *fromIntrinsics(ArrayRef<Value *> lanes, llvm::IntrinsicInst *first,
                        unsigned depth) {
    llvm::Intrinsic::ID id = first->getIntrinsicID();
    if (!elementWiseIntrinsic(id) || !numberType(first->getType()))
      return nullptr;
    for (Value *lane : lanes) {
      auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(lane);
      if (!call || call->getIntrinsicID() != id)
        return nullptr;
    }
    llvm::SmallVector<Value *, 4> arguments;
    for (unsigned i = 0; i < first->arg_size(); ++i) {
      llvm::SmallVector<Value *, 16> operands;
      for (Value *lane : lanes)
        operands.push_back(llvm::cast<llvm::CallInst>(lane)->getArgOperand(i));
      if (first->paramHasAttr(i, llvm::Attribute::ImmArg)) {
        // An immediate (abs's and ctlz's poison flag) stays one constant.
        for (Value *operand : operands)
          if (operand != operands[0])
            return nullptr;
        arguments.push_back(operands[0]);
        continue;
      }
      Value *argument = build(operands, depth + 1);
      if (!argument)
        return nullptr;
      arguments.push_back(argument);
    }
    return builder_.CreateIntrinsic(vectorOf(first->getType(), lanes.size()),
                                    id, arguments);
  }

  llvm::IRBuilder<> builder_;
  std::vector<Instruction *> created_;
};

// The elements a chain of inserts ending at `last` sets, if it sets every
// one (the last insert of an element wins).
bool elementsSet(llvm::InsertElementInst *last,
                 llvm::SmallVectorImpl<Value *> &lanes) {
  auto *type = llvm::cast<llvm::FixedVectorType>(last->getType());
  unsigned n = type->getNumElements();
  lanes.assign(n, nullptr);
  unsigned found = 0;
  Value *v = last;
  while (found < n) {
    auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(v);
    if (!insert)
      return false;
    auto *index = llvm::dyn_cast<llvm::ConstantInt>(insert->getOperand(2));
    if (!index || index->getZExtValue() >= n)
      return false;
    unsigned i = static_cast<unsigned>(index->getZExtValue());
    if (!lanes[i]) {
      lanes[i] = insert->getOperand(1);
      ++found;
    }
    v = insert->getOperand(0);
  }
  return true;
}

// The last insert of a chain: not only the vector the next insert starts
// from.
bool endsChain(const llvm::InsertElementInst &insert) {
  if (!insert.hasOneUse())
    return true;
  const auto *next =
      llvm::dyn_cast<llvm::InsertElementInst>(*insert.user_begin());
  return !next || next->getOperand(0) != &insert;
}

// Uses of the chain's elements that the chain's end dominates, other than
// the chain's own inserts, read the element out of the finished vector
// instead. InstCombine forwards an element of a vector built element by
// element to its readers: CLBlast's second k step of `c.x = mad(a.x, b,
// c.x)` in an unrolled loop reads the first step's scalar results, so each
// has two uses and the first step's vector is not rebuilt (in a barrier
// region of Xgemm, where the accumulators are reloaded as vectors, none
// was). Read out of the vector, the next step's operands are that vector's
// elements, which the rebuilt vector then supplies whole.
void readElementsThroughChain(llvm::InsertElementInst *last,
                              llvm::ArrayRef<Value *> lanes,
                              llvm::DominatorTree &dominators) {
  llvm::SmallPtrSet<const Instruction *, 16> chain;
  for (Value *v = last; chain.size() < 64;) {
    auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(v);
    if (!insert)
      break;
    chain.insert(insert);
    v = insert->getOperand(0);
  }
  llvm::Type *i64 = llvm::Type::getInt64Ty(last->getContext());
  // A loop's results leave it through single-entry phis (LCSSA): the
  // vector leaves through one of its own, read outside, so the loop gains
  // no extract.
  llvm::DenseMap<BasicBlock *, llvm::PHINode *> vector_exits;
  auto exitVector = [&](llvm::PHINode &exit) {
    llvm::PHINode *&vector = vector_exits[exit.getParent()];
    if (!vector) {
      vector = llvm::PHINode::Create(last->getType(), 1,
                                     last->getName() + ".exit");
      vector->insertBefore(exit.getParent()->begin());
      vector->addIncoming(last, exit.getIncomingBlock(0));
    }
    return vector;
  };
  for (size_t i = 0; i < lanes.size(); ++i) {
    auto *element = llvm::dyn_cast<Instruction>(lanes[i]);
    if (!element || element->hasOneUse())
      continue;
    Instruction *read = nullptr;
    for (llvm::Use &use : llvm::make_early_inc_range(element->uses())) {
      auto *user = llvm::dyn_cast<Instruction>(use.getUser());
      if (!user || chain.count(user) || !dominators.dominates(last, use))
        continue;
      if (auto *phi = llvm::dyn_cast<llvm::PHINode>(user)) {
        if (phi->getNumIncomingValues() != 1)
          continue; // a loop's own phi keeps the element
        Instruction *outside = llvm::ExtractElementInst::Create(
            exitVector(*phi), llvm::ConstantInt::get(i64, i),
            phi->getName());
        outside->insertBefore(phi->getParent()->getFirstInsertionPt());
        phi->replaceAllUsesWith(outside);
        phi->eraseFromParent();
        continue;
      }
      if (!read) {
        read = llvm::ExtractElementInst::Create(
            last, llvm::ConstantInt::get(i64, i), element->getName() + ".read");
        read->insertAfter(last);
      }
      use.set(read);
    }
  }
}

} // namespace

bool rebuildElementWiseVectors(llvm::Function &f) {
  std::vector<llvm::WeakVH> chains;
  for (Instruction &inst : llvm::instructions(f))
    if (auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(&inst))
      if (llvm::isa<llvm::FixedVectorType>(insert->getType()) &&
          numberType(insert->getType()->getScalarType()) && endsChain(*insert))
        chains.emplace_back(insert);
  bool changed = false;
  llvm::DominatorTree dominators(f); // no block is added or removed here
  for (llvm::WeakVH &handle : chains) {
    auto *last = llvm::dyn_cast_or_null<llvm::InsertElementInst>(handle);
    llvm::SmallVector<Value *, 16> lanes;
    if (!last || !elementsSet(last, lanes))
      continue;
    readElementsThroughChain(last, lanes, dominators);
    VectorRebuilder rebuilder(last);
    Value *whole = rebuilder.build(lanes, 0);
    if (!whole || llvm::isa<llvm::Constant>(whole)) {
      rebuilder.discard();
      continue;
    }
    last->replaceAllUsesWith(whole);
    llvm::RecursivelyDeleteTriviallyDeadInstructions(last);
    changed = true;
  }
  return changed;
}

llvm::PreservedAnalyses
ElementWiseVectorsPass::run(llvm::Module &module,
                            llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &f : module)
    if (!f.isDeclaration())
      changed |= rebuildElementWiseVectors(f);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
