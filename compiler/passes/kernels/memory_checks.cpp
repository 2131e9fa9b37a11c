#include "compiler/passes/kernels/memory_checks.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/passes/kernels/context_access.h"
#include "compiler/support/standalone_evolution.h"
#include "device/launch_abi.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/Utils/Local.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <algorithm>
#include <cstddef>
#include <map>

namespace weft::compiler {
namespace {

using llvm::Instruction;
using llvm::IRBuilder;
using llvm::Value;

// One range of memory an instruction touches.
struct Operand {
  Value *pointer;
  Value *bytes; // an integer
  bool write;
};

std::vector<Operand> memoryOperands(Instruction &inst,
                                    const llvm::DataLayout &layout) {
  auto size = [&](llvm::Type *type) -> Value * {
    return llvm::ConstantInt::get(llvm::Type::getInt64Ty(inst.getContext()),
                                  layout.getTypeStoreSize(type));
  };
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    return {{load->getPointerOperand(), size(load->getType()), false}};
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
    return {{store->getPointerOperand(),
             size(store->getValueOperand()->getType()), true}};
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
    return {{rmw->getPointerOperand(), size(rmw->getValOperand()->getType()),
             true}};
  if (auto *exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
    return {{exchange->getPointerOperand(),
             size(exchange->getCompareOperand()->getType()), true}};
  if (auto *transfer = llvm::dyn_cast<llvm::MemTransferInst>(&inst))
    return {{transfer->getRawSource(), transfer->getLength(), false},
            {transfer->getRawDest(), transfer->getLength(), true}};
  if (auto *set = llvm::dyn_cast<llvm::MemSetInst>(&inst))
    return {{set->getRawDest(), set->getLength(), true}};
  return {};
}

// A builtin whose accesses through its pointer parameters are the kernel's
// own (vloadn, atomics, sincos's result): inlined so they are checked.
// Builtins that keep state of their own (pipes, async copies, printf,
// images) call Weft's engine functions and stay calls.
bool checkedInline(const llvm::Function &callee) {
  if (callee.isDeclaration() || !callee.getName().starts_with("_Z") ||
      familyOf(identifyBuiltin(callee)) != BuiltinFamily::None)
    return false;
  bool takes_pointer = false;
  for (const llvm::Argument &arg : callee.args())
    takes_pointer |= arg.getType()->isPointerTy();
  if (!takes_pointer)
    return false;
  for (const Instruction &inst : llvm::instructions(callee)) {
    const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
    if (!call)
      continue;
    const llvm::Function *inner = call->getCalledFunction();
    if (!inner)
      return false;
    if (inner->isIntrinsic())
      continue;
    if (familyOf(identifyBuiltin(*inner)) != BuiltinFamily::None ||
        inner->getName().starts_with("__"))
      return false;
  }
  return true;
}

void inlinePointerBuiltins(llvm::Function &kernel) {
  // Builtins built from other builtins take a few rounds.
  for (int round = 0; round < 8; ++round) {
    std::vector<llvm::CallInst *> calls;
    for (Instruction &inst : llvm::instructions(kernel))
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (call->getCalledFunction() &&
            checkedInline(*call->getCalledFunction()))
          calls.push_back(call);
    if (calls.empty())
      return;
    for (llvm::CallInst *call : calls) {
      llvm::InlineFunctionInfo info;
      llvm::InlineFunction(*call, info);
    }
  }
}

// The one object an address comes from, when the compiler can tell.
struct Object {
  MemoryObjectKind kind = kMemoryUnknownObject;
  Value *base = nullptr; // the argument, variable or alloca
  unsigned index = 0;    // the argument's number
  // Known size (private and program objects, by-value arguments); 0 for
  // pointer arguments, whose size the launch gives.
  uint64_t bytes = 0;
  bool sized() const { return kind != kMemoryArgument || bytes != 0; }
  // Memory Weft itself hands the kernel (a printf record from
  // __weft_printf_reserve): its own code writes it, unchecked.
  bool weft_owned = false;
};

Object objectOf(Value *pointer, llvm::Function &kernel,
                const llvm::DataLayout &layout) {
  llvm::SmallVector<const Value *, 4> objects;
  llvm::getUnderlyingObjects(pointer, objects, nullptr, 0);
  Object object;
  if (objects.empty())
    return object;
  for (const Value *other : objects)
    if (other != objects.front())
      return object;
  auto *one = const_cast<Value *>(objects.front());
  if (auto *call = llvm::dyn_cast<llvm::CallInst>(one))
    if (llvm::Function *callee = call->getCalledFunction())
      object.weft_owned = callee->getName().starts_with("__weft_");
  if (auto *arg = llvm::dyn_cast<llvm::Argument>(one)) {
    if (arg->getParent() != &kernel)
      return object;
    object.kind = kMemoryArgument;
    object.base = arg;
    object.index = arg->getArgNo();
    if (llvm::Type *value = arg->getParamByValType())
      object.bytes = layout.getTypeAllocSize(value);
    return object;
  }
  if (auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(one)) {
    object.kind = variable->getAddressSpace() == 3 ? kMemoryLocalVariable
                                                   : kMemoryProgramVariable;
    object.base = variable;
    object.bytes = layout.getTypeAllocSize(variable->getValueType());
    return object;
  }
  if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(one)) {
    std::optional<llvm::TypeSize> size = alloca->getAllocationSize(layout);
    if (!size || size->isScalable())
      return object;
    object.kind = kMemoryPrivateVariable;
    object.base = alloca;
    object.bytes = size->getFixedValue();
  }
  return object;
}

// Whether the access provably stays inside its sized object.
bool provablyInside(const Operand &operand, const Object &object,
                    const llvm::DataLayout &layout) {
  if (!object.sized())
    return false;
  auto *bytes = llvm::dyn_cast<llvm::ConstantInt>(operand.bytes);
  if (!bytes)
    return false;
  llvm::APInt offset(layout.getIndexTypeSizeInBits(operand.pointer->getType()),
                     0);
  const Value *stripped = operand.pointer->stripAndAccumulateConstantOffsets(
      layout, offset, /*AllowNonInbounds=*/true);
  if (stripped != object.base || offset.isNegative())
    return false;
  uint64_t start = offset.getZExtValue();
  return start <= object.bytes && bytes->getZExtValue() <= object.bytes - start;
}

// What a failed check writes into the MemoryViolation.
struct Description {
  Value *address, *bytes, *object_begin, *object_bytes;
  Value *is_write, *kind, *index;
};

void markDereferenceable(Value *pointer_load, uint64_t bytes) {
  auto *load = llvm::cast<llvm::LoadInst>(pointer_load);
  llvm::LLVMContext &ctx = load->getContext();
  auto number = [&](uint64_t n) {
    return llvm::MDNode::get(
        ctx, llvm::ConstantAsMetadata::get(
                 llvm::ConstantInt::get(llvm::Type::getInt64Ty(ctx), n)));
  };
  load->setMetadata(llvm::LLVMContext::MD_nonnull, llvm::MDNode::get(ctx, {}));
  if (bytes)
    load->setMetadata(llvm::LLVMContext::MD_dereferenceable, number(bytes));
  load->setMetadata(llvm::LLVMContext::MD_align, number(8));
}

class KernelChecks {
public:
  KernelChecks(llvm::Function &kernel)
      : kernel_(kernel), layout_(kernel.getParent()->getDataLayout()) {
    IRBuilder<> b(&*kernel.getEntryBlock().getFirstNonPHIOrDbgOrAlloca());
    llvm::Module &module = *kernel.getParent();
    llvm::FunctionCallee group_context = module.getOrInsertFunction(
        symbolOf(Builtin::GroupContext), b.getPtrTy());
    context_ = b.CreateCall(group_context, {}, "context");
    // Both point at memory the device keeps for the whole launch: saying
    // so lets LLVM read the ranges once per group, not per chunk of
    // work-items (LICM hoists only loads it may speculate).
    ranges_ = loadContextField(
        b, context_, offsetof(WorkGroupContext, memory_ranges), b.getPtrTy());
    markDereferenceable(ranges_, kernel.arg_size() * sizeof(MemoryRange));
    record_ = loadContextField(b, context_,
                               offsetof(WorkGroupContext, memory_violation),
                               b.getPtrTy());
    markDereferenceable(record_, sizeof(MemoryViolation));
    setup_end_ = llvm::cast<Instruction>(record_);
  }

  // For each access in a loop whose address steps by a constant (an
  // affine recurrence of the loop, ScalarEvolution), a condition computed
  // once before the loop: every address the loop's iterations can reach
  // lies inside the object. Where it holds, the access skips its own
  // check: a GEMM's k loop checked each load (an 8-12x slowdown), now
  // once per loop. Made for all accesses before any block is split.
  void hoistLoopChecks(const std::vector<Instruction *> &accesses) {
    llvm::DominatorTree dominators(kernel_);
    llvm::LoopInfo loops(dominators);
    if (loops.empty())
      return;
    StandaloneEvolution standalone(kernel_, dominators, loops);
    llvm::ScalarEvolution &evolution = standalone.evolution;
    llvm::SCEVExpander expander(evolution, layout_, "check");
    for (Instruction *inst : accesses) {
      std::vector<Operand> operands = memoryOperands(*inst, layout_);
      if (operands.size() != 1)
        continue;
      Object object = objectOf(operands[0].pointer, kernel_, layout_);
      if (object.kind == kMemoryUnknownObject ||
          provablyInside(operands[0], object, layout_))
        continue;
      if (Value *holds = loopCondition(*inst, operands[0], object, loops,
                                       evolution, expander))
        hoisted_[inst] = holds;
    }
  }

  void check(Instruction &inst) {
    std::vector<Operand> operands = memoryOperands(inst, layout_);
    std::vector<std::pair<Value *, Description>> checks;
    IRBuilder<> b(&inst);
    for (const Operand &operand : operands) {
      Object object = objectOf(operand.pointer, kernel_, layout_);
      if (object.weft_owned || provablyInside(operand, object, layout_))
        continue;
      Description about;
      Value *ok = inside(b, operand, object, about);
      checks.push_back({ok, about});
    }
    if (checks.empty())
      return;
    auto hoisted = hoisted_.find(&inst);
    auto *precise = llvm::dyn_cast<Instruction>(checks[0].first);
    if (hoisted != hoisted_.end() && checks.size() == 1 && precise) {
      // The access's own check runs only where the loop's did not hold.
      IRBuilder<> before(precise->getParent(), precise->getIterator());
      // Computed in the head already: moved to the side that needs it.
      Instruction *side_end = llvm::SplitBlockAndInsertIfThen(
          before.CreateNot(hoisted->second), &inst, false);
      side_end->getParent()
          ->getSinglePredecessor()
          ->getTerminator()
          ->setMetadata(kSkippableSideMetadata,
                        llvm::MDNode::get(inst.getContext(), {}));
      const Description &about = checks[0].second;
      moveCheckInto(
          precise, side_end,
          {about.address, about.bytes, about.object_begin, about.object_bytes});
      llvm::PHINode *ok = llvm::PHINode::Create(
          llvm::Type::getInt1Ty(inst.getContext()), 2, "inside_loop");
      ok->insertBefore(inst.getParent()->begin());
      ok->addIncoming(llvm::ConstantInt::getTrue(inst.getContext()),
                      side_end->getParent()->getSinglePredecessor());
      ok->addIncoming(precise, side_end->getParent());
      checks[0].first = ok;
    }
    // The first operand that failed is the one described.
    Value *ok = checks.back().first;
    Description about = checks.back().second;
    for (size_t i = checks.size() - 1; i-- > 0;) {
      auto [passed, own] = checks[i];
      auto pick = [&](Value *later, Value *mine) {
        return b.CreateSelect(passed, later, mine);
      };
      about = {pick(about.address, own.address),
               pick(about.bytes, own.bytes),
               pick(about.object_begin, own.object_begin),
               pick(about.object_bytes, own.object_bytes),
               pick(about.is_write, own.is_write),
               pick(about.kind, own.kind),
               pick(about.index, own.index)};
      ok = b.CreateAnd(passed, ok);
    }
    guard(inst, ok, about);
  }

private:
  // Moves `check` and the instructions it alone needs (emitted just before
  // it by `inside`) in front of `end`; `kept` stay, the description of a
  // failure uses them.
  static void moveCheckInto(Instruction *check, Instruction *end,
                            std::initializer_list<Value *> kept) {
    std::vector<Instruction *> chain{check};
    for (size_t i = 0; i < chain.size(); ++i)
      for (Value *operand : chain[i]->operands())
        if (auto *def = llvm::dyn_cast<Instruction>(operand))
          if (def->getParent() == check->getParent() && def->hasOneUse() &&
              !llvm::isa<llvm::PHINode>(def) &&
              std::find(kept.begin(), kept.end(), def) == kept.end())
            chain.push_back(def);
    // Defined before used: move in the original order.
    std::sort(chain.begin(), chain.end(),
              [](Instruction *a, Instruction *b) { return a->comesBefore(b); });
    for (Instruction *inst : chain)
      inst->moveBefore(end);
  }

  // An address as invariant + scale * ext(start + i * step) in iteration i
  // of its loop: the form of `p[i]`, `p[row * n + k]` with an int index
  // (sign-extended), or a pointer recurrence itself.
  struct Affine {
    llvm::SmallVector<const llvm::SCEV *, 4> invariant;
    const llvm::SCEVAddRecExpr *rec = nullptr;
    int64_t scale = 1;
    enum { None, Sign, Zero } extension = None;
  };

  static bool affineIn(const llvm::SCEV *address, llvm::Loop *loop,
                       llvm::ScalarEvolution &evolution, Affine &form) {
    llvm::SmallVector<const llvm::SCEV *, 4> terms;
    if (auto *sum = llvm::dyn_cast<llvm::SCEVAddExpr>(address))
      terms.append(sum->operands().begin(), sum->operands().end());
    else
      terms.push_back(address);
    for (const llvm::SCEV *term : terms) {
      if (evolution.isLoopInvariant(term, loop)) {
        form.invariant.push_back(term);
        continue;
      }
      if (form.rec)
        return false; // two varying terms
      if (auto *product = llvm::dyn_cast<llvm::SCEVMulExpr>(term)) {
        auto *factor =
            llvm::dyn_cast<llvm::SCEVConstant>(product->getOperand(0));
        if (product->getNumOperands() != 2 || !factor ||
            factor->getAPInt().getSignificantBits() > 32)
          return false;
        form.scale = factor->getAPInt().getSExtValue();
        term = product->getOperand(1);
      }
      if (auto *sext = llvm::dyn_cast<llvm::SCEVSignExtendExpr>(term)) {
        form.extension = Affine::Sign;
        term = sext->getOperand();
      } else if (auto *zext = llvm::dyn_cast<llvm::SCEVZeroExtendExpr>(term)) {
        form.extension = Affine::Zero;
        term = zext->getOperand();
      }
      auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(term);
      if (!rec || rec->getLoop() != loop || !rec->isAffine())
        return false;
      form.rec = rec;
    }
    return form.rec != nullptr;
  }

  // The loop condition for one access (see hoistLoopChecks), or null.
  Value *loopCondition(Instruction &inst, const Operand &operand,
                       const Object &object, llvm::LoopInfo &loops,
                       llvm::ScalarEvolution &evolution,
                       llvm::SCEVExpander &expander) {
    llvm::Loop *loop = loops.getLoopFor(inst.getParent());
    auto *bytes = llvm::dyn_cast<llvm::ConstantInt>(operand.bytes);
    // Not private variables: their address as an integer would keep them
    // from becoming registers.
    if (!loop || !loop->getLoopPreheader() || !bytes ||
        object.kind == kMemoryPrivateVariable)
      return nullptr;
    Affine form;
    if (!affineIn(evolution.getSCEV(operand.pointer), loop, evolution, form))
      return nullptr;
    // A constant step, or one the loop does not change (b[k * n + col]).
    const llvm::SCEV *step = form.rec->getStepRecurrence(evolution);
    const llvm::SCEV *count = evolution.getSymbolicMaxBackedgeTakenCount(loop);
    if (llvm::isa<llvm::SCEVCouldNotCompute>(count) ||
        !evolution.isLoopInvariant(step, loop))
      return nullptr;
    Instruction *at = loop->getLoopPreheader()->getTerminator();
    if (!expander.isSafeToExpandAt(step, at))
      return nullptr;
    const llvm::SCEV *invariant =
        form.invariant.empty() ? nullptr : evolution.getAddExpr(form.invariant);
    if (!expander.isSafeToExpandAt(count, at) ||
        !expander.isSafeToExpandAt(form.rec->getStart(), at) ||
        (invariant && !expander.isSafeToExpandAt(invariant, at)))
      return nullptr;
    // An access behind the exit test of a loop that leaves only from its
    // header runs in one iteration fewer than the header does.
    bool behind_test = loop->getExitingBlock() == loop->getHeader() &&
                       inst.getParent() != loop->getHeader();
    Value *begin, *extent;
    if (object.sized()) {
      IRBuilder<> entry(setup_end_->getParent(),
                        std::next(setup_end_->getIterator()));
      begin = entry.CreatePtrToInt(object.base, entry.getInt64Ty());
      extent = entry.getInt64(object.bytes);
      if (auto *made = llvm::dyn_cast<Instruction>(begin))
        setup_end_ = made;
    } else {
      std::tie(begin, extent) = argumentObject(object.index);
    }
    IRBuilder<> b(at);
    auto asInteger = [&](Value *v) {
      return v->getType()->isPointerTy()
                 ? b.CreatePtrToInt(v, b.getInt64Ty())
                 : b.CreateSExtOrTrunc(v, b.getInt64Ty());
    };
    Value *base =
        invariant ? asInteger(expander.expandCodeFor(invariant, nullptr, at))
                  : b.getInt64(0);
    Value *start = expander.expandCodeFor(form.rec->getStart(), nullptr, at);
    unsigned narrow = start->getType()->isPointerTy()
                          ? 64
                          : start->getType()->getIntegerBitWidth();
    Value *index = start->getType()->isPointerTy()
                       ? b.CreatePtrToInt(start, b.getInt64Ty())
                   : form.extension == Affine::Zero
                       ? b.CreateZExtOrTrunc(start, b.getInt64Ty())
                       : b.CreateSExtOrTrunc(start, b.getInt64Ty());
    Value *iterations = b.CreateZExtOrTrunc(
        expander.expandCodeFor(count, nullptr, at), b.getInt64Ty());
    Value *none = b.getFalse();
    if (behind_test) {
      none = b.CreateICmpEQ(iterations, b.getInt64(0));
      iterations = b.CreateSub(iterations, b.getInt64(1));
    }
    // The step as the index extends it (the recurrence adds it in the
    // index's own type).
    Value *stride = b.CreateSExtOrTrunc(
        asInteger(expander.expandCodeFor(step, nullptr, at)), b.getInt64Ty());
    Value *magnitude =
        b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, stride, b.getFalse());
    uint64_t scale_magnitude =
        uint64_t(form.scale < 0 ? -form.scale : form.scale);
    // No wrapping in 64 bits between the first index and the last (fewer
    // than 2^31 iterations, each a step times the scale below 2^31: the
    // span stays below 2^62), nor in the index's own type (an int index
    // extended once per iteration). Plain compares: an overflow intrinsic's
    // pair would keep the kernel from widening.
    Value *no_wrap = b.CreateAnd(
        b.CreateICmpULE(iterations, b.getInt64(uint64_t(1) << 31)),
        b.CreateICmpULE(magnitude,
                        b.getInt64((uint64_t(1) << 31) /
                                   std::max<uint64_t>(scale_magnitude, 1))));
    Value *last_index = b.CreateAdd(index, b.CreateMul(iterations, stride));
    if (form.extension != Affine::None && narrow < 64) {
      llvm::Type *narrow_type = b.getIntNTy(narrow);
      Value *truncated = b.CreateTrunc(last_index, narrow_type);
      Value *back = form.extension == Affine::Sign
                        ? b.CreateSExt(truncated, b.getInt64Ty())
                        : b.CreateZExt(truncated, b.getInt64Ty());
      no_wrap = b.CreateAnd(no_wrap, b.CreateICmpEQ(back, last_index));
    }
    auto address = [&](Value *at_index) {
      Value *scaled =
          form.scale == 1
              ? at_index
              : b.CreateMul(at_index, b.getInt64(uint64_t(form.scale)));
      return invariant ? b.CreateAdd(base, scaled) : scaled;
    };
    Value *first = address(index), *last = address(last_index);
    Value *room = b.CreateSub(extent, bytes);
    Value *fits = b.CreateICmpULE(bytes, extent);
    Value *first_in = b.CreateICmpULE(b.CreateSub(first, begin), room);
    Value *last_in = b.CreateICmpULE(b.CreateSub(last, begin), room);
    Value *all =
        b.CreateAnd(b.CreateAnd(fits, no_wrap), b.CreateAnd(first_in, last_in));
    return b.CreateOr(none, all, "loop_inside");
  }

  // An argument's object: where it starts and its bytes, read once.
  std::pair<Value *, Value *> argumentObject(unsigned index) {
    auto found = arguments_.find(index);
    if (found != arguments_.end())
      return found->second;
    IRBuilder<> b(setup_end_->getParent(),
                  std::next(setup_end_->getIterator()));
    auto field = [&](size_t offset) {
      Value *p = b.CreateConstInBoundsGEP1_64(
          b.getInt8Ty(), ranges_, index * sizeof(MemoryRange) + offset);
      llvm::LoadInst *load = b.CreateLoad(b.getInt64Ty(), p);
      load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                        llvm::MDNode::get(b.getContext(), {}));
      return load;
    };
    Value *below = field(offsetof(MemoryRange, below));
    Value *bytes = field(offsetof(MemoryRange, bytes));
    Value *pointer = b.CreatePtrToInt(kernel_.getArg(index), b.getInt64Ty());
    Value *begin = b.CreateSub(pointer, below, "object_begin");
    if (auto *last = llvm::dyn_cast<Instruction>(begin))
      setup_end_ = last;
    return arguments_[index] = {begin, bytes};
  }

  // The byte offset of `pointer` from `base` along the GEPs and casts
  // between them, or null. Private variables are checked this way: their
  // address taken as an integer (ptrtoint) would keep SROA from making them
  // registers.
  Value *offsetAlongGeps(IRBuilder<> &b, Value *pointer, Value *base) {
    Value *offset = b.getInt64(0);
    for (Value *at = pointer; at != base;) {
      if (auto *gep = llvm::dyn_cast<llvm::GEPOperator>(at)) {
        offset = b.CreateAdd(
            offset,
            b.CreateSExtOrTrunc(llvm::emitGEPOffset(&b, layout_, gep, true),
                                b.getInt64Ty()));
        at = gep->getPointerOperand();
      } else if (auto *cast = llvm::dyn_cast<llvm::Operator>(at);
                 cast && (cast->getOpcode() == Instruction::AddrSpaceCast ||
                          cast->getOpcode() == Instruction::BitCast)) {
        at = cast->getOperand(0);
      } else {
        return nullptr;
      }
    }
    return offset;
  }

  Value *inside(IRBuilder<> &b, const Operand &operand, const Object &object,
                Description &about) {
    Value *bytes = b.CreateZExtOrTrunc(operand.bytes, b.getInt64Ty());
    if (object.kind == kMemoryPrivateVariable)
      if (Value *offset = offsetAlongGeps(b, operand.pointer, object.base)) {
        Value *extent = b.getInt64(object.bytes);
        about = {offset,
                 bytes,
                 b.getInt64(0),
                 extent,
                 b.getInt32(operand.write),
                 b.getInt32(object.kind),
                 b.getInt32(object.index)};
        return b.CreateAnd(b.CreateICmpULE(bytes, extent),
                           b.CreateICmpULE(offset, b.CreateSub(extent, bytes)),
                           "inside");
      }
    Value *address = b.CreatePtrToInt(operand.pointer, b.getInt64Ty());
    Value *begin = b.getInt64(0), *extent = b.getInt64(0);
    Value *ok;
    if (object.kind == kMemoryUnknownObject) {
      Value *ask = loadContextField(
          b, context_, offsetof(WorkGroupContext, memory_check_address),
          b.getPtrTy());
      auto *type = llvm::FunctionType::get(
          b.getInt32Ty(), {b.getPtrTy(), b.getInt64Ty(), b.getInt64Ty()},
          false);
      Value *answer = b.CreateCall(type, ask, {context_, address, bytes});
      ok = b.CreateICmpNE(answer, b.getInt32(0));
    } else {
      if (object.sized()) {
        begin = b.CreatePtrToInt(object.base, b.getInt64Ty());
        extent = b.getInt64(object.bytes);
      } else {
        std::tie(begin, extent) = argumentObject(object.index);
      }
      Value *offset = b.CreateSub(address, begin);
      ok = b.CreateAnd(b.CreateICmpULE(bytes, extent),
                       b.CreateICmpULE(offset, b.CreateSub(extent, bytes)),
                       "inside");
    }
    about = {address,
             bytes,
             begin,
             extent,
             b.getInt32(operand.write),
             b.getInt32(object.kind),
             b.getInt32(object.index)};
    return ok;
  }

  // Runs `inst` only when `ok`; otherwise describes the violation (and a
  // load yields zero).
  void guard(Instruction &inst, Value *ok, const Description &about) {
    Instruction *then_end = nullptr, *else_end = nullptr;
    llvm::SplitBlockAndInsertIfThenElse(ok, &inst, &then_end, &else_end);
    llvm::BasicBlock *tail = inst.getParent();
    inst.moveBefore(then_end);
    if (!inst.getType()->isVoidTy()) {
      llvm::PHINode *value =
          llvm::PHINode::Create(inst.getType(), 2, inst.getName() + ".checked");
      value->insertBefore(tail->begin());
      inst.replaceAllUsesWith(value);
      value->addIncoming(&inst, then_end->getParent());
      value->addIncoming(llvm::Constant::getNullValue(inst.getType()),
                         else_end->getParent());
    }
    // The first failed access of a group is the one described.
    IRBuilder<> b(else_end);
    Value *found = b.CreateLoad(
        b.getInt32Ty(),
        b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), record_,
                                     offsetof(MemoryViolation, found)));
    Instruction *describe = llvm::SplitBlockAndInsertIfThen(
        b.CreateICmpEQ(found, b.getInt32(0)), else_end, false);
    b.SetInsertPoint(describe);
    auto store = [&](size_t offset, Value *value) {
      b.CreateStore(
          value, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), record_, offset));
    };
    store(offsetof(MemoryViolation, address), about.address);
    store(offsetof(MemoryViolation, bytes), about.bytes);
    store(offsetof(MemoryViolation, object_begin), about.object_begin);
    store(offsetof(MemoryViolation, object_bytes), about.object_bytes);
    llvm::FunctionCallee local_id = kernel_.getParent()->getOrInsertFunction(
        symbolOf(Builtin::GetLocalId), b.getInt64Ty(), b.getInt32Ty());
    for (unsigned d = 0; d < 3; ++d)
      store(offsetof(MemoryViolation, local_id) + d * sizeof(uint64_t),
            b.CreateCall(local_id, {b.getInt32(d)}));
    store(offsetof(MemoryViolation, is_write), about.is_write);
    store(offsetof(MemoryViolation, object_kind), about.kind);
    store(offsetof(MemoryViolation, object_index), about.index);
    store(offsetof(MemoryViolation, found), b.getInt32(1));
  }

  llvm::Function &kernel_;
  const llvm::DataLayout &layout_;
  // The last of the values read once per work-item at the kernel's entry
  // (the entry block's head: accesses after it split the block).
  Instruction *setup_end_;
  Value *context_, *ranges_, *record_;
  std::map<unsigned, std::pair<Value *, Value *>> arguments_;
  std::map<Instruction *, Value *> hoisted_; // access -> its loop's check
};

// The frontend's slots for parameters and scalars go first: a pointer
// loaded back from one has no origin the checks could see.
void promoteScalarSlots(llvm::Function &kernel) {
  std::vector<llvm::AllocaInst *> promotable;
  for (Instruction &inst : kernel.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst))
      if (llvm::isAllocaPromotable(alloca))
        promotable.push_back(alloca);
  if (promotable.empty())
    return;
  llvm::DominatorTree dominators(kernel);
  llvm::PromoteMemToReg(promotable, dominators);
}

// Values the same in every iteration that the frontend computes inside
// loops: inlined builtins' casts of the kernel's pointer arguments to
// generic pointers, and work-item queries with constant arguments
// (get_global_id(0) written in a loop's index). At the entry they are
// invariants the loop conditions (hoistLoopChecks) can start from.
void invariantsAtEntry(llvm::Function &kernel) {
  Instruction *entry = &*kernel.getEntryBlock().getFirstNonPHIOrDbgOrAlloca();
  std::vector<Instruction *> invariant;
  for (Instruction &inst : llvm::instructions(kernel)) {
    if (inst.getParent() == &kernel.getEntryBlock())
      continue;
    if (auto *cast = llvm::dyn_cast<llvm::AddrSpaceCastInst>(&inst)) {
      if (llvm::isa<llvm::Argument>(cast->getOperand(0)))
        invariant.push_back(cast);
    } else if (familyOf(calledBuiltin(inst)) == BuiltinFamily::WorkItemQuery &&
               symbolOf(calledBuiltin(inst)).starts_with("_Z")) {
      // OpenCL's own queries (not Weft's markers such as
      // __weft_last_in_group, which the barrier regions look for).
      auto *call = llvm::cast<llvm::CallInst>(&inst);
      if (llvm::all_of(call->args(), [](const llvm::Use &arg) {
            return llvm::isa<llvm::Constant>(arg.get());
          }))
        invariant.push_back(call);
    }
  }
  for (Instruction *inst : invariant)
    inst->moveBefore(entry);
}

void checkKernel(llvm::Function &kernel) {
  inlinePointerBuiltins(kernel);
  promoteScalarSlots(kernel);
  invariantsAtEntry(kernel);
  const llvm::DataLayout &layout = kernel.getParent()->getDataLayout();
  std::vector<Instruction *> accesses;
  for (Instruction &inst : llvm::instructions(kernel))
    if (!memoryOperands(inst, layout).empty())
      accesses.push_back(&inst);
  if (accesses.empty())
    return;
  KernelChecks checks(kernel);
  checks.hoistLoopChecks(accesses);
  for (Instruction *inst : accesses)
    checks.check(*inst);
}

} // namespace

void requestMemoryChecks(llvm::Module &module) {
  module.getOrInsertNamedMetadata(kCheckMemoryMetadata);
}

llvm::PreservedAnalyses MemoryChecksPass::run(llvm::Module &module,
                                              llvm::ModuleAnalysisManager &) {
  if (!module.getNamedMetadata(kCheckMemoryMetadata))
    return llvm::PreservedAnalyses::all();
  bool changed = false;
  for (llvm::Function &f : module)
    if (!f.isDeclaration() &&
        f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL) {
      checkKernel(f);
      changed = true;
    }
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
