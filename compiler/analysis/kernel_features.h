// What a kernel body does that decides how its work-groups can run,
// computed once per kernel from the table of builtin identities
// (compiler/analysis/builtin_identities.def) and a few shape checks. The
// execution plan (compiler/analysis/execution_plan.h) is chosen from these
// alone.
#pragma once
#include "compiler/analysis/builtin_identity.h"

#include <bitset>

namespace llvm {
class Function;
}

namespace weft::compiler {

struct KernelFeatures {
  // Which builtin families the body calls (after kernel-bodies lowered the
  // work-item queries and turned barriers into the marker).
  std::bitset<static_cast<size_t>(BuiltinFamily::Count)> calls;
  // Every async copy and wait sits at the start of the entry block, after
  // nothing another work-item could see
  // (compiler/passes/kernels/async_copy_followers.h).
  bool copies_come_first = false;
  // No work-group pipe reservation or commit sits in a loop.
  bool pipe_calls_outside_loops = false;
  // A loop waits for another work-item (analysis/waiting_loops.h).
  bool waits_on_work_items = false;

  bool has(BuiltinFamily family) const {
    return calls.test(static_cast<size_t>(family));
  }
  bool barriers() const { return has(BuiltinFamily::BarrierMarker); }
  bool asyncCopies() const { return has(BuiltinFamily::AsyncCopy); }
  bool workGroupPipes() const { return has(BuiltinFamily::WorkGroupPipe); }
  bool subGroupExchanges() const {
    return has(BuiltinFamily::SubGroupExchange);
  }
};

KernelFeatures computeKernelFeatures(llvm::Function &body);

} // namespace weft::compiler
