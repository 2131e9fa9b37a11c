; weft-constant-trip-counts: a loop whose back-edge count is an expression
; with one possible value gets a counter compared with that constant, so
; LLVM's full unroller sees it. The tile loop `r = y; r < 32; r += 8` runs
; 4 times for every y below 8 (its back-edge count (31 - y) / 8 is 3); with
; y unbounded its count varies and the loop stays as it is, as does a loop
; whose count is already a constant.
; RUN: %weft-opt %s -passes='loop(weft-constant-trip-counts)' | FileCheck %s

; CHECK-LABEL: define void @rows_of_a_tile(
; CHECK: rows:
; CHECK: %back_edges_taken = phi i64 [ 0, %items ], [ %[[NEXT:[^ ]+]], %rows ]
; CHECK: %[[NEXT]] = add nuw nsw i64 %back_edges_taken, 1
; CHECK: %constant_trip_count = icmp ne i64 %back_edges_taken, 3
; CHECK: br i1 %constant_trip_count, label %rows, label %next_item
define void @rows_of_a_tile(ptr %out, i64 %group_rows) {
entry:
  %bound = call i64 @llvm.umin.i64(i64 %group_rows, i64 8)
  %any = icmp ne i64 %bound, 0
  br i1 %any, label %items, label %done

items:
  %y = phi i64 [ 0, %entry ], [ %y.next, %next_item ]
  br label %rows

rows:
  %r = phi i64 [ %y, %items ], [ %r.next, %rows ]
  %slot = getelementptr float, ptr %out, i64 %r
  store float 1.0, ptr %slot
  %r.next = add nuw nsw i64 %r, 8
  %more = icmp ult i64 %r.next, 32
  br i1 %more, label %rows, label %next_item

next_item:
  %y.next = add nuw nsw i64 %y, 1
  %more_items = icmp ult i64 %y.next, %bound
  br i1 %more_items, label %items, label %done

done:
  ret void
}

; CHECK-LABEL: define void @rows_unbounded(
; CHECK-NOT: back_edges_taken
; CHECK: ret void
define void @rows_unbounded(ptr %out, i64 %group_rows) {
entry:
  %any = icmp ne i64 %group_rows, 0
  br i1 %any, label %items, label %done

items:
  %y = phi i64 [ 0, %entry ], [ %y.next, %next_item ]
  br label %rows

rows:
  %r = phi i64 [ %y, %items ], [ %r.next, %rows ]
  %slot = getelementptr float, ptr %out, i64 %r
  store float 1.0, ptr %slot
  %r.next = add nuw nsw i64 %r, 8
  %more = icmp ult i64 %r.next, 32
  br i1 %more, label %rows, label %next_item

next_item:
  %y.next = add nuw nsw i64 %y, 1
  %more_items = icmp ult i64 %y.next, %group_rows
  br i1 %more_items, label %items, label %done

done:
  ret void
}

; CHECK-LABEL: define void @already_constant(
; CHECK-NOT: back_edges_taken
; CHECK: ret void
define void @already_constant(ptr %out) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %slot = getelementptr float, ptr %out, i64 %i
  store float 1.0, ptr %slot
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, 4
  br i1 %more, label %loop, label %done

done:
  ret void
}

declare i64 @llvm.umin.i64(i64, i64)
