// widenRegion: a region of weft-barrier-regions written out as a work-item
// function and widened by weft-widen-work-items' vectorizer.
#include "compiler/passes/kernels/region_widening.h"

#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/kernels/widening_checks.h"
#include "compiler/passes/kernels/work_item_vectorizer.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
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

// A region without a loop of its own is widened when its group's required
// x extent is at least this (narrower rows gain little from lanes).
constexpr uint64_t kShortestWidenedRow = 4;

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

// The widened function's narrow companion, when vectorizeWorkItems wrote
// one for `f`.
llvm::Function *narrowOf(llvm::Function &f) {
  return f.getParent()->getFunction((f.getName() + kNarrowWidenedSuffix).str());
}

// How many gathers and scatters `f` makes.
unsigned scattered(llvm::Function &f) {
  unsigned count = 0;
  for (llvm::BasicBlock &block : f)
    for (llvm::Instruction &inst : block)
      if (const auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
        count += call->getIntrinsicID() == llvm::Intrinsic::masked_gather ||
                 call->getIntrinsicID() == llvm::Intrinsic::masked_scatter;
  return count;
}

// Writes region `r` as a work-item function: (kernel arguments..., states,
// size x, size y, one address per variable used, [the chunk's first x,]
// context, x, y, z).
struct RegionFunction {
  const RegionKernel &kernel;
  unsigned r;
  const std::vector<size_t> &variables;
  const llvm::SmallPtrSetImpl<Value *> &used;
  const llvm::SmallPtrSetImpl<BasicBlock *> &in_region;

  // The group entry's values for the parameters between the kernel's
  // arguments and the context (but the chunk's first x).
  std::vector<Value *> extra() const {
    const RegionStorage &storage = kernel.storage;
    const GroupEntryValues &values = kernel.values;
    std::vector<Value *> values_in = {storage.states, values.local_size[0],
                                      values.local_size[1]};
    for (size_t i : variables)
      values_in.push_back(kernel.uniform[i] ? storage.uniform_current[i]
                                            : storage.item_bases[i]);
    return values_in;
  }

  // `alike` (indexes into `variables`): those whose start value is read
  // from the chunk's first work-item.
  llvm::Function *write(const std::vector<size_t> &alike) const {
    llvm::Function &work = kernel.work;
    const Regions &regions = kernel.regions;
    const GroupEntryValues &values = kernel.values;
    const RegionStorage &storage = kernel.storage;
    const std::vector<llvm::AllocaInst *> &per_item = kernel.per_item;
    const std::vector<bool> &uniform = kernel.uniform;
    const uint64_t *required_size = kernel.required_size;
    llvm::Module &module = *work.getParent();
    const llvm::DataLayout &layout = module.getDataLayout();
    llvm::LLVMContext &ctx = work.getContext();
    llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
    unsigned kernel_args = static_cast<unsigned>(values.arguments.size());
    std::vector<llvm::Type *> params;
    for (unsigned i = 0; i < kernel_args; ++i)
      params.push_back(work.getArg(i)->getType());
    std::vector<Value *> extras = extra();
    for (Value *value : extras)
      params.push_back(value->getType());
    if (!alike.empty())
      params.push_back(i64); // the chunk's first x
    unsigned first_extra = kernel_args;
    unsigned context_arg = unsigned(params.size());
    params.push_back(work.getArg(kernel_args)->getType());
    params.insert(params.end(), {i64, i64, i64});
    llvm::Function *f = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), params, false),
        llvm::GlobalValue::InternalLinkage,
        work.getName() + ".region" + std::to_string(r) +
            (alike.empty() ? "" : ".alike"),
        module);
    f->addFnAttrs(llvm::AttrBuilder(ctx, work.getAttributes().getFnAttrs()));

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
        f->addParamAttr(
            context_arg + 1 + d,
            llvm::Attribute::get(
                ctx, llvm::Attribute::Range,
                llvm::ConstantRange(llvm::APInt(64, 0),
                                    llvm::APInt(64, required_size[d]))));

    auto *entry = BasicBlock::Create(ctx, "region_entry", f);
    auto *leave = BasicBlock::Create(ctx, "region_leave", f);
    llvm::IRBuilder<> b(entry);
    Value *size_x = f->getArg(first_extra + 1);
    Value *size_y = f->getArg(first_extra + 2);
    Value *row = b.CreateMul(b.CreateAdd(b.CreateMul(id[2], size_y), id[1]),
                             size_x);
    Value *linear = b.CreateAdd(row, id[0], "linear");
    Value *chunk_linear =
        alike.empty() ? nullptr
                      : b.CreateAdd(row, f->getArg(context_arg - 1),
                                    "chunk_linear");
    auto privateCopy = [&](llvm::AllocaInst *variable) {
      llvm::AllocaInst *copy =
          b.CreateAlloca(variable->getAllocatedType(), nullptr,
                         variable->getName() + ".lane");
      copy->setAlignment(variable->getAlign());
      return copy;
    };
    for (llvm::AllocaInst *variable : kernel.shared)
      if (used.count(variable))
        map[variable] = privateCopy(variable);
    // A work-item's own variables: loaded whole at the start; written back
    // at the end when the region may change them. Once the copies are
    // registers (SROA, after the loops indexing them unrolled), the loads
    // and stores are the only memory traffic they cost.
    std::vector<std::pair<llvm::AllocaInst *, Value *>> write_back;
    for (size_t v = 0; v < variables.size(); ++v) {
      size_t i = variables[v];
      llvm::AllocaInst *variable = per_item[i];
      llvm::AllocaInst *copy = privateCopy(variable);
      map[variable] = copy;
      uint64_t bytes = variable->getAllocationSize(layout)->getFixedValue();
      Value *base = f->getArg(first_extra + 3 + unsigned(v));
      Value *home = base, *from = base;
      if (!uniform[i]) {
        auto slotOf = [&](Value *item) {
          return b.CreateInBoundsGEP(
              b.getInt8Ty(), base,
              b.CreateMul(item, b.getInt64(storage.item_strides[i])));
        };
        home = from = slotOf(linear);
        if (std::find(alike.begin(), alike.end(), v) != alike.end())
          from = slotOf(chunk_linear);
      }
      b.CreateMemCpy(copy, variable->getAlign(), from, variable->getAlign(),
                     bytes);
      // A group-uniform variable's run leaves its value through the
      // region's uniform slice (RegionEmitter::emitUniformSlice), not the
      // work-items.
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
    const std::vector<BasicBlock *> &blocks = regions.blocks[r];
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
      if (auto *ret =
              llvm::dyn_cast<llvm::ReturnInst>(copy->getTerminator())) {
        ret->eraseFromParent();
        llvm::BranchInst::Create(finished, copy);
      }
    }
    return f;
  }
};

} // namespace

WidenedRegion widenRegion(const RegionKernel &kernel, unsigned r,
                          std::string &why, std::string &how) {
  llvm::Function &work = kernel.work;
  const Regions &regions = kernel.regions;
  const RegionStorage &storage = kernel.storage;
  const std::vector<llvm::AllocaInst *> &per_item = kernel.per_item;
  const std::vector<bool> &uniform = kernel.uniform;
  const uint64_t *required_size = kernel.required_size;
  WidenedRegion result;
  why.clear();
  if (!widen_regions)
    return result;
  const std::vector<BasicBlock *> &blocks = regions.blocks[r];
  llvm::SmallPtrSet<BasicBlock *, 32> in_region(blocks.begin(), blocks.end());
  bool without_loops = false; // widened for its required row width
  bool loopless_vectors = false; // no loop, but computes in vector types
  // Sub-group exchanges: a chunk of lanes is a sub-group, whatever pays.
  bool sub_groups = exchangesInSubGroups(blocks);
  if (sub_groups)
    without_loops = true;
  else {
    llvm::DominatorTree dominators(work);
    llvm::LoopInfo loops(dominators);
    if (!hasLoop(loops, in_region)) {
      // LLVM's loop vectorizer covers the loop over the row's work-items,
      // unless the row is a required width: it leaves rows of 8 scalar
      // (CLBlast's Xgemm loading its tiles, 8 work-items wide: half its
      // time on a Zen 3 went there), and the widener fits the row exactly;
      // or unless the work-items compute in vector types, which it leaves
      // scalar too.
      bool in_vectors =
          llvm::any_of(blocks, [](const BasicBlock *block) {
            return computesInVectors(*block);
          });
      if (required_size[0] >= kShortestWidenedRow)
        without_loops = true;
      else if (in_vectors)
        loopless_vectors = true;
      else
        return result; // no why: left to LLVM's loop vectorizer
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

  // Integer variables of the work-items' own that may hold one value for
  // the whole chunk at run time (a loop counter kept across barriers under
  // a branch the uniformity analysis cannot prove every work-item takes,
  // as CLBlast's `kwg`): read from the chunk's first work-item, they are
  // uniform to the widener, and the addresses computed from them are no
  // gathers.
  std::vector<size_t> variables; // indexes into per_item, in parameter order
  std::vector<size_t> alike;     // those of `variables` that may be alike
  for (size_t i = 0; i < per_item.size(); ++i)
    if (used.count(per_item[i])) {
      if (!uniform[i] && per_item[i]->getAllocatedType()->isIntegerTy())
        alike.push_back(variables.size());
      variables.push_back(i);
    }
  RegionFunction outline{kernel, r, variables, used, in_region};
  // The loop over single work-items a region otherwise runs on is not the
  // innermost one (the region has a loop), so LLVM's loop vectorizer leaves
  // it scalar: gathers without AVX-512 still beat that (CLBlast's
  // XgemmDirect on a Zen 3: 2.5x). A region without loops in vector types
  // is judged as a kernel without loops is: there one work-item's vectors
  // at a time beat gathers without AVX-512.
  WideningLimits limits;
  if (required_size[0])
    limits.most_lanes =
        static_cast<unsigned>(llvm::PowerOf2Ceil(required_size[0]));
  limits.gathers_pay = !loopless_vectors;
  limits.without_loops = without_loops;
  if (sub_groups)
    limits.sub_group_lanes = kernel.sub_group_size;
  // A version for chunks alike reads those variables once, and its loops
  // gather less: both versions keep the width it pays (they run at one).
  limits.narrow_for_gathers = alike.empty();
  llvm::Function *f = outline.write({});
  result.simd = vectorizeWorkItems(*f, why, how, limits);
  result.narrow_simd = narrowOf(*f);
  f->eraseFromParent();
  if (!result.simd)
    return result;
  result.extra = outline.extra();
  if (!alike.empty()) {
    llvm::Function *g = outline.write(alike);
    std::string alike_why, alike_how;
    llvm::Function *simd = vectorizeWorkItems(*g, alike_why, alike_how, limits);
    llvm::Function *narrow = narrowOf(*g);
    g->eraseFromParent();
    if (simd && scattered(*simd) < scattered(*result.simd) &&
        widenedLanes(*simd) == widenedLanes(*result.simd) &&
        !narrow == !result.narrow_simd) {
      result.alike_simd = simd;
      result.alike_narrow_simd = narrow;
      for (size_t v : alike) {
        size_t i = variables[v];
        result.alike.push_back({storage.item_bases[i],
                                per_item[i]->getAllocatedType()});
      }
      how += ", a version for chunks whose work-items hold the same " +
             std::to_string(alike.size()) + " integer variable(s)";
    } else {
      for (llvm::Function *unused : {simd, narrow})
        if (unused)
          unused->eraseFromParent();
    }
  }
  return result;
}

} // namespace weft::compiler
