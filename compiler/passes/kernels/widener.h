// The widener of weft-widen-work-items: writes the function that runs
// `lanes` neighbouring work-items of a prepared body at once.
#pragma once
#include "compiler/passes/kernels/lane_masks.h"
#include "compiler/passes/kernels/varying_values.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace llvm {
class Loop;
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace weft::compiler {

// Writes into `vector` (kernel arguments..., context, first x, y, z, count)
// the widened form of `scalar` (kernel arguments..., context, x, y, z), a
// body that prepareForWidening shaped and the checks passed. Throws
// std::out_of_range where it reaches a value or edge it has not written.
class Widener {
public:
  // `rows`: read runs of neighbouring elements that each work-item loads
  // as one load per work-item (widener_rows.cpp), for targets whose
  // gathers are a load per lane.
  Widener(llvm::Function &scalar, llvm::LoopInfo &loops, llvm::Function &vector,
          unsigned kernel_args, unsigned lanes, bool rows = false);
  ~Widener();

  // Each chunk of lanes is one sub-group (its first work-item's x a multiple
  // of the lanes): a sub-group local id is the lane's number
  // (kSubGroupLaneMetadata).
  void chunksAreSubGroups() { sub_groups_ = true; }

  void run();

private:
  // widener.cpp: values, instructions and blocks.
  bool varies(llvm::Value *v) const { return varying_.varies(v); }
  llvm::Value *uniform(llvm::Value *v);
  llvm::Value *widened(llvm::Value *v);
  llvm::Value *accessPointers(llvm::Value *pointer, unsigned spacing);
  // widener_transposes.cpp: the extract's element of every work-item's
  // vector (widened: the lanes' vectors side by side), from a transpose
  // of them made once for all the extracts of that vector in the block;
  // null where picking it alone is cheaper.
  llvm::Value *elementOfEach(llvm::ExtractElementInst &extract);
  // Element k of each of `runs` (n elements each), for each k.
  std::vector<llvm::Value *> transposeRuns(std::vector<llvm::Value *> runs,
                                           unsigned n);
  // Whether lanes' runs of n elements of `size` bytes are transposed.
  bool transposes(unsigned n, uint64_t size) const;
  // Square blocks of `rows` transposed in place (rows.size() elements a
  // block).
  void transposeSquare(std::vector<llvm::Value *> &rows);
  void emitInstruction(llvm::Instruction &inst, llvm::Value *mask);
  // A sub-group's exchange (builtins/subgroups.cl): the lanes' values stored
  // side by side, the mask of the lanes on the block as the answer; a read
  // loads one lane's value, or gathers one per lane. Returns false for any
  // other instruction.
  bool emitExchange(llvm::Instruction &inst, llvm::Value *mask);
  // A prefetch: one per cache line the lanes' addresses span when they are
  // a known short distance apart, else none.
  void emitPrefetch(llvm::Instruction &prefetch);
  void emitTerminator(llvm::BasicBlock *block, llvm::Value *mask);
  void emitJoin(llvm::PHINode &phi, llvm::BasicBlock *block);
  void emitBlock(llvm::BasicBlock *block);

  // widener_rows.cpp: a work-item's run of neighbouring elements loaded at
  // once (from the first work-item's pointer where the next is a known
  // distance on, else from its own).
  llvm::Value *loadRows(llvm::LoadInst &first, llvm::Value *mask);
  std::vector<unsigned> rowsInBlocks(unsigned n, unsigned size) const;
  std::optional<int64_t> bitFieldDistance(llvm::GetElementPtrInst *from,
                                          llvm::GetElementPtrInst *to);
  std::optional<int64_t> byteDistance(llvm::Value *from, llvm::Value *to);
  llvm::Value *uniformDistance(llvm::Value *from, llvm::Value *to);
  llvm::ScalarEvolution &evolution(); // over the scalar body, made once

  // widener_interleaved.cpp: each work-item's run of neighbouring elements,
  // read or written one element at a time, the runs of neighbouring
  // work-items side by side: one access for all.
  std::map<int64_t, llvm::Instruction *>
  interleavedSiblings(llvm::Instruction &first, unsigned spacing);
  llvm::Value *loadInterleaved(llvm::LoadInst &first, unsigned spacing,
                               llvm::Value *mask);
  bool storeInterleaved(llvm::StoreInst &store, unsigned spacing,
                        llvm::Value *mask);

  // widener_choices.cpp: a load or store whose lanes' addresses are a run
  // on each side of a choice every work-item makes alike, but not across
  // it: a branch on the condition, the access made on each side as that
  // side's address allows. Returns false for any other instruction.
  bool emitChosenAccess(llvm::Instruction &access, llvm::Value *mask);

  // widener_loops.cpp: regions of blocks, and loops.
  std::vector<llvm::BasicBlock *> regionOrder(llvm::Loop *loop,
                                              llvm::BasicBlock *header);
  void emitRegion(llvm::Loop *loop, llvm::BasicBlock *header);
  void emitStep(llvm::Loop *loop, llvm::BasicBlock *header,
                llvm::BasicBlock *step);
  void emitLoop(llvm::Loop *loop);

  // A run of steps one side of a branch leads to, skipped when none of the
  // work-items goes that way (skippableRun, emitSkippable).
  using BlockSet = llvm::SmallPtrSet<llvm::BasicBlock *, 16>;
  void emitSteps(const std::vector<llvm::BasicBlock *> &order, size_t start,
                 size_t end, llvm::Loop *loop, llvm::BasicBlock *header);
  size_t skippableRun(const std::vector<llvm::BasicBlock *> &order,
                      size_t start, llvm::Loop *loop, llvm::BasicBlock *header,
                      BlockSet &blocks);
  void emitSkippable(const std::vector<llvm::BasicBlock *> &order,
                     size_t start, size_t end, llvm::Loop *loop,
                     llvm::BasicBlock *header, const BlockSet &blocks);

  // A loop's one exiting block whose work-items leave together (emitLoop).
  struct TogetherExit {
    llvm::BasicBlock *exit_block; // where they go, in the scalar body
    llvm::BasicBlock *after;      // the widened code after the loop
    llvm::Value *entered;         // whether any work-item entered the loop
  };
  llvm::DenseMap<llvm::BasicBlock *, TogetherExit> together_exits_;

  llvm::Function &scalar_;
  llvm::LoopInfo &loops_;
  llvm::DominatorTree dominators_;
  llvm::Function &vector_fn_;
  unsigned kernel_args_;
  unsigned lanes_;
  llvm::IRBuilder<> b_;
  llvm::Value *x_;
  VaryingValues varying_;
  LaneMasks masks_;
  llvm::DenseMap<llvm::Value *, llvm::Value *> uniform_, vector_, splats_;
  llvm::DenseMap<llvm::PHINode *, llvm::Value *> loop_exit_values_;
  // elementOfEach's transposes, by the scalar vector: one value per element.
  llvm::DenseMap<llvm::Value *, std::vector<llvm::Value *>> transposed_;
  // The lanes' values at the last sub-group exchange: [lanes x i64] in
  // memory, and the vector stored there (reads in the same block permute it).
  llvm::Value *exchanged_ = nullptr;
  llvm::Value *exchanged_vector_ = nullptr;
  llvm::BasicBlock *exchanged_block_ = nullptr;
  bool sub_groups_ = false;
  // Rows: the later loads of a run, already loaded with its first.
  bool rows_;
  llvm::DenseMap<llvm::Instruction *, llvm::Value *> row_loads_;
  // Each work-item's own pointer to a run, taken out of the vector of
  // pointers once per block: later runs of the block a constant or uniform
  // distance from one of these start from it (rowPointers).
  struct LanePointers {
    llvm::BasicBlock *block; // in the scalar body
    llvm::Value *pointer;    // the scalar body's
    std::vector<llvm::Value *> lanes;
  };
  std::vector<LanePointers> lane_pointers_;
  std::vector<llvm::Value *> rowPointers(llvm::LoadInst &first);
  // Interleaved stores waiting for the last of their run.
  llvm::DenseMap<llvm::Instruction *,
                 std::shared_ptr<std::map<int64_t, llvm::Instruction *>>>
      interleaved_stores_;
  struct Distances; // ScalarEvolution over the scalar body, made on demand
  std::unique_ptr<Distances> distances_;
};

} // namespace weft::compiler
