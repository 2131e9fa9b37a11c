#include "compiler/passes/kernels/kernel_bodies.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_metadata.h"
#include "compiler/analysis/kernel_signature.h"
#include "compiler/passes/kernels/context_access.h"
#include "compiler/passes/kernels/work_group_pipes.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ReplaceConstant.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <cstddef>

namespace weft::compiler {
llvm::Value *subGroupLocalId(llvm::IRBuilder<> &b, llvm::Value *x,
                             uint32_t sub_group_size) {
  return b.CreateAnd(b.CreateTrunc(x, b.getInt32Ty()),
                     b.getInt32(sub_group_size - 1), "sub_group_local_id");
}

namespace {

using llvm::IRBuilder;
using llvm::Value;

constexpr unsigned kLocalAddressSpace = 3;

// The dimension argument of a query, clamped to the spare fourth slot that
// holds the out-of-range answer.
Value *dimensionIndex(IRBuilder<> &b, Value *dimension) {
  if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(dimension))
    return b.getInt64(std::min<uint64_t>(c->getZExtValue(), 3));
  Value *wide = b.CreateZExt(dimension, b.getInt64Ty());
  return b.CreateSelect(b.CreateICmpULT(wide, b.getInt64(3)), wide,
                        b.getInt64(3));
}

struct BodyValues {
  Value *context;
  Value *local_id[3];
  uint32_t sub_group_size; // KernelDescription::sub_group_size
};

Value *localId(IRBuilder<> &b, const BodyValues &body, Value *dimension) {
  if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(dimension)) {
    uint64_t d = c->getZExtValue();
    return d < 3 ? body.local_id[d] : b.getInt64(0);
  }
  Value *result = b.getInt64(0);
  for (int d = 2; d >= 0; --d)
    result = b.CreateSelect(b.CreateICmpEQ(dimension, b.getInt32(d)),
                            body.local_id[d], result);
  return result;
}

Value *field(IRBuilder<> &b, const BodyValues &body, size_t offset,
             Value *dimension) {
  return loadContextField(b, body.context, offset, b.getInt64Ty(),
                          dimensionIndex(b, dimension));
}

Value *fieldAt(IRBuilder<> &b, const BodyValues &body, size_t offset,
               unsigned d) {
  return loadContextField(b, body.context, offset, b.getInt64Ty(),
                          b.getInt64(d));
}

Value *globalId(IRBuilder<> &b, const BodyValues &body, Value *dimension) {
  Value *group =
      field(b, body, offsetof(WorkGroupContext, group_id), dimension);
  Value *size = field(b, body, offsetof(WorkGroupContext, enqueued_local_size),
                      dimension);
  Value *offset =
      field(b, body, offsetof(WorkGroupContext, global_offset), dimension);
  // No step wraps: the runtime refuses an offset whose range would pass
  // SIZE_MAX (CL_INVALID_GLOBAL_OFFSET), and every id is below offset +
  // global size. Saying so lets SCEV bound `gid < n` by the work-item loop
  // (SplitWorkItemRangesPass).
  return b.CreateAdd(b.CreateAdd(b.CreateMul(group, size, "", /*HasNUW=*/true),
                                 offset, "",
                                 /*HasNUW=*/true),
                     localId(b, body, dimension), "global_id", /*HasNUW=*/true);
}

// The answer to a work-item query `call` (a WorkItemQuery builtin).
Value *answerQuery(Builtin query, IRBuilder<> &b, const BodyValues &body,
                   llvm::CallInst &call) {
  auto dimension = [&] { return call.getArgOperand(0); };
  auto contextField = [&](size_t offset) {
    return field(b, body, offset, dimension());
  };
  switch (query) {
  case Builtin::GetGlobalId:
    return globalId(b, body, dimension());
  case Builtin::GetLocalId:
    return localId(b, body, dimension());
  case Builtin::GetLocalSize:
    return contextField(offsetof(WorkGroupContext, local_size));
  case Builtin::GetEnqueuedLocalSize:
    return contextField(offsetof(WorkGroupContext, enqueued_local_size));
  case Builtin::GetGlobalSize:
    return contextField(offsetof(WorkGroupContext, global_size));
  case Builtin::GetNumGroups:
    return contextField(offsetof(WorkGroupContext, num_groups));
  case Builtin::GetGroupId:
    return contextField(offsetof(WorkGroupContext, group_id));
  case Builtin::GetGlobalOffset:
    return contextField(offsetof(WorkGroupContext, global_offset));
  case Builtin::GetWorkDim:
    return loadContextField(
        b, body.context, offsetof(WorkGroupContext, work_dim), b.getInt32Ty());
  case Builtin::GetGlobalLinearId: {
    Value *linear = b.getInt64(0);
    for (int d = 2; d >= 0; --d) {
      Value *id = b.CreateSub(
          globalId(b, body, b.getInt32(d)),
          fieldAt(b, body, offsetof(WorkGroupContext, global_offset), d));
      Value *size =
          fieldAt(b, body, offsetof(WorkGroupContext, global_size), d);
      linear = b.CreateAdd(b.CreateMul(linear, size), id);
    }
    return linear;
  }
  case Builtin::GetLocalLinearId: {
    Value *linear = b.getInt64(0);
    for (int d = 2; d >= 0; --d) {
      Value *size = fieldAt(b, body, offsetof(WorkGroupContext, local_size), d);
      linear = b.CreateAdd(b.CreateMul(linear, size), body.local_id[d]);
    }
    return linear;
  }
  case Builtin::LastInGroup: {
    Value *linear = b.getInt64(0), *items = b.getInt64(1);
    for (int d = 2; d >= 0; --d) {
      Value *size = fieldAt(b, body, offsetof(WorkGroupContext, local_size), d);
      linear = b.CreateAdd(b.CreateMul(linear, size), body.local_id[d]);
      items = b.CreateMul(items, size);
    }
    Value *last = b.CreateICmpEQ(linear, b.CreateSub(items, b.getInt64(1)),
                                 "last_in_group");
    if (auto *compare = llvm::dyn_cast<llvm::Instruction>(last))
      compare->setMetadata(kLastInGroupMetadata,
                           llvm::MDNode::get(b.getContext(), {}));
    return b.CreateZExtOrTrunc(last, call.getType());
  }
  case Builtin::GroupContext:
    return body.context;
  case Builtin::SubGroupWidth:
    return b.getInt32(body.sub_group_size);
  case Builtin::SubGroupLocalId:
    return subGroupLocalId(b, body.local_id[0], body.sub_group_size);
  case Builtin::CollectiveSlots:
    // An invariant load: the loops over the work-items then keep the
    // pointer, and the count of arrived work-items, in registers.
    return loadContextField(b, body.context,
                            offsetof(WorkGroupContext, collective_slots),
                            call.getType());
  case Builtin::PrintfBuffer:
    return loadContextField(b, body.context,
                            offsetof(WorkGroupContext, printf_buffer),
                            call.getType());
  default:
    return nullptr;
  }
}

bool isWorkItemQuery(Builtin builtin) {
  return familyOf(builtin) == BuiltinFamily::WorkItemQuery;
}
bool isBarrier(Builtin builtin) {
  return familyOf(builtin) == BuiltinFamily::Barrier;
}
// Queries whose answers do not depend on how the range is cut into groups.
bool isGroupBlindQuery(Builtin builtin) {
  switch (builtin) {
  case Builtin::GetGlobalId:
  case Builtin::GetGlobalSize:
  case Builtin::GetGlobalOffset:
  case Builtin::GetWorkDim:
  case Builtin::GetGlobalLinearId:
  case Builtin::PrintfBuffer:
    return true;
  default:
    return false;
  }
}

// Calls left in a body that act for the whole group (work-group pipe
// reservations stay calls until compiler/passes/kernels/work_group_pipes.cpp).
// The collectives need no check here: their builtins ask for the group's
// collective slots, a query lowerWorkItemCalls counts.
bool callsGroupFunctions(llvm::Function &body) {
  for (llvm::Instruction &inst : llvm::instructions(body)) {
    BuiltinFamily family = familyOf(calledBuiltin(inst));
    if (family == BuiltinFamily::WorkGroupPipeCall ||
        family == BuiltinFamily::SubGroupExchange ||
        family == BuiltinFamily::WorkGroupPipe ||
        family == BuiltinFamily::AsyncCopy ||
        family == BuiltinFamily::AsyncCopyWait)
      return true;
  }
  return false;
}

// Builtins that ask for work-item state or the group context (the async
// copies) are inlined into each kernel, where those questions have answers.
// Returns every defined function that reaches such a call.
llvm::SmallPtrSet<llvm::Function *, 16>
groupAwareFunctions(llvm::Module &module) {
  llvm::SmallPtrSet<llvm::Function *, 16> aware;
  bool grew = true;
  while (grew) {
    grew = false;
    for (llvm::Function &f : module) {
      if (f.isDeclaration() || aware.count(&f) ||
          f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
        continue;
      for (llvm::Instruction &inst : llvm::instructions(f)) {
        auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
        llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
        if (callee &&
            (aware.count(callee) || isWorkItemQuery(identifyBuiltin(*callee)) ||
             isBarrier(identifyBuiltin(*callee)) ||
             familyOf(identifyBuiltin(*callee)) ==
                 BuiltinFamily::SubGroupExchange)) {
          aware.insert(&f);
          grew = true;
          break;
        }
      }
    }
  }
  return aware;
}

// A call whose function type differs from its callee's only as the x86-64
// ABI passes small vectors (a SPIR-V module's int2 argument where Clang's
// builtin takes the double it is coerced into): the same call with each
// value reinterpreted, direct, so it can be inlined. Null when the types
// differ otherwise.
llvm::CallInst *callWithCalleeType(llvm::CallInst &call) {
  auto *callee = llvm::dyn_cast<llvm::Function>(call.getCalledOperand());
  if (!callee || call.getCalledFunction() ||
      callee->arg_size() != call.arg_size())
    return nullptr;
  const llvm::DataLayout &layout = callee->getParent()->getDataLayout();
  auto sameBits = [&](llvm::Type *a, llvm::Type *b) {
    return a == b || (a->isSized() && b->isSized() && !a->isPointerTy() &&
                      !b->isPointerTy() && !a->isAggregateType() &&
                      !b->isAggregateType() &&
                      layout.getTypeSizeInBits(a) == layout.getTypeSizeInBits(b));
  };
  llvm::FunctionType *type = callee->getFunctionType();
  if (!sameBits(type->getReturnType(), call.getType()))
    return nullptr;
  for (unsigned i = 0; i < call.arg_size(); ++i)
    if (!sameBits(type->getParamType(i), call.getArgOperand(i)->getType()))
      return nullptr;
  IRBuilder<> b(&call);
  std::vector<Value *> args;
  for (unsigned i = 0; i < call.arg_size(); ++i)
    args.push_back(b.CreateBitCast(call.getArgOperand(i), type->getParamType(i)));
  llvm::CallInst *direct = b.CreateCall(callee, args);
  direct->setCallingConv(callee->getCallingConv());
  if (!call.getType()->isVoidTy())
    call.replaceAllUsesWith(b.CreateBitCast(direct, call.getType()));
  call.eraseFromParent();
  return direct;
}

bool inlineGroupAwareCalls(llvm::Function &body,
                           const llvm::SmallPtrSet<llvm::Function *, 16> &aware,
                           std::string &error) {
  std::vector<llvm::CallInst *> mismatched;
  for (llvm::Instruction &inst : llvm::instructions(body))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (auto *callee =
              llvm::dyn_cast<llvm::Function>(call->getCalledOperand()))
        if (!call->getCalledFunction() && aware.count(callee))
          mismatched.push_back(call);
  for (llvm::CallInst *call : mismatched)
    callWithCalleeType(*call);
  for (bool inlined = true; inlined;) {
    inlined = false;
    for (llvm::Instruction &inst : llvm::instructions(body)) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
      if (!call || !call->getCalledFunction() ||
          !aware.count(call->getCalledFunction()) ||
          isWorkGroupPipeBuiltin(*call->getCalledFunction()))
        continue;
      llvm::InlineFunctionInfo info;
      llvm::InlineResult result = llvm::InlineFunction(*call, info);
      if (!result.isSuccess()) {
        error = "cannot inline " + call->getCalledFunction()->getName().str() +
                " into a kernel: " + result.getFailureReason();
        return false;
      }
      inlined = true;
      break; // the instruction list changed
    }
  }
  return true;
}

// Replaces work-item queries inside `body`, and barriers with calls to
// `marker` (the regions are cut there; the fibers switch there). Returns
// whether the body can tell its work-groups apart through these calls (a
// barrier, or a query other than of global ids and sizes).
bool lowerWorkItemCalls(llvm::Function &body, const BodyValues &values,
                        llvm::Function &marker) {
  // Where sub-groups exchange values, their local ids stay calls until the
  // path is known: the widened path answers with the lanes' numbers.
  bool exchanges = callsFamily(body, BuiltinFamily::SubGroupExchange);
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &inst : llvm::instructions(body))
    if ((isWorkItemQuery(calledBuiltin(inst)) &&
         !(exchanges && calledBuiltin(inst) == Builtin::SubGroupLocalId)) ||
        isBarrier(calledBuiltin(inst)))
      calls.push_back(llvm::cast<llvm::CallInst>(&inst));

  bool sees_groups = false;
  for (llvm::CallInst *call : calls) {
    IRBuilder<> b(call);
    Builtin builtin = calledBuiltin(*call);
    if (isBarrier(builtin)) {
      b.CreateCall(&marker, {values.context});
      sees_groups = true;
      call->eraseFromParent();
      continue;
    }
    sees_groups = sees_groups || !isGroupBlindQuery(builtin);
    Value *answer = answerQuery(builtin, b, values, *call);
    if (answer->getType() != call->getType())
      answer = b.CreateZExtOrTrunc(answer, call->getType());
    call->replaceAllUsesWith(answer);
    call->eraseFromParent();
  }
  return sees_groups;
}

bool usedIn(const llvm::Constant *constant, const llvm::Function &function) {
  for (const llvm::User *user : constant->users()) {
    if (auto *inst = llvm::dyn_cast<llvm::Instruction>(user)) {
      if (inst->getFunction() == &function)
        return true;
    } else if (auto *c = llvm::dyn_cast<llvm::Constant>(user)) {
      if (usedIn(c, function))
        return true;
    }
  }
  return false;
}

// Kernel-scope __local variables become slices of the work-group's local
// memory, laid out in this kernel's own order. Returns the bytes used.
uint64_t lowerLocalVariables(llvm::Module &module, llvm::Function &body,
                             Value *context) {
  const llvm::DataLayout &layout = module.getDataLayout();
  std::vector<llvm::GlobalVariable *> locals;
  for (llvm::GlobalVariable &global : module.globals())
    if (global.getAddressSpace() == kLocalAddressSpace && usedIn(&global, body))
      locals.push_back(&global);
  if (locals.empty())
    return 0;

  std::vector<llvm::Constant *> constants(locals.begin(), locals.end());
  llvm::convertUsersOfConstantsToInstructions(constants, &body);

  IRBuilder<> b(&*body.getEntryBlock().getFirstInsertionPt());
  Value *base = loadContextField(
      b, context, offsetof(WorkGroupContext, local_memory), b.getPtrTy());
  uint64_t offset = 0;
  for (llvm::GlobalVariable *global : locals) {
    llvm::Type *type = global->getValueType();
    uint64_t align = std::max<uint64_t>(global->getAlign().valueOrOne().value(),
                                        layout.getPrefTypeAlign(type).value());
    offset = llvm::alignTo(offset, align);
    Value *slot = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), base, offset);
    Value *pointer = b.CreateAddrSpaceCast(slot, global->getType());
    global->replaceUsesWithIf(pointer, [&](llvm::Use &use) {
      auto *inst = llvm::dyn_cast<llvm::Instruction>(use.getUser());
      return inst && inst->getFunction() == &body;
    });
    offset += layout.getTypeAllocSize(type);
  }
  return offset;
}

// Moves the kernel's code into an internal function that also takes the
// context and the local id, so both entry points can inline it.
llvm::Function *makeBody(llvm::Function &kernel) {
  llvm::LLVMContext &ctx = kernel.getContext();
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  std::vector<llvm::Type *> params(kernel.getFunctionType()->param_begin(),
                                   kernel.getFunctionType()->param_end());
  params.push_back(llvm::PointerType::get(ctx, 0));
  params.insert(params.end(), {i64, i64, i64});
  auto *type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), params, false);
  llvm::Function *body = llvm::Function::Create(
      type, llvm::GlobalValue::InternalLinkage,
      "__weft_body_" + kernel.getName(), kernel.getParent());
  body->copyAttributesFrom(&kernel);
  body->setCallingConv(llvm::CallingConv::C);
  body->removeFnAttr(llvm::Attribute::NoInline);
  body->removeFnAttr(llvm::Attribute::OptimizeNone);
  body->addFnAttr(llvm::Attribute::AlwaysInline);
  body->splice(body->end(), &kernel);
  for (llvm::Argument &arg : kernel.args()) {
    llvm::Argument *replacement = body->getArg(arg.getArgNo());
    arg.replaceAllUsesWith(replacement);
    replacement->takeName(&arg);
  }
  unsigned n = kernel.arg_size();
  body->getArg(n)->setName("context");
  body->getArg(n + 1)->setName("local_id_x");
  body->getArg(n + 2)->setName("local_id_y");
  body->getArg(n + 3)->setName("local_id_z");
  return body;
}

} // namespace

llvm::PreservedAnalyses KernelBodiesPass::run(llvm::Module &module,
                                              llvm::ModuleAnalysisManager &) {
  std::vector<llvm::Function *> sources;
  for (llvm::Function &f : module)
    if (!f.isDeclaration() &&
        f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
      sources.push_back(&f);
  if (sources.empty())
    return llvm::PreservedAnalyses::all();

  const auto group_aware = groupAwareFunctions(module);
  llvm::LLVMContext &ctx = module.getContext();
  llvm::FunctionCallee marker_callee = module.getOrInsertFunction(
      symbolOf(Builtin::BarrierMarker),
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                              {llvm::PointerType::get(ctx, 0)}, false));
  auto *marker = llvm::cast<llvm::Function>(marker_callee.getCallee());
  std::vector<KernelRecord> records = readKernelRecords(module);
  for (llvm::Function *kernel : sources) {
    KernelRecord record;
    std::string error;
    if (!describeKernel(*kernel, record.description, error)) {
      reportBuildError(module, error);
      return llvm::PreservedAnalyses::none();
    }
    llvm::Function *body = makeBody(*kernel);
    unsigned n = kernel->arg_size();
    BodyValues values{
        body->getArg(n),
        {body->getArg(n + 1), body->getArg(n + 2), body->getArg(n + 3)},
        record.description.sub_group_size};
    if (!inlineGroupAwareCalls(*body, group_aware, error)) {
      reportBuildError(module, error);
      return llvm::PreservedAnalyses::none();
    }
    bool sees_groups = lowerWorkItemCalls(*body, values, *marker);
    record.description.static_local_memory =
        lowerLocalVariables(module, *body, values.context);
    bool local_arguments = false;
    for (const KernelArgument &argument : record.description.arguments)
      local_arguments =
          local_arguments || argument.kind == ArgumentKind::LocalBuffer;
    record.description.sees_work_groups =
        sees_groups || callsGroupFunctions(*body) || local_arguments ||
        record.description.static_local_memory > 0;
    record.body = body;
    records.push_back(std::move(record));
  }
  for (llvm::Function *kernel : sources) {
    kernel->replaceAllUsesWith(llvm::PoisonValue::get(kernel->getType()));
    kernel->eraseFromParent();
  }
  // The group-aware builtins now live inside the bodies.
  std::vector<llvm::Function *> pending(group_aware.begin(), group_aware.end());
  for (bool erased = true; erased;) {
    erased = false;
    for (auto it = pending.begin(); it != pending.end();) {
      if (!(*it)->use_empty()) {
        ++it;
        continue;
      }
      (*it)->eraseFromParent();
      it = pending.erase(it);
      erased = true;
    }
  }
  writeKernelRecords(module, records);
  return llvm::PreservedAnalyses::none();
}

} // namespace weft::compiler
