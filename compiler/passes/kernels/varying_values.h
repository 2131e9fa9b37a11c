// Which values of a work-item body differ between the work-items that a
// widened body runs at once, and how addresses step from one to the next.
#pragma once
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallPtrSet.h>

#include <cstdint>
#include <memory>
#include <optional>

namespace llvm {
class BasicBlock;
class DataLayout;
class DominatorTree;
class Function;
class Instruction;
class Loop;
class LoopInfo;
class Type;
class Value;
} // namespace llvm

namespace weft::compiler {

// Values that may differ between work-items: the x id and what depends on
// it, phis (control flow may differ) other than those of loops every
// work-item goes round as often and those where paths every work-item
// takes alike join (uniformJoin) with the same value on every edge, loads from addresses that differ (or
// volatile and atomic ones), and divisions (their masked-off lanes must
// not trap). The rest is computed once, as scalars: a loop's counter and
// what it alone addresses, say `a[row * n + k]` in a loop over k, is one
// load and a broadcast instead of a gather of one address.
class VaryingValues {
public:
  // Finds them in `scalar`, whose x id is `x`.
  VaryingValues(llvm::Function &scalar, llvm::LoopInfo &loops, llvm::Value *x);
  ~VaryingValues();

  bool varies(llvm::Value *v) const { return varying_.count(v) != 0; }

  // Whether no work-item leaves `loop` apart from the others: all go round
  // it as often.
  bool uniformLoop(llvm::Loop *loop) const {
    return uniform_loops_.count(loop) != 0;
  }

  // Whether the work-items reaching `join` all came by the same edge: from
  // its immediate dominator on, every branch on the way decides alike for
  // all of them (CLBlast's `a_transpose ? mg*a_ld + kg : kg*a_ld + mg`,
  // a kernel argument's choice inside per-work-item bounds checks). Only
  // within one loop, outside its header.
  bool uniformJoin(llvm::BasicBlock *join) const;

  // A value that one choice, the same for every work-item, makes between
  // two: a select on a condition that does not vary, or a phi where the
  // two sides of a branch on one join (a uniformJoin whose dominator's
  // branch decides which edge comes in).
  struct Choice {
    llvm::Value *condition;
    llvm::Value *if_true, *if_false;
  };
  std::optional<Choice> choiceOf(llvm::Value *v) const;

  // While one lives, laneStride and spacing answer as if `condition` were
  // `holds`: each choice on it is the side taken (a gather across the two
  // sides may be a run on each).
  class Assuming {
  public:
    Assuming(VaryingValues &values, llvm::Value *condition, bool holds);
    ~Assuming();
    Assuming(const Assuming &) = delete;
    Assuming &operator=(const Assuming &) = delete;

  private:
    VaryingValues &values_;
    llvm::DenseMap<llvm::Value *, std::optional<int64_t>> strides_;
  };

  // Bytes (pointers) or units (integers) between the values of neighbouring
  // work-items, when they follow the x id linearly.
  std::optional<int64_t> laneStride(llvm::Value *v);

  // How many `element`s apart neighbouring work-items access memory through
  // `pointer`: 1 for neighbours, 2 .. `most` for a work-item's run of
  // elements (CLBlast's tiles: each work-item loads 2 of 16), else 0.
  unsigned spacing(llvm::Value *pointer, llvm::Type *element,
                   unsigned most = kMostSpacing);
  // An access alone reads or writes the whole span for every `spacing`-th
  // element (lane_masks.cpp): past 4, a gather or scatter costs less.
  static constexpr unsigned kMostSpacing = 4;
  // A whole run, every element of it accessed (widener_interleaved.cpp),
  // is one access of the span: a float8 a work-item taken apart into
  // elements. Not 16: picking each element of 16 lanes' float16 out of the
  // span took 8,838 shuffles for a 16 x 16 transpose and 6.5 s in LLVM's
  // code generation (Ice Lake; 1,284 and 0.4 s at 8).
  static constexpr unsigned kMostRunSpacing = 8;

  // Whether `inst` is a load or store that, widened, gathers or scatters:
  // its address differs per work-item, neighbours' not a spacing apart.
  bool gathers(llvm::Instruction &inst);

private:
  void findVarying();

  llvm::Function &scalar_;
  llvm::LoopInfo &loops_;
  const llvm::DataLayout &layout_;
  std::unique_ptr<llvm::DominatorTree> dominators_;
  llvm::Value *x_;
  llvm::DenseSet<llvm::Value *> varying_;
  llvm::SmallPtrSet<llvm::Loop *, 8> uniform_loops_;
  llvm::DenseMap<llvm::Value *, std::optional<int64_t>> strides_;
  llvm::Value *assumed_condition_ = nullptr;
  bool assumed_holds_ = false;
};

} // namespace weft::compiler
