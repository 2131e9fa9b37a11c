; weft-pipe-shape-loads: loads of a pipe's shape (the WeftPipe fields before
; its padding) become !invariant.load; other loads stay as they are.
; RUN: %weft-opt %s -passes=weft-pipe-shape-loads | FileCheck %s

; CHECK-LABEL: define i32 @shape(
; CHECK: load i32, ptr %pipe, align 4, !tbaa !{{[0-9]+}}, !invariant.load
; CHECK: load i32, ptr %counter, align 4, !tbaa ![[COUNTER:[0-9]+]]{{$}}
; CHECK: load i32, ptr %other, align 4, !tbaa ![[OTHER:[0-9]+]]{{$}}
; CHECK: load atomic i32, ptr %pipe monotonic, align 4, !tbaa !{{[0-9]+}}{{$}}

define i32 @shape(ptr %pipe, ptr %counter, ptr %other) {
  %size = load i32, ptr %pipe, align 4, !tbaa !3
  %head = load i32, ptr %counter, align 4, !tbaa !4
  %value = load i32, ptr %other, align 4, !tbaa !6
  %atomic = load atomic i32, ptr %pipe monotonic, align 4, !tbaa !3
  %a = add i32 %size, %head
  %b = add i32 %a, %value
  %c = add i32 %b, %atomic
  ret i32 %c
}

!0 = !{!"omnipotent char"}
!1 = !{!"int", !0, i64 0}
!2 = !{!"WeftPipe", !1, i64 0, !1, i64 4, !1, i64 4096}
; packet_size, at offset 0: part of the shape.
!3 = !{!2, !1, i64 0}
; A field far past the shape (the counters live after the padding).
!4 = !{!2, !1, i64 4096}
!5 = !{!"Other", !1, i64 0}
!6 = !{!5, !1, i64 0}
