#include "compiler/passes/optimizer/vnni_dot_products.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/Transforms/Utils/Local.h>

#include <array>
#include <map>
#include <tuple>
#include <vector>

namespace weft::compiler {
namespace {

using llvm::Instruction;
using llvm::Value;

// The widest vpdpbusd the function's CPU has, in 32-bit lanes (0: none).
unsigned vnniLanes(const llvm::Function &f) {
  llvm::StringRef features =
      f.getFnAttribute("target-features").getValueAsString();
  bool avx512 = features.contains("+avx512vnni");
  if (avx512 && features.contains("+evex512"))
    return 16;
  if ((avx512 && features.contains("+avx512vl")) ||
      features.contains("+avxvnni"))
    return 8;
  return 0;
}

// Byte `k` of each 32-bit word of `words`, extended to 32 bits.
struct ByteOfWords {
  Value *words; // <4N x i8>
  unsigned k;
  bool is_signed;
};

// Which byte of each word `v` takes: k if `v` is shufflevector <4N x i8>
// %w, poison, <k, k+4, ..., k+4(N-1)>.
std::optional<unsigned> byteTaken(Value *v) {
  auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(v);
  if (!shuffle ||
      !shuffle->getType()->getElementType()->isIntegerTy(8) ||
      !llvm::isa<llvm::UndefValue>(shuffle->getOperand(1)))
    return std::nullopt;
  auto *source =
      llvm::dyn_cast<llvm::FixedVectorType>(shuffle->getOperand(0)->getType());
  unsigned n =
      llvm::cast<llvm::FixedVectorType>(shuffle->getType())->getNumElements();
  if (!source || source->getNumElements() != 4 * n)
    return std::nullopt;
  llvm::ArrayRef<int> mask = shuffle->getShuffleMask();
  int k = mask[0];
  if (k < 0 || k > 3)
    return std::nullopt;
  for (unsigned j = 0; j < n; ++j)
    if (mask[j] != k + 4 * int(j))
      return std::nullopt;
  return unsigned(k);
}

// `v` as ByteOfWords: (s|z)ext (shufflevector <4N x i8> %w, poison,
// <k, k+4, ..., k+4(N-1)>) to <N x i32>.
std::optional<ByteOfWords> byteOfWords(Value *v) {
  auto *ext = llvm::dyn_cast<llvm::CastInst>(v);
  if (!ext || (!llvm::isa<llvm::ZExtInst>(ext) && !llvm::isa<llvm::SExtInst>(ext)))
    return std::nullopt;
  std::optional<unsigned> k = byteTaken(ext->getOperand(0));
  if (!k)
    return std::nullopt;
  return ByteOfWords{llvm::cast<Instruction>(ext->getOperand(0))->getOperand(0),
                     *k, llvm::isa<llvm::SExtInst>(ext)};
}

// Where the widener's masked loads on CPUs without byte masks (AVX2) join
// a whole and a masked path, the optimizer may have moved one operand's
// byte shuffles into both paths and joined their results: a phi of byte k
// of the words of each path. Such a phi becomes byte k of a phi of the
// words (one phi per set of words, shared by the four bytes), so the
// products read as products of bytes of words again.
void joinBytesAfterPhis(llvm::Function &f) {
  std::vector<llvm::PHINode *> phis;
  for (llvm::BasicBlock &block : f)
    for (llvm::PHINode &phi : block.phis())
      phis.push_back(&phi);
  std::map<std::pair<llvm::BasicBlock *, std::vector<Value *>>,
           llvm::PHINode *>
      joined_words;
  for (llvm::PHINode *phi : phis) {
    std::optional<unsigned> k;
    std::vector<Value *> words;
    bool bytes = phi->getNumIncomingValues() > 0;
    for (unsigned i = 0; bytes && i < phi->getNumIncomingValues(); ++i) {
      Value *in = phi->getIncomingValue(i);
      std::optional<unsigned> taken = byteTaken(in);
      bytes = taken && (!k || *k == *taken);
      if (bytes) {
        k = taken;
        words.push_back(llvm::cast<Instruction>(in)->getOperand(0));
      }
    }
    if (!bytes || !llvm::all_of(words, [&](Value *w) {
          return w->getType() == words[0]->getType();
        }))
      continue;
    // Keyed by each path's words and the block it comes from.
    std::vector<Value *> key;
    for (unsigned i = 0; i < words.size(); ++i)
      key.insert(key.end(), {phi->getIncomingBlock(i), words[i]});
    llvm::PHINode *&joined = joined_words[{phi->getParent(), key}];
    if (!joined) {
      joined = llvm::PHINode::Create(words[0]->getType(),
                                     phi->getNumIncomingValues(), "words",
                                     phi->getIterator());
      for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
        joined->addIncoming(words[i], phi->getIncomingBlock(i));
    }
    auto *first = llvm::cast<llvm::ShuffleVectorInst>(phi->getIncomingValue(0));
    auto *shuffle = new llvm::ShuffleVectorInst(
        joined, first->getShuffleMask(), phi->getName(),
        phi->getParent()->getFirstInsertionPt());
    phi->replaceAllUsesWith(shuffle);
    phi->eraseFromParent();
  }
}

// A product of byte k of two operands' words.
struct BytesProduct {
  Instruction *mul;
  ByteOfWords left, right;
};

std::optional<BytesProduct> bytesProduct(Value *v) {
  auto *mul = llvm::dyn_cast<llvm::BinaryOperator>(v);
  if (!mul || mul->getOpcode() != Instruction::Mul || !mul->hasOneUse())
    return std::nullopt;
  auto left = byteOfWords(mul->getOperand(0));
  auto right = byteOfWords(mul->getOperand(1));
  if (!left || !right || left->k != right->k)
    return std::nullopt;
  return BytesProduct{mul, *left, *right};
}

bool isAdd(Value *v, llvm::Type *type) {
  auto *add = llvm::dyn_cast<llvm::BinaryOperator>(v);
  return add && add->getOpcode() == Instruction::Add && add->getType() == type;
}

// The terms of the tree of adds rooted at `root`, through adds used only
// inside it.
void addTerms(Instruction *root, llvm::SmallVectorImpl<Value *> &terms) {
  for (Value *operand : root->operands()) {
    if (isAdd(operand, root->getType()) && operand->hasOneUse())
      addTerms(llvm::cast<Instruction>(operand), terms);
    else
      terms.push_back(operand);
  }
}

class DotRewriter {
public:
  DotRewriter(Instruction *root, unsigned register_lanes)
      : b_(root), lanes_(llvm::cast<llvm::FixedVectorType>(root->getType())
                             ->getNumElements()),
        register_lanes_(register_lanes) {}

  // vpdpbusd(sum, unsigned bytes of u, signed bytes of s), register by
  // register; vpdpbusds (the sum saturated) if `saturated`.
  Value *dpbusd(Value *sum, Value *u, Value *s, bool saturated = false) {
    llvm::Type *words = sum->getType();
    u = b_.CreateBitCast(u, words);
    s = b_.CreateBitCast(s, words);
    unsigned part = std::min(lanes_, register_lanes_);
    using namespace llvm::Intrinsic;
    llvm::Intrinsic::ID id =
        saturated ? (part == 16  ? x86_avx512_vpdpbusds_512
                     : part == 8 ? x86_avx512_vpdpbusds_256
                                 : x86_avx512_vpdpbusds_128)
                  : (part == 16  ? x86_avx512_vpdpbusd_512
                     : part == 8 ? x86_avx512_vpdpbusd_256
                                 : x86_avx512_vpdpbusd_128);
    if (part == lanes_)
      return b_.CreateIntrinsic(id, {}, {sum, u, s}, nullptr, "dpbusd");
    llvm::SmallVector<Value *, 8> parts;
    for (unsigned first = 0; first < lanes_; first += part) {
      llvm::SmallVector<int, 16> lanes;
      for (unsigned i = 0; i < part; ++i)
        lanes.push_back(int(first + i));
      parts.push_back(b_.CreateIntrinsic(
          id, {},
          {b_.CreateShuffleVector(sum, lanes), b_.CreateShuffleVector(u, lanes),
           b_.CreateShuffleVector(s, lanes)},
          nullptr, "dpbusd"));
    }
    // Joined pairwise back to the whole width.
    while (parts.size() > 1) {
      llvm::SmallVector<Value *, 8> joined;
      for (size_t i = 0; i < parts.size(); i += 2) {
        unsigned width = llvm::cast<llvm::FixedVectorType>(parts[i]->getType())
                             ->getNumElements();
        llvm::SmallVector<int, 128> both;
        for (unsigned l = 0; l < 2 * width; ++l)
          both.push_back(int(l));
        joined.push_back(b_.CreateShuffleVector(parts[i], parts[i + 1], both));
      }
      parts = joined;
    }
    return parts[0];
  }

  Value *bytes(uint8_t byte, llvm::Type *like) {
    return llvm::ConstantInt::get(like, byte);
  }

  // sum + the dot products of the four bytes of each word of `left` and
  // `right`, signed or not as each says.
  Value *addDot(Value *sum, Value *left, bool left_signed, Value *right,
                bool right_signed) {
    llvm::Type *byte_vector = left->getType();
    if (!left_signed && right_signed)
      return dpbusd(sum, left, right);
    if (left_signed && !right_signed)
      return dpbusd(sum, right, left);
    llvm::Value *zero = llvm::Constant::getNullValue(sum->getType());
    if (left_signed) { // both signed
      Value *biased = b_.CreateXor(left, bytes(0x80, byte_vector));
      Value *with_bias = dpbusd(sum, biased, right);
      Value *bias = dpbusd(zero, bytes(0x80, byte_vector), right);
      return b_.CreateSub(with_bias, bias);
    }
    // both unsigned
    Value *lowered = b_.CreateXor(right, bytes(0x80, byte_vector));
    Value *without = dpbusd(sum, left, lowered);
    Value *left_sum = dpbusd(zero, left, bytes(1, byte_vector));
    return b_.CreateAdd(without, b_.CreateShl(left_sum, 7));
  }

  llvm::IRBuilder<> &builder() { return b_; }

private:
  llvm::IRBuilder<> b_;
  unsigned lanes_;
  unsigned register_lanes_;
};

// Rewrites the adds rooted at `root` if four of their terms are a dot
// product of bytes; returns whether it did.
bool rewriteDots(Instruction *root, unsigned register_lanes) {
  llvm::SmallVector<Value *, 16> terms;
  addTerms(root, terms);
  // Products by operands and signedness, in the order met; four of one
  // key, one of each byte, make a dot product.
  using Key = std::tuple<Value *, unsigned, Value *, unsigned>;
  llvm::MapVector<Key, std::array<llvm::SmallVector<size_t, 2>, 4>> products;
  for (size_t i = 0; i < terms.size(); ++i)
    if (auto product = bytesProduct(terms[i])) {
      // One order for both operand orders.
      ByteOfWords a = product->left, b = product->right;
      if (std::less<Value *>()(b.words, a.words) ||
          (a.words == b.words && a.is_signed && !b.is_signed))
        std::swap(a, b);
      products[{a.words, a.is_signed, b.words, b.is_signed}][a.k].push_back(i);
    }
  std::vector<bool> used(terms.size(), false);
  struct Dot {
    Key key;
  };
  std::vector<Dot> dots;
  for (auto &[key, by_byte] : products)
    while (llvm::all_of(by_byte, [](auto &list) { return !list.empty(); })) {
      for (auto &list : by_byte) {
        used[list.back()] = true;
        list.pop_back();
      }
      dots.push_back({key});
    }
  if (dots.empty())
    return false;
  // A lone mixed-signedness dot product added with signed saturation
  // (dot_acc_sat of uchar4 and char4): one vpdpbusds.
  auto *saturating =
      root->hasOneUse()
          ? llvm::dyn_cast<llvm::IntrinsicInst>(root->user_back())
          : nullptr;
  if (dots.size() == 1 && terms.size() == 4 && saturating &&
      saturating->getIntrinsicID() == llvm::Intrinsic::sadd_sat &&
      std::get<1>(dots[0].key) != std::get<3>(dots[0].key)) {
    auto [left, left_signed, right, right_signed] = dots[0].key;
    Value *other = saturating->getArgOperand(
        saturating->getArgOperand(0) == root ? 1 : 0);
    DotRewriter rewriter(saturating, register_lanes);
    Value *result = left_signed ? rewriter.dpbusd(other, right, left, true)
                                : rewriter.dpbusd(other, left, right, true);
    result->takeName(saturating);
    saturating->replaceAllUsesWith(result);
    llvm::RecursivelyDeleteTriviallyDeadInstructions(saturating);
    return true;
  }
  DotRewriter rewriter(root, register_lanes);
  llvm::IRBuilder<> &b = rewriter.builder();
  Value *sum = nullptr;
  for (size_t i = 0; i < terms.size(); ++i)
    if (!used[i])
      sum = sum ? b.CreateAdd(sum, terms[i]) : terms[i];
  if (!sum)
    sum = llvm::Constant::getNullValue(root->getType());
  for (const Dot &dot : dots) {
    auto [left, left_signed, right, right_signed] = dot.key;
    sum = rewriter.addDot(sum, left, left_signed, right, right_signed);
  }
  sum->takeName(root);
  root->replaceAllUsesWith(sum);
  llvm::RecursivelyDeleteTriviallyDeadInstructions(root);
  return true;
}

} // namespace

llvm::PreservedAnalyses
VnniDotProductsPass::run(llvm::Function &function,
                         llvm::FunctionAnalysisManager &) {
  unsigned register_lanes = vnniLanes(function);
  if (register_lanes == 0)
    return llvm::PreservedAnalyses::all();
  joinBytesAfterPhis(function);
  // The roots: adds of <N x i32> (N a multiple of 4) not folded into
  // another add of the same tree.
  std::vector<llvm::WeakTrackingVH> roots;
  for (Instruction &inst : llvm::instructions(function)) {
    auto *type = llvm::dyn_cast<llvm::FixedVectorType>(inst.getType());
    if (!type || !isAdd(&inst, type) ||
        !type->getElementType()->isIntegerTy(32) ||
        type->getNumElements() % 4 != 0 ||
        type->getNumElements() % std::min(type->getNumElements(),
                                          register_lanes) != 0)
      continue;
    if (inst.hasOneUse() && isAdd(inst.user_back(), type))
      continue; // inside a larger tree
    roots.push_back(&inst);
  }
  bool changed = false;
  for (llvm::WeakTrackingVH &handle : roots)
    if (auto *root = llvm::dyn_cast_or_null<Instruction>(handle))
      changed |= rewriteDots(root, register_lanes);
  return changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
