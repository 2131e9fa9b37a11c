#include "compiler/workgroup_function.h"

#include "compiler/async_copy_followers.h"
#include "compiler/async_copy_read_through.h"
#include "compiler/barrier_regions.h"
#include "compiler/context_access.h"
#include "compiler/kernel_signature.h"
#include "compiler/work_group_pipes.h"
#include "compiler/work_item_vectorizer.h"

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
#include <functional>
#include <map>

namespace weft::compiler {
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
  return b.CreateAdd(b.CreateAdd(b.CreateMul(group, size), offset),
                     localId(b, body, dimension));
}

using QueryLowering =
    std::function<Value *(IRBuilder<> &, const BodyValues &, llvm::CallInst &)>;

// Mangled names of the OpenCL C work-item functions and how each is answered.
const std::map<std::string, QueryLowering> &workItemQueries() {
  static const std::map<std::string, QueryLowering> table = {
      {"_Z13get_global_idj",
       [](auto &b, auto &body, auto &call) {
         return globalId(b, body, call.getArgOperand(0));
       }},
      {"_Z12get_local_idj",
       [](auto &b, auto &body, auto &call) {
         return localId(b, body, call.getArgOperand(0));
       }},
      {"_Z14get_local_sizej",
       [](auto &b, auto &body, auto &call) {
         return field(b, body, offsetof(WorkGroupContext, local_size),
                      call.getArgOperand(0));
       }},
      {"_Z23get_enqueued_local_sizej",
       [](auto &b, auto &body, auto &call) {
         return field(b, body, offsetof(WorkGroupContext, enqueued_local_size),
                      call.getArgOperand(0));
       }},
      {"_Z15get_global_sizej",
       [](auto &b, auto &body, auto &call) {
         return field(b, body, offsetof(WorkGroupContext, global_size),
                      call.getArgOperand(0));
       }},
      {"_Z14get_num_groupsj",
       [](auto &b, auto &body, auto &call) {
         return field(b, body, offsetof(WorkGroupContext, num_groups),
                      call.getArgOperand(0));
       }},
      {"_Z12get_group_idj",
       [](auto &b, auto &body, auto &call) {
         return field(b, body, offsetof(WorkGroupContext, group_id),
                      call.getArgOperand(0));
       }},
      {"_Z17get_global_offsetj",
       [](auto &b, auto &body, auto &call) {
         return field(b, body, offsetof(WorkGroupContext, global_offset),
                      call.getArgOperand(0));
       }},
      {"_Z12get_work_dimv",
       [](auto &b, auto &body, auto &) {
         return loadContextField(b, body.context,
                                 offsetof(WorkGroupContext, work_dim),
                                 b.getInt32Ty());
       }},
      {"_Z20get_global_linear_idv",
       [](auto &b, auto &body, auto &) {
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
       }},
      // The builtins that keep per-group state (the async copies) ask for
      // the context itself.
      {"__weft_group_context",
       [](auto &, auto &body, auto &) { return body.context; }},
      {"_Z19get_local_linear_idv",
       [](auto &b, auto &body, auto &) {
         Value *linear = b.getInt64(0);
         for (int d = 2; d >= 0; --d) {
           Value *size =
               fieldAt(b, body, offsetof(WorkGroupContext, local_size), d);
           linear = b.CreateAdd(b.CreateMul(linear, size), body.local_id[d]);
         }
         return linear;
       }},
  };
  return table;
}

bool isBarrier(llvm::StringRef name) {
  return name == "_Z7barrierj" || name == "_Z18work_group_barrierj" ||
         name == "_Z18work_group_barrierj12memory_scope";
}

// Builtins that ask for work-item state or the group context (the async
// copies) are inlined into each kernel, where those questions have answers.
// Returns every defined function that reaches such a call.
llvm::SmallPtrSet<llvm::Function *, 16>
groupAwareFunctions(llvm::Module &module) {
  const auto &queries = workItemQueries();
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
            (aware.count(callee) || queries.count(callee->getName().str()) ||
             isBarrier(callee->getName()))) {
          aware.insert(&f);
          grew = true;
          break;
        }
      }
    }
  }
  return aware;
}

bool inlineGroupAwareCalls(llvm::Function &body,
                           const llvm::SmallPtrSet<llvm::Function *, 16> &aware,
                           std::string &error) {
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
// whether a barrier was found.
bool lowerWorkItemCalls(llvm::Function &body, const BodyValues &values,
                        llvm::Function &marker) {
  const auto &queries = workItemQueries();
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &inst : llvm::instructions(body))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (llvm::Function *callee = call->getCalledFunction())
        if (queries.count(callee->getName().str()) ||
            isBarrier(callee->getName()))
          calls.push_back(call);

  bool reaches_barrier = false;
  for (llvm::CallInst *call : calls) {
    IRBuilder<> b(call);
    llvm::StringRef name = call->getCalledFunction()->getName();
    if (isBarrier(name)) {
      b.CreateCall(&marker, {values.context});
      reaches_barrier = true;
      call->eraseFromParent();
      continue;
    }
    Value *answer = queries.at(name.str())(b, values, *call);
    if (answer->getType() != call->getType())
      answer = b.CreateZExtOrTrunc(answer, call->getType());
    call->replaceAllUsesWith(answer);
    call->eraseFromParent();
  }
  return reaches_barrier;
}

// On fibers a barrier calls back into the device, which switches work-items.
void lowerBarriersToSwitches(llvm::Function &body, llvm::Function &marker) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &inst : llvm::instructions(body))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (call->getCalledFunction() == &marker)
        calls.push_back(call);
  for (llvm::CallInst *call : calls) {
    IRBuilder<> b(call);
    Value *context = call->getArgOperand(0);
    Value *callback = loadContextField(
        b, context, offsetof(WorkGroupContext, barrier), b.getPtrTy());
    auto *type = llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy()}, false);
    b.CreateCall(type, callback, {context});
    call->eraseFromParent();
  }
}

bool usesAsyncCopies(llvm::Function &body) {
  std::vector<llvm::BasicBlock *> blocks;
  for (llvm::BasicBlock &block : body)
    blocks.push_back(&block);
  return callsAsyncCopyEngine(blocks);
}

// A copy of `body` named `suffix`.
llvm::Function *cloneBody(llvm::Function &body, const char *suffix) {
  llvm::ValueToValueMapTy map;
  llvm::Function *clone = llvm::CloneFunction(&body, map);
  clone->setName(body.getName() + suffix);
  return clone;
}

// A copy of `body` for the work-items that find every async copy of their
// group already done (compiler/async_copy_followers.h) and every work-group
// pipe reservation already made (compiler/work_group_pipes.h).
llvm::Function *makeFollowerBody(llvm::Function &body, bool pipes) {
  llvm::Function *follower = cloneBody(body, ".follower");
  std::vector<llvm::BasicBlock *> blocks;
  for (llvm::BasicBlock &block : *follower)
    blocks.push_back(&block);
  makeFollowerCode(blocks);
  if (pipes)
    makePipeFollowerCode(*follower);
  return follower;
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

// Loads the kernel's arguments from the argument block.
std::vector<Value *> loadArguments(IRBuilder<> &b, llvm::Function &body,
                                   const KernelDescription &kernel,
                                   Value *block, Value *context) {
  std::vector<Value *> values;
  for (const KernelArgument &arg : kernel.arguments) {
    size_t index = values.size();
    llvm::Argument *param = body.getArg(index);
    Value *slot =
        b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), block, arg.offset);
    Value *value;
    if (arg.kind == ArgumentKind::LocalBuffer) {
      Value *offset = b.CreateLoad(b.getInt64Ty(), slot);
      Value *base = loadContextField(
          b, context, offsetof(WorkGroupContext, local_memory), b.getPtrTy());
      value = b.CreateAddrSpaceCast(
          b.CreateInBoundsGEP(b.getInt8Ty(), base, offset), param->getType());
    } else if (param->hasByValAttr()) {
      value = slot; // byval: the callee copies what it changes
    } else {
      value = b.CreateAlignedLoad(param->getType(), slot,
                                  llvm::Align(arg.alignment));
    }
    values.push_back(value);
  }
  return values;
}

llvm::Function *declareEntry(llvm::Module &module, llvm::FunctionType *type,
                             const std::string &name,
                             const llvm::Function &body) {
  llvm::Function *entry = llvm::Function::Create(
      type, llvm::GlobalValue::ExternalLinkage, name, module);
  for (const char *attribute : {"target-cpu", "target-features"})
    if (body.hasFnAttribute(attribute))
      entry->addFnAttr(body.getFnAttribute(attribute));
  entry->addFnAttr(llvm::Attribute::NoUnwind);
  return entry;
}

// Declares void group(const void *block, WorkGroupContext *context) and
// fills its "setup" block with the kernel's arguments and the group's size;
// the builder stays at the end of that block.
GroupEntryValues startGroupEntry(llvm::Module &module, llvm::Function &body,
                                 const KernelDescription &kernel,
                                 IRBuilder<> &b, std::vector<Value *> &args,
                                 const std::string &symbol) {
  auto *type = llvm::FunctionType::get(b.getVoidTy(),
                                       {b.getPtrTy(), b.getPtrTy()}, false);
  llvm::Function *entry = declareEntry(module, type, symbol, body);
  Value *context = entry->getArg(1);
  b.SetInsertPoint(llvm::BasicBlock::Create(b.getContext(), "setup", entry));
  args = loadArguments(b, body, kernel, entry->getArg(0), context);
  GroupEntryValues values{entry, args, context, {}};
  for (unsigned d = 0; d < 3; ++d)
    values.local_size[d] =
        loadContextField(b, context, offsetof(WorkGroupContext, local_size),
                         b.getInt64Ty(), b.getInt64(d));
  return values;
}

// How the loop over a group's work-items runs its body (no barrier).
struct GroupEntryPlan {
  // Kernels with async copies or work-group pipe reservations: work-item
  // (0,0,0) runs the body, which makes every copy and reservation of the
  // group, and the loops run the others with `follower`, whose copies are
  // already done and whose reservations read the leader's ids: no
  // per-work-item bookkeeping stays in the loop.
  llvm::Function *follower = nullptr;
  // With a follower: work-item (0,0,0) runs only this (makeCopyPrologue),
  // and the loops run every work-item with `follower`.
  llvm::Function *prologue = nullptr;
  // The leader noted the group's pipe commits: the entry makes them once
  // every work-item ran.
  bool pipe_commits = false;
  // compiler/work_item_vectorizer.h: the x loop steps kVectorWidth
  // work-items at a time through it.
  llvm::Function *simd = nullptr;
  // The entry's name: the group entry's, or the read-through entry's.
  std::string symbol;
};

// void group(const void *block, WorkGroupContext *context): three nested
// loops over the local ids, the innermost over x so it vectorizes.
void buildGroupEntry(llvm::Module &module, llvm::Function &body,
                     const KernelDescription &kernel,
                     const GroupEntryPlan &plan) {
  llvm::Function *follower = plan.follower, *prologue = plan.prologue;
  llvm::LLVMContext &ctx = module.getContext();
  IRBuilder<> b(ctx);
  std::vector<Value *> args;
  GroupEntryValues values =
      startGroupEntry(module, body, kernel, b, args, plan.symbol);
  llvm::Function *entry = values.entry;
  Value *context = values.context;
  llvm::BasicBlock *setup = b.GetInsertBlock();
  Value *const *sizes = values.local_size;
  auto callBody = [&](llvm::Function &function, Value *x, Value *y, Value *z) {
    std::vector<Value *> call_args = args;
    call_args.push_back(context);
    call_args.insert(call_args.end(), {x, y, z});
    b.CreateCall(&function, call_args);
  };
  if (follower)
    callBody(prologue ? *prologue : body, b.getInt64(0), b.getInt64(0),
             b.getInt64(0));
  llvm::Function &loop_body = follower ? *follower : body;
  // Whether work-item (0,0,0) already ran whole.
  bool first_done = follower && !prologue;

  // z { y { x { body } } }, each loop a header with its counter phi and a
  // latch that counts and loops or falls through to the next outer latch.
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "exit", entry);
  llvm::BasicBlock *headers[3], *latches[3];
  for (int d = 2; d >= 0; --d) {
    headers[d] =
        llvm::BasicBlock::Create(ctx, "loop" + std::to_string(d), entry, exit);
    latches[d] =
        llvm::BasicBlock::Create(ctx, "latch" + std::to_string(d), entry, exit);
  }
  llvm::PHINode *phis[3];
  llvm::BasicBlock *preheader = setup;
  for (int d = 2; d >= 0; --d) {
    b.SetInsertPoint(preheader);
    Value *start = b.getInt64(0);
    if (d == 0 && first_done) {
      // Work-item (0,0,0) already ran: row (y=0, z=0) starts at x=1.
      Value *first_row = b.CreateAnd(b.CreateICmpEQ(phis[1], b.getInt64(0)),
                                     b.CreateICmpEQ(phis[2], b.getInt64(0)));
      start = b.CreateZExt(first_row, b.getInt64Ty());
      b.CreateCondBr(b.CreateICmpULT(start, sizes[0]), headers[0], latches[0]);
    } else {
      b.CreateBr(headers[d]);
    }
    b.SetInsertPoint(headers[d]);
    phis[d] = b.CreatePHI(b.getInt64Ty(), 2, "lid" + std::to_string(d));
    phis[d]->addIncoming(start, preheader);
    preheader = headers[d];
  }
  // The innermost header holds the body call; x's latch is that same block
  // unless the row may be empty (then latch0 is where an empty row lands).
  b.SetInsertPoint(headers[0]);
  Value *next_x;
  if (plan.simd) {
    std::vector<Value *> call_args = args;
    call_args.insert(call_args.end(), {context, phis[0], phis[1], phis[2],
                                       b.CreateSub(sizes[0], phis[0])});
    b.CreateCall(plan.simd, call_args);
    next_x = b.CreateAdd(phis[0], b.getInt64(kVectorWidth), "", true, true);
    b.CreateCondBr(b.CreateICmpULT(next_x, sizes[0]), headers[0], latches[0]);
  } else {
    callBody(loop_body, phis[0], phis[1], phis[2]);
    next_x = b.CreateAdd(phis[0], b.getInt64(1), "", true, true);
    foldWorkItemTail(b.CreateCondBr(b.CreateICmpULT(next_x, sizes[0]),
                                    headers[0], latches[0]));
  }
  phis[0]->addIncoming(next_x, headers[0]);
  b.SetInsertPoint(latches[0]);
  b.CreateBr(latches[1]);
  for (unsigned d = 1; d < 3; ++d) {
    b.SetInsertPoint(latches[d]);
    Value *next = b.CreateAdd(phis[d], b.getInt64(1), "", true, true);
    b.CreateCondBr(b.CreateICmpULT(next, sizes[d]), headers[d],
                   d < 2 ? latches[d + 1] : exit);
    phis[d]->addIncoming(next, latches[d]);
  }
  b.SetInsertPoint(exit);
  if (plan.pipe_commits)
    emitDeferredPipeCommits(module, b, context);
  b.CreateRetVoid();
}

// The second group entry of a kernel whose copies only stage data
// (compiler/async_copy_read_through.h), or why it has none.
void buildReadThroughEntry(llvm::Module &module, llvm::Function &body,
                           KernelDescription &kernel) {
  std::string why;
  ReadThroughBody read_through = makeReadThroughBody(
      body, kernel.arguments.size(), kernel.reqd_work_group_size, why);
  if (!read_through.body) {
    kernel.async_copy_read_through = "copies stay copies: " + why;
    return;
  }
  GroupEntryPlan plan;
  plan.symbol = readThroughEntrySymbol(kernel.name);
  std::string ignored;
  plan.simd = vectorizeWorkItems(*read_through.body, ignored);
  buildGroupEntry(module, *read_through.body, kernel, plan);
  kernel.read_through_sources = std::move(read_through.sources);
  kernel.written_buffers = std::move(read_through.written);
  kernel.read_through_max_local_size = read_through.max_local_size;
  kernel.async_copy_read_through =
      "tiles read from global memory when the buffers copied from and "
      "those written do not overlap";
  if (read_through.max_local_size)
    kernel.async_copy_read_through +=
        " and work-groups are at most " +
        std::to_string(read_through.max_local_size) + " in each dimension";
}

// void group(const void *block, WorkGroupContext *context) for a kernel with
// barriers, cut into regions at its barriers. Returns false (and why) when
// the kernel has a shape the regions do not handle; fibers then run it.
bool buildRegionGroupEntry(llvm::Module &module, llvm::Function &body,
                           llvm::Function &marker,
                           const KernelDescription &kernel, std::string &why) {
  IRBuilder<> b(module.getContext());
  std::vector<Value *> args;
  GroupEntryValues values = startGroupEntry(module, body, kernel, b, args,
                                            groupEntrySymbol(kernel.name));
  if (emitBarrierRegions(body, marker, b, values, why))
    return true;
  values.entry->eraseFromParent();
  return false;
}

// void item(const void *block, WorkGroupContext *context, x, y, z).
void buildWorkItemEntry(llvm::Module &module, llvm::Function &body,
                        const KernelDescription &kernel) {
  llvm::LLVMContext &ctx = module.getContext();
  IRBuilder<> b(ctx);
  auto *type =
      llvm::FunctionType::get(b.getVoidTy(),
                              {b.getPtrTy(), b.getPtrTy(), b.getInt64Ty(),
                               b.getInt64Ty(), b.getInt64Ty()},
                              false);
  llvm::Function *entry =
      declareEntry(module, type, workItemEntrySymbol(kernel.name), body);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", entry));
  std::vector<Value *> call_args =
      loadArguments(b, body, kernel, entry->getArg(0), entry->getArg(1));
  call_args.push_back(entry->getArg(1));
  call_args.insert(call_args.end(),
                   {entry->getArg(2), entry->getArg(3), entry->getArg(4)});
  b.CreateCall(&body, call_args);
  b.CreateRetVoid();
}

} // namespace

bool buildWorkGroupFunctions(llvm::Module &module,
                             std::vector<KernelDescription> &kernels,
                             std::string &error) {
  std::vector<llvm::Function *> sources;
  for (llvm::Function &f : module)
    if (!f.isDeclaration() &&
        f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
      sources.push_back(&f);

  const auto group_aware = groupAwareFunctions(module);
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Function *marker = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                              {llvm::PointerType::get(ctx, 0)}, false),
      llvm::GlobalValue::ExternalLinkage, "__weft_barrier", module);
  for (llvm::Function *kernel : sources) {
    KernelDescription description;
    if (!describeKernel(*kernel, description, error))
      return false;
    llvm::Function *body = makeBody(*kernel);
    unsigned n = kernel->arg_size();
    BodyValues values{
        body->getArg(n),
        {body->getArg(n + 1), body->getArg(n + 2), body->getArg(n + 3)}};
    // The work-group pipe builtins are counted once the helpers that call
    // them are inlined.
    if (!inlineGroupAwareCalls(*body, group_aware, error))
      return false;
    bool pipes = countWorkGroupPipeCalls(*body, values.context);
    description.reaches_barrier = lowerWorkItemCalls(*body, values, *marker) &&
                                  dropBarriersAfterCopies(*body, *marker);
    description.static_local_memory =
        lowerLocalVariables(module, *body, values.context);
    bool copies = usesAsyncCopies(*body);
    if (description.reaches_barrier)
      description.split_at_barriers = buildRegionGroupEntry(
          module, *body, *marker, description, description.split_failure);
    lowerBarriersToSwitches(*body, *marker);
    GroupEntryPlan plan;
    llvm::Function *leader = body;
    bool pipe_followers =
        pipes && !description.reaches_barrier && pipeFollowersApply(*body);
    if ((copies || pipe_followers) && !description.reaches_barrier)
      plan.follower = makeFollowerBody(*body, pipe_followers);
    if (pipe_followers) {
      // The work-item entry (checking mode) keeps the general scheme.
      leader = cloneBody(*body, ".leader");
      makePipeLeaderCode(*leader);
      plan.pipe_commits = true;
    } else if (plan.follower) {
      plan.prologue = makeCopyPrologue(*body);
    }
    // A body with a loop of its own is widened here: LLVM's loop vectorizer
    // would leave the loop over work-items scalar.
    if (!description.reaches_barrier && !plan.follower && !pipes) {
      std::string why;
      plan.simd = vectorizeWorkItems(*body, why);
      description.work_item_vectorization =
          plan.simd ? "widened " + std::to_string(kVectorWidth) +
                          " work-items at a time"
                    : "left to LLVM's loop vectorizer: " + why;
    } else if (!description.reaches_barrier) {
      description.work_item_vectorization =
          "left to LLVM's loop vectorizer: async copies or work-group pipe "
          "reservations";
    }
    plan.symbol = groupEntrySymbol(description.name);
    if (!description.split_at_barriers)
      buildGroupEntry(module, *leader, description, plan);
    if (plan.prologue)
      buildReadThroughEntry(module, *body, description);
    // Kernels with async copies also get a work-item entry: the checking
    // mode runs their work-items one by one to see each one's calls.
    if (description.reaches_barrier || copies)
      buildWorkItemEntry(module, *body, description);
    kernels.push_back(std::move(description));
  }
  for (llvm::Function *kernel : sources) {
    kernel->replaceAllUsesWith(llvm::PoisonValue::get(kernel->getType()));
    kernel->eraseFromParent();
  }
  marker->eraseFromParent();
  // The copy engine stayed a call so the follower bodies could find it; now
  // the optimizer may inline it.
  for (const char *engine : {kAsyncCopyEngine, kWaitEngine})
    if (llvm::Function *f = module.getFunction(engine))
      f->removeFnAttr(llvm::Attribute::NoInline);
  allowInliningWorkGroupPipeCalls(module);

  // The group-aware builtins now live inside the kernels.
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
  // A query left anywhere else would read no context: refuse it.
  for (const auto &[name, lowering] : workItemQueries()) {
    llvm::Function *f = module.getFunction(name);
    if (f && !f->use_empty()) {
      error = "work-item function " + name +
              " is called from code Weft could not inline into a kernel";
      return false;
    }
  }
  return true;
}

} // namespace weft::compiler
