// A copy from global into local memory only stages data: when the work-items
// never write the tile, read it only after the copy, and nothing the group
// writes can land in the copied global range, each read of the tile may read
// the global element it holds instead. The copy, and the second pass over the
// data it costs on a CPU, then disappear.
//
// Whether the group's writes can reach the copied range depends on the
// buffers the application passes: the compiler makes the read-through body
// and names the arguments involved, and the runtime picks it at launch only
// when the buffers read through and those written do not overlap.
#pragma once
#include <cstdint>
#include <llvm/IR/PassManager.h>
#include <string>
#include <vector>

namespace llvm {
class Function;
} // namespace llvm

namespace weft::compiler {

struct ReadThroughBody {
  llvm::Function *body = nullptr; // null when the kernel does not qualify
  std::vector<uint32_t> sources;  // buffer arguments read through
  std::vector<uint32_t> written;  // buffer arguments the kernel writes
  // For a kernel without reqd_work_group_size: the body is right for
  // work-groups no larger than this in any dimension (0: any size).
  uint64_t max_local_size = 0;
};

// For a barrier-free `body` whose async copies all come first (see
// makeCopyPrologue): a copy of it without copies, whose tile reads read the
// copies' global sources, or a null body and `why` not. `kernel_args` is the
// number of the kernel's own arguments at the front of `body`'s;
// `required_size` its reqd_work_group_size (zeros if none), which bounds the
// local ids the tile reads depend on; without it, the body gets the largest
// bound on the work-group's extent under which its reads stay inside.
ReadThroughBody makeReadThroughBody(llvm::Function &body, unsigned kernel_args,
                                    const uint64_t required_size[3],
                                    std::string &why);

// weft-async-copy-read-through: for kernels whose plan asks for it, the
// read-through body (body.read_through, widened as body.read_through.simd
// when the vectorizer takes it) and the argument lists the runtime checks;
// or the plan loses it, with the reason in read_through_note.
class AsyncCopyReadThroughPass
    : public llvm::PassInfoMixin<AsyncCopyReadThroughPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
};

} // namespace weft::compiler
