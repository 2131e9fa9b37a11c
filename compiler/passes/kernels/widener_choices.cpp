// The widener's accesses whose lanes' addresses depend on a choice every
// work-item makes alike (VaryingValues::Choice): CLBlast's direct GEMM
// writes its result at `c_transpose ? (idm + mi)*c_ld + (idn + ni) :
// (idn + ni)*c_ld + (idm + mi)`, a kernel argument's choice between a run
// of neighbouring elements and a walk `c_ld` apart. Chosen inside the
// per-work-item bounds checks, the choice is a select of whole vectors,
// and an address that is one or the other is neither a run nor a known
// stride: every access was a gather or a scatter, whichever side ran. A
// scalar branch on the condition instead, and on each side the address
// computed again from that side's value, and the access made as that side
// allows: a run where it is one.
#include "compiler/passes/kernels/widener.h"

#include <llvm/ADT/SetVector.h>
#include <llvm/IR/Instructions.h>

#include <functional>
#include <vector>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::Instruction;
using llvm::PHINode;
using llvm::Value;

namespace {
// Instructions an address may be computed again from: arithmetic and
// choices, nothing that reads memory or has effects.
bool recomputable(const Instruction &inst) {
  return llvm::isa<llvm::BinaryOperator>(inst) ||
         llvm::isa<llvm::CastInst>(inst) ||
         llvm::isa<llvm::GetElementPtrInst>(inst) ||
         llvm::isa<llvm::SelectInst>(inst) || llvm::isa<llvm::CmpInst>(inst) ||
         llvm::isa<PHINode>(inst);
}
} // namespace

bool Widener::emitChosenAccess(Instruction &access, Value *mask) {
  auto *load = llvm::dyn_cast<llvm::LoadInst>(&access);
  auto *store = llvm::dyn_cast<llvm::StoreInst>(&access);
  if ((!load && !store) ||
      (load && (!load->isSimple() || row_loads_.count(load))) ||
      (store && !store->isSimple()))
    return false;
  Value *pointer = load ? load->getPointerOperand() : store->getPointerOperand();
  if (!varies(pointer) || varying_.laneStride(pointer))
    return false;
  // The instructions of the address that depend on a choice, operands
  // before users, and the conditions of those choices.
  std::vector<Instruction *> chain;
  llvm::SmallSetVector<Value *, 4> conditions;
  llvm::DenseMap<Value *, bool> depends;
  bool recomputed = true;
  std::function<bool(Value *)> visit = [&](Value *v) -> bool {
    auto known = depends.find(v);
    if (known != depends.end())
      return known->second;
    depends[v] = false;
    auto *inst = llvm::dyn_cast<Instruction>(v);
    if (!inst)
      return false;
    bool result = false;
    if (auto choice = varying_.choiceOf(inst)) {
      conditions.insert(choice->condition);
      result = true;
    }
    for (Value *operand : inst->operands())
      if (!llvm::isa<BasicBlock>(operand))
        result |= visit(operand);
    if (result) {
      auto *phi = llvm::dyn_cast<PHINode>(inst);
      if (!recomputable(*inst) ||
          (phi && !varying_.choiceOf(phi) && !varying_.uniformJoin(phi->getParent())))
        recomputed = false; // a loop's phi, a load, a call
      chain.push_back(inst);
    }
    depends[v] = result;
    return result;
  };
  if (!visit(pointer) || !recomputed)
    return false;
  Value *condition = nullptr;
  for (Value *c : conditions) {
    for (bool holds : {true, false}) {
      VaryingValues::Assuming assume(varying_, c, holds);
      if (varying_.laneStride(pointer))
        condition = c;
    }
    if (condition)
      break;
  }
  if (!condition)
    return false;

  llvm::LLVMContext &ctx = vector_fn_.getContext();
  BasicBlock *sides[2] = {BasicBlock::Create(ctx, "wi.chosen", &vector_fn_),
                          BasicBlock::Create(ctx, "wi.other", &vector_fn_)};
  BasicBlock *after = BasicBlock::Create(ctx, "wi.choice", &vector_fn_);
  b_.CreateCondBr(uniform(condition), sides[0], sides[1]);
  Value *loaded[2] = {nullptr, nullptr};
  BasicBlock *ends[2] = {nullptr, nullptr};
  size_t lane_pointers_before = lane_pointers_.size();
  for (int side = 0; side < 2; ++side) {
    b_.SetInsertPoint(sides[side]);
    VaryingValues::Assuming assume(varying_, condition, side == 0);
    // The address written again with the side's values; what the rest of
    // the body sees is put back after.
    struct Saved {
      Instruction *inst;
      std::optional<Value *> vector, uniform, splat;
    };
    std::vector<Saved> saved;
    auto take = [](llvm::DenseMap<Value *, Value *> &map, Value *v) {
      std::optional<Value *> old;
      auto found = map.find(v);
      if (found != map.end()) {
        old = found->second;
        map.erase(found);
      }
      return old;
    };
    for (Instruction *inst : chain) {
      saved.push_back({inst, take(vector_, inst), take(uniform_, inst),
                       take(splats_, inst)});
      auto choice = varying_.choiceOf(inst);
      if (choice && choice->condition == condition) {
        Value *taken = side == 0 ? choice->if_true : choice->if_false;
        if (varies(inst))
          vector_[inst] = widened(taken);
        else
          uniform_[inst] = uniform(taken);
      } else if (auto *phi = llvm::dyn_cast<PHINode>(inst)) {
        emitJoin(*phi, phi->getParent());
      } else {
        emitInstruction(*inst, mask);
      }
    }
    if (load) {
      unsigned spacing = varying_.spacing(pointer, load->getType());
      loaded[side] =
          masks_.load(load->getType(), accessPointers(pointer, spacing),
                      spacing, load->getAlign(), mask);
    } else {
      Value *value = store->getValueOperand();
      unsigned spacing = varying_.spacing(pointer, value->getType());
      masks_.store(widened(value), value->getType(),
                   accessPointers(pointer, spacing), spacing, store->getAlign(),
                   mask);
    }
    for (const Saved &s : saved) {
      vector_.erase(s.inst);
      uniform_.erase(s.inst);
      splats_.erase(s.inst);
      if (s.vector)
        vector_[s.inst] = *s.vector;
      if (s.uniform)
        uniform_[s.inst] = *s.uniform;
      if (s.splat)
        splats_[s.inst] = *s.splat;
    }
    // Pointers taken out on one side do not reach the other or the join.
    lane_pointers_.resize(lane_pointers_before);
    ends[side] = b_.GetInsertBlock();
    b_.CreateBr(after);
  }
  b_.SetInsertPoint(after);
  if (load) {
    PHINode *value = b_.CreatePHI(loaded[0]->getType(), 2, load->getName());
    value->addIncoming(loaded[0], ends[0]);
    value->addIncoming(loaded[1], ends[1]);
    vector_[load] = value;
  }
  return true;
}

} // namespace weft::compiler
