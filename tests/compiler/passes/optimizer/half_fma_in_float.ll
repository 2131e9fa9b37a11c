; weft-half-fma-in-float: without AVX-512 FP16, a half FMA (mad on half)
; becomes a float FMA of the whole vector between two conversions, which
; the code generator emits as vcvtph2ps, vfmadd and vcvtps2ph on whole
; registers; with AVX-512 FP16 it stays a native half FMA. A contracted
; a * b + c (llvm.fmuladd) is left alone.
; RUN: %weft-opt %s -passes=weft-half-fma-in-float | FileCheck %s

; CHECK-LABEL: define <16 x half> @mad16(
; CHECK: %[[A:[^ ]+]] = fpext <16 x half> %a to <16 x float>
; CHECK: %[[B:[^ ]+]] = fpext <16 x half> %b to <16 x float>
; CHECK: %[[C:[^ ]+]] = fpext <16 x half> %c to <16 x float>
; CHECK: %[[F:[^ ]+]] = call <16 x float> @llvm.fma.v16f32(<16 x float> %[[A]], <16 x float> %[[B]], <16 x float> %[[C]])
; CHECK: %[[H:[^ ]+]] = fptrunc <16 x float> %[[F]] to <16 x half>
; CHECK: ret <16 x half> %[[H]]
define <16 x half> @mad16(<16 x half> %a, <16 x half> %b, <16 x half> %c) #0 {
  %m = call <16 x half> @llvm.fma.v16f16(<16 x half> %a, <16 x half> %b, <16 x half> %c)
  ret <16 x half> %m
}

; CHECK-LABEL: define half @mad1(
; CHECK: call float @llvm.fma.f32(
; CHECK: fptrunc float
define half @mad1(half %a, half %b, half %c) #0 {
  %m = call half @llvm.fma.f16(half %a, half %b, half %c)
  ret half %m
}

; CHECK-LABEL: define <16 x half> @contracted(
; CHECK: call <16 x half> @llvm.fmuladd.v16f16(
define <16 x half> @contracted(<16 x half> %a, <16 x half> %b, <16 x half> %c) #0 {
  %m = call <16 x half> @llvm.fmuladd.v16f16(<16 x half> %a, <16 x half> %b, <16 x half> %c)
  ret <16 x half> %m
}

; CHECK-LABEL: define <32 x half> @native(
; CHECK: call <32 x half> @llvm.fma.v32f16(
; CHECK-NOT: fpext
define <32 x half> @native(<32 x half> %a, <32 x half> %b, <32 x half> %c) #1 {
  %m = call <32 x half> @llvm.fma.v32f16(<32 x half> %a, <32 x half> %b, <32 x half> %c)
  ret <32 x half> %m
}

declare <16 x half> @llvm.fma.v16f16(<16 x half>, <16 x half>, <16 x half>)
declare half @llvm.fma.f16(half, half, half)
declare <16 x half> @llvm.fmuladd.v16f16(<16 x half>, <16 x half>, <16 x half>)
declare <32 x half> @llvm.fma.v32f16(<32 x half>, <32 x half>, <32 x half>)

attributes #0 = { "target-cpu"="znver3" "target-features"="+avx,+avx2,+f16c,+fma" }
attributes #1 = { "target-cpu"="sapphirerapids" "target-features"="+avx,+avx2,+avx512f,+avx512fp16,+f16c,+fma" }
