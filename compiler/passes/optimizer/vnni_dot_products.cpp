#include "compiler/passes/optimizer/vnni_dot_products.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/PatternMatch.h>
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

// Where the bytes of an operand's words come from: the words of the
// work-items side by side (<4N x i8>), or one word for all work-items, in a
// register (i32) or in memory (its address; the bytes loaded one by one).
enum class WordsForm { Vector, Register, Memory };

// Byte `k` of each 32-bit word of an operand, extended to 32 bits.
struct ByteOfWords {
  Value *words;
  WordsForm form;
  unsigned k;
  bool is_signed;
  llvm::LoadInst *load = nullptr; // Memory: the byte's load
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

// Byte k of a scalar word, extended to i32 (zero or sign as `is_signed`
// says), in the shapes InstCombine leaves it: (s|z)ext (trunc (lshr w,
// 8k)), and w, 255 / and (lshr w, 8k), 255 / lshr w, 24, ashr (shl w,
// 24 - 8k), 24 / ashr w, 24; or (s|z)ext of a byte loaded k bytes past an
// address.
std::optional<ByteOfWords> scalarByte(Value *v, const llvm::DataLayout &dl) {
  using namespace llvm::PatternMatch;
  Value *w = nullptr, *x = nullptr;
  uint64_t shift = 0, second = 0;
  auto byte = [](Value *words, WordsForm form, uint64_t k, bool is_signed)
      -> std::optional<ByteOfWords> {
    if (k > 3 || !words->getType()->isIntegerTy(32))
      return std::nullopt;
    return ByteOfWords{words, form, unsigned(k), is_signed};
  };
  if (!v->getType()->isIntegerTy(32))
    return std::nullopt;
  if (match(v, m_ZExtOrSExt(m_Value(x))) && x->getType()->isIntegerTy(8)) {
    bool is_signed = llvm::isa<llvm::SExtInst>(v);
    if (match(x, m_Trunc(m_LShr(m_Value(w), m_ConstantInt(shift)))) &&
        shift % 8 == 0)
      return byte(w, WordsForm::Register, shift / 8, is_signed);
    if (match(x, m_Trunc(m_Value(w))))
      return byte(w, WordsForm::Register, 0, is_signed);
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(x)) {
      if (!load->isSimple())
        return std::nullopt;
      llvm::APInt offset(dl.getIndexTypeSizeInBits(
                             load->getPointerOperand()->getType()),
                         0);
      Value *base =
          load->getPointerOperand()->stripAndAccumulateConstantOffsets(
              dl, offset, /*AllowNonInbounds=*/true);
      if (offset.isNegative() || offset.getZExtValue() > 3)
        return std::nullopt;
      ByteOfWords result{base, WordsForm::Memory,
                         unsigned(offset.getZExtValue()), is_signed, load};
      return result;
    }
    return std::nullopt;
  }
  if (match(v, m_And(m_LShr(m_Value(w), m_ConstantInt(shift)),
                     m_SpecificInt(255))) &&
      shift % 8 == 0)
    return byte(w, WordsForm::Register, shift / 8, false);
  if (match(v, m_And(m_Value(w), m_SpecificInt(255))))
    return byte(w, WordsForm::Register, 0, false);
  if (match(v, m_LShr(m_Value(w), m_SpecificInt(24))))
    return byte(w, WordsForm::Register, 3, false);
  if (match(v, m_AShr(m_Shl(m_Value(w), m_ConstantInt(shift)),
                      m_ConstantInt(second))) &&
      second == 24 && shift <= 24 && shift % 8 == 0)
    return byte(w, WordsForm::Register, (24 - shift) / 8, true);
  if (match(v, m_AShr(m_Value(w), m_SpecificInt(24))))
    return byte(w, WordsForm::Register, 3, true);
  return std::nullopt;
}

// `v` as ByteOfWords: (s|z)ext (shufflevector <4N x i8> %w, poison,
// <k, k+4, ..., k+4(N-1)>) to <N x i32>; or a splat of byte k of a word
// the same for all work-items.
std::optional<ByteOfWords> byteOfWords(Value *v, const llvm::DataLayout &dl) {
  if (Value *scalar = llvm::getSplatValue(v))
    return scalarByte(scalar, dl);
  auto *ext = llvm::dyn_cast<llvm::CastInst>(v);
  if (!ext || (!llvm::isa<llvm::ZExtInst>(ext) && !llvm::isa<llvm::SExtInst>(ext)))
    return std::nullopt;
  std::optional<unsigned> k = byteTaken(ext->getOperand(0));
  if (!k)
    return std::nullopt;
  return ByteOfWords{llvm::cast<Instruction>(ext->getOperand(0))->getOperand(0),
                     WordsForm::Vector, *k, llvm::isa<llvm::SExtInst>(ext)};
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

std::optional<BytesProduct> bytesProduct(Value *v, const llvm::DataLayout &dl) {
  auto *mul = llvm::dyn_cast<llvm::BinaryOperator>(v);
  if (!mul || mul->getOpcode() != Instruction::Mul || !mul->hasOneUse())
    return std::nullopt;
  auto left = byteOfWords(mul->getOperand(0), dl);
  auto right = byteOfWords(mul->getOperand(1), dl);
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

// One operand of a dot product: its words, and the four bytes' sources.
struct DotOperand {
  Value *words;
  WordsForm form;
  bool is_signed;
  std::array<llvm::LoadInst *, 4> loads{}; // Memory: each byte's load
};

class DotRewriter {
public:
  DotRewriter(Instruction *at, unsigned register_lanes)
      : b_(at), lanes_(llvm::cast<llvm::FixedVectorType>(at->getType())
                           ->getNumElements()),
        register_lanes_(register_lanes) {}

  // The operand's words as <N x i32>, or null if they cannot be had (the
  // bytes of a word in memory loaded with a store between them).
  Value *words(const DotOperand &operand) {
    llvm::Type *words = llvm::FixedVectorType::get(b_.getInt32Ty(), lanes_);
    switch (operand.form) {
    case WordsForm::Vector:
      return b_.CreateBitCast(operand.words, words);
    case WordsForm::Register:
      return b_.CreateVectorSplat(lanes_, operand.words);
    case WordsForm::Memory: {
      // One load of the word where the first byte was loaded, if nothing
      // between the byte loads may write memory.
      llvm::LoadInst *first = operand.loads[0];
      for (llvm::LoadInst *load : operand.loads)
        if (load->getParent() != first->getParent())
          return nullptr;
      for (llvm::LoadInst *load : operand.loads)
        if (load->comesBefore(first))
          first = load;
      unsigned loads_seen = 0;
      for (Instruction *i = first; i && loads_seen < 4; i = i->getNextNode()) {
        if (llvm::is_contained(operand.loads, i))
          ++loads_seen;
        else if (i->mayWriteToMemory())
          return nullptr;
      }
      llvm::IRBuilder<> at_first(first);
      llvm::LoadInst *word = at_first.CreateAlignedLoad(
          at_first.getInt32Ty(), operand.words, llvm::Align(1), "word");
      llvm::AAMDNodes aa = first->getAAMetadata();
      aa.TBAA = aa.TBAAStruct = nullptr; // the bytes' type is char
      word->setAAMetadata(aa);
      return b_.CreateVectorSplat(lanes_, word);
    }
    }
    return nullptr;
  }

  // vpdpbusd(sum, unsigned bytes of u, signed bytes of s), register by
  // register; vpdpbusds (the sum saturated) if `saturated`.
  Value *dpbusd(Value *sum, Value *u, Value *s, bool saturated = false) {
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

  // Each byte of each word `byte`.
  Value *bytes(uint8_t byte) {
    return llvm::ConstantInt::get(
        llvm::FixedVectorType::get(b_.getInt32Ty(), lanes_),
        0x01010101u * byte);
  }

  // sum + the dot products of the four bytes of each word of `left` and
  // `right` (<N x i32>), signed or not as each says.
  Value *addDot(Value *sum, Value *left, bool left_signed, Value *right,
                bool right_signed) {
    if (!left_signed && right_signed)
      return dpbusd(sum, left, right);
    if (left_signed && !right_signed)
      return dpbusd(sum, right, left);
    Value *zero = llvm::Constant::getNullValue(sum->getType());
    if (left_signed) { // both signed
      Value *biased = b_.CreateXor(left, bytes(0x80));
      Value *with_bias = dpbusd(sum, biased, right);
      Value *bias = dpbusd(zero, bytes(0x80), right);
      return b_.CreateSub(with_bias, bias);
    }
    // both unsigned
    Value *lowered = b_.CreateXor(right, bytes(0x80));
    Value *without = dpbusd(sum, left, lowered);
    Value *left_sum = dpbusd(zero, left, bytes(1));
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
  const llvm::DataLayout &dl = root->getModule()->getDataLayout();
  llvm::SmallVector<Value *, 16> terms;
  addTerms(root, terms);
  // Products by operands and signedness, in the order met; four of one
  // key, one of each byte, make a dot product.
  using Key = std::tuple<Value *, unsigned, Value *, unsigned>;
  auto code = [](const ByteOfWords &b) {
    return unsigned(b.form) * 2 + unsigned(b.is_signed);
  };
  struct Term {
    size_t index;
    ByteOfWords left, right;
  };
  llvm::MapVector<Key, std::array<llvm::SmallVector<Term, 2>, 4>> products;
  for (size_t i = 0; i < terms.size(); ++i)
    if (auto product = bytesProduct(terms[i], dl)) {
      // One order for both operand orders.
      ByteOfWords a = product->left, b = product->right;
      if (std::make_pair(code(b), b.words) < std::make_pair(code(a), a.words))
        std::swap(a, b);
      products[{a.words, code(a), b.words, code(b)}][a.k].push_back({i, a, b});
    }
  struct Dot {
    DotOperand left, right;
    llvm::SmallVector<size_t, 4> terms;
  };
  std::vector<Dot> dots;
  for (auto &[key, by_byte] : products)
    while (llvm::all_of(by_byte, [](auto &list) { return !list.empty(); })) {
      Dot dot;
      for (unsigned k = 0; k < 4; ++k) {
        Term term = by_byte[k].pop_back_val();
        dot.terms.push_back(term.index);
        dot.left = {term.left.words, term.left.form, term.left.is_signed,
                    dot.left.loads};
        dot.right = {term.right.words, term.right.form, term.right.is_signed,
                     dot.right.loads};
        dot.left.loads[k] = term.left.load;
        dot.right.loads[k] = term.right.load;
      }
      dots.push_back(dot);
    }
  if (dots.empty())
    return false;
  // The operands' words; a dot product whose words cannot be had stays.
  DotRewriter rewriter(root, register_lanes);
  std::vector<bool> used(terms.size(), false);
  std::vector<std::pair<Value *, Value *>> dot_words;
  std::vector<const Dot *> rewritten;
  for (const Dot &dot : dots) {
    Value *left = rewriter.words(dot.left);
    Value *right = left ? rewriter.words(dot.right) : nullptr;
    if (!left || !right)
      continue;
    for (size_t t : dot.terms)
      used[t] = true;
    dot_words.push_back({left, right});
    rewritten.push_back(&dot);
  }
  if (rewritten.empty())
    return false;
  // A lone mixed-signedness dot product added with signed saturation
  // (dot_acc_sat of uchar4 and char4): one vpdpbusds.
  auto *saturating =
      root->hasOneUse()
          ? llvm::dyn_cast<llvm::IntrinsicInst>(root->user_back())
          : nullptr;
  const Dot &first = *rewritten[0];
  if (rewritten.size() == 1 && terms.size() == 4 && saturating &&
      saturating->getIntrinsicID() == llvm::Intrinsic::sadd_sat &&
      first.left.is_signed != first.right.is_signed) {
    Value *other = saturating->getArgOperand(
        saturating->getArgOperand(0) == root ? 1 : 0);
    auto [left, right] = dot_words[0];
    rewriter.builder().SetInsertPoint(saturating);
    Value *result = first.left.is_signed
                        ? rewriter.dpbusd(other, right, left, true)
                        : rewriter.dpbusd(other, left, right, true);
    result->takeName(saturating);
    saturating->replaceAllUsesWith(result);
    llvm::RecursivelyDeleteTriviallyDeadInstructions(saturating);
    return true;
  }
  llvm::IRBuilder<> &b = rewriter.builder();
  Value *sum = nullptr;
  for (size_t i = 0; i < terms.size(); ++i)
    if (!used[i])
      sum = sum ? b.CreateAdd(sum, terms[i]) : terms[i];
  if (!sum)
    sum = llvm::Constant::getNullValue(root->getType());
  for (size_t d = 0; d < rewritten.size(); ++d)
    sum = rewriter.addDot(sum, dot_words[d].first, rewritten[d]->left.is_signed,
                          dot_words[d].second, rewritten[d]->right.is_signed);
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
