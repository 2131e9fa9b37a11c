// weft-widen-work-items: vectorizeWorkItems, which runs the checks
// (widening_checks.h) and, when they pass, the Widener (widener.h); and the
// pass, which gives the kernels planned as Widened their body.simd.
#include "compiler/passes/kernels/work_item_vectorizer.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/kernels/fiber_barriers.h"
#include "compiler/passes/kernels/next_tile_prefetches.h"
#include "compiler/passes/kernels/widener.h"
#include "compiler/passes/kernels/widening_checks.h"
#include "compiler/passes/kernels/widening_width.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <stdexcept>
#include <vector>

namespace weft::compiler {

using llvm::Instruction;

namespace {

// Writes the widened form of `scalar` (the prepared copy of `body`) at
// `lanes` work-items into a new function named body + `suffix`, with the
// parameters (kernel arguments..., context, first x, y, z, count). The
// function is checked before anything calls it: a shape the widener
// mishandles costs speed, never a wrong or crashing kernel. Null when it
// failed.
llvm::Function *widenInto(llvm::Function &body, llvm::Function &scalar,
                          llvm::LoopInfo &loops, llvm::StringRef suffix,
                          unsigned lanes, bool rows, bool sub_groups = false) {
  unsigned kernel_args = body.arg_size() - 4;
  std::vector<llvm::Type *> params;
  for (unsigned i = 0; i <= kernel_args; ++i)
    params.push_back(body.getArg(i)->getType());
  llvm::Type *i64 = llvm::Type::getInt64Ty(body.getContext());
  params.insert(params.end(), {i64, i64, i64, i64});
  llvm::Function *vector = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(body.getContext()), params,
                              false),
      llvm::GlobalValue::InternalLinkage, body.getName() + suffix,
      body.getParent());
  vector->addFnAttrs(llvm::AttrBuilder(body.getContext(),
                                       body.getAttributes().getFnAttrs()));
  vector->addFnAttr(kLanesAttribute, std::to_string(lanes));
  bool widened = true;
  try {
    Widener widener(scalar, loops, *vector, kernel_args, lanes, rows);
    if (sub_groups)
      widener.chunksAreSubGroups();
    widener.run();
  } catch (const std::out_of_range &) {
    widened = false; // a value or edge it never reached
  }
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (!widened || llvm::verifyFunction(*vector, &out)) {
    vector->eraseFromParent();
    return nullptr;
  }
  return vector;
}

} // namespace

unsigned widenedLanes(const llvm::Function &simd) {
  unsigned lanes = kDefaultLanes;
  simd.getFnAttribute(kLanesAttribute).getValueAsString().getAsInteger(10,
                                                                       lanes);
  return lanes;
}

llvm::Function *vectorizeWorkItems(llvm::Function &body, std::string &why,
                                   std::string &how,
                                   const WideningLimits &limits) {
  llvm::ValueToValueMapTy map;
  llvm::Function *scalar = llvm::CloneFunction(&body, map);
  prepareForWidening(*scalar, true);
  bool in_vectors = computesInVectors(*scalar); // builtins inlined
  std::string split_why;
  bool whole_vectors = keepsVectorsWhole(
      *scalar, scalar->getArg(body.arg_size() - 3), split_why);
  if (!whole_vectors) {
    scalar->eraseFromParent();
    map.clear();
    scalar = llvm::CloneFunction(&body, map);
    prepareForWidening(*scalar, false);
  }
  llvm::DominatorTree dominators(*scalar);
  llvm::LoopInfo loops(dominators);
  bool ok = true;
  // Without loops of its own, the work-item loop is LLVM's to vectorize,
  // unless the work-items compute in vector types, which it leaves scalar.
  bool sub_groups = limits.sub_group_lanes != 0;
  if (loops.empty() && !limits.without_loops && !in_vectors && !sub_groups &&
      !storesToOneAddressConditionally(
                           *scalar, scalar->getArg(body.arg_size() - 3))) {
    why = "no loop in the work-item (the loop over work-items left to LLVM's "
          "loop vectorizer)";
    ok = false;
  }
  for (Instruction &inst : llvm::instructions(*scalar))
    if (ok && (llvm::isa<llvm::AllocaInst>(inst) ||
               !supportedInstruction(inst, why, whole_vectors))) {
      if (llvm::isa<llvm::AllocaInst>(inst))
        why = "a private array" + (inst.hasName()
                                       ? " (" + inst.getName().str() + ")"
                                       : std::string());
      ok = false;
    }
  if (ok)
    ok = supportedLoops(loops, why);
  if (ok && !reducible(*scalar, loops)) {
    why = "irreducible control flow";
    ok = false;
  }
  bool uniform_loops_only =
      ok && !loops.empty() &&
      !hasDivergentLoop(*scalar, loops, dominators,
                        scalar->getArg(body.arg_size() - 3));
  std::string left_scalar;
  if (uniform_loops_only && !sub_groups &&
      !innermostLoopLeftScalar(*scalar, loops, dominators, left_scalar)) {
    why = "every loop runs as many times for all work-items, walks memory "
          "element by element and carries only counters and reductions "
          "(its innermost loops left to LLVM's loop vectorizer)";
    ok = false;
  }
  llvm::Function *vector = nullptr;
  if (ok) {
    unsigned kernel_args = body.arg_size() - 4;
    VaryingValues varying(*scalar, loops, scalar->getArg(kernel_args + 1));
    unsigned lanes = chooseLanes(*scalar, loops, varying, uniform_loops_only,
                                 how, limits.narrow_for_gathers);
    if (limits.most_lanes && lanes > limits.most_lanes) {
      lanes = limits.most_lanes;
      how += std::string(how.empty() ? "" : ", ") + "as wide as the group";
    }
    if (sub_groups) {
      lanes = limits.sub_group_lanes;
      how = "a sub-group";
    }
    how = std::to_string(lanes) +
          (lanes == 1 ? " work-item at once" : " work-items at once") +
          (how.empty() ? "" : " (" + how + ")") +
          (whole_vectors ? ", vectors kept whole"
           : split_why.empty()
               ? ""
               : ", vectors split into elements (" + split_why + ")");
    // A barrier region's runs of a row (CLBlast's transposed local tiles)
    // load a row per work-item, also where gathers are fast (AVX-512: the
    // Xeon's CLBlast SGEMM 512 row NN 242-269 -> 298-307 GFLOP/s, DGEMM
    // 190-208 -> 214-222; halves keep their gathers, widener_rows.cpp);
    // elsewhere a kernel that would gather keeps LLVM's loop vectorizer
    // (below).
    bool rows = limits.gathers_pay;
    bool own_rows = uniform_loops_only && !limits.gathers_pay &&
                    loadsAlongOwnRows(*scalar, loops, dominators, varying);
    prefetchStridedStreams(*scalar, loops);
    vector = widenInto(body, *scalar, loops, kWidenedSuffix, lanes, rows,
                       sub_groups);
    if (!vector) {
      why = "internal: the widened function was not valid";
    } else if (sub_groups) {
      // No narrower function for a row's end: its chunks are sub-groups.
    } else if (uniform_loops_only && !limits.gathers_pay &&
               (!hasFastGathers(body) || whole_vectors || own_rows) &&
               gathers(*vector, true)) {
      // Widened, the loop's strided accesses are gathers: worth it with
      // AVX-512's (2.1x PoCL's naive sgemm on a Xeon), a loss with AVX2's
      // (0.77x on the same Xeon with code for znver3), and a loss with
      // AVX-512's too when each work-item's whole vector is gathered
      // element by element (a float4 box filter: 730 Mpix/s widened
      // against 1,426 on the work-item loop, on the Xeon) or when each
      // work-item walks a row of its own (loadsAlongOwnRows). Accesses the
      // same for all work-items or to neighbouring elements need none.
      if (own_rows) {
        // LLVM's cost model, which finds AVX-512's gathers cheap, would
        // otherwise gather the same rows from the loop over work-items
        // once the body's loop is unrolled (23 ms against 8-9.5 for a
        // 16 Mi dot product of 64-float rows on Ice Lake).
        body.addFnAttr(kScalarWorkItemLoopAttribute);
        why = "every loop runs as many times for all work-items and, "
              "widened, would gather along each work-item's own row "
              "(gathers from as many rows as lanes cost more than a "
              "work-item at a time; its innermost loops left to LLVM's "
              "loop vectorizer, the loop over work-items kept scalar)";
      } else {
        why = "every loop runs as many times for all work-items and, "
              "widened, would gather (without AVX-512, or for whole "
              "vectors, gathers cost more; its innermost loops left to "
              "LLVM's loop vectorizer)";
      }
      vector->eraseFromParent();
      vector = nullptr;
    } else if (loops.empty() && !limits.without_loops && !limits.gathers_pay &&
               (!hasFastGathers(body) || whole_vectors) &&
               gathers(*vector, false)) {
      // The same for a body without loops, widened because it computes in
      // vector types: a bilinear resize of uchar4 pixels gathering its four
      // neighbours ran 181 Mpix/s widened against 281 a work-item's float4
      // at a time (Zen 3).
      why = "no loop in the work-item, and widened it would gather (without "
            "AVX-512, or for whole vectors, gathers cost more than a "
            "work-item's vectors at a time)";
      vector->eraseFromParent();
      vector = nullptr;
    } else if (lanes > kDefaultLanes &&
               widenInto(body, *scalar, loops, kNarrowWidenedSuffix,
                         kDefaultLanes, rows)) {
      // Rows shorter than `lanes` (small work-groups, a row's end) run
      // through the narrower function rather than leave most lanes idle.
      how += "; " + std::to_string(kDefaultLanes) + " for a row's last " +
             std::to_string(lanes - 1) + " or fewer";
    }
  }
  scalar->eraseFromParent();
  return vector;
}

llvm::PreservedAnalyses
WorkItemVectorizerPass::run(llvm::Module &module,
                            llvm::ModuleAnalysisManager &) {
  std::vector<KernelRecord> records = readKernelRecords(module);
  bool changed = false;
  for (KernelRecord &record : records) {
    ExecutionPlan &plan = record.description.plan;
    if (!record.body || plan.path != ExecutionPath::Widened)
      continue;
    std::string why, how;
    WideningLimits limits;
    bool sub_groups =
        callsFamily(*record.body, BuiltinFamily::SubGroupExchange);
    if (sub_groups)
      limits.sub_group_lanes = record.description.sub_group_size;
    if (vectorizeWorkItems(*record.body, why, how, limits)) {
      plan.lanes = how;
      changed = true;
      if (sub_groups) // the scalar body, which the entry may still call
        lowerSubGroupLocalIds(*record.body, record.description.sub_group_size);
      continue;
    }
    if (sub_groups) {
      // The fibers' scheduler runs the exchanges whatever the shape.
      lowerSubGroupExchangesToCalls(*record.body,
                                    record.description.sub_group_size);
      plan.path = ExecutionPath::Fibers;
      plan.work_item_entry = true;
      plan.fallback = "sub-groups exchange values, and the widener declined: " +
                      why;
      changed = true;
      continue;
    }
    plan.path = ExecutionPath::WorkItemLoop;
    plan.fallback = why;
  }
  writeKernelRecords(module, records);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
