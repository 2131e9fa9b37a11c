; weft-element-wise-vectors: a vector computed one element at a time (an
; extract, a scalar operation and an insert per element, as CLBlast's
; per-component `mad`s compile) is rebuilt as the operation on whole
; vectors, so the widener keeps each work-item's vector whole.
; RUN: %weft-opt %s -passes=weft-element-wise-vectors | FileCheck %s

; c += a * b.x, element by element: one vector FMA with b.x broadcast.
; CHECK-LABEL: define <4 x float> @mad4(
; CHECK-NEXT: %b0 = extractelement <2 x float> %b, i64 0
; CHECK-NEXT: %.splatinsert = insertelement <4 x float> poison, float %b0, i64 0
; CHECK-NEXT: %.splat = shufflevector <4 x float> %.splatinsert, <4 x float> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: %[[FMA:[0-9]+]] = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a, <4 x float> %.splat, <4 x float> %c)
; CHECK-NEXT: ret <4 x float> %[[FMA]]
define <4 x float> @mad4(<4 x float> %c, <4 x float> %a, <2 x float> %b) {
  %b0 = extractelement <2 x float> %b, i64 0
  %a0 = extractelement <4 x float> %a, i64 0
  %c0 = extractelement <4 x float> %c, i64 0
  %r0 = call float @llvm.fmuladd.f32(float %a0, float %b0, float %c0)
  %v0 = insertelement <4 x float> poison, float %r0, i64 0
  %a1 = extractelement <4 x float> %a, i64 1
  %c1 = extractelement <4 x float> %c, i64 1
  %r1 = call float @llvm.fmuladd.f32(float %a1, float %b0, float %c1)
  %v1 = insertelement <4 x float> %v0, float %r1, i64 1
  %a2 = extractelement <4 x float> %a, i64 2
  %c2 = extractelement <4 x float> %c, i64 2
  %r2 = call float @llvm.fmuladd.f32(float %a2, float %b0, float %c2)
  %v2 = insertelement <4 x float> %v1, float %r2, i64 2
  %a3 = extractelement <4 x float> %a, i64 3
  %c3 = extractelement <4 x float> %c, i64 3
  %r3 = call float @llvm.fmuladd.f32(float %a3, float %b0, float %c3)
  %v3 = insertelement <4 x float> %v2, float %r3, i64 3
  ret <4 x float> %v3
}

; A chain of operations, a constant and a conversion, elements inserted out
; of order: (float)(x * 2 + 1) on whole vectors, the flags the elements
; share kept.
; CHECK-LABEL: define <2 x float> @chain(
; CHECK-NEXT: %[[MUL:[0-9]+]] = mul nsw <2 x i32> %x, <i32 2, i32 2>
; CHECK-NEXT: %[[ADD:[0-9]+]] = add nsw <2 x i32> %[[MUL]], <i32 1, i32 1>
; CHECK-NEXT: %[[CONV:[0-9]+]] = sitofp <2 x i32> %[[ADD]] to <2 x float>
; CHECK-NEXT: ret <2 x float> %[[CONV]]
define <2 x float> @chain(<2 x i32> %x) {
  %x1 = extractelement <2 x i32> %x, i64 1
  %m1 = mul nsw i32 %x1, 2
  %s1 = add nsw i32 %m1, 1
  %f1 = sitofp i32 %s1 to float
  %v1 = insertelement <2 x float> poison, float %f1, i64 1
  %x0 = extractelement <2 x i32> %x, i64 0
  %m0 = mul nsw i32 %x0, 2
  %s0 = add nsw i32 %m0, 1
  %f0 = sitofp i32 %s0 to float
  %v0 = insertelement <2 x float> %v1, float %f0, i64 0
  ret <2 x float> %v0
}

; Elements swapped: a shuffle, not an operation per element.
; CHECK-LABEL: define <2 x float> @swapped(
; CHECK-NEXT: %[[SWAP:[0-9]+]] = shufflevector <2 x float> %a, <2 x float> poison, <2 x i32> <i32 1, i32 0>
; CHECK-NEXT: %[[SUM:[0-9]+]] = fadd fast <2 x float> %[[SWAP]], %b
; CHECK-NEXT: ret <2 x float> %[[SUM]]
define <2 x float> @swapped(<2 x float> %a, <2 x float> %b) {
  %a1 = extractelement <2 x float> %a, i64 1
  %b0 = extractelement <2 x float> %b, i64 0
  %s0 = fadd fast float %a1, %b0
  %v0 = insertelement <2 x float> poison, float %s0, i64 0
  %a0 = extractelement <2 x float> %a, i64 0
  %b1 = extractelement <2 x float> %b, i64 1
  %s1 = fadd fast float %a0, %b1
  %v1 = insertelement <2 x float> %v0, float %s1, i64 1
  ret <2 x float> %v1
}

; Left element by element: different operations per element and an element
; never set.
; CHECK-LABEL: define <2 x float> @mixed(
; CHECK: fadd float
; CHECK: fmul float
; CHECK: ret <2 x float>
define <2 x float> @mixed(<2 x float> %a) {
  %a0 = extractelement <2 x float> %a, i64 0
  %a1 = extractelement <2 x float> %a, i64 1
  %s0 = fadd float %a0, 1.0
  %s1 = fmul float %a1, 2.0
  %v0 = insertelement <2 x float> poison, float %s0, i64 0
  %v1 = insertelement <2 x float> %v0, float %s1, i64 1
  ret <2 x float> %v1
}

; An element used again after the vector is complete (InstCombine forwards
; an element to its readers: an unrolled loop's next step of `c.x = mad(a.x,
; b, c.x)` reads the scalar) reads it out of the rebuilt vector.
; CHECK-LABEL: define float @shared(
; CHECK: [[V:%[0-9]+]] = fadd <2 x float> %a, <float 1.000000e+00, float 1.000000e+00>
; CHECK-NEXT: [[S0:%[a-z0-9.]+]] = extractelement <2 x float> [[V]], i64 0
; CHECK-NEXT: store <2 x float> [[V]], ptr %out
; CHECK-NEXT: ret float [[S0]]
define float @shared(<2 x float> %a, ptr %out) {
  %a0 = extractelement <2 x float> %a, i64 0
  %a1 = extractelement <2 x float> %a, i64 1
  %s0 = fadd float %a0, 1.0
  %s1 = fadd float %a1, 1.0
  %v0 = insertelement <2 x float> poison, float %s0, i64 0
  %v1 = insertelement <2 x float> %v0, float %s1, i64 1
  store <2 x float> %v1, ptr %out
  ret float %s0
}

; CHECK-LABEL: define <4 x float> @partial(
; CHECK: fadd float
; CHECK: fadd float
define <4 x float> @partial(<4 x float> %a, <4 x float> %base) {
  %a0 = extractelement <4 x float> %a, i64 0
  %a1 = extractelement <4 x float> %a, i64 1
  %s0 = fadd float %a0, 1.0
  %s1 = fadd float %a1, 1.0
  %v0 = insertelement <4 x float> %base, float %s0, i64 0
  %v1 = insertelement <4 x float> %v0, float %s1, i64 1
  ret <4 x float> %v1
}

declare float @llvm.fmuladd.f32(float, float, float)
