; Parts for deferred compilation (compiler/codegen/kernel_partitions.cpp,
; PartLinkage::SeparateObjects): each becomes a shared object of its own,
; loaded on its own when one of its kernels is first used, so no part may
; need a symbol of another. A module whose kernels share a mutable variable
; (or a constant whose address may be compared) is not split, and the
; build compiles it whole; constants nobody compares by address are copied.
; RUN: %weft-opt --split-kernels=8 --split-separately %s | FileCheck %s
; RUN: sed -e 's/;SHARE //' %s | %weft-opt --split-kernels=8 --split-separately - | FileCheck %s --check-prefix=SHARED
; RUN: sed -e 's/;NAMED //' %s | %weft-opt --split-kernels=8 --split-separately - | FileCheck %s --check-prefix=SHARED
; RUN: sed -e 's/;EXTERNAL //' %s | %weft-opt --split-kernels=8 --split-separately - | FileCheck %s --check-prefix=SHARED

@table = internal unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@named_table = internal constant [2 x i32] [i32 5, i32 6]
@counter = internal global i32 0, align 4
@program_scope = global i32 7, align 4

define internal i32 @helper(i32 %x) {
  %t = getelementptr [4 x i32], ptr @table, i64 0, i32 %x
  %v = load i32, ptr %t
  ret i32 %v
}

; Uses the mutable counter and the program-scope variable: alone, they are
; this kernel's.
define void @__weft_group_first(ptr %args, ptr %context) {
  %v = call i32 @helper(i32 1)
  %n = load i32, ptr @counter
  %s = add i32 %v, %n
  store i32 %s, ptr @counter
  %p = load i32, ptr @program_scope
  %e = load i32, ptr @named_table
  %f = add i32 %p, %e
  store i32 %f, ptr %args
  ret void
}

define void @__weft_group_second(ptr %args, ptr %context) {
  %v = call i32 @helper(i32 2)
;SHARE  %n = load i32, ptr @counter
;NAMED  %m = load i32, ptr @named_table
;EXTERNAL  %o = load i32, ptr @program_scope
  store i32 %v, ptr %args
  ret void
}

define void @__weft_group_third(ptr %args, ptr %context) {
  %v = call i32 @helper(i32 3)
  store i32 %v, ptr %args
  ret void
}

; One part per kernel; the variables where their one user is, unchanged;
; every part its own copy of the helper and of the unnamed table.
; CHECK-LABEL: ; part 0: first
; CHECK-DAG: @table = internal unnamed_addr constant [4 x i32]
; CHECK-DAG: @counter = internal global i32 0
; CHECK-DAG: @named_table = internal constant [2 x i32]
; CHECK-DAG: @program_scope = global i32 7
; CHECK-DAG: define internal i32 @helper(
; CHECK-DAG: define void @__weft_group_first(
; CHECK-LABEL: ; part 1: second
; CHECK-NOT: @counter
; CHECK-NOT: @program_scope
; CHECK-DAG: @table = internal unnamed_addr constant [4 x i32]
; CHECK-DAG: define internal i32 @helper(
; CHECK-DAG: define void @__weft_group_second(
; CHECK-LABEL: ; part 2: third
; CHECK-NOT: @counter
; CHECK: define void @__weft_group_third(
; CHECK-NOT: __weft_shared

; SHARED: ; not split
; SHARED-NOT: __weft_shared
