// weft-vnni-dot-products: on CPUs with VNNI (AVX-512 VNNI, or AVX-VNNI),
// sums of 8-bit products become vpdpbusd, which multiplies four bytes of
// each 32-bit lane with four bytes of another's and adds the four products
// to the lane, in one instruction.
//
// What it finds is how widened code computes cl_khr_integer_dot_product's
// dot products (dot, dot_acc_sat, dot_4x8packed_*): the work-items' packed
// words side by side, <N x i32> or <4N x i8>; byte k of each word taken out
// by a stride-4 shuffle, sign or zero extended, multiplied by the same byte
// of the other operand's words, and the four products of k = 0..3 added
// (with anything else) in a tree of adds. An operand the same for all
// work-items (a GEMV's vector) is its bytes splat, taken from a word in a
// register or loaded one by one: it is read as that word, splat (loaded
// once where no store comes between the byte loads). Each such four
// becomes
//   unsigned x signed:  vpdpbusd(sum, u, s)
//   signed x signed:    vpdpbusd(sum, a ^ 0x80, b) - vpdpbusd(0, 0x80, b)
//                       (a + 128 is a's unsigned byte; the second takes
//                       128 * b's sum back)
//   unsigned x unsigned: vpdpbusd(sum, a, b ^ 0x80) + (vpdpbusd(0, a, 1) << 7)
//                       (b - 128 is b's signed byte)
// the sum wrapping as the adds did. Vectors wider than the registers are
// split into register-wide parts. Runs last in the optimizer, when the
// shuffles have their final form.
#pragma once
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class VnniDotProductsPass : public llvm::PassInfoMixin<VnniDotProductsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace weft::compiler
