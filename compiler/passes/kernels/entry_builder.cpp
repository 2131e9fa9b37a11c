#include "compiler/passes/kernels/entry_builder.h"

#include "compiler/analysis/work_item_loops.h"
#include "compiler/passes/kernels/context_access.h"
#include "compiler/passes/kernels/work_group_pipes.h"
#include "compiler/passes/kernels/work_item_vectorizer.h"
#include "device/image_abi.h"

#include <llvm/IR/Module.h>

#include <cstddef>

namespace weft::compiler {
namespace {

using llvm::IRBuilder;
using llvm::Value;

// An image argument is the address of the image's WeftImage, which stays
// put for the launch: saying so lets LLVM load the description's fields
// once per group instead of once per work-item (speculatively, ahead of the
// branches that use them).
void describeImagePointer(llvm::LoadInst &load) {
  llvm::LLVMContext &ctx = load.getContext();
  auto bytes = [&](uint64_t n) {
    return llvm::MDNode::get(
        ctx, llvm::ConstantAsMetadata::get(
                 llvm::ConstantInt::get(llvm::Type::getInt64Ty(ctx), n)));
  };
  load.setMetadata(llvm::LLVMContext::MD_nonnull, llvm::MDNode::get(ctx, {}));
  load.setMetadata(llvm::LLVMContext::MD_dereferenceable,
                   bytes(sizeof(WeftImage)));
  load.setMetadata(llvm::LLVMContext::MD_align, bytes(alignof(WeftImage)));
  load.setMetadata(llvm::LLVMContext::MD_invariant_load,
                   llvm::MDNode::get(ctx, {}));
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
      auto *load = b.CreateAlignedLoad(param->getType(), slot,
                                       llvm::Align(arg.alignment));
      if (arg.kind == ArgumentKind::Image)
        describeImagePointer(*load);
      value = load;
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

} // namespace

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

// void group(const void *block, WorkGroupContext *context): three nested
// loops over the local ids, the innermost over x so it vectorizes.
void buildGroupLoopEntry(llvm::Module &module, llvm::Function &body,
                         const KernelDescription &kernel,
                         const GroupLoop &plan) {
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
  llvm::BasicBlock *back_from = headers[0];
  if (plan.simd) {
    // A chunk whose `lanes` work-items all exist runs with that
    // constant count: once inlined, its lanes are all active, and the
    // widened body's masks fold away where they stay the entry's (loops
    // every work-item goes round as often: work_item_vectorizer.cpp). A
    // row's last, partial chunk runs with the count left.
    auto callSimd = [&](Value *count, llvm::Function *simd = nullptr,
                        Value *x = nullptr) {
      std::vector<Value *> call_args = args;
      call_args.insert(call_args.end(),
                       {context, x ? x : phis[0], phis[1], phis[2], count});
      b.CreateCall(simd ? simd : plan.simd, call_args);
    };
    uint64_t lanes = widenedLanes(*plan.simd);
    auto *full = llvm::BasicBlock::Create(ctx, "full_chunk", entry, exit);
    auto *partial = llvm::BasicBlock::Create(ctx, "partial_chunk", entry, exit);
    Value *left = b.CreateSub(sizes[0], phis[0], "left");
    b.CreateCondBr(b.CreateICmpUGE(left, b.getInt64(lanes)), full,
                   partial);
    b.SetInsertPoint(full);
    callSimd(b.getInt64(lanes));
    next_x = b.CreateAdd(phis[0], b.getInt64(lanes), "", true, true);
    b.CreateCondBr(b.CreateICmpULT(next_x, sizes[0]), headers[0], latches[0]);
    back_from = full;
    b.SetInsertPoint(partial);
    if (!plan.narrow_simd) {
      callSimd(left);
      b.CreateBr(latches[0]);
    } else {
      // The rest of the row, narrow chunk by narrow chunk.
      uint64_t narrow = widenedLanes(*plan.narrow_simd);
      auto *rest = llvm::BasicBlock::Create(ctx, "narrow_chunk", entry, exit);
      b.CreateBr(rest);
      b.SetInsertPoint(rest);
      llvm::PHINode *x = b.CreatePHI(b.getInt64Ty(), 2, "narrow_x");
      x->addIncoming(phis[0], partial);
      Value *rest_left = b.CreateSub(sizes[0], x);
      Value *count = b.CreateSelect(
          b.CreateICmpULT(rest_left, b.getInt64(narrow)), rest_left,
          b.getInt64(narrow));
      callSimd(count, plan.narrow_simd, x);
      Value *next = b.CreateAdd(x, b.getInt64(narrow), "", true, true);
      x->addIncoming(next, rest);
      b.CreateCondBr(b.CreateICmpULT(next, sizes[0]), rest, latches[0]);
    }
  } else {
    callBody(loop_body, phis[0], phis[1], phis[2]);
    next_x = b.CreateAdd(phis[0], b.getInt64(1), "", true, true);
    // The loop vectorizer's tail stays a scalar loop: folding it into masks
    // makes every vector iteration masked, measured slower on AMD and Intel
    // alike (bench/RESULTS.md, session 9).
    llvm::BranchInst *back_edge = b.CreateCondBr(
        b.CreateICmpULT(next_x, sizes[0]), headers[0], latches[0]);
    markWorkItemLoop(*back_edge);
    if (body.hasFnAttribute(kScalarWorkItemLoopAttribute))
      markNotVectorized(*back_edge);
  }
  phis[0]->addIncoming(next_x, back_from);
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

} // namespace weft::compiler
