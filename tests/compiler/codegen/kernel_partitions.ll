; A program's module split into parts of whole kernels, compiled on threads
; of their own (compiler/codegen/kernel_partitions.cpp). Each part defines its
; kernels' entry points and copies the internal functions they call; a
; variable two parts' kernels use is defined once, in the first, and
; reached from the other by a hidden symbol, unless it is a constant whose
; address nobody compares, which each part copies.
; RUN: %weft-opt --split-kernels=2 %s | FileCheck %s
; RUN: %weft-opt --split-kernels=1 %s | FileCheck %s --check-prefix=ONE

@counter = internal global i32 0, align 4
@table = internal unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@named_table = internal constant [2 x i32] [i32 5, i32 6]
@big.tile = internal addrspace(3) global [64 x float] undef, align 16
@program_scope = global i32 7, align 4

define internal i32 @helper(i32 %x) {
  %t = getelementptr [4 x i32], ptr @table, i64 0, i32 %x
  %v = load i32, ptr %t
  ret i32 %v
}

define internal void @only_big(ptr %out) {
  %c = load i32, ptr @program_scope
  store i32 %c, ptr %out
  ret void
}

; The larger kernel: two entries (group and work-item), local memory.
define void @__weft_group_big(ptr %args, ptr %context) {
  %v = call i32 @helper(i32 1)
  %n = load i32, ptr @counter
  %s = add i32 %v, %n
  store i32 %s, ptr @counter
  store float 1.0, ptr addrspace(3) @big.tile
  call void @only_big(ptr %args)
  %a = add i32 %s, 1
  %b = add i32 %a, 2
  %c = add i32 %b, 3
  %d = add i32 %c, 4
  %e = load i32, ptr @named_table
  %f = add i32 %d, %e
  store i32 %f, ptr %args
  ret void
}

define void @__weft_item_big(ptr %args, ptr %context, i64 %x, i64 %y, i64 %z) {
  store float 2.0, ptr addrspace(3) @big.tile
  ret void
}

define void @__weft_group_small(ptr %args, ptr %context) {
  %v = call i32 @helper(i32 2)
  %n = load i32, ptr @counter
  %s = add i32 %v, %n
  %p = getelementptr [2 x i32], ptr @named_table, i64 0, i32 1
  %w = load i32, ptr %p
  %t = add i32 %s, %w
  store i32 %t, ptr %args
  ret void
}

; The larger kernel alone in the first part: its entries, the mutable
; counter (defined here, now a hidden symbol), the constant table copied,
; the named constant defined here and shared, its local memory, the
; program-scope variable (external, defined in the first part), and the
; helpers it calls.
; CHECK-LABEL: ; part 0: big
; CHECK-DAG: @__weft_shared.0.counter = hidden global i32 0
; CHECK-DAG: @table = internal unnamed_addr constant [4 x i32]
; CHECK-DAG: @__weft_shared.1.named_table = hidden constant [2 x i32]
; CHECK-DAG: @big.tile = internal addrspace(3) global
; CHECK-DAG: @program_scope = global i32 7
; CHECK-DAG: define internal i32 @helper(
; CHECK-DAG: define internal void @only_big(
; CHECK-DAG: define void @__weft_group_big(
; CHECK-DAG: define void @__weft_item_big(
; CHECK-NOT: @__weft_group_small

; The smaller kernel: its own copies of the helper and the table, the
; shared variables declared, nothing of the other kernel's.
; CHECK-LABEL: ; part 1: small
; CHECK-DAG: @table = internal unnamed_addr constant [4 x i32]
; CHECK-DAG: @__weft_shared.0.counter = external hidden global i32
; CHECK-DAG: @__weft_shared.1.named_table = external hidden constant [2 x i32]
; CHECK-DAG: define internal i32 @helper(
; CHECK-DAG: define void @__weft_group_small(
; CHECK-NOT: @only_big
; CHECK-NOT: @big.tile
; CHECK-NOT: @program_scope
; CHECK-NOT: @__weft_group_big
; CHECK-NOT: @__weft_item_big

; ONE: ; not split
