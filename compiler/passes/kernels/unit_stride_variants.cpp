#include "compiler/passes/kernels/unit_stride_variants.h"

#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/kernels/varying_values.h"
#include "compiler/passes/kernels/widening_checks.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <set>
#include <vector>

namespace weft::compiler {
namespace {

using llvm::Instruction;
using llvm::Value;

constexpr const char *kUnitStrideSuffix = ".unit_stride";

// What the widener would see of `body`: a prepared copy and its analyses.
struct PreparedCopy {
  llvm::Function *scalar;
  llvm::DominatorTree dominators;
  llvm::LoopInfo loops;
  VaryingValues varying;

  explicit PreparedCopy(llvm::Function &body)
      : scalar(prepared(body)), dominators(*scalar), loops(dominators),
        // The body's parameters end with the context and the ids x, y, z.
        varying(*scalar, loops, scalar->getArg(scalar->arg_size() - 3)) {}
  ~PreparedCopy() { scalar->eraseFromParent(); }
  PreparedCopy(const PreparedCopy &) = delete;
  PreparedCopy &operator=(const PreparedCopy &) = delete;

  static llvm::Function *prepared(llvm::Function &body) {
    llvm::ValueToValueMapTy map;
    llvm::Function *copy = llvm::CloneFunction(&body, map);
    prepareForWidening(*copy, false);
    return copy;
  }

  // The loads and stores that, widened, would gather or scatter.
  std::vector<Instruction *> gathers() {
    std::vector<Instruction *> found;
    for (Instruction &inst : llvm::instructions(*scalar))
      if ((llvm::isa<llvm::LoadInst>(inst) ||
           llvm::isa<llvm::StoreInst>(inst)) &&
          varying.gathers(inst))
        found.push_back(&inst);
    return found;
  }
};

// The integer kernel argument `v` is, through casts, if any.
const llvm::Argument *integerArgument(Value *v, unsigned kernel_args) {
  while (auto *cast = llvm::dyn_cast<llvm::CastInst>(v))
    v = cast->getOperand(0);
  auto *arg = llvm::dyn_cast<llvm::Argument>(v);
  return arg && arg->getArgNo() < kernel_args &&
                 arg->getType()->isIntegerTy() &&
                 arg->getType()->getIntegerBitWidth() >= 8
             ? arg
             : nullptr;
}

// The integer arguments that multiply a value differing between
// work-items on the way to `pointer`: the index arithmetic of an address
// (additions, casts, shifts and products), walked back from it.
void findStrides(PreparedCopy &copy, Value *pointer, unsigned kernel_args,
                 std::set<unsigned> &strides) {
  std::vector<Value *> work{pointer};
  llvm::SmallPtrSet<Value *, 32> seen;
  while (!work.empty()) {
    Value *v = work.back();
    work.pop_back();
    auto *inst = llvm::dyn_cast<Instruction>(v);
    if (!inst || !seen.insert(v).second || !copy.varying.varies(v))
      continue;
    if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(inst)) {
      work.push_back(gep->getPointerOperand());
      for (Value *index : gep->indices())
        work.push_back(index);
      continue;
    }
    if (inst->getOpcode() == Instruction::Mul) {
      for (unsigned i = 0; i < 2; ++i) {
        const llvm::Argument *arg =
            integerArgument(inst->getOperand(i), kernel_args);
        if (arg && copy.varying.varies(inst->getOperand(1 - i)))
          strides.insert(arg->getArgNo());
      }
    }
    switch (inst->getOpcode()) {
    case Instruction::Mul:
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Or:
    case Instruction::Shl:
    case Instruction::SExt:
    case Instruction::ZExt:
    case Instruction::Trunc:
    case Instruction::Select:
    case Instruction::PHI:
      for (Value *operand : inst->operands())
        work.push_back(operand);
      break;
    default:
      break;
    }
  }
}

// Whether some product in `body` may take an integer argument as a factor:
// the argument itself, or a load of a stack slot it was stored in (Clang
// keeps parameters, and the inlined helpers' parameters, in slots until
// the optimizer runs). A cheap look before the prepared copy, which most
// kernels never need.
bool mayScaleByArgument(llvm::Function &body, unsigned kernel_args) {
  llvm::SmallPtrSet<Value *, 16> holders; // arguments and their slots
  for (unsigned i = 0; i < kernel_args; ++i)
    if (body.getArg(i)->getType()->isIntegerTy())
      holders.insert(body.getArg(i));
  auto strip = [](Value *v) {
    while (auto *cast = llvm::dyn_cast<llvm::CastInst>(v))
      v = cast->getOperand(0);
    return v;
  };
  auto held = [&](Value *v) {
    v = strip(v);
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(v))
      v = load->getPointerOperand();
    return holders.contains(v);
  };
  for (bool grew = !holders.empty(); grew;) {
    grew = false;
    for (Instruction &inst : llvm::instructions(body))
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
        if (llvm::isa<llvm::AllocaInst>(store->getPointerOperand()) &&
            held(store->getValueOperand()))
          grew |= holders.insert(store->getPointerOperand()).second;
  }
  for (Instruction &inst : llvm::instructions(body))
    if (inst.getOpcode() == Instruction::Mul &&
        (held(inst.getOperand(0)) || held(inst.getOperand(1))))
      return true;
  return false;
}

// Arguments that also multiply a value every lane shares (a loop's counter,
// the y id): leading dimensions of matrices, which index rows one way and
// columns the other (CLBlast's direct GEMM reads `a[k*a_ld + m]` or
// `a[m*a_ld + k]`) and are never 1 in practice, unlike the increments of
// vectors and the strides of a convolution, which scale only the index.
void dropLeadingDimensions(PreparedCopy &copy, unsigned kernel_args,
                           std::set<unsigned> &strides) {
  for (Instruction &inst : llvm::instructions(*copy.scalar)) {
    if (inst.getOpcode() != Instruction::Mul)
      continue;
    for (unsigned i = 0; i < 2; ++i) {
      const llvm::Argument *arg =
          integerArgument(inst.getOperand(i), kernel_args);
      Value *other = inst.getOperand(1 - i);
      if (arg && !copy.varying.varies(other) &&
          !llvm::isa<llvm::Constant>(other))
        strides.erase(arg->getArgNo());
    }
  }
}

// Kernels larger than this (instructions of the prepared body) get no
// variant: each variant is compiled in full, and the large kernels that
// take strides (GEMMs with their register tiles unrolled) are not the ones
// called with strides of 1.
constexpr size_t kMostInstructions = 3000;

} // namespace

llvm::PreservedAnalyses
UnitStrideVariantsPass::run(llvm::Module &module,
                            llvm::ModuleAnalysisManager &) {
  std::vector<KernelRecord> records = readKernelRecords(module);
  std::vector<KernelRecord> variants;
  for (KernelRecord &record : records) {
    const KernelDescription &kernel = record.description;
    if (!record.body || !kernel.variant_of.empty() ||
        kernel.plan.path == ExecutionPath::Fibers)
      continue;
    bool has_images = false, has_integers = false;
    for (const KernelArgument &arg : kernel.arguments) {
      has_images |= arg.kind == ArgumentKind::Image;
      has_integers |= arg.kind == ArgumentKind::Value;
    }
    // Image kernels have their format variants; one kind of variant each.
    auto kernel_args = static_cast<unsigned>(kernel.arguments.size());
    if (has_images || !has_integers ||
        !mayScaleByArgument(*record.body, kernel_args))
      continue;
    std::set<unsigned> strides;
    size_t gathers_before = 0;
    {
      PreparedCopy original(*record.body);
      if (original.scalar->getInstructionCount() > kMostInstructions)
        continue;
      std::vector<Instruction *> gathering = original.gathers();
      gathers_before = gathering.size();
      for (Instruction *access : gathering)
        findStrides(original, llvm::getLoadStorePointerOperand(access),
                    kernel_args, strides);
      dropLeadingDimensions(original, kernel_args, strides);
    }
    if (strides.empty())
      continue;
    llvm::ValueToValueMapTy map;
    llvm::Function *copy = llvm::CloneFunction(record.body, map);
    copy->setName(record.body->getName() + kUnitStrideSuffix);
    for (unsigned index : strides) {
      llvm::Argument *arg = copy->getArg(index);
      arg->replaceAllUsesWith(llvm::ConstantInt::get(arg->getType(), 1));
    }
    bool fewer = false;
    {
      PreparedCopy specialized(*copy);
      fewer = specialized.gathers().size() < gathers_before;
    }
    if (!fewer) {
      copy->eraseFromParent();
      continue;
    }
    KernelRecord variant;
    variant.body = copy;
    variant.description = kernel;
    variant.description.name = kernel.name + kUnitStrideSuffix;
    variant.description.variant_of = kernel.name;
    variant.description.variant_unit_arguments.assign(strides.begin(),
                                                      strides.end());
    variants.push_back(std::move(variant));
  }
  if (variants.empty())
    return llvm::PreservedAnalyses::all();
  for (KernelRecord &variant : variants)
    records.push_back(std::move(variant));
  writeKernelRecords(module, records);
  return llvm::PreservedAnalyses::none();
}

} // namespace weft::compiler
