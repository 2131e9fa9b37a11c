; weft-safe-division: divisions that could trap (by zero, or INT_MIN / -1)
; divide by 1 instead (d | (d == 0), then ^ -2 when INT_MIN / -1), with no
; select that code generation could turn back into a division by d;
; divisions LLVM proves safe stay as they are.
; RUN: %weft-opt %s -passes=weft-safe-division | FileCheck %s

; CHECK-LABEL: define i32 @signed_by_anything(
; CHECK-DAG: %[[D:[^ ]+]] = freeze i32 %d
; CHECK-DAG: %[[N:[^ ]+]] = freeze i32 %n
; CHECK-DAG: %[[ZERO:[^ ]+]] = icmp eq i32 %[[D]], 0
; CHECK-DAG: %[[ONE:[^ ]+]] = zext i1 %[[ZERO]] to i32
; CHECK-DAG: %[[NONZERO:[^ ]+]] = or i32 %[[D]], %[[ONE]]
; CHECK-DAG: icmp eq i32 %[[D]], -1
; CHECK-DAG: icmp eq i32 %[[N]], -2147483648
; CHECK: %[[FLIP:[^ ]+]] = and i32 %{{.*}}, -2
; CHECK: %[[SAFE:[^ ]+]] = xor i32 %[[NONZERO]], %[[FLIP]]
; CHECK-NOT: select
; CHECK: sdiv i32 %[[N]], %[[SAFE]]
define i32 @signed_by_anything(i32 %n, i32 %d) {
  %q = sdiv i32 %n, %d
  ret i32 %q
}

; Unsigned: only zero is a problem.
; CHECK-LABEL: define <4 x i32> @unsigned_vector(
; CHECK: %[[D:[^ ]+]] = freeze <4 x i32> %d
; CHECK: %[[Z:[^ ]+]] = icmp eq <4 x i32> %[[D]], zeroinitializer
; CHECK-NOT: icmp
; CHECK: %[[ONE:[^ ]+]] = zext <4 x i1> %[[Z]] to <4 x i32>
; CHECK: %[[SAFE:[^ ]+]] = or <4 x i32> %[[D]], %[[ONE]]
; CHECK: urem <4 x i32> %n, %[[SAFE]]
define <4 x i32> @unsigned_vector(<4 x i32> %n, <4 x i32> %d) {
  %r = urem <4 x i32> %n, %d
  ret <4 x i32> %r
}

; Constants, and divisors known non-zero and not -1, cost nothing.
; CHECK-LABEL: define i64 @safe(
; CHECK-NOT: select
; CHECK: sdiv i64 %n, 7
; CHECK: %odd = or i64 %d, 1
; CHECK-NEXT: udiv i64 %n, %odd
; CHECK: %positive = lshr i64 %d, 1
; CHECK-NEXT: %nonzero = or i64 %positive, 2
; CHECK-NEXT: srem i64 %n, %nonzero
define i64 @safe(i64 %n, i64 %d) {
  %a = sdiv i64 %n, 7
  %odd = or i64 %d, 1
  %b = udiv i64 %n, %odd
  %positive = lshr i64 %d, 1
  %nonzero = or i64 %positive, 2
  %c = srem i64 %n, %nonzero
  %s = add i64 %a, %b
  %t = add i64 %s, %c
  ret i64 %t
}

; By -1 as a constant: a signed division may still overflow.
; CHECK-LABEL: define i32 @by_minus_one(
; CHECK: icmp eq i32 %[[N:[^ ]+]], -2147483648
; CHECK-NOT: icmp eq i32 {{.*}}, 0
; CHECK: sdiv i32 %[[N]], %safe.divisor
define i32 @by_minus_one(i32 %n) {
  %q = sdiv i32 %n, -1
  ret i32 %q
}

; A division by %d does not make a later one by %d safe (LLVM would take the
; first as proof that %d is not zero); each is guarded.
; CHECK-LABEL: define i32 @twice(
; CHECK: udiv i32 %n, %safe.divisor
; CHECK: urem i32 %n, %safe.divisor{{[0-9]+}}
define i32 @twice(i32 %n, i32 %d) {
  %q = udiv i32 %n, %d
  %r = urem i32 %n, %d
  %s = add i32 %q, %r
  ret i32 %s
}
