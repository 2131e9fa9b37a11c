// Uses that demand one bit field of an index read that field alone
// (demanded_id_bits.h).
#include "compiler/passes/kernels/demanded_id_bits.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/DemandedBits.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/KnownBits.h>

#include <vector>

namespace weft::compiler {

using llvm::APInt;
using llvm::Instruction;
using llvm::Value;

namespace {

class FieldReader {
public:
  explicit FieldReader(const llvm::DataLayout &layout) : layout_(layout) {}

  // A value equal to `v` on the bits `demanded`, built before `at`: `v`
  // itself, or `v` with the parts that set none of those bits left out.
  Value *read(Value *v, const APInt &demanded, Instruction *at,
              unsigned depth = 0) {
    auto *inst = llvm::dyn_cast<Instruction>(v);
    if (!inst || depth > kMostDepth || !v->getType()->isIntegerTy())
      return v;
    unsigned width = v->getType()->getIntegerBitWidth();
    switch (inst->getOpcode()) {
    case Instruction::Or:
    case Instruction::Add: {
      Value *a = inst->getOperand(0), *b = inst->getOperand(1);
      llvm::KnownBits known_a = llvm::computeKnownBits(a, layout_);
      llvm::KnownBits known_b = llvm::computeKnownBits(b, layout_);
      APInt ones_a = ~known_a.Zero, ones_b = ~known_b.Zero;
      // Parts with no bit in common: no carry, the sum is their union.
      if (ones_a.intersects(ones_b))
        return v;
      if (!ones_b.intersects(demanded))
        return read(a, demanded, at, depth + 1);
      if (!ones_a.intersects(demanded))
        return read(b, demanded, at, depth + 1);
      return v;
    }
    case Instruction::Trunc: {
      Value *wide = inst->getOperand(0);
      unsigned wide_width = wide->getType()->getIntegerBitWidth();
      Value *r = read(wide, demanded.zext(wide_width), at, depth + 1);
      if (r == wide)
        return v;
      return llvm::IRBuilder<>(at).CreateTrunc(r, v->getType());
    }
    case Instruction::LShr:
    case Instruction::Shl: {
      auto *amount = llvm::dyn_cast<llvm::ConstantInt>(inst->getOperand(1));
      if (!amount || amount->getZExtValue() >= width)
        return v;
      unsigned shift = static_cast<unsigned>(amount->getZExtValue());
      APInt below = inst->getOpcode() == Instruction::LShr
                        ? demanded.shl(shift)
                        : demanded.lshr(shift);
      Value *r = read(inst->getOperand(0), below, at, depth + 1);
      if (r == inst->getOperand(0))
        return v;
      // No flags: the part left out may be what made them hold.
      return llvm::IRBuilder<>(at).CreateBinOp(
          static_cast<Instruction::BinaryOps>(inst->getOpcode()), r, amount);
    }
    case Instruction::And: {
      auto *mask = llvm::dyn_cast<llvm::ConstantInt>(inst->getOperand(1));
      if (!mask)
        return v;
      Value *r =
          read(inst->getOperand(0), demanded & mask->getValue(), at, depth + 1);
      if (r == inst->getOperand(0))
        return v;
      return llvm::IRBuilder<>(at).CreateAnd(r, mask);
    }
    default:
      return v;
    }
  }

  // `(a | b) & m`, a and b disjoint, with every bit b may set inside m
  // (`tid % 16` with tid = x + 8 * y and x below 8): `(a & m) | b`, so
  // that the part that steps with x stays apart from the one that does not.
  Value *distributeMask(llvm::BinaryOperator &and_inst) {
    auto *mask = llvm::dyn_cast<llvm::ConstantInt>(and_inst.getOperand(1));
    if (!mask)
      return nullptr;
    Value *operand = and_inst.getOperand(0);
    auto *trunc = llvm::dyn_cast<llvm::TruncInst>(operand);
    Value *whole = trunc ? trunc->getOperand(0) : operand;
    auto *parts = llvm::dyn_cast<llvm::BinaryOperator>(whole);
    if (!parts || (parts->getOpcode() != Instruction::Or &&
                   parts->getOpcode() != Instruction::Add))
      return nullptr;
    unsigned width = and_inst.getType()->getIntegerBitWidth();
    APInt m = mask->getValue();
    for (unsigned kept = 0; kept < 2; ++kept) {
      Value *a = parts->getOperand(kept), *b = parts->getOperand(1 - kept);
      APInt ones_a = ~llvm::computeKnownBits(a, layout_).Zero;
      APInt ones_b = ~llvm::computeKnownBits(b, layout_).Zero;
      if (ones_a.intersects(ones_b))
        return nullptr;
      APInt narrow_b = ones_b.trunc(width), narrow_a = ones_a.trunc(width);
      // b inside the mask, a not (else the mask is b's alone or a's alone,
      // which `read` handles).
      if (!narrow_b.isSubsetOf(m) || narrow_a.isSubsetOf(m) ||
          !narrow_a.intersects(m))
        continue;
      llvm::IRBuilder<> builder(&and_inst);
      Value *narrow_a_value =
          trunc ? builder.CreateTrunc(a, and_inst.getType()) : a;
      Value *narrow_b_value =
          trunc ? builder.CreateTrunc(b, and_inst.getType()) : b;
      Value *masked = builder.CreateAnd(narrow_a_value, mask);
      Value *joined = builder.CreateOr(masked, narrow_b_value);
      if (auto *or_inst = llvm::dyn_cast<llvm::PossiblyDisjointInst>(joined))
        or_inst->setIsDisjoint(true);
      return joined;
    }
    return nullptr;
  }

private:
  static constexpr unsigned kMostDepth = 8;
  const llvm::DataLayout &layout_;
};

} // namespace

bool readDemandedIdBits(llvm::Function &f) {
  FieldReader reader(f.getParent()->getDataLayout());
  bool changed = false;
  std::vector<llvm::BinaryOperator *> masks;
  for (Instruction &inst : llvm::instructions(f))
    if (inst.getOpcode() == Instruction::And && inst.getType()->isIntegerTy())
      masks.push_back(llvm::cast<llvm::BinaryOperator>(&inst));
  for (llvm::BinaryOperator *mask : masks)
    if (Value *parts = reader.distributeMask(*mask)) {
      mask->replaceAllUsesWith(parts);
      mask->eraseFromParent();
      changed = true;
    }
  // The uses to look at, gathered first: rewriting adds instructions.
  std::vector<llvm::Use *> uses;
  for (Instruction &inst : llvm::instructions(f)) {
    // Only integer results narrow what they read of their operands (a
    // phi's operands are read on its edges, not before it).
    if (llvm::isa<llvm::PHINode>(inst) || !inst.getType()->isIntegerTy())
      continue;
    for (llvm::Use &use : inst.operands())
      if (llvm::isa<Instruction>(use.get()) && use->getType()->isIntegerTy() &&
          (llvm::isa<llvm::BinaryOperator>(use.get()) ||
           llvm::isa<llvm::TruncInst>(use.get())))
        uses.push_back(&use);
  }
  llvm::DominatorTree dominators(f);
  llvm::AssumptionCache assumptions(f);
  llvm::DemandedBits demanded_bits(f, assumptions, dominators);
  for (llvm::Use *use : uses) {
    APInt demanded = demanded_bits.getDemandedBits(use);
    if (demanded.isAllOnes())
      continue;
    auto *user = llvm::cast<Instruction>(use->getUser());
    Value *field = reader.read(use->get(), demanded, user);
    if (field != use->get()) {
      use->set(field);
      changed = true;
    }
  }
  return changed;
}

llvm::PreservedAnalyses DemandedIdBitsPass::run(llvm::Module &module,
                                                llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &f : module)
    if (!f.isDeclaration())
      changed |= readDemandedIdBits(f);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
