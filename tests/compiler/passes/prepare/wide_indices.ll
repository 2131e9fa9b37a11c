; weft-wide-indices: an array index computed in `int` arithmetic the front
; end marked as never overflowing (nsw) is computed in 64 bits, the sign
; extension moved to its leaves, before later passes drop the marks and
; leave the extension on the sum (an add and an extension per access in a
; loop, where a pointer could step). Integer variables are promoted first:
; the front end keeps them in memory. Choices between two indices (a
; select, or a phi of the two sides of a branch) are extended on each
; side; a loop's counter is a leaf. Arithmetic that may wrap, and
; extensions that are not array indices, stay as they are.
; RUN: %weft-opt %s -passes=weft-wide-indices | FileCheck %s

; CLBlast's LocalToPrivateDirectB: `blm[kg * (WGD + PADB) + ng]`.
; CHECK-LABEL: define void @tile(
; CHECK-NOT: alloca
; CHECK: [[KG:%.*]] = sext i32 %kg.in to i64
; CHECK: [[MUL:%.*]] = mul nsw i64 [[KG]], 33
; CHECK: [[NG:%.*]] = sext i32 %ng.in to i64
; CHECK: [[INDEX:%.*]] = add nsw i64 [[MUL]], [[NG]]
; CHECK: getelementptr inbounds float, ptr addrspace(3) %blm, i64 [[INDEX]]
define void @tile(ptr addrspace(3) %blm, ptr addrspace(1) %out, i32 %kg.in, i32 %ng.in) {
entry:
  %kg = alloca i32, align 4
  %ng = alloca i32, align 4
  store i32 %kg.in, ptr %kg, align 4
  store i32 %ng.in, ptr %ng, align 4
  %k = load i32, ptr %kg, align 4
  %mul = mul nsw i32 %k, 33
  %n = load i32, ptr %ng, align 4
  %add = add nsw i32 %mul, %n
  %idxprom = sext i32 %add to i64
  %at = getelementptr inbounds float, ptr addrspace(3) %blm, i64 %idxprom
  %v = load float, ptr addrspace(3) %at, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

; `t ? ng * 33 + kg : kg * 33 + ng` as the front end writes it (two blocks
; and a phi) and as a select; a shift by a constant extends too.
; CHECK-LABEL: define void @chosen(
; CHECK: cond.end:
; CHECK: [[SIDES:%.*]] = phi i64 [ %{{.*}}, %cond.true ], [ %{{.*}}, %cond.false ]
; CHECK: getelementptr inbounds float, ptr addrspace(3) %blm, i64 [[SIDES]]
; CHECK: [[PICKED:%.*]] = select i1 %t, i64 %{{.*}}, i64 %{{.*}}
; CHECK: getelementptr inbounds float, ptr addrspace(3) %blm, i64 [[PICKED]]
; CHECK: shl nsw i64 %{{.*}}, 2
define void @chosen(ptr addrspace(3) %blm, ptr addrspace(1) %out, i32 %kg, i32 %ng, i1 %t) {
entry:
  br i1 %t, label %cond.true, label %cond.false
cond.true:
  %m1 = mul nsw i32 %ng, 33
  %a1 = add nsw i32 %m1, %kg
  br label %cond.end
cond.false:
  %m2 = mul nsw i32 %kg, 33
  %a2 = add nsw i32 %m2, %ng
  br label %cond.end
cond.end:
  %index = phi i32 [ %a1, %cond.true ], [ %a2, %cond.false ]
  %idxprom = sext i32 %index to i64
  %at = getelementptr inbounds float, ptr addrspace(3) %blm, i64 %idxprom
  %v = load float, ptr addrspace(3) %at, align 4
  %s1 = add nsw i32 %kg, 1
  %s2 = add nsw i32 %ng, 2
  %picked = select i1 %t, i32 %s1, i32 %s2
  %idxprom2 = sext i32 %picked to i64
  %at2 = getelementptr inbounds float, ptr addrspace(3) %blm, i64 %idxprom2
  %w = load float, ptr addrspace(3) %at2, align 4
  %shifted = shl nsw i32 %kg, 2
  %idxprom3 = sext i32 %shifted to i64
  %at3 = getelementptr inbounds float, ptr addrspace(3) %blm, i64 %idxprom3
  %x = load float, ptr addrspace(3) %at3, align 4
  %sum = fadd float %v, %w
  %sum2 = fadd float %sum, %x
  store float %sum2, ptr addrspace(1) %out, align 4
  ret void
}

; A loop's counter stays a leaf (its phi comes round the loop).
; CHECK-LABEL: define void @counter(
; CHECK: loop:
; CHECK: [[I:%.*]] = sext i32 %i to i64
; CHECK: [[AT:%.*]] = add nsw i64 [[I]], 7
; CHECK: getelementptr inbounds float, ptr addrspace(1) %in, i64 [[AT]]
define void @counter(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %plus = add nsw i32 %i, 7
  %idxprom = sext i32 %plus to i64
  %at = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idxprom
  %v = load float, ptr addrspace(1) %at, align 4
  %sum.next = fadd float %sum, %v
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  store float %sum.next, ptr addrspace(1) %out, align 4
  ret void
}

; Left alone: an add that may wrap, and an extension used as a value.
; CHECK-LABEL: define void @left_alone(
; CHECK: %wraps = add i32 %a, %b
; CHECK: %idxprom = sext i32 %wraps to i64
; CHECK: %sum = add nsw i32 %a, %b
; CHECK: %wide = sext i32 %sum to i64
; CHECK: store i64 %wide
define void @left_alone(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %a, i32 %b) {
entry:
  %wraps = add i32 %a, %b
  %idxprom = sext i32 %wraps to i64
  %at = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idxprom
  %v = load float, ptr addrspace(1) %at, align 4
  store float %v, ptr addrspace(1) %out, align 4
  %sum = add nsw i32 %a, %b
  %wide = sext i32 %sum to i64
  store i64 %wide, ptr addrspace(1) %out, align 8
  ret void
}

; A phi that two cases of a switch reach from one block takes one value
; for both edges: it stays a leaf (its extension is computed after it).
; CHECK-LABEL: define void @shared_edges(
; CHECK: %index = phi i32 [ %a, %entry ], [ %a, %entry ], [ %b, %other ]
; CHECK: %index.wide = sext i32 %index to i64
define void @shared_edges(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %a, i32 %b, i32 %which) {
entry:
  switch i32 %which, label %other [ i32 0, label %join
                                    i32 1, label %join ]
other:
  br label %join
join:
  %index = phi i32 [ %a, %entry ], [ %a, %entry ], [ %b, %other ]
  %plus = add nsw i32 %index, 3
  %idxprom = sext i32 %plus to i64
  %at = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idxprom
  %v = load float, ptr addrspace(1) %at, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}
