#include "compiler/passes/kernels/async_copy_read_through.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/kernels/async_copy_followers.h"
#include "compiler/passes/kernels/work_item_vectorizer.h"

#include "compiler/passes/kernels/async_copy_followers.h"
#include "compiler/support/analysis_managers.h"
#include "compiler/support/standalone_evolution.h"
#include "device/launch_abi.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopRotation.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <set>
#include <vector>

namespace weft::compiler {
namespace {

using llvm::Value;

constexpr unsigned kGlobalAddressSpace = 1, kLocalAddressSpace = 3;

// The largest work-group extent the search for a kernel without
// reqd_work_group_size considers.
constexpr uint64_t kMaxReadThroughGroup = uint64_t(1) << 20;

// __weft_async_copy_for's arguments (builtins/async_copy_engine.c).
enum EngineArgument : unsigned {
  kDestination = 2,
  kSource,
  kElementBytes,
  kPerLine,
  kLines,
  kPlanes,
  kSourceLine,
  kSourcePlane,
  kDestinationLine,
  kDestinationPlane,
  kEvent,
  kFunction,
};

// One copy from global to local memory the loads of its tile can replace.
struct StagingCopy {
  llvm::CallInst *call;
  Value *tile;   // the local pointer the tile's accesses derive from
  Value *source; // the global pointer copied from
  unsigned source_argument = 0; // the buffer argument it points into
  uint64_t element_bytes;
  uint64_t elements;  // copied, all contiguous in the tile
  Value *source_step; // elements between two copied ones in global memory
  std::vector<llvm::LoadInst *> loads;
};

uint64_t constantOr0(Value *v) {
  auto *c = llvm::dyn_cast<llvm::ConstantInt>(v);
  return c ? c->getZExtValue() : 0;
}

// The pointer an integer address argument was made from, if it has
// `address_space`.
Value *pointerBehind(Value *address, unsigned address_space) {
  auto *cast = llvm::dyn_cast<llvm::PtrToIntInst>(address);
  if (!cast || cast->getPointerAddressSpace() != address_space)
    return nullptr;
  return cast->getPointerOperand();
}

// The local pointer `p` is an offset of: the cast that made one kernel-scope
// __local variable, or a __local argument.
Value *tileRoot(Value *p) {
  while (true) {
    if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(p)) {
      p = gep->getPointerOperand();
      continue;
    }
    if (llvm::isa<llvm::AddrSpaceCastInst>(p) || llvm::isa<llvm::Argument>(p))
      return p->getType()->getPointerAddressSpace() == kLocalAddressSpace
                 ? p
                 : nullptr;
    return nullptr;
  }
}

// Collects the loads that read the tile rooted at `root`; false if the tile
// is used any other way than those loads and the copy's own destination.
bool collectTileLoads(Value *root, Value *copy_destination,
                      std::vector<llvm::LoadInst *> &loads) {
  std::vector<Value *> pending{root};
  llvm::SmallPtrSet<Value *, 16> seen;
  while (!pending.empty()) {
    Value *v = pending.back();
    pending.pop_back();
    if (!seen.insert(v).second)
      continue;
    for (llvm::User *user : v->users()) {
      if (llvm::isa<llvm::GetElementPtrInst>(user) ||
          llvm::isa<llvm::AddrSpaceCastInst>(user) ||
          llvm::isa<llvm::BitCastInst>(user)) {
        pending.push_back(user);
        continue;
      }
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
        if (!load->isSimple())
          return false;
        loads.push_back(load);
        continue;
      }
      if (user == copy_destination)
        continue;
      return false;
    }
  }
  return true;
}

// Recognizes `call` as a copy whose tile may be read through, else says why.
bool recognizeStagingCopy(llvm::CallInst *call, unsigned kernel_args,
                          StagingCopy &copy, std::string &why) {
  copy.call = call;
  uint64_t function = constantOr0(call->getArgOperand(kFunction));
  copy.element_bytes = constantOr0(call->getArgOperand(kElementBytes));
  Value *tile =
      pointerBehind(call->getArgOperand(kDestination), kLocalAddressSpace);
  copy.source =
      pointerBehind(call->getArgOperand(kSource), kGlobalAddressSpace);
  if (!tile || !copy.source) {
    why = "a copy from local to global memory";
    return false;
  }
  auto *source_arg =
      llvm::dyn_cast<llvm::Argument>(llvm::getUnderlyingObject(copy.source, 0));
  if (!source_arg || source_arg->getArgNo() >= kernel_args) {
    why = "a copy from a pointer that is not a buffer argument";
    return false;
  }
  copy.source_argument = source_arg->getArgNo();
  bool constant_function =
      llvm::isa<llvm::ConstantInt>(call->getArgOperand(kFunction));
  if (constant_function && function == kAsyncCopy &&
      constantOr0(call->getArgOperand(kLines)) == 1 &&
      constantOr0(call->getArgOperand(kPlanes)) == 1) {
    copy.elements = constantOr0(call->getArgOperand(kPerLine));
    copy.source_step =
        llvm::ConstantInt::get(call->getArgOperand(kPerLine)->getType(), 1);
  } else if (constant_function && function == kAsyncStridedCopy &&
             constantOr0(call->getArgOperand(kPerLine)) == 1 &&
             constantOr0(call->getArgOperand(kPlanes)) == 1 &&
             constantOr0(call->getArgOperand(kDestinationLine)) == 1) {
    copy.elements = constantOr0(call->getArgOperand(kLines));
    copy.source_step = call->getArgOperand(kSourceLine);
  } else {
    why = "a 2-D/3-D copy, or a copy of a size not known when compiling";
    return false;
  }
  if (copy.elements == 0 || copy.element_bytes == 0) {
    why = "a copy of a size not known when compiling";
    return false;
  }
  copy.tile = tileRoot(tile);
  if (!copy.tile ||
      !collectTileLoads(copy.tile, call->getArgOperand(kDestination),
                        copy.loads)) {
    why = "the work-items use a copy's tile other than by reading it";
    return false;
  }
  return true;
}

// Adds the buffer argument `p` writes to `written`; false if `p` may point
// anywhere but private or local memory or a buffer argument.
bool noteWrite(Value *p, unsigned kernel_args, std::set<uint32_t> &written) {
  if (p->getType()->getPointerAddressSpace() == kLocalAddressSpace)
    return true;
  Value *object = llvm::getUnderlyingObject(p, 0);
  if (llvm::isa<llvm::AllocaInst>(object))
    return true;
  auto *arg = llvm::dyn_cast<llvm::Argument>(object);
  if (!arg || arg->getArgNo() >= kernel_args ||
      p->getType()->getPointerAddressSpace() != kGlobalAddressSpace)
    return false;
  written.insert(arg->getArgNo());
  return true;
}

bool isEngine(const llvm::CallInst &call, Builtin engine) {
  return calledBuiltin(call) == engine;
}

// The buffer arguments the work-items write, or false and why not when a
// write may go anywhere else (through a pointer loaded from memory, say).
bool collectWrittenBuffers(llvm::Function &f, unsigned kernel_args,
                           std::set<uint32_t> &written, std::string &why) {
  for (llvm::Instruction &inst : llvm::instructions(f)) {
    if (!inst.mayWriteToMemory() || llvm::isa<llvm::FenceInst>(inst))
      continue;
    Value *target = nullptr;
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
      target = store->getPointerOperand();
    else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
      target = rmw->getPointerOperand();
    else if (auto *cmpxchg = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
      target = cmpxchg->getPointerOperand();
    else if (auto *transfer = llvm::dyn_cast<llvm::AnyMemIntrinsic>(&inst))
      target = transfer->getRawDest();
    else if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
             intrinsic && (intrinsic->isLifetimeStartOrEnd() ||
                           intrinsic->isAssumeLikeIntrinsic()))
      continue;
    else if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
             call && isAsyncCopyCall(*call))
      continue; // the copies are checked one by one
    if (!target) {
      why = "a call that may write memory";
      return false;
    }
    if (!noteWrite(target, kernel_args, written)) {
      why = "a write through a pointer that is not a buffer argument";
      return false;
    }
  }
  return true;
}

// One load of a tile, and its byte offset from the copy's first element.
struct TileRead {
  llvm::LoadInst *load;
  Value *offset;
  uint64_t size;
};

bool contiguous(const StagingCopy &copy) {
  auto *step = llvm::dyn_cast<llvm::ConstantInt>(copy.source_step);
  return step && step->isOne();
}

// The offsets of `copy`'s tile reads, or false if one could never be read
// through: it may come before the global source is known, or read more than
// one element of a strided copy (those are apart in global memory).
bool prepareReads(const StagingCopy &copy,
                  const llvm::DominatorTree &dominators,
                  const llvm::DataLayout &layout,
                  std::vector<TileRead> &reads) {
  uint64_t copied = copy.elements * copy.element_bytes;
  for (llvm::LoadInst *load : copy.loads) {
    uint64_t size = layout.getTypeStoreSize(load->getType());
    for (Value *needed : {copy.source, copy.source_step})
      if (auto *defined = llvm::dyn_cast<llvm::Instruction>(needed))
        if (!dominators.dominates(defined, load))
          return false;
    if (size > copied || (!contiguous(copy) && (size != copy.element_bytes ||
                                                !llvm::isPowerOf2_64(size))))
      return false;
    llvm::IRBuilder<> b(load);
    Value *offset =
        b.CreateSub(b.CreatePtrToInt(load->getPointerOperand(), b.getInt64Ty()),
                    copy.call->getArgOperand(kDestination));
    reads.push_back({load, offset, size});
  }
  return true;
}

// Whether every read provably stays inside the elements its copy wrote when
// local id d is below bounds[d]. A read of local memory the copy did not
// write would need a guard, and a guarded or clamped address is no longer
// consecutive across work-items: the loads would become gathers, slower than
// the copy they save.
bool readsInside(llvm::Function &f, unsigned kernel_args,
                 const std::vector<StagingCopy> &copies,
                 const std::vector<std::vector<TileRead>> &reads,
                 const uint64_t bounds[3]) {
  for (unsigned d = 0; d < 3; ++d) {
    f.removeParamAttr(kernel_args + 1 + d, llvm::Attribute::Range);
    f.addParamAttr(
        kernel_args + 1 + d,
        llvm::Attribute::get(f.getContext(), llvm::Attribute::Range,
                             llvm::ConstantRange(llvm::APInt(64, 0),
                                                 llvm::APInt(64, bounds[d]))));
  }
  // A fresh analysis each time: it caches what it learnt of other bounds.
  llvm::DominatorTree dominators(f);
  llvm::LoopInfo loops(dominators);
  StandaloneEvolution standalone(f, dominators, loops);
  llvm::ScalarEvolution &evolution = standalone.evolution;
  for (size_t c = 0; c < copies.size(); ++c) {
    uint64_t copied = copies[c].elements * copies[c].element_bytes;
    for (const TileRead &read : reads[c]) {
      const llvm::SCEV *scev = evolution.getSCEV(read.offset);
      if (evolution.getUnsignedRangeMax(scev).ugt(copied - read.size) ||
          (!contiguous(copies[c]) &&
           evolution.getMinTrailingZeros(scev) < llvm::Log2_64(read.size)))
        return false;
    }
  }
  return true;
}

// The largest work-group extent under which every read stays inside its
// copy (reads indexed by the local id do, up to a point), 0 if none.
uint64_t largestBound(llvm::Function &f, unsigned kernel_args,
                      const std::vector<StagingCopy> &copies,
                      const std::vector<std::vector<TileRead>> &reads) {
  auto fits = [&](uint64_t bound) {
    const uint64_t bounds[3] = {bound, bound, bound};
    return readsInside(f, kernel_args, copies, reads, bounds);
  };
  if (fits(kMaxReadThroughGroup))
    return kMaxReadThroughGroup;
  uint64_t low = 0, high = kMaxReadThroughGroup; // fits(low), !fits(high)
  while (high - low > 1) {
    uint64_t middle = low + (high - low) / 2;
    (fits(middle) ? low : high) = middle;
  }
  if (low)
    fits(low); // leaves the bound that holds on the local id arguments
  return low;
}

// Replaces each read of `copy`'s tile by a load of the global element the
// tile holds there.
void readThrough(const StagingCopy &copy, const std::vector<TileRead> &reads) {
  for (const TileRead &read : reads) {
    llvm::IRBuilder<> b(read.load);
    // Element k of the tile is element k * step of the source.
    Value *global_offset =
        contiguous(copy)
            ? read.offset
            : b.CreateMul(read.offset, b.CreateZExtOrTrunc(copy.source_step,
                                                           b.getInt64Ty()));
    Value *address = b.CreateGEP(b.getInt8Ty(), copy.source, global_offset);
    // The source is only as aligned as its elements (the tile may be more).
    llvm::Align element_alignment(uint64_t(1)
                                  << llvm::countr_zero(copy.element_bytes));
    llvm::LoadInst *global_load =
        b.CreateAlignedLoad(read.load->getType(), address,
                            std::min(read.load->getAlign(), element_alignment));
    global_load->takeName(read.load);
    read.load->replaceAllUsesWith(global_load);
    read.load->eraseFromParent();
  }
}

// Registers, and the address arithmetic in the shape the checks read.
void simplify(llvm::Function &f) {
  llvm::PassBuilder builder;
  AnalysisManagers analyses(builder);
  llvm::FunctionPassManager passes;
  addCleanupPasses(passes);
  // Rotated, a loop's induction variable ranges over the iterations its
  // body runs, not over one more: what a read in the body can reach.
  passes.addPass(llvm::createFunctionToLoopPassAdaptor(llvm::LoopRotatePass()));
  passes.run(f, analyses.functions);
}

} // namespace

ReadThroughBody makeReadThroughBody(llvm::Function &body, unsigned kernel_args,
                                    const uint64_t required_size[3],
                                    std::string &why) {
  ReadThroughBody result;
  llvm::ValueToValueMapTy map;
  llvm::Function *clone = llvm::CloneFunction(&body, map);
  clone->setName(body.getName() + kReadThroughSuffix);
  simplify(*clone);

  std::vector<StagingCopy> copies;
  std::set<llvm::Value *> tiles;
  std::set<uint32_t> sources, written;
  bool ok = collectWrittenBuffers(*clone, kernel_args, written, why);
  for (llvm::Instruction &inst : llvm::instructions(*clone)) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
    if (!ok || !call || !isEngine(*call, Builtin::AsyncCopyEngine))
      continue;
    StagingCopy copy;
    ok = recognizeStagingCopy(call, kernel_args, copy, why);
    if (ok && !tiles.insert(copy.tile).second) {
      why = "two copies into one tile";
      ok = false;
    }
    if (ok) {
      sources.insert(copy.source_argument);
      if (written.count(copy.source_argument)) {
        why = "the kernel writes the buffer it copies from";
        ok = false;
      }
    }
    copies.push_back(std::move(copy));
  }
  if (ok && copies.empty()) {
    why = "no copy";
    ok = false;
  }
  llvm::DominatorTree dominators(*clone);
  const llvm::DataLayout &layout = body.getParent()->getDataLayout();
  std::vector<std::vector<TileRead>> reads(copies.size());
  for (size_t c = 0; ok && c < copies.size(); ++c)
    if (!prepareReads(copies[c], dominators, layout, reads[c])) {
      why = "a read of a tile wider than a copied element, or before the copy";
      ok = false;
    }
  if (ok) {
    if (required_size[0]) {
      ok = readsInside(*clone, kernel_args, copies, reads, required_size);
    } else {
      result.max_local_size = largestBound(*clone, kernel_args, copies, reads);
      ok = result.max_local_size != 0;
    }
    if (!ok)
      why = "a read of a tile not provably inside the copied elements";
  }
  if (ok)
    for (size_t c = 0; c < copies.size(); ++c)
      readThrough(copies[c], reads[c]);
  if (!ok) {
    clone->eraseFromParent();
    return result;
  }
  std::vector<llvm::BasicBlock *> blocks;
  for (llvm::BasicBlock &block : *clone)
    blocks.push_back(&block);
  makeFollowerCode(blocks); // the copies and the waits go
  result.body = clone;
  result.sources.assign(sources.begin(), sources.end());
  result.written.assign(written.begin(), written.end());
  return result;
}

llvm::PreservedAnalyses
AsyncCopyReadThroughPass::run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &) {
  std::vector<KernelRecord> records = readKernelRecords(module);
  bool changed = false;
  for (KernelRecord &record : records) {
    KernelDescription &kernel = record.description;
    if (!record.body || !kernel.plan.read_through)
      continue;
    std::string why;
    ReadThroughBody read_through =
        makeReadThroughBody(*record.body, kernel.arguments.size(),
                            kernel.reqd_work_group_size, why);
    if (!read_through.body) {
      kernel.plan.read_through = false;
      kernel.plan.read_through_note = "copies stay copies: " + why;
      continue;
    }
    changed = true;
    // The entry steps through a widened body when the vectorizer takes it.
    std::string ignored, ignored_lanes;
    vectorizeWorkItems(*read_through.body, ignored, ignored_lanes);
    kernel.read_through_sources = std::move(read_through.sources);
    kernel.written_buffers = std::move(read_through.written);
    kernel.read_through_max_local_size = read_through.max_local_size;
    kernel.plan.read_through_note =
        "tiles read from global memory when the buffers copied from and "
        "those written do not overlap";
    if (read_through.max_local_size)
      kernel.plan.read_through_note +=
          " and work-groups are at most " +
          std::to_string(read_through.max_local_size) + " in each dimension";
  }
  writeKernelRecords(module, records);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
