// The varying-value analysis of weft-widen-work-items: what must be a vector
// of lanes in the widened body, what stays one scalar for all, and which
// accesses touch neighbouring elements.
#include "compiler/passes/kernels/varying_values.h"

#include "compiler/analysis/builtin_identity.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::Instruction;
using llvm::Loop;
using llvm::PHINode;
using llvm::Value;

VaryingValues::VaryingValues(llvm::Function &scalar, llvm::LoopInfo &loops,
                             Value *x)
    : scalar_(scalar), loops_(loops),
      layout_(scalar.getParent()->getDataLayout()),
      dominators_(std::make_unique<llvm::DominatorTree>(scalar)), x_(x) {
  findVarying();
}

VaryingValues::~VaryingValues() = default;

// The blocks that lead from the dominator to `join` (those reaching it
// without passing the dominator again), and the dominator, all in the
// join's loop and none its header (so no edge goes round), each ending in
// a branch whose condition is the same for every work-item.
bool VaryingValues::uniformJoin(BasicBlock *join) const {
  Loop *loop = loops_.getLoopFor(join);
  if ((loop && loop->getHeader() == join) ||
      !dominators_->isReachableFromEntry(join))
    return false;
  llvm::DomTreeNode *idom = dominators_->getNode(join)->getIDom();
  if (!idom)
    return false;
  BasicBlock *decider = idom->getBlock();
  auto alike = [&](BasicBlock *block) {
    if (loops_.getLoopFor(block) != loop ||
        !dominators_->isReachableFromEntry(block))
      return false;
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    return branch && (branch->isUnconditional() ||
                      !varying_.count(branch->getCondition()));
  };
  if (!alike(decider))
    return false;
  llvm::SmallVector<BasicBlock *, 16> work(llvm::predecessors(join));
  llvm::SmallPtrSet<BasicBlock *, 16> seen;
  while (!work.empty()) {
    BasicBlock *block = work.pop_back_val();
    if (block == decider || !seen.insert(block).second)
      continue;
    if ((loop && loop->getHeader() == block) || !alike(block))
      return false;
    work.append(llvm::pred_begin(block), llvm::pred_end(block));
  }
  return true;
}

void VaryingValues::findVarying() {
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
        // A sub-group's exchange answers one mask for its lanes (a chunk
        // is a sub-group); what it reads varies with the index alone.
        if (calledBuiltin(inst) == Builtin::SubGroupSync)
          continue;
        bool varies = calledBuiltin(inst) == Builtin::SubGroupLocalId;
        if (auto *phi = llvm::dyn_cast<PHINode>(&inst)) {
          Loop *loop = loops_.getLoopFor(phi->getParent());
          varies = loop && loop->getHeader() == phi->getParent()
                       ? !uniform_loops_.count(loop)
                       : !uniformJoin(phi->getParent());
        }
        if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
          varies |= !load->isSimple();
        // A division of values all work-items share stays one division,
        // made safe where no work-item is on its path (Widener): CLBlast's
        // transposes shuffle their groups by `% get_num_groups(0)`, and a
        // division per lane made every address after it a gather.
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
        auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
        if (!branch ||
            (branch->isConditional() && varying_.count(branch->getCondition())))
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

std::optional<VaryingValues::Choice>
VaryingValues::choiceOf(Value *v) const {
  if (auto *select = llvm::dyn_cast<llvm::SelectInst>(v)) {
    if (varies(select->getCondition()) ||
        select->getCondition()->getType()->isVectorTy())
      return std::nullopt;
    return Choice{select->getCondition(), select->getTrueValue(),
                  select->getFalseValue()};
  }
  auto *phi = llvm::dyn_cast<PHINode>(v);
  if (!phi || phi->getNumIncomingValues() != 2 ||
      !uniformJoin(phi->getParent()))
    return std::nullopt;
  BasicBlock *join = phi->getParent();
  BasicBlock *decider = dominators_->getNode(join)->getIDom()->getBlock();
  auto *branch = llvm::dyn_cast<llvm::BranchInst>(decider->getTerminator());
  if (!branch || !branch->isConditional() ||
      branch->getSuccessor(0) == branch->getSuccessor(1))
    return std::nullopt;
  // Which successor of the decider an incoming edge is reached through.
  auto side = [&](BasicBlock *from) -> int {
    if (from == decider)
      return branch->getSuccessor(0) == join ? 0 : 1;
    for (int k = 0; k < 2; ++k) {
      BasicBlock *first = branch->getSuccessor(unsigned(k));
      if (first != join && first->getSinglePredecessor() == decider &&
          dominators_->dominates(first, from))
        return k;
    }
    return -1;
  };
  int side0 = side(phi->getIncomingBlock(0)),
      side1 = side(phi->getIncomingBlock(1));
  if (side0 < 0 || side1 < 0 || side0 == side1)
    return std::nullopt;
  return Choice{branch->getCondition(), phi->getIncomingValue(side0 == 0 ? 0 : 1),
                phi->getIncomingValue(side0 == 0 ? 1 : 0)};
}

VaryingValues::Assuming::Assuming(VaryingValues &values, Value *condition,
                                  bool holds)
    : values_(values), strides_(std::move(values.strides_)) {
  values_.strides_.clear(); // strides found under no assumption
  values_.assumed_condition_ = condition;
  values_.assumed_holds_ = holds;
}

VaryingValues::Assuming::~Assuming() {
  values_.strides_ = std::move(strides_);
  values_.assumed_condition_ = nullptr;
}

std::optional<int64_t> VaryingValues::laneStride(Value *v) {
  if (!varies(v))
    return 0;
  if (v == x_)
    return 1;
  auto known = strides_.find(v);
  if (known != strides_.end())
    return known->second;
  std::optional<int64_t> stride;
  std::optional<Choice> assumed;
  if (assumed_condition_)
    if ((assumed = choiceOf(v)) && assumed->condition != assumed_condition_)
      assumed.reset();
  if (assumed) {
    strides_[v] = std::nullopt; // while the side is asked
    stride =
        laneStride(assumed_holds_ ? assumed->if_true : assumed->if_false);
  } else if (auto *phi = llvm::dyn_cast<PHINode>(v)) {
    // An index each work-item steps alike round a loop (clpeak's
    // `id += get_local_size(0)`, a grid-stride loop's `i +=
    // get_global_size(0)`): its lanes keep the steps of its start.
    // Assumed while the values coming round are checked, and forgotten,
    // with what was derived from it, when they break it. Also in a loop
    // work-items leave apart: the widener carries every lane's value round
    // unmasked (Widener::emitLoop), so lanes that left go on stepping alike
    // and the vector keeps its steps; the values leaving are taken per lane
    // at the exit (an exit block is no uniformJoin).
    Loop *loop = loops_.getLoopFor(phi->getParent());
    if (loop && loop->getHeader() == phi->getParent() &&
        loop->getLoopPreheader()) {
      std::optional<int64_t> start =
          laneStride(phi->getIncomingValueForBlock(loop->getLoopPreheader()));
      if (start) {
        auto assumed_from = strides_;
        strides_[v] = start;
        for (unsigned i = 0; start && i < phi->getNumIncomingValues(); ++i) {
          std::optional<int64_t> round = laneStride(phi->getIncomingValue(i));
          if (!round || *round != *start)
            start.reset();
        }
        if (!start)
          strides_ = std::move(assumed_from);
        stride = start;
      }
    } else if (uniformJoin(phi->getParent())) {
      // The work-items here came by one edge, and the widener chooses
      // that edge's value whole (Widener::emitJoin): its lanes' steps.
      strides_[v] = std::nullopt; // while the incoming values are asked
      stride = laneStride(phi->getIncomingValue(0));
      for (unsigned i = 1; stride && i < phi->getNumIncomingValues(); ++i)
        if (laneStride(phi->getIncomingValue(i)) != stride)
          stride.reset();
    }
  } else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(v)) {
    // A choice the same for every work-item picks one side whole.
    if (!varies(select->getCondition())) {
      stride = laneStride(select->getTrueValue());
      if (laneStride(select->getFalseValue()) != stride)
        stride.reset();
    }
  } else if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(v)) {
    auto a = laneStride(op->getOperand(0));
    auto c = llvm::dyn_cast<llvm::ConstantInt>(op->getOperand(1));
    switch (op->getOpcode()) {
    case Instruction::Or:
      // InstCombine's `or disjoint` is an add whose operands share no bit
      // (`2 * x + 1`).
      if (!llvm::cast<llvm::PossiblyDisjointInst>(op)->isDisjoint())
        break;
      [[fallthrough]];
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
      else if (a == 0 && laneStride(op->getOperand(1)) == 0)
        stride = 0; // the same in every lane, times a value all share
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
  } else if (llvm::isa<llvm::SExtInst>(v) ||
             (llvm::isa<llvm::ZExtInst>(v) &&
              llvm::cast<llvm::PossiblyNonNegInst>(v)->hasNonNeg())) {
    // Sign extension (or zero extension of a value known not negative,
    // which InstCombine writes for it) keeps the steps unless neighbouring
    // work-items' narrow values straddle the int range's end: an index in
    // OpenCL C's int arithmetic that overflows there is undefined (nsw, as
    // Clang writes it, which InstCombine may drop when it reassociates),
    // and would be 2^31 elements off anyway; likewise an id narrowed to int
    // (see TruncInst above).
    auto *ext = llvm::cast<llvm::CastInst>(v);
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

bool VaryingValues::gathers(llvm::Instruction &inst) {
  Value *pointer = llvm::getLoadStorePointerOperand(&inst);
  return pointer && varies(pointer) &&
         spacing(pointer, llvm::getLoadStoreType(&inst)) == 0 &&
         laneStride(pointer) != 0; // one address for all: no gather
}

unsigned VaryingValues::spacing(Value *pointer, llvm::Type *element,
                                unsigned most) {
  auto stride = laneStride(pointer);
  int64_t size = int64_t(layout_.getTypeAllocSize(element));
  if (!stride || *stride <= 0 || *stride % size != 0 ||
      uint64_t(size) != layout_.getTypeStoreSize(element))
    return 0;
  int64_t apart = *stride / size;
  if (apart > 1 && (element->isVectorTy() || apart > most))
    return 0;
  return unsigned(apart);
}

} // namespace weft::compiler
