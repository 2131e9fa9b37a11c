; weft-whole-runs-in-loops: a loop whose carried vectors each read one part
; of the same runs (a widened register tile: accumulator m of every lane
; reads element m of each lane's run, taken apart by shuffles) and do
; nothing with it but lane-wise arithmetic with values the same in every
; lane carries them as one vector in memory order: the shuffles leave the
; loop, the FMAs read the rows as loaded, and the parts are put together
; once before the loop and taken apart once after it.
; RUN: %weft-opt %s -passes=weft-whole-runs-in-loops | FileCheck %s

; Four accumulators of 8 lanes, each one part of a 32-float row (AVX-512's
; form: one load, four stride-4 shuffles), two k steps a round (the
; unrolled KWID loop of CLBlast's XgemmDirect), an FMA with B's element,
; the same for all lanes.
; CHECK-LABEL: define void @tile(
; CHECK: preheader:
; CHECK: %runs.start = shufflevector <32 x float> %{{.*}}, <32 x float> poison, <32 x i32> <i32 0, i32 8, i32 16, i32 24, i32 1, i32 9,
; CHECK: loop:
; CHECK-NEXT: %runs = phi <32 x float> [ %runs.start, %preheader ], [ [[NEXT:%.*]], %loop ]
; CHECK-NOT: shufflevector <32 x float> %row
; CHECK: [[FIRST:%.*]] = call <32 x float> @llvm.fmuladd.v32f32(<32 x float> %row, <32 x float> %{{.*}}, <32 x float> %runs)
; CHECK: [[NEXT]] = call <32 x float> @llvm.fmuladd.v32f32(<32 x float> %row2, <32 x float> %{{.*}}, <32 x float> [[FIRST]])
; CHECK-NOT: shufflevector <32 x float> %row
; CHECK: br i1 %more, label %loop, label %exit
; CHECK: exit:
; CHECK-NEXT: shufflevector <32 x float> [[NEXT]], <32 x float> poison, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
; CHECK-NEXT: shufflevector <32 x float> [[NEXT]], <32 x float> poison, <8 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29>
; CHECK: store <8 x float>
define void @tile(ptr %a, ptr %b, ptr %c, i64 %n) {
entry:
  %start = load <32 x float>, ptr %c, align 4
  %s0 = shufflevector <32 x float> %start, <32 x float> poison, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %s1 = shufflevector <32 x float> %start, <32 x float> poison, <8 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29>
  %s2 = shufflevector <32 x float> %start, <32 x float> poison, <8 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30>
  %s3 = shufflevector <32 x float> %start, <32 x float> poison, <8 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31>
  br label %preheader
preheader:
  br label %loop
loop:
  %k = phi i64 [ 0, %preheader ], [ %k.next, %loop ]
  %c0 = phi <8 x float> [ %s0, %preheader ], [ %d0, %loop ]
  %c1 = phi <8 x float> [ %s1, %preheader ], [ %d1, %loop ]
  %c2 = phi <8 x float> [ %s2, %preheader ], [ %d2, %loop ]
  %c3 = phi <8 x float> [ %s3, %preheader ], [ %d3, %loop ]
  %at = getelementptr float, ptr %a, i64 %k
  %row = load <32 x float>, ptr %at, align 4
  %a0 = shufflevector <32 x float> %row, <32 x float> poison, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %a1 = shufflevector <32 x float> %row, <32 x float> poison, <8 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29>
  %a2 = shufflevector <32 x float> %row, <32 x float> poison, <8 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30>
  %a3 = shufflevector <32 x float> %row, <32 x float> poison, <8 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31>
  %b.at = getelementptr float, ptr %b, i64 %k
  %bk = load float, ptr %b.at, align 4
  %b.in = insertelement <8 x float> poison, float %bk, i64 0
  %b.all = shufflevector <8 x float> %b.in, <8 x float> poison, <8 x i32> zeroinitializer
  %e0 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a0, <8 x float> %b.all, <8 x float> %c0)
  %e1 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a1, <8 x float> %b.all, <8 x float> %c1)
  %e2 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a2, <8 x float> %b.all, <8 x float> %c2)
  %e3 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %a3, <8 x float> %b.all, <8 x float> %c3)
  %k1 = add i64 %k, 33
  %at2 = getelementptr float, ptr %a, i64 %k1
  %row2 = load <32 x float>, ptr %at2, align 4
  %f0 = shufflevector <32 x float> %row2, <32 x float> poison, <8 x i32> <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>
  %f1 = shufflevector <32 x float> %row2, <32 x float> poison, <8 x i32> <i32 1, i32 5, i32 9, i32 13, i32 17, i32 21, i32 25, i32 29>
  %f2 = shufflevector <32 x float> %row2, <32 x float> poison, <8 x i32> <i32 2, i32 6, i32 10, i32 14, i32 18, i32 22, i32 26, i32 30>
  %f3 = shufflevector <32 x float> %row2, <32 x float> poison, <8 x i32> <i32 3, i32 7, i32 11, i32 15, i32 19, i32 23, i32 27, i32 31>
  %b2.at = getelementptr float, ptr %b, i64 %k1
  %bk2 = load float, ptr %b2.at, align 4
  %b2.in = insertelement <8 x float> poison, float %bk2, i64 0
  %b2.all = shufflevector <8 x float> %b2.in, <8 x float> poison, <8 x i32> zeroinitializer
  %d0 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %f0, <8 x float> %b2.all, <8 x float> %e0)
  %d1 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %f1, <8 x float> %b2.all, <8 x float> %e1)
  %d2 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %f2, <8 x float> %b2.all, <8 x float> %e2)
  %d3 = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %f3, <8 x float> %b2.all, <8 x float> %e3)
  %k.next = add i64 %k, 66
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %loop, label %exit
exit:
  %o0 = phi <8 x float> [ %d0, %loop ]
  %o1 = phi <8 x float> [ %d1, %loop ]
  %o2 = phi <8 x float> [ %d2, %loop ]
  %o3 = phi <8 x float> [ %d3, %loop ]
  %c1.at = getelementptr i8, ptr %c, i64 32
  %c2.at = getelementptr i8, ptr %c, i64 64
  %c3.at = getelementptr i8, ptr %c, i64 96
  store <8 x float> %o0, ptr %c, align 4
  store <8 x float> %o1, ptr %c1.at, align 4
  store <8 x float> %o2, ptr %c2.at, align 4
  store <8 x float> %o3, ptr %c3.at, align 4
  ret void
}

; AVX2's form: the run read in 16-byte pieces, put together in pairs and
; unzipped; the parts are the pieces' elements in memory order, so the
; whole is one load of the row where they lie (the loop writes no memory).
; A loop guard that skips to the exit gets the exit a block of its own.
; CHECK-LABEL: define void @pieces(
; CHECK: loop:
; CHECK: %runs.row = load <16 x float>, ptr %at, align 4
; CHECK-NOT: shufflevector <{{[48]}} x float>
; CHECK: call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %runs.row,
; CHECK-NOT: shufflevector <{{[48]}} x float>
; CHECK: br i1 %more, label %loop, label %[[AFTER:.*]]
; CHECK: [[AFTER]]:
; CHECK-COUNT-4: shufflevector <16 x float> %{{.*}}, <16 x float> poison, <4 x i32>
; CHECK: br label %exit
define void @pieces(ptr %a, ptr %b, ptr %c, i64 %n) {
entry:
  %some = icmp ne i64 %n, 0
  br i1 %some, label %preheader, label %exit
preheader:
  br label %loop
loop:
  %k = phi i64 [ 0, %preheader ], [ %k.next, %loop ]
  %c0 = phi <4 x float> [ zeroinitializer, %preheader ], [ %d0, %loop ]
  %c1 = phi <4 x float> [ zeroinitializer, %preheader ], [ %d1, %loop ]
  %c2 = phi <4 x float> [ zeroinitializer, %preheader ], [ %d2, %loop ]
  %c3 = phi <4 x float> [ zeroinitializer, %preheader ], [ %d3, %loop ]
  %at = getelementptr float, ptr %a, i64 %k
  %p0 = load <4 x float>, ptr %at, align 4
  %at1 = getelementptr i8, ptr %at, i64 16
  %p1 = load <4 x float>, ptr %at1, align 4
  %at2 = getelementptr i8, ptr %at, i64 32
  %p2 = load <4 x float>, ptr %at2, align 4
  %at3 = getelementptr i8, ptr %at, i64 48
  %p3 = load <4 x float>, ptr %at3, align 4
  %q0 = shufflevector <4 x float> %p0, <4 x float> %p1, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %q1 = shufflevector <4 x float> %p2, <4 x float> %p3, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %a0 = shufflevector <8 x float> %q0, <8 x float> %q1, <4 x i32> <i32 0, i32 4, i32 8, i32 12>
  %a1 = shufflevector <8 x float> %q0, <8 x float> %q1, <4 x i32> <i32 1, i32 5, i32 9, i32 13>
  %a2 = shufflevector <8 x float> %q0, <8 x float> %q1, <4 x i32> <i32 2, i32 6, i32 10, i32 14>
  %a3 = shufflevector <8 x float> %q0, <8 x float> %q1, <4 x i32> <i32 3, i32 7, i32 11, i32 15>
  %b.at = getelementptr float, ptr %b, i64 %k
  %bk = load float, ptr %b.at, align 4
  %b.in = insertelement <4 x float> poison, float %bk, i64 0
  %b.all = shufflevector <4 x float> %b.in, <4 x float> poison, <4 x i32> zeroinitializer
  %d0 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a0, <4 x float> %b.all, <4 x float> %c0)
  %d1 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a1, <4 x float> %b.all, <4 x float> %c1)
  %d2 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a2, <4 x float> %b.all, <4 x float> %c2)
  %d3 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a3, <4 x float> %b.all, <4 x float> %c3)
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %loop, label %exit
exit:
  %o0 = phi <4 x float> [ %d0, %loop ], [ zeroinitializer, %entry ]
  %o1 = phi <4 x float> [ %d1, %loop ], [ zeroinitializer, %entry ]
  %o2 = phi <4 x float> [ %d2, %loop ], [ zeroinitializer, %entry ]
  %o3 = phi <4 x float> [ %d3, %loop ], [ zeroinitializer, %entry ]
  %s = fadd <4 x float> %o0, %o1
  %t = fadd <4 x float> %o2, %o3
  %u = fadd <4 x float> %s, %t
  store <4 x float> %u, ptr %c, align 4
  ret void
}

; Left alone: an accumulator the loop also stores each round (its parts
; are wanted apart), one whose update reads the carried vectors
; themselves (a lane of the accumulator broadcast), and a loop of two
; rounds (putting the runs together costs more than it saves).
; CHECK-LABEL: define void @stored_each_round(
; CHECK-NOT: runs
; CHECK: ret void
define void @stored_each_round(ptr %a, ptr %b, ptr %c, i64 %n) {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %c0 = phi <4 x float> [ zeroinitializer, %entry ], [ %d0, %loop ]
  %c1 = phi <4 x float> [ zeroinitializer, %entry ], [ %d1, %loop ]
  %at = getelementptr float, ptr %a, i64 %k
  %row = load <8 x float>, ptr %at, align 4
  %a0 = shufflevector <8 x float> %row, <8 x float> poison, <4 x i32> <i32 0, i32 2, i32 4, i32 6>
  %a1 = shufflevector <8 x float> %row, <8 x float> poison, <4 x i32> <i32 1, i32 3, i32 5, i32 7>
  %b.at = getelementptr float, ptr %b, i64 %k
  %bk = load float, ptr %b.at, align 4
  %b.in = insertelement <4 x float> poison, float %bk, i64 0
  %b.all = shufflevector <4 x float> %b.in, <4 x float> poison, <4 x i32> zeroinitializer
  %d0 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a0, <4 x float> %b.all, <4 x float> %c0)
  %d1 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a1, <4 x float> %b.all, <4 x float> %c1)
  store <4 x float> %c0, ptr %c, align 4
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %loop, label %exit
exit:
  store <4 x float> %d0, ptr %c, align 4
  store <4 x float> %d1, ptr %c, align 4
  ret void
}

; CHECK-LABEL: define void @reads_carried(
; CHECK-NOT: runs
; CHECK: ret void
define void @reads_carried(ptr %a, ptr %c, i64 %n) {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %c0 = phi <4 x float> [ zeroinitializer, %entry ], [ %d0, %loop ]
  %c1 = phi <4 x float> [ zeroinitializer, %entry ], [ %d1, %loop ]
  %at = getelementptr float, ptr %a, i64 %k
  %row = load <8 x float>, ptr %at, align 4
  %a0 = shufflevector <8 x float> %row, <8 x float> poison, <4 x i32> <i32 0, i32 2, i32 4, i32 6>
  %a1 = shufflevector <8 x float> %row, <8 x float> poison, <4 x i32> <i32 1, i32 3, i32 5, i32 7>
  %lane = extractelement <4 x float> %c1, i64 0
  %l.in = insertelement <4 x float> poison, float %lane, i64 0
  %l.all = shufflevector <4 x float> %l.in, <4 x float> poison, <4 x i32> zeroinitializer
  %d0 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a0, <4 x float> %l.all, <4 x float> %c0)
  %d1 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a1, <4 x float> %l.all, <4 x float> %c1)
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %loop, label %exit
exit:
  store <4 x float> %d0, ptr %c, align 4
  store <4 x float> %d1, ptr %c, align 4
  ret void
}

; CHECK-LABEL: define void @two_rounds(
; CHECK-NOT: runs
; CHECK: ret void
define void @two_rounds(ptr %a, ptr %c, float %b) {
entry:
  %b.in = insertelement <4 x float> poison, float %b, i64 0
  %b.all = shufflevector <4 x float> %b.in, <4 x float> poison, <4 x i32> zeroinitializer
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %c0 = phi <4 x float> [ zeroinitializer, %entry ], [ %d0, %loop ]
  %c1 = phi <4 x float> [ zeroinitializer, %entry ], [ %d1, %loop ]
  %at = getelementptr float, ptr %a, i64 %k
  %row = load <8 x float>, ptr %at, align 4
  %a0 = shufflevector <8 x float> %row, <8 x float> poison, <4 x i32> <i32 0, i32 2, i32 4, i32 6>
  %a1 = shufflevector <8 x float> %row, <8 x float> poison, <4 x i32> <i32 1, i32 3, i32 5, i32 7>
  %d0 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a0, <4 x float> %b.all, <4 x float> %c0)
  %d1 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a1, <4 x float> %b.all, <4 x float> %c1)
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, 2
  br i1 %more, label %loop, label %exit
exit:
  store <4 x float> %d0, ptr %c, align 4
  store <4 x float> %d1, ptr %c, align 4
  ret void
}

declare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x float>, <8 x float>)
declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>)

; The rows' address is a long computation from the counter (the widener's
; sign-extended int indices, shifted and masked): still not a value the
; carried vectors make, so the runs are kept whole. (A search a few
; operands deep gave up on such chains and left AVX2's XgemmDirectNN loop
; taken apart.)
; CHECK-LABEL: define void @deep_address(
; CHECK: %runs = phi <8 x float>
; CHECK: call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %row,
define void @deep_address(ptr %a, ptr %c, float %b, i64 %n) {
entry:
  %b.in = insertelement <4 x float> poison, float %b, i64 0
  %b.all = shufflevector <4 x float> %b.in, <4 x float> poison, <4 x i32> zeroinitializer
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %c0 = phi <4 x float> [ zeroinitializer, %entry ], [ %d0, %loop ]
  %c1 = phi <4 x float> [ zeroinitializer, %entry ], [ %d1, %loop ]
  %t1 = mul i64 %k, 33
  %t2 = add i64 %t1, 7
  %t3 = shl i64 %t2, 32
  %t4 = ashr exact i64 %t3, 32
  %t5 = add i64 %t4, 1
  %t6 = sub i64 %t5, 1
  %t7 = or i64 %t6, 0
  %t8 = xor i64 %t7, 0
  %t9 = add i64 %t8, 0
  %t10 = shl i64 %t9, 2
  %at = getelementptr i8, ptr %a, i64 %t10
  %row = load <8 x float>, ptr %at, align 4
  %a0 = shufflevector <8 x float> %row, <8 x float> poison, <4 x i32> <i32 0, i32 2, i32 4, i32 6>
  %a1 = shufflevector <8 x float> %row, <8 x float> poison, <4 x i32> <i32 1, i32 3, i32 5, i32 7>
  %d0 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a0, <4 x float> %b.all, <4 x float> %c0)
  %d1 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a1, <4 x float> %b.all, <4 x float> %c1)
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %loop, label %exit
exit:
  store <4 x float> %d0, ptr %c, align 4
  store <4 x float> %d1, ptr %c, align 4
  ret void
}
