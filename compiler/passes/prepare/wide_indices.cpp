// Array indices of 32-bit arithmetic computed in 64 bits (wide_indices.h).
#include "compiler/passes/prepare/wide_indices.h"

#include "compiler/analysis/builtin_identity.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <vector>

namespace weft::compiler {
namespace {

// Deep enough for `(k + p) * ld + (i * w + j)`; deeper sums are rare and
// each level copies an instruction its 32-bit form may still need.
constexpr unsigned kMostDepth = 6;

// Whether the sign extension of `value` may be computed from its
// operands' extensions: an add, subtract, multiply or constant shift
// promised not to overflow; a choice between two such values (the front
// end's `t ? ng * 33 + kg : kg * 33 + ng`, a select or, from branches, a
// phi that no loop comes back to).
bool extendsThrough(const llvm::Value *value, const llvm::DominatorTree &dominators) {
  if (llvm::isa<llvm::SelectInst>(value))
    return true;
  if (auto *phi = llvm::dyn_cast<llvm::PHINode>(value)) {
    // One value per predecessor (a switch's cases that share a block come
    // in twice, and must bring the same value).
    llvm::SmallPtrSet<const llvm::BasicBlock *, 4> from;
    return llvm::all_of(phi->blocks(), [&](const llvm::BasicBlock *block) {
      return from.insert(block).second &&
             !dominators.dominates(phi->getParent(), block);
    });
  }
  auto *op = llvm::dyn_cast<llvm::BinaryOperator>(value);
  if (!op || !op->hasNoSignedWrap())
    return false;
  switch (op->getOpcode()) {
  case llvm::Instruction::Add:
  case llvm::Instruction::Sub:
  case llvm::Instruction::Mul:
    return true;
  case llvm::Instruction::Shl:
    return llvm::isa<llvm::ConstantInt>(op->getOperand(1));
  default:
    return false;
  }
}

// `value` sign-extended to `wide`, computed from extended leaves before
// `at`. No overflow in 32 bits means none in 64 either: the 64-bit
// operations keep the mark.
llvm::Value *extended(llvm::Value *value, llvm::Type *wide,
                      llvm::Instruction *at,
                      const llvm::DominatorTree &dominators, unsigned depth) {
  llvm::IRBuilder<> builder(at);
  if (depth >= kMostDepth || !extendsThrough(value, dominators))
    return builder.CreateSExt(value, wide, value->getName() + ".wide");
  if (auto *select = llvm::dyn_cast<llvm::SelectInst>(value))
    return builder.CreateSelect(
        select->getCondition(),
        extended(select->getTrueValue(), wide, at, dominators, depth + 1),
        extended(select->getFalseValue(), wide, at, dominators, depth + 1),
        select->getName() + ".wide");
  if (auto *phi = llvm::dyn_cast<llvm::PHINode>(value)) {
    auto *result = llvm::PHINode::Create(wide, phi->getNumIncomingValues(),
                                         phi->getName() + ".wide",
                                         phi->getIterator());
    for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
      result->addIncoming(extended(phi->getIncomingValue(i), wide,
                                   phi->getIncomingBlock(i)->getTerminator(),
                                   dominators, depth + 1),
                          phi->getIncomingBlock(i));
    return result;
  }
  auto *op = llvm::cast<llvm::BinaryOperator>(value);
  llvm::Value *lhs =
      extended(op->getOperand(0), wide, at, dominators, depth + 1);
  llvm::Value *rhs =
      op->getOpcode() == llvm::Instruction::Shl
          ? llvm::ConstantInt::get(
                wide, llvm::cast<llvm::ConstantInt>(op->getOperand(1))
                          ->getZExtValue())
          : extended(op->getOperand(1), wide, at, dominators, depth + 1);
  llvm::Value *result = builder.CreateBinOp(op->getOpcode(), lhs, rhs,
                                            op->getName() + ".wide");
  if (auto *made = llvm::dyn_cast<llvm::BinaryOperator>(result))
    made->setHasNoSignedWrap(true);
  return result;
}

// Values that may differ between neighbouring work-items of a row (along
// x, the dimension the widener's lanes run along): what the x id, private
// memory or a call other than a work-item query gives, and everything
// computed from them. Their indices stay 32-bit: widened, a vector of
// 64-bit lanes costs twice the registers and gathers of half the width,
// and the widener finds their runs without the front end's marks. The
// rest (loop counters, other dimensions' ids, kernel arguments) is one
// value for the whole row, computed once per step. Control flow is not
// followed: this only chooses which indices are worth widening.
llvm::DenseSet<const llvm::Value *> alongRows(llvm::Function &f) {
  llvm::DenseSet<const llvm::Value *> varying;
  std::vector<const llvm::Value *> pending;
  auto mark = [&](const llvm::Value *v) {
    if (varying.insert(v).second)
      pending.push_back(v);
  };
  for (llvm::Instruction &inst : llvm::instructions(f)) {
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
      Builtin builtin = calledBuiltin(*call);
      bool along_x = false;
      if (builtin == Builtin::GetGlobalId || builtin == Builtin::GetLocalId) {
        auto *dimension = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
        along_x = !dimension || dimension->isZero();
      }
      if (familyOf(builtin) != BuiltinFamily::WorkItemQuery || along_x ||
          builtin == Builtin::GetGlobalLinearId ||
          builtin == Builtin::GetLocalLinearId ||
          builtin == Builtin::SubGroupLocalId)
        mark(call);
    } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
      if (llvm::isa<llvm::AllocaInst>(
              llvm::getUnderlyingObject(load->getPointerOperand())))
        mark(load);
    }
  }
  while (!pending.empty()) {
    const llvm::Value *v = pending.back();
    pending.pop_back();
    for (const llvm::User *user : v->users())
      if (llvm::isa<llvm::Instruction>(user) && !user->getType()->isVoidTy())
        mark(user);
  }
  return varying;
}

// Whether every user of `extension` takes it as an array index.
bool onlyIndexes(const llvm::SExtInst &extension) {
  for (const llvm::Use &use : extension.uses()) {
    auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(use.getUser());
    if (!gep || use.getOperandNo() == 0)
      return false;
  }
  return !extension.use_empty();
}

bool widenIndices(llvm::Function &f) {
  // The front end keeps every variable in memory: integer variables
  // become values first, so that an index's arithmetic is in sight.
  std::vector<llvm::AllocaInst *> variables;
  for (llvm::Instruction &inst : f.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst))
      if (alloca->getAllocatedType()->isIntegerTy() &&
          llvm::isAllocaPromotable(alloca))
        variables.push_back(alloca);
  llvm::DominatorTree dominators(f);
  if (!variables.empty())
    llvm::PromoteMemToReg(variables, dominators);
  llvm::DenseSet<const llvm::Value *> varying = alongRows(f);
  std::vector<llvm::SExtInst *> extensions;
  for (llvm::Instruction &inst : llvm::instructions(f))
    if (auto *extension = llvm::dyn_cast<llvm::SExtInst>(&inst))
      if (extension->getType()->isIntegerTy(64) &&
          !varying.count(extension->getOperand(0)) &&
          extendsThrough(extension->getOperand(0), dominators) &&
          onlyIndexes(*extension))
        extensions.push_back(extension);
  for (llvm::SExtInst *extension : extensions) {
    llvm::Value *wide = extended(extension->getOperand(0),
                                 extension->getType(), extension, dominators,
                                 0);
    llvm::Value *narrow = extension->getOperand(0);
    extension->replaceAllUsesWith(wide);
    extension->eraseFromParent();
    llvm::RecursivelyDeleteTriviallyDeadInstructions(narrow);
  }
  return !variables.empty() || !extensions.empty();
}

} // namespace

llvm::PreservedAnalyses WideIndicesPass::run(llvm::Module &module,
                                             llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &f : module)
    if (!f.isDeclaration())
      changed |= widenIndices(f);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
