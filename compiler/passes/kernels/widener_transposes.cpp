// The widener's transposes: where each work-item takes its own vector apart
// (CLBlast's XgemvFastRot stores a float8 per work-item into a local tile
// element by element), element k of every work-item is a vector that picks
// one element out of each work-item's vector. Picked one element at a time
// from vectors spanning several registers, LLVM writes each as a tree of
// shuffles of its own (about twenty instructions per element on AVX2 for a
// float8 per work-item, eight at once). Taken apart together they are a
// transpose of the work-items' vectors, made of shuffles of two registers
// that x86 has single instructions for (unpcklpd, vinsertf128 and
// vperm2f128; blends of duplicated elements for single floats), each shared
// by several elements: a few per element.
#include "compiler/passes/kernels/widener.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MathExtras.h>

#include <set>
#include <vector>

namespace weft::compiler {

using llvm::Value;

// Rows r[0..m) of m elements each, transposed in place: r[k] ends up with
// element k of every row. Stage by stage, rows i and i + g swap their
// off-diagonal blocks of g elements (each stage swaps one bit of the row
// number with the same bit of the element number; the stages commute).
// Rows of several squares side by side (m elements each) transpose each
// square apart.
//
// Swapping single 4-byte elements ([a0, c0, a2, c2]) is no x86
// instruction: it took a shufps and a permute of its result. For those the
// last stage takes the even and the odd elements of each pair of rows
// instead ([a0, a2, c0, c2] and [a1, a3, c1, c3], one shufps each), which
// leaves the rows' bits 0 and 1 swapped in the elements' order; the rows
// start in that order, so each ends in the order they came in. Squares of 4
// floats in both halves of AVX2 registers take 8 shuffles instead of 12, of
// 8 floats 24 instead of 31.
void Widener::transposeSquare(std::vector<Value *> &r) {
  unsigned m = unsigned(r.size());
  unsigned width = elementsOf(r[0]->getType());
  bool unzip_last = m >= 4 && r[0]->getType()->getScalarSizeInBits() == 32;
  if (unzip_last) {
    std::vector<Value *> in_order = r;
    for (unsigned i = 0; i < m; ++i)
      r[(i & ~3u) | ((i & 1) << 1) | ((i >> 1) & 1)] = in_order[i];
  }
  unsigned last = unzip_last ? 2 : 1;
  for (unsigned g = m / 2; g >= last; g /= 2) {
    llvm::SmallVector<int, 64> low, high;
    for (unsigned k = 0; k < width; ++k) {
      bool upper = ((k % m) & g) != 0;
      low.push_back(int(upper ? width + k - g : k));
      high.push_back(int(upper ? width + k : k + g));
    }
    for (unsigned i = 0; i < m; ++i) {
      if (i & g)
        continue;
      Value *a = r[i], *c = r[i + g];
      r[i] = b_.CreateShuffleVector(a, c, low);
      r[i + g] = b_.CreateShuffleVector(a, c, high);
    }
  }
  if (!unzip_last)
    return;
  llvm::SmallVector<int, 64> even, odd;
  for (unsigned block = 0; block < width; block += 4)
    for (unsigned from : {block, width + block}) {
      even.append({int(from), int(from + 2)});
      odd.append({int(from + 1), int(from + 3)});
    }
  for (unsigned i = 0; i < m; i += 2) {
    Value *a = r[i], *c = r[i + 1];
    r[i] = b_.CreateShuffleVector(a, c, even);
    r[i + 1] = b_.CreateShuffleVector(a, c, odd);
  }
}

// Element k of every one of `runs` (each n elements, n a power of two),
// for each k: a vector with one element per run.
std::vector<Value *> Widener::transposeRuns(std::vector<Value *> runs,
                                            unsigned n) {
  unsigned count = unsigned(runs.size());
  std::vector<Value *> elements(n);
  if (n <= count) {
    // Squares of n runs, then each element's parts side by side.
    std::vector<std::vector<Value *>> parts(n);
    for (unsigned first = 0; first < count; first += n) {
      std::vector<Value *> square(runs.begin() + first,
                                  runs.begin() + first + n);
      transposeSquare(square);
      for (unsigned e = 0; e < n; ++e)
        parts[e].push_back(square[e]);
    }
    for (unsigned e = 0; e < n; ++e)
      elements[e] = parts[e].size() == 1
                        ? parts[e][0]
                        : llvm::concatenateVectors(b_, parts[e]);
    return elements;
  }
  // Runs longer than there are of them: squares of `count` elements.
  for (unsigned first = 0; first < n; first += count) {
    llvm::SmallVector<int, 16> part;
    for (unsigned e = 0; e < count; ++e)
      part.push_back(int(first + e));
    std::vector<Value *> square;
    for (Value *run : runs)
      square.push_back(b_.CreateShuffleVector(run, part));
    transposeSquare(square);
    for (unsigned e = 0; e < count; ++e)
      elements[first + e] = square[e];
  }
  return elements;
}

// Whether `lanes` runs of n elements of `size` bytes are dealt out by a
// transpose (transposeRuns) rather than by picking each element's lanes:
// runs longer than a 16-byte block (shorter ones fit x86's in-block
// shuffles, rowsInBlocks) that span more than one AVX2 register in all.
// AVX-512 too, where the picks are two-register permutes (vpermt2ps):
// XgemvFastRot's float8s ran SGEMV 4096 row-major on the Xeon at 84-96
// GB/s picked and 96-103 transposed in one call (five rounds each,
// alternating), 89-99 and 86-95 in another (three rounds): never worse.
bool Widener::transposes(unsigned n, uint64_t size) const {
  constexpr uint64_t kBlockBytes = 16, kRegisterBytes = 32;
  return n >= 2 && llvm::isPowerOf2_32(n) && llvm::isPowerOf2_32(lanes_) &&
         lanes_ >= 2 && size >= 4 && n * size > kBlockBytes &&
         uint64_t(lanes_) * n * size > kRegisterBytes;
}

Value *Widener::elementOfEach(llvm::ExtractElementInst &extract) {
  Value *vector = extract.getVectorOperand();
  auto index =
      llvm::cast<llvm::ConstantInt>(extract.getIndexOperand())->getZExtValue();
  auto found = transposed_.find(vector);
  if (found != transposed_.end())
    return found->second.at(index);
  unsigned n = elementsOf(vector->getType());
  const llvm::DataLayout &layout = scalar_.getParent()->getDataLayout();
  if (!transposes(n, layout.getTypeStoreSize(vector->getType()->getScalarType())))
    return nullptr;
  // Worth it where the block takes more than half of the elements apart,
  // all in this block (the transpose is made here, before the first).
  std::set<uint64_t> taken;
  for (llvm::User *user : vector->users()) {
    auto *other = llvm::dyn_cast<llvm::ExtractElementInst>(user);
    if (!other)
      continue;
    auto *at = llvm::dyn_cast<llvm::ConstantInt>(other->getIndexOperand());
    if (!at || other->getParent() != extract.getParent())
      return nullptr;
    taken.insert(at->getZExtValue());
  }
  if (taken.size() * 2 <= n)
    return nullptr;
  Value *wide = widened(vector);
  std::vector<Value *> pieces; // each work-item's vector
  for (unsigned lane = 0; lane < lanes_; ++lane) {
    llvm::SmallVector<int, 16> own;
    for (unsigned e = 0; e < n; ++e)
      own.push_back(int(lane * n + e));
    pieces.push_back(b_.CreateShuffleVector(wide, own));
  }
  std::vector<Value *> elements = transposeRuns(pieces, n);
  transposed_[vector] = elements;
  return elements.at(index);
}

} // namespace weft::compiler
