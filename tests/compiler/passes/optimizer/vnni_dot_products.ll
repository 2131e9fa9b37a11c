; weft-vnni-dot-products: with VNNI, four products of byte k of two sets
; of 32-bit words (k = 0..3), added, become vpdpbusd on the words
; themselves (or, for an operand the same for all work-items, its word
; splat); mixed signedness takes one, both signed or both unsigned two
; and a fix-up; a mixed one added with signed saturation is vpdpbusds.
; Vectors wider than a register are split into register-wide parts.
; Without VNNI nothing changes.
; The functions' features are FEATURES, replaced by each run's CPU's.
; RUN: sed 's/FEATURES/+avx2,+avx512f,+avx512vl,+avx512vnni,+evex512/' %s | %weft-opt - -passes=weft-vnni-dot-products | FileCheck %s --check-prefix=AVX512
; RUN: sed 's/FEATURES/+avx2,+avxvnni/' %s | %weft-opt - -passes=weft-vnni-dot-products | FileCheck %s --check-prefix=AVXVNNI
; RUN: sed 's/FEATURES/+avx2,+fma/' %s | %weft-opt - -passes=weft-vnni-dot-products | FileCheck %s --check-prefix=NONE

define <16 x i32> @unsigned_by_signed(<64 x i8> %u, <64 x i8> %s, <16 x i32> %acc) #0 {
  %u0 = shufflevector <64 x i8> %u, <64 x i8> poison, <16 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28, i32 32, i32 36, i32 40, i32 44, i32 48, i32 52, i32 56, i32 60>
  %u1 = shufflevector <64 x i8> %u, <64 x i8> poison, <16 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29, i32 33, i32 37, i32 41, i32 45, i32 49, i32 53, i32 57, i32 61>
  %u2 = shufflevector <64 x i8> %u, <64 x i8> poison, <16 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30, i32 34, i32 38, i32 42, i32 46, i32 50, i32 54, i32 58, i32 62>
  %u3 = shufflevector <64 x i8> %u, <64 x i8> poison, <16 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31, i32 35, i32 39, i32 43, i32 47, i32 51, i32 55, i32 59, i32 63>
  %s0 = shufflevector <64 x i8> %s, <64 x i8> poison, <16 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28, i32 32, i32 36, i32 40, i32 44, i32 48, i32 52, i32 56, i32 60>
  %s1 = shufflevector <64 x i8> %s, <64 x i8> poison, <16 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29, i32 33, i32 37, i32 41, i32 45, i32 49, i32 53, i32 57, i32 61>
  %s2 = shufflevector <64 x i8> %s, <64 x i8> poison, <16 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30, i32 34, i32 38, i32 42, i32 46, i32 50, i32 54, i32 58, i32 62>
  %s3 = shufflevector <64 x i8> %s, <64 x i8> poison, <16 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31, i32 35, i32 39, i32 43, i32 47, i32 51, i32 55, i32 59, i32 63>
  %eu0 = zext <16 x i8> %u0 to <16 x i32>
  %eu1 = zext <16 x i8> %u1 to <16 x i32>
  %eu2 = zext <16 x i8> %u2 to <16 x i32>
  %eu3 = zext <16 x i8> %u3 to <16 x i32>
  %es0 = sext <16 x i8> %s0 to <16 x i32>
  %es1 = sext <16 x i8> %s1 to <16 x i32>
  %es2 = sext <16 x i8> %s2 to <16 x i32>
  %es3 = sext <16 x i8> %s3 to <16 x i32>
  %p0 = mul nsw <16 x i32> %eu0, %es0
  %p1 = mul nsw <16 x i32> %es1, %eu1
  %p2 = mul nsw <16 x i32> %eu2, %es2
  %p3 = mul nsw <16 x i32> %eu3, %es3
  %a0 = add <16 x i32> %p1, %acc
  %a1 = add <16 x i32> %a0, %p0
  %a2 = add <16 x i32> %a1, %p2
  %a3 = add <16 x i32> %a2, %p3
  ret <16 x i32> %a3
}
; AVX512-LABEL: define <16 x i32> @unsigned_by_signed(
; AVX512-NEXT: %[[U:[0-9]+]] = bitcast <64 x i8> %u to <16 x i32>
; AVX512-NEXT: %[[S:[0-9]+]] = bitcast <64 x i8> %s to <16 x i32>
; AVX512-NEXT: %a3 = call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32> %acc, <16 x i32> %[[U]], <16 x i32> %[[S]])
; AVX512-NEXT: ret <16 x i32> %a3
; AVX-512-wide words on a CPU with 256-bit VNNI: two halves, joined.
; AVXVNNI-LABEL: define <16 x i32> @unsigned_by_signed(
; AVXVNNI-COUNT-2: call <8 x i32> @llvm.x86.avx512.vpdpbusd.256(
; AVXVNNI: %a3 = shufflevector <8 x i32>
; AVXVNNI-NOT: mul
; AVXVNNI: ret <16 x i32> %a3
; NONE-LABEL: define <16 x i32> @unsigned_by_signed(
; NONE-COUNT-4: mul nsw <16 x i32>
; NONE-NOT: vpdpbusd

define <4 x i32> @both_signed(<16 x i8> %a, <16 x i8> %b) #0 {
  %a0 = shufflevector <16 x i8> %a, <16 x i8> poison, <4 x i32> <i32 0, i32 4, i32 8, i32 12>
  %a1 = shufflevector <16 x i8> %a, <16 x i8> poison, <4 x i32> <i32 1, i32 5, i32 9, i32 13>
  %a2 = shufflevector <16 x i8> %a, <16 x i8> poison, <4 x i32> <i32 2, i32 6, i32 10, i32 14>
  %a3 = shufflevector <16 x i8> %a, <16 x i8> poison, <4 x i32> <i32 3, i32 7, i32 11, i32 15>
  %b0 = shufflevector <16 x i8> %b, <16 x i8> poison, <4 x i32> <i32 0, i32 4, i32 8, i32 12>
  %b1 = shufflevector <16 x i8> %b, <16 x i8> poison, <4 x i32> <i32 1, i32 5, i32 9, i32 13>
  %b2 = shufflevector <16 x i8> %b, <16 x i8> poison, <4 x i32> <i32 2, i32 6, i32 10, i32 14>
  %b3 = shufflevector <16 x i8> %b, <16 x i8> poison, <4 x i32> <i32 3, i32 7, i32 11, i32 15>
  %ea0 = sext <4 x i8> %a0 to <4 x i32>
  %ea1 = sext <4 x i8> %a1 to <4 x i32>
  %ea2 = sext <4 x i8> %a2 to <4 x i32>
  %ea3 = sext <4 x i8> %a3 to <4 x i32>
  %eb0 = sext <4 x i8> %b0 to <4 x i32>
  %eb1 = sext <4 x i8> %b1 to <4 x i32>
  %eb2 = sext <4 x i8> %b2 to <4 x i32>
  %eb3 = sext <4 x i8> %b3 to <4 x i32>
  %p0 = mul nsw <4 x i32> %ea0, %eb0
  %p1 = mul nsw <4 x i32> %ea1, %eb1
  %p2 = mul nsw <4 x i32> %ea2, %eb2
  %p3 = mul nsw <4 x i32> %ea3, %eb3
  %s0 = add <4 x i32> %p0, %p1
  %s1 = add <4 x i32> %p2, %p3
  %sum = add <4 x i32> %s0, %s1
  ret <4 x i32> %sum
}
; a + 128 is a's byte unsigned: the sum with it, less 128 times b's sum.
; AVX512-LABEL: define <4 x i32> @both_signed(
; AVX512: %[[A:[0-9]+]] = bitcast <16 x i8> %a to <4 x i32>
; AVX512: %[[B:[0-9]+]] = bitcast <16 x i8> %b to <4 x i32>
; AVX512: %[[BIASED:[0-9]+]] = xor <4 x i32> %[[A]], <i32 -2139062144,
; AVX512: %[[WITH:[a-z0-9]+]] = call <4 x i32> @llvm.x86.avx512.vpdpbusd.128(<4 x i32> zeroinitializer, <4 x i32> %[[BIASED]], <4 x i32> %[[B]])
; AVX512: %[[BIAS:[a-z0-9]+]] = call <4 x i32> @llvm.x86.avx512.vpdpbusd.128(<4 x i32> zeroinitializer, <4 x i32> <i32 -2139062144, {{.*}}>, <4 x i32> %[[B]])
; AVX512: %sum = sub <4 x i32> %[[WITH]], %[[BIAS]]
; AVX512-NOT: mul
; AVX512: ret <4 x i32> %sum

define <8 x i32> @both_unsigned(<32 x i8> %a, <32 x i8> %b) #0 {
  %a0 = shufflevector <32 x i8> %a, <32 x i8> poison, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %a1 = shufflevector <32 x i8> %a, <32 x i8> poison, <8 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29>
  %a2 = shufflevector <32 x i8> %a, <32 x i8> poison, <8 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30>
  %a3 = shufflevector <32 x i8> %a, <32 x i8> poison, <8 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31>
  %b0 = shufflevector <32 x i8> %b, <32 x i8> poison, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %b1 = shufflevector <32 x i8> %b, <32 x i8> poison, <8 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29>
  %b2 = shufflevector <32 x i8> %b, <32 x i8> poison, <8 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30>
  %b3 = shufflevector <32 x i8> %b, <32 x i8> poison, <8 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31>
  %ea0 = zext <8 x i8> %a0 to <8 x i32>
  %ea1 = zext <8 x i8> %a1 to <8 x i32>
  %ea2 = zext <8 x i8> %a2 to <8 x i32>
  %ea3 = zext <8 x i8> %a3 to <8 x i32>
  %eb0 = zext <8 x i8> %b0 to <8 x i32>
  %eb1 = zext <8 x i8> %b1 to <8 x i32>
  %eb2 = zext <8 x i8> %b2 to <8 x i32>
  %eb3 = zext <8 x i8> %b3 to <8 x i32>
  %p0 = mul nuw nsw <8 x i32> %ea0, %eb0
  %p1 = mul nuw nsw <8 x i32> %ea1, %eb1
  %p2 = mul nuw nsw <8 x i32> %ea2, %eb2
  %p3 = mul nuw nsw <8 x i32> %ea3, %eb3
  %s0 = add <8 x i32> %p0, %p1
  %s1 = add <8 x i32> %s0, %p2
  %sum = add <8 x i32> %s1, %p3
  ret <8 x i32> %sum
}
; b - 128 is b's byte signed: the sum with it, plus 128 times a's sum.
; AVX512-LABEL: define <8 x i32> @both_unsigned(
; AVX512: %[[A:[0-9]+]] = bitcast <32 x i8> %a to <8 x i32>
; AVX512: %[[B:[0-9]+]] = bitcast <32 x i8> %b to <8 x i32>
; AVX512: %[[LOWERED:[0-9]+]] = xor <8 x i32> %[[B]], <i32 -2139062144,
; AVX512: %[[WITHOUT:[a-z0-9]+]] = call <8 x i32> @llvm.x86.avx512.vpdpbusd.256(<8 x i32> zeroinitializer, <8 x i32> %[[A]], <8 x i32> %[[LOWERED]])
; AVX512: %[[ASUM:[a-z0-9]+]] = call <8 x i32> @llvm.x86.avx512.vpdpbusd.256(<8 x i32> zeroinitializer, <8 x i32> %[[A]], <8 x i32> <i32 16843009,
; AVX512: %[[SHIFTED:[0-9]+]] = shl <8 x i32> %[[ASUM]], <i32 7,
; AVX512: %sum = add <8 x i32> %[[WITHOUT]], %[[SHIFTED]]
; AVX512-NOT: mul
; AVX512: ret <8 x i32> %sum

define <16 x i32> @saturated(<64 x i8> %s, <64 x i8> %u, <16 x i32> %acc) #0 {
  %u0 = shufflevector <64 x i8> %u, <64 x i8> poison, <16 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28, i32 32, i32 36, i32 40, i32 44, i32 48, i32 52, i32 56, i32 60>
  %u1 = shufflevector <64 x i8> %u, <64 x i8> poison, <16 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29, i32 33, i32 37, i32 41, i32 45, i32 49, i32 53, i32 57, i32 61>
  %u2 = shufflevector <64 x i8> %u, <64 x i8> poison, <16 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30, i32 34, i32 38, i32 42, i32 46, i32 50, i32 54, i32 58, i32 62>
  %u3 = shufflevector <64 x i8> %u, <64 x i8> poison, <16 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31, i32 35, i32 39, i32 43, i32 47, i32 51, i32 55, i32 59, i32 63>
  %s0 = shufflevector <64 x i8> %s, <64 x i8> poison, <16 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28, i32 32, i32 36, i32 40, i32 44, i32 48, i32 52, i32 56, i32 60>
  %s1 = shufflevector <64 x i8> %s, <64 x i8> poison, <16 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29, i32 33, i32 37, i32 41, i32 45, i32 49, i32 53, i32 57, i32 61>
  %s2 = shufflevector <64 x i8> %s, <64 x i8> poison, <16 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30, i32 34, i32 38, i32 42, i32 46, i32 50, i32 54, i32 58, i32 62>
  %s3 = shufflevector <64 x i8> %s, <64 x i8> poison, <16 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31, i32 35, i32 39, i32 43, i32 47, i32 51, i32 55, i32 59, i32 63>
  %eu0 = zext <16 x i8> %u0 to <16 x i32>
  %eu1 = zext <16 x i8> %u1 to <16 x i32>
  %eu2 = zext <16 x i8> %u2 to <16 x i32>
  %eu3 = zext <16 x i8> %u3 to <16 x i32>
  %es0 = sext <16 x i8> %s0 to <16 x i32>
  %es1 = sext <16 x i8> %s1 to <16 x i32>
  %es2 = sext <16 x i8> %s2 to <16 x i32>
  %es3 = sext <16 x i8> %s3 to <16 x i32>
  %p0 = mul nsw <16 x i32> %es0, %eu0
  %p1 = mul nsw <16 x i32> %es1, %eu1
  %p2 = mul nsw <16 x i32> %es2, %eu2
  %p3 = mul nsw <16 x i32> %es3, %eu3
  %a0 = add <16 x i32> %p0, %p1
  %a1 = add <16 x i32> %a0, %p2
  %dot = add <16 x i32> %a1, %p3
  %r = call <16 x i32> @llvm.sadd.sat.v16i32(<16 x i32> %acc, <16 x i32> %dot)
  ret <16 x i32> %r
}
; AVX512-LABEL: define <16 x i32> @saturated(
; AVX512-NEXT: %[[U:[0-9]+]] = bitcast <64 x i8> %u to <16 x i32>
; AVX512-NEXT: %[[S:[0-9]+]] = bitcast <64 x i8> %s to <16 x i32>
; AVX512-NEXT: %r = call <16 x i32> @llvm.x86.avx512.vpdpbusds.512(<16 x i32> %acc, <16 x i32> %[[U]], <16 x i32> %[[S]])
; AVX512-NEXT: ret <16 x i32> %r

; One operand's byte shuffles moved into the two sides of a masked load
; (AVX2's whole/masked paths) and joined by phis: joined as words first.
define <8 x i32> @bytes_after_phis(i1 %whole, <32 x i8> %w1, <32 x i8> %w2, <32 x i8> %s) #0 {
entry:
  br i1 %whole, label %left, label %right
left:
  %l0 = shufflevector <32 x i8> %w1, <32 x i8> poison, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %l1 = shufflevector <32 x i8> %w1, <32 x i8> poison, <8 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29>
  %l2 = shufflevector <32 x i8> %w1, <32 x i8> poison, <8 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30>
  %l3 = shufflevector <32 x i8> %w1, <32 x i8> poison, <8 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31>
  br label %join
right:
  %r0 = shufflevector <32 x i8> %w2, <32 x i8> poison, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %r1 = shufflevector <32 x i8> %w2, <32 x i8> poison, <8 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29>
  %r2 = shufflevector <32 x i8> %w2, <32 x i8> poison, <8 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30>
  %r3 = shufflevector <32 x i8> %w2, <32 x i8> poison, <8 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31>
  br label %join
join:
  %j0 = phi <8 x i8> [ %l0, %left ], [ %r0, %right ]
  %j1 = phi <8 x i8> [ %l1, %left ], [ %r1, %right ]
  %j2 = phi <8 x i8> [ %l2, %left ], [ %r2, %right ]
  %j3 = phi <8 x i8> [ %l3, %left ], [ %r3, %right ]
  %s0 = shufflevector <32 x i8> %s, <32 x i8> poison, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %s1 = shufflevector <32 x i8> %s, <32 x i8> poison, <8 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29>
  %s2 = shufflevector <32 x i8> %s, <32 x i8> poison, <8 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30>
  %s3 = shufflevector <32 x i8> %s, <32 x i8> poison, <8 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31>
  %e0 = zext <8 x i8> %j0 to <8 x i32>
  %e1 = zext <8 x i8> %j1 to <8 x i32>
  %e2 = zext <8 x i8> %j2 to <8 x i32>
  %e3 = zext <8 x i8> %j3 to <8 x i32>
  %t0 = sext <8 x i8> %s0 to <8 x i32>
  %t1 = sext <8 x i8> %s1 to <8 x i32>
  %t2 = sext <8 x i8> %s2 to <8 x i32>
  %t3 = sext <8 x i8> %s3 to <8 x i32>
  %p0 = mul nsw <8 x i32> %e0, %t0
  %p1 = mul nsw <8 x i32> %e1, %t1
  %p2 = mul nsw <8 x i32> %e2, %t2
  %p3 = mul nsw <8 x i32> %e3, %t3
  %a0 = add <8 x i32> %p0, %p1
  %a1 = add <8 x i32> %a0, %p2
  %sum = add <8 x i32> %a1, %p3
  ret <8 x i32> %sum
}
; AVXVNNI-LABEL: define <8 x i32> @bytes_after_phis(
; AVXVNNI: join:
; AVXVNNI-NEXT: %words = phi <32 x i8> [ %w1, %left ], [ %w2, %right ]
; AVXVNNI-NOT: phi
; AVXVNNI: bitcast <32 x i8> %words to <8 x i32>
; AVXVNNI: %sum = call <8 x i32> @llvm.x86.avx512.vpdpbusd.256(<8 x i32> zeroinitializer,
; AVXVNNI-NOT: mul
; AVXVNNI: ret <8 x i32> %sum

; Three bytes only: not a dot product, left alone.
define <16 x i32> @three_bytes(<64 x i8> %u, <64 x i8> %s) #0 {
  %u0 = shufflevector <64 x i8> %u, <64 x i8> poison, <16 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28, i32 32, i32 36, i32 40, i32 44, i32 48, i32 52, i32 56, i32 60>
  %u1 = shufflevector <64 x i8> %u, <64 x i8> poison, <16 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29, i32 33, i32 37, i32 41, i32 45, i32 49, i32 53, i32 57, i32 61>
  %u2 = shufflevector <64 x i8> %u, <64 x i8> poison, <16 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30, i32 34, i32 38, i32 42, i32 46, i32 50, i32 54, i32 58, i32 62>
  %s0 = shufflevector <64 x i8> %s, <64 x i8> poison, <16 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28, i32 32, i32 36, i32 40, i32 44, i32 48, i32 52, i32 56, i32 60>
  %s1 = shufflevector <64 x i8> %s, <64 x i8> poison, <16 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29, i32 33, i32 37, i32 41, i32 45, i32 49, i32 53, i32 57, i32 61>
  %s2 = shufflevector <64 x i8> %s, <64 x i8> poison, <16 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30, i32 34, i32 38, i32 42, i32 46, i32 50, i32 54, i32 58, i32 62>
  %eu0 = zext <16 x i8> %u0 to <16 x i32>
  %eu1 = zext <16 x i8> %u1 to <16 x i32>
  %eu2 = zext <16 x i8> %u2 to <16 x i32>
  %es0 = sext <16 x i8> %s0 to <16 x i32>
  %es1 = sext <16 x i8> %s1 to <16 x i32>
  %es2 = sext <16 x i8> %s2 to <16 x i32>
  %p0 = mul nsw <16 x i32> %eu0, %es0
  %p1 = mul nsw <16 x i32> %eu1, %es1
  %p2 = mul nsw <16 x i32> %eu2, %es2
  %a0 = add <16 x i32> %p0, %p1
  %a1 = add <16 x i32> %a0, %p2
  ret <16 x i32> %a1
}
; AVX512-LABEL: define <16 x i32> @three_bytes(
; AVX512-COUNT-3: mul nsw <16 x i32>
; AVX512-NOT: vpdpbusd
; AVX512: ret

; One operand the same for all work-items (a GEMV's vector): its bytes
; loaded one by one from memory, each splat, become one load of the word,
; splat. The other's bytes taken from a word in a register with shifts
; and masks are that word.
define <16 x i32> @uniform_operand(<64 x i8> %m, ptr %x, <16 x i32> %acc) #0 {
  %m0 = shufflevector <64 x i8> %m, <64 x i8> poison, <16 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28, i32 32, i32 36, i32 40, i32 44, i32 48, i32 52, i32 56, i32 60>
  %m1 = shufflevector <64 x i8> %m, <64 x i8> poison, <16 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29, i32 33, i32 37, i32 41, i32 45, i32 49, i32 53, i32 57, i32 61>
  %m2 = shufflevector <64 x i8> %m, <64 x i8> poison, <16 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30, i32 34, i32 38, i32 42, i32 46, i32 50, i32 54, i32 58, i32 62>
  %m3 = shufflevector <64 x i8> %m, <64 x i8> poison, <16 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31, i32 35, i32 39, i32 43, i32 47, i32 51, i32 55, i32 59, i32 63>
  %em0 = sext <16 x i8> %m0 to <16 x i32>
  %em1 = sext <16 x i8> %m1 to <16 x i32>
  %em2 = sext <16 x i8> %m2 to <16 x i32>
  %em3 = sext <16 x i8> %m3 to <16 x i32>
  %x1 = getelementptr i8, ptr %x, i64 1
  %x2 = getelementptr i8, ptr %x, i64 2
  %x3 = getelementptr i8, ptr %x, i64 3
  %b0 = load i8, ptr %x, align 4
  %b1 = load i8, ptr %x1, align 1
  %b2 = load i8, ptr %x2, align 2
  %b3 = load i8, ptr %x3, align 1
  %u0 = zext i8 %b0 to i32
  %u1 = zext i8 %b1 to i32
  %u2 = zext i8 %b2 to i32
  %u3 = zext i8 %b3 to i32
  %i0 = insertelement <16 x i32> poison, i32 %u0, i64 0
  %s0 = shufflevector <16 x i32> %i0, <16 x i32> poison, <16 x i32> zeroinitializer
  %i1 = insertelement <16 x i32> poison, i32 %u1, i64 0
  %s1 = shufflevector <16 x i32> %i1, <16 x i32> poison, <16 x i32> zeroinitializer
  %i2 = insertelement <16 x i32> poison, i32 %u2, i64 0
  %s2 = shufflevector <16 x i32> %i2, <16 x i32> poison, <16 x i32> zeroinitializer
  %i3 = insertelement <16 x i32> poison, i32 %u3, i64 0
  %s3 = shufflevector <16 x i32> %i3, <16 x i32> poison, <16 x i32> zeroinitializer
  %p0 = mul nsw <16 x i32> %s0, %em0
  %p1 = mul nsw <16 x i32> %s1, %em1
  %p2 = mul nsw <16 x i32> %s2, %em2
  %p3 = mul nsw <16 x i32> %s3, %em3
  %a0 = add <16 x i32> %p0, %acc
  %a1 = add <16 x i32> %a0, %p1
  %a2 = add <16 x i32> %a1, %p2
  %a3 = add <16 x i32> %a2, %p3
  ret <16 x i32> %a3
}
; AVX512-LABEL: define <16 x i32> @uniform_operand(
; AVX512: %word = load i32, ptr %x, align 1
; AVX512-NOT: load i8
; AVX512: %[[SPLAT:[^ ]+]] = shufflevector <16 x i32> %{{[^ ]+}}, <16 x i32> poison, <16 x i32> zeroinitializer
; AVX512: %a3 = call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32> %acc, <16 x i32> %[[SPLAT]], <16 x i32> %{{[0-9]+}})
; AVX512-NOT: mul
; AVX512: ret <16 x i32> %a3

define <8 x i32> @register_word(<32 x i8> %m, i32 %w) #0 {
  %m0 = shufflevector <32 x i8> %m, <32 x i8> poison, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %m1 = shufflevector <32 x i8> %m, <32 x i8> poison, <8 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29>
  %m2 = shufflevector <32 x i8> %m, <32 x i8> poison, <8 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30>
  %m3 = shufflevector <32 x i8> %m, <32 x i8> poison, <8 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31>
  %em0 = zext <8 x i8> %m0 to <8 x i32>
  %em1 = zext <8 x i8> %m1 to <8 x i32>
  %em2 = zext <8 x i8> %m2 to <8 x i32>
  %em3 = zext <8 x i8> %m3 to <8 x i32>
  %sh0 = shl i32 %w, 24
  %w0 = ashr exact i32 %sh0, 24
  %sh1 = shl i32 %w, 16
  %w1 = ashr i32 %sh1, 24
  %sh2 = shl i32 %w, 8
  %w2 = ashr i32 %sh2, 24
  %w3 = ashr i32 %w, 24
  %i0 = insertelement <8 x i32> poison, i32 %w0, i64 0
  %s0 = shufflevector <8 x i32> %i0, <8 x i32> poison, <8 x i32> zeroinitializer
  %i1 = insertelement <8 x i32> poison, i32 %w1, i64 0
  %s1 = shufflevector <8 x i32> %i1, <8 x i32> poison, <8 x i32> zeroinitializer
  %i2 = insertelement <8 x i32> poison, i32 %w2, i64 0
  %s2 = shufflevector <8 x i32> %i2, <8 x i32> poison, <8 x i32> zeroinitializer
  %i3 = insertelement <8 x i32> poison, i32 %w3, i64 0
  %s3 = shufflevector <8 x i32> %i3, <8 x i32> poison, <8 x i32> zeroinitializer
  %p0 = mul nsw <8 x i32> %em0, %s0
  %p1 = mul nsw <8 x i32> %em1, %s1
  %p2 = mul nsw <8 x i32> %em2, %s2
  %p3 = mul nsw <8 x i32> %em3, %s3
  %a0 = add <8 x i32> %p0, %p1
  %a1 = add <8 x i32> %a0, %p2
  %sum = add <8 x i32> %a1, %p3
  ret <8 x i32> %sum
}
; AVX512-LABEL: define <8 x i32> @register_word(
; AVX512: %[[INSERT:[^ ]+]] = insertelement <8 x i32> poison, i32 %w, i64 0
; AVX512: %[[SPLAT:[^ ]+]] = shufflevector <8 x i32> %[[INSERT]], <8 x i32> poison, <8 x i32> zeroinitializer
; AVX512: %sum = call <8 x i32> @llvm.x86.avx512.vpdpbusd.256(<8 x i32> zeroinitializer, <8 x i32> %{{[0-9]+}}, <8 x i32> %[[SPLAT]])
; AVX512-NOT: mul
; AVX512: ret <8 x i32> %sum

declare <16 x i32> @llvm.sadd.sat.v16i32(<16 x i32>, <16 x i32>)

attributes #0 = { "target-features"="FEATURES" }
