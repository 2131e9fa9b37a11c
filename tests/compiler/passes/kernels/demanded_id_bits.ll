; weft-demanded-id-bits: an index made of bit fields (tid = y * 8 | x, x
; below 8, as CLBlast numbers a group's work-items) read one field at a
; time: `tid % 8` reads x, `tid / 8` reads y, `tid % 16` reads x beside
; y's lowest bit. InstCombine folds what is left; the widener then sees x
; step by one from work-item to work-item.
; RUN: %weft-opt %s -passes='weft-demanded-id-bits,function(instcombine)' | FileCheck %s

; CHECK-LABEL: define i32 @fields(
; CHECK-DAG: %[[X:[0-9]+]] = trunc nuw nsw i64 %x to i32
; CHECK-DAG: %[[Y8:[0-9]+]] = trunc nuw nsw i64 %y8 to i32
; CHECK: %high = lshr exact i32 %[[Y8]], 3
; CHECK-NEXT: add nuw nsw i32 %high, %[[X]]
; CHECK-NOT: and i32
; CHECK: ret i32
define i32 @fields(i64 range(i64 0, 8) %x, i64 range(i64 0, 16) %y, ptr %p) {
  %y8 = shl nuw nsw i64 %y, 3
  %tid64 = or disjoint i64 %y8, %x
  store i64 %tid64, ptr %p
  %tid = trunc nuw nsw i64 %tid64 to i32
  %low = and i32 %tid, 7
  %high = lshr i32 %tid, 3
  %sum = add i32 %low, %high
  ret i32 %sum
}

; tid % 16 with x below 8: (y * 8 & 8) | x, x apart from the rest.
; CHECK-LABEL: define i32 @wider_mask(
; CHECK-DAG: %[[X:[0-9]+]] = trunc nuw nsw i64 %x to i32
; CHECK-DAG: %[[Y8:[0-9]+]] = and i32 %{{[0-9]+}}, 8
; CHECK: or disjoint i32 %[[Y8]], %[[X]]
define i32 @wider_mask(i64 range(i64 0, 8) %x, i64 range(i64 0, 16) %y, ptr %p) {
  %y8 = shl nuw nsw i64 %y, 3
  %tid64 = or disjoint i64 %y8, %x
  store i64 %tid64, ptr %p
  %tid = trunc nuw nsw i64 %tid64 to i32
  %field = and i32 %tid, 15
  ret i32 %field
}

; x not known below 8: its bits may reach y's, tid / 8 is no field.
; CHECK-LABEL: define i32 @unknown_range(
; CHECK: %[[TID:.*]] = trunc i64 %tid64 to i32
; CHECK: lshr i32 %[[TID]], 3
define i32 @unknown_range(i64 %x, i64 %y, ptr %p) {
  %y8 = shl nuw nsw i64 %y, 3
  %tid64 = add i64 %y8, %x
  store i64 %tid64, ptr %p
  %tid = trunc i64 %tid64 to i32
  %high = lshr i32 %tid, 3
  ret i32 %high
}
