#include "compiler/passes/optimizer/safe_division.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>

namespace weft::compiler {
namespace {

// Whether no element of `value` can be `bad` (0, or -1 for signed
// divisions), as far as LLVM can tell.
bool knownNot(llvm::Value *value, const llvm::APInt &bad,
              const llvm::SimplifyQuery &query) {
  if (auto *constant = llvm::dyn_cast<llvm::Constant>(value)) {
    if (llvm::isa<llvm::UndefValue>(constant) ||
        llvm::isa<llvm::ConstantExpr>(constant))
      return false;
    auto elementOk = [&](llvm::Constant *element) {
      auto *integer = llvm::dyn_cast_or_null<llvm::ConstantInt>(element);
      return integer && integer->getValue() != bad;
    };
    if (auto *vector =
            llvm::dyn_cast<llvm::FixedVectorType>(constant->getType())) {
      for (unsigned i = 0; i < vector->getNumElements(); ++i)
        if (!elementOk(constant->getAggregateElement(i)))
          return false;
      return true;
    }
    return elementOk(constant);
  }
  llvm::KnownBits known = llvm::computeKnownBits(value, /*Depth=*/0, query);
  if (bad.isZero())
    return known.isNonZero() || llvm::isKnownNonZero(value, query);
  // -1: some bit is known to be 0.
  return !known.Zero.isZero();
}

bool makeSafe(llvm::BinaryOperator &division,
              const llvm::SimplifyQuery &query) {
  // The query has no context instruction on purpose: LLVM counts a value
  // used as a divisor as non-zero from there on (division by zero is
  // undefined in IR), which would prove every division safe by itself.
  llvm::Value *divisor = division.getOperand(1);
  llvm::Type *type = division.getType();
  unsigned bits = type->getScalarSizeInBits();
  bool is_signed = division.getOpcode() == llvm::Instruction::SDiv ||
                   division.getOpcode() == llvm::Instruction::SRem;
  bool zero_safe = knownNot(divisor, llvm::APInt::getZero(bits), query);
  bool overflow_safe =
      !is_signed || knownNot(divisor, llvm::APInt::getAllOnes(bits), query) ||
      knownNot(division.getOperand(0), llvm::APInt::getSignedMinValue(bits),
               query);
  if (zero_safe && overflow_safe)
    return false;
  llvm::IRBuilder<> b(&division);
  // A divisor may be poison or undef; its compare must see the same value
  // the division uses.
  llvm::Value *d = b.CreateFreeze(divisor, divisor->getName() + ".frozen");
  // Arithmetic rather than a select: code generation turns
  // "x / select(c, 1, d)" back into "select(c, x, x / d)", which divides by
  // the bad value again.
  llvm::Value *safe = d;
  if (!zero_safe) // 0 | 1 = 1; any other d stays d
    safe = b.CreateOr(
        d, b.CreateZExt(b.CreateICmpEQ(d, llvm::Constant::getNullValue(type)),
                        type));
  if (!overflow_safe) { // -1 ^ -2 = 1 when the dividend is INT_MIN
    llvm::Value *n = b.CreateFreeze(division.getOperand(0));
    division.setOperand(0, n);
    llvm::Value *overflow = b.CreateAnd(
        b.CreateICmpEQ(d, llvm::Constant::getAllOnesValue(type)),
        b.CreateICmpEQ(n, llvm::ConstantInt::get(
                              type, llvm::APInt::getSignedMinValue(bits))));
    safe = b.CreateXor(safe, b.CreateAnd(b.CreateSExt(overflow, type),
                                         llvm::ConstantInt::get(type, -2)));
  }
  safe->setName("safe.divisor");
  division.setOperand(1, safe);
  return true;
}

} // namespace

llvm::PreservedAnalyses SafeDivisionPass::run(llvm::Function &function,
                                              llvm::FunctionAnalysisManager &) {
  std::vector<llvm::BinaryOperator *> divisions;
  for (llvm::Instruction &inst : llvm::instructions(function))
    switch (inst.getOpcode()) {
    case llvm::Instruction::SDiv:
    case llvm::Instruction::UDiv:
    case llvm::Instruction::SRem:
    case llvm::Instruction::URem:
      divisions.push_back(llvm::cast<llvm::BinaryOperator>(&inst));
      break;
    default:
      break;
    }
  if (divisions.empty())
    return llvm::PreservedAnalyses::all();
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  llvm::SimplifyQuery query(layout);
  bool changed = false;
  for (llvm::BinaryOperator *division : divisions)
    changed |= makeSafe(*division, query);
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses kept;
  kept.preserveSet<llvm::CFGAnalyses>();
  return kept;
}

} // namespace weft::compiler
