// widenRegion: a region of weft-barrier-regions written out as a work-item
// function and widened by weft-widen-work-items' vectorizer.
#include "compiler/passes/kernels/region_widening.h"

#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/kernels/work_item_vectorizer.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <algorithm>

namespace weft::compiler {

using llvm::BasicBlock;
using llvm::Value;

namespace {

// For IR tests of the scalar regions' mechanics (what is saved where):
// weft-opt -weft-widen-regions=false.
llvm::cl::opt<bool> widen_regions(
    "weft-widen-regions", llvm::cl::Hidden, llvm::cl::init(true),
    llvm::cl::desc("widen regions with loops across work-items"));

// Variables larger than this stay on the loop over single work-items: a
// private copy of each per lane would be copied in and out at every run.
constexpr uint64_t kMostVariableBytes = 1024;

// Whether some instruction of `blocks` may write memory through `alloca`
// (anything but a load of it, or an address computed from it that only
// loads use, counts).
bool writtenIn(llvm::AllocaInst &alloca,
               const llvm::SmallPtrSetImpl<BasicBlock *> &blocks) {
  std::vector<const Value *> pending = {&alloca};
  llvm::SmallPtrSet<const Value *, 8> seen;
  while (!pending.empty()) {
    const Value *pointer = pending.back();
    pending.pop_back();
    if (!seen.insert(pointer).second)
      continue;
    for (const llvm::User *user : pointer->users()) {
      auto *inst = llvm::dyn_cast<llvm::Instruction>(user);
      if (!inst || !blocks.count(inst->getParent()))
        continue;
      if (llvm::isa<llvm::LoadInst>(inst))
        continue;
      if (llvm::isa<llvm::GetElementPtrInst>(inst) ||
          llvm::isa<llvm::CastInst>(inst)) {
        pending.push_back(inst);
        continue;
      }
      return true; // a store, a call, a select or phi of addresses, ...
    }
  }
  return false;
}

// Whether a loop lies wholly within `blocks` (a loop with a barrier in it
// passes through several regions, and is no loop of any).
bool hasLoop(llvm::LoopInfo &loops,
             const llvm::SmallPtrSetImpl<BasicBlock *> &blocks) {
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    if (llvm::all_of(loop->blocks(),
                     [&](BasicBlock *block) { return blocks.count(block); }))
      return true;
  return false;
}

} // namespace

WidenedRegion widenRegion(llvm::Function &work, const Regions &regions,
                          unsigned r, const GroupEntryValues &values,
                          const RegionStorage &storage,
                          const std::vector<llvm::AllocaInst *> &shared,
                          const std::vector<llvm::AllocaInst *> &per_item,
                          const std::vector<bool> &uniform,
                          const uint64_t required_size[3],
                          std::string &why,
                          std::string &how) {
  WidenedRegion result;
  why.clear();
  if (!widen_regions)
    return result;
  const std::vector<BasicBlock *> &blocks = regions.blocks[r];
  llvm::SmallPtrSet<BasicBlock *, 32> in_region(blocks.begin(), blocks.end());
  {
    llvm::DominatorTree dominators(work);
    llvm::LoopInfo loops(dominators);
    if (!hasLoop(loops, in_region)) {
      why.clear(); // LLVM's loop vectorizer covers it
      return result;
    }
  }
  if (makesAsyncCopies(blocks) || asksLastInGroup(blocks)) {
    why = "async copies or a work-group collective";
    return result;
  }
  // The variables the region uses.
  llvm::SmallPtrSet<Value *, 16> used;
  for (BasicBlock *block : blocks)
    for (llvm::Instruction &inst : *block)
      for (Value *operand : inst.operands())
        if (llvm::isa<llvm::AllocaInst>(operand))
          used.insert(operand);
  llvm::Module &module = *work.getParent();
  const llvm::DataLayout &layout = module.getDataLayout();
  for (Value *variable : used)
    if (llvm::cast<llvm::AllocaInst>(variable)
            ->getAllocationSize(layout)
            ->getFixedValue() > kMostVariableBytes) {
      why = "a private variable larger than " +
            std::to_string(kMostVariableBytes) + " bytes";
      return result;
    }

  // The function: (kernel arguments..., states, size x, size y, one address
  // per per-item variable used, context, x, y, z).
  llvm::LLVMContext &ctx = work.getContext();
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type *ptr = llvm::PointerType::get(ctx, 0);
  unsigned kernel_args = static_cast<unsigned>(values.arguments.size());
  std::vector<llvm::Type *> params;
  for (unsigned i = 0; i < kernel_args; ++i)
    params.push_back(work.getArg(i)->getType());
  result.extra = {storage.states, values.local_size[0], values.local_size[1]};
  std::vector<size_t> variables; // indexes into per_item, in parameter order
  for (size_t i = 0; i < per_item.size(); ++i)
    if (used.count(per_item[i])) {
      variables.push_back(i);
      result.extra.push_back(uniform[i] ? storage.uniform_current[i]
                                        : storage.item_bases[i]);
    }
  for (Value *value : result.extra)
    params.push_back(value->getType());
  params.push_back(work.getArg(kernel_args)->getType()); // the context
  params.insert(params.end(), {i64, i64, i64});
  llvm::Function *f = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), params, false),
      llvm::GlobalValue::InternalLinkage,
      work.getName() + ".region" + std::to_string(r), module);
  f->addFnAttrs(
      llvm::AttrBuilder(ctx, work.getAttributes().getFnAttrs()));
  unsigned first_extra = kernel_args;
  unsigned context_arg = kernel_args + unsigned(result.extra.size());

  llvm::ValueToValueMapTy map;
  for (unsigned i = 0; i < kernel_args; ++i)
    map[work.getArg(i)] = f->getArg(i);
  map[work.getArg(kernel_args)] = f->getArg(context_arg);
  for (unsigned d = 0; d < 3; ++d)
    map[work.getArg(kernel_args + 1 + d)] = f->getArg(context_arg + 1 + d);
  Value *id[3] = {f->getArg(context_arg + 1), f->getArg(context_arg + 2),
                  f->getArg(context_arg + 3)};
  // With a required size, each local id's range: CLBlast's
  // `(x + 8 * y) % 8` is then x, and its tile loads are contiguous rather
  // than gathers.
  for (unsigned d = 0; d < 3; ++d)
    if (required_size[d])
      f->addParamAttr(context_arg + 1 + d,
                      llvm::Attribute::get(
                          ctx, llvm::Attribute::Range,
                          llvm::ConstantRange(llvm::APInt(64, 0),
                                              llvm::APInt(64, required_size[d]))));

  auto *entry = BasicBlock::Create(ctx, "region_entry", f);
  auto *leave = BasicBlock::Create(ctx, "region_leave", f);
  llvm::IRBuilder<> b(entry);
  Value *size_x = f->getArg(first_extra + 1), *size_y = f->getArg(first_extra + 2);
  Value *linear = b.CreateAdd(
      b.CreateMul(b.CreateAdd(b.CreateMul(id[2], size_y), id[1]), size_x),
      id[0], "linear");
  auto privateCopy = [&](llvm::AllocaInst *variable) {
    llvm::AllocaInst *copy =
        b.CreateAlloca(variable->getAllocatedType(), nullptr,
                       variable->getName() + ".lane");
    copy->setAlignment(variable->getAlign());
    return copy;
  };
  for (llvm::AllocaInst *variable : shared)
    if (used.count(variable))
      map[variable] = privateCopy(variable);
  // A work-item's own variables: loaded whole at the start; written back at
  // the end when the region may change them. Once the copies are registers
  // (SROA, after the loops indexing them unrolled), the loads and stores are
  // the only memory traffic they cost.
  std::vector<std::pair<llvm::AllocaInst *, Value *>> write_back;
  for (size_t v = 0; v < variables.size(); ++v) {
    size_t i = variables[v];
    llvm::AllocaInst *variable = per_item[i];
    llvm::AllocaInst *copy = privateCopy(variable);
    map[variable] = copy;
    uint64_t bytes = variable->getAllocationSize(layout)->getFixedValue();
    Value *home = f->getArg(first_extra + 3 + unsigned(v));
    if (!uniform[i])
      home = b.CreateInBoundsGEP(
          b.getInt8Ty(), home,
          b.CreateMul(linear, b.getInt64(storage.item_strides[i])));
    b.CreateMemCpy(copy, variable->getAlign(), home, variable->getAlign(),
                   bytes);
    // A group-uniform variable's run leaves its value through the region's
    // uniform slice (RegionEmitter::emitUniformSlice), not the work-items.
    if (!uniform[i] && writtenIn(*variable, in_region))
      write_back.push_back({copy, home});
  }

  // Leaving through barrier k resumes at region k+1; returning finishes.
  llvm::PHINode *resume = nullptr;
  bool one_way_out = regions.only_exit[r].has_value();
  {
    llvm::IRBuilder<> out(leave);
    if (!one_way_out)
      resume = out.CreatePHI(out.getInt32Ty(), 2, "resume_state");
    for (auto &[copy, home] : write_back)
      out.CreateMemCpy(home, copy->getAlign(), copy, copy->getAlign(),
                       copy->getAllocationSize(layout)->getFixedValue());
    if (resume)
      out.CreateStore(resume, out.CreateInBoundsGEP(out.getInt32Ty(),
                                                    f->getArg(first_extra),
                                                    linear));
    out.CreateRetVoid();
  }
  auto leaveFor = [&](uint32_t next, const std::string &name) {
    auto *block = BasicBlock::Create(ctx, name, f, leave);
    llvm::BranchInst::Create(leave, block);
    if (resume)
      resume->addIncoming(b.getInt32(next), block);
    return block;
  };
  for (BasicBlock *block : blocks)
    for (BasicBlock *successor : llvm::successors(block)) {
      auto barrier = regions.barrier_index.find(successor);
      if (barrier != regions.barrier_index.end() && !map.count(successor))
        map[successor] =
            leaveFor(barrier->second + 1,
                     "to_region" + std::to_string(barrier->second + 1));
    }
  BasicBlock *finished =
      leaveFor(static_cast<uint32_t>(regions.starts.size()), "finished");
  std::vector<BasicBlock *> copies;
  for (BasicBlock *block : blocks) {
    BasicBlock *copy = llvm::CloneBasicBlock(block, map, "", f);
    map[block] = copy;
    copies.push_back(copy);
  }
  llvm::remapInstructionsInBlocks(copies, map);
  b.CreateBr(copies.front());
  for (BasicBlock *copy : copies) {
    for (llvm::PHINode &phi : llvm::make_early_inc_range(copy->phis()))
      for (unsigned i = phi.getNumIncomingValues(); i-- > 0;)
        if (phi.getIncomingBlock(i)->getParent() != f)
          phi.removeIncomingValue(i, false);
    if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(copy->getTerminator())) {
      ret->eraseFromParent();
      llvm::BranchInst::Create(finished, copy);
    }
  }
  // The loop over single work-items a region otherwise runs on is not the
  // innermost one (the region has a loop), so LLVM's loop vectorizer leaves
  // it scalar: gathers without AVX-512 still beat that (CLBlast's
  // XgemmDirect on a Zen 3: 2.5x).
  WideningLimits limits;
  if (required_size[0])
    limits.most_lanes =
        static_cast<unsigned>(llvm::PowerOf2Ceil(required_size[0]));
  limits.gathers_pay = true;
  result.simd = vectorizeWorkItems(*f, why, how, limits);
  if (result.simd)
    if (llvm::Function *narrow = module.getFunction(
            (f->getName() + kNarrowWidenedSuffix).str()))
      result.narrow_simd = narrow;
  f->eraseFromParent();
  if (!result.simd)
    result.extra.clear();
  return result;
}

} // namespace weft::compiler
