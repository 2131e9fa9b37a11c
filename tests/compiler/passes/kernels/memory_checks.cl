// weft-check-memory: the memory checking mode (WEFT_CHECK_MEMORY). Each
// access is checked against the object its address comes from and made
// only inside it; a failed check writes the description. Off unless the
// build asks (no --check-memory: no checks). Widened kernels keep their
// checks as vector compares, and the accesses store whole when every
// work-item passed (AVX2 code).
// RUN: %weft-cl %s --check-memory -passes=weft-check-memory | FileCheck %s
// RUN: %weft-cl %s -passes=weft-check-memory | FileCheck %s --check-prefix=OFF
// RUN: %weft-cl %s --check-memory --target-cpu=znver3 -passes=weft-kernel-pipeline | FileCheck %s --check-prefix=WIDE

// OFF-NOT: __weft_group_context

// A buffer argument: its object's start and size come from the launch's
// ranges (argument 1 at byte 16), read once at the entry.
// CHECK-LABEL: define {{.*}} @arguments(
// CHECK: %context = call ptr @__weft_group_context()
// CHECK: [[RANGES:%[0-9]+]] = load ptr, {{.*}} !invariant.load
// CHECK: [[RECORD:%[0-9]+]] = load ptr, {{.*}} !invariant.load
// CHECK: [[BELOW_P:%[0-9]+]] = getelementptr inbounds i8, ptr [[RANGES]], i64 16
// CHECK: [[BELOW:%[0-9]+]] = load i64, ptr [[BELOW_P]]{{.*}}!invariant.load
// CHECK: [[BYTES_P:%[0-9]+]] = getelementptr inbounds i8, ptr [[RANGES]], i64 24
// CHECK: [[BYTES:%[0-9]+]] = load i64, ptr [[BYTES_P]]{{.*}}!invariant.load
// CHECK: [[IN:%[0-9]+]] = ptrtoint ptr addrspace(1) %in to i64
// CHECK: %object_begin = sub i64 [[IN]], [[BELOW]]
// A private array indexed by data: checked against its 16 bytes by the
// offset its GEP adds (its address as an integer would keep SROA off it),
// with no range to read; its constant-index accesses are not checked.
// CHECK-NOT: ptrtoint ptr %table
// CHECK: getelementptr inbounds [4 x i32], ptr %table, i64 0, i64 %idxprom
// CHECK-NEXT: [[TO:%[a-z.0-9]+]] = mul i64 %idxprom, 4
// CHECK-NEXT: [[SUM:%[0-9]+]] = add i64 0, [[TO]]
// CHECK-NEXT: icmp ule i64 [[SUM]], 12
// The read of in[i]: inside when its 4 bytes fit past its offset.
// CHECK: [[ELEMENT:%arrayidx[0-9]*]] = getelementptr inbounds float, ptr addrspace(1) %in
// CHECK: [[ADDRESS:%[0-9]+]] = ptrtoint ptr addrspace(1) [[ELEMENT]] to i64
// CHECK: [[OFFSET:%[0-9]+]] = sub i64 [[ADDRESS]], %object_begin
// CHECK: [[LAST:%[0-9]+]] = sub i64 [[BYTES]], 4
// CHECK: [[FITS:%[0-9]+]] = icmp ule i64 [[OFFSET]], [[LAST]]
// CHECK: [[SMALL:%[0-9]+]] = icmp ule i64 4, [[BYTES]]
// CHECK: [[INSIDE:%inside[0-9]*]] = and i1 [[SMALL]], [[FITS]]
// CHECK: br i1 [[INSIDE]], label %[[MAKE:[0-9]+]], label %[[REPORT:[0-9]+]]
// CHECK: [[MAKE]]:
// CHECK-NEXT: load float, ptr addrspace(1) [[ELEMENT]]
// Only the first failure of a group is described; found is set last.
// CHECK: [[REPORT]]:
// CHECK: load i32, ptr {{%[0-9]+}}
// CHECK: icmp eq i32 {{%[0-9]+}}, 0
// CHECK: getelementptr inbounds i8, ptr [[RECORD]], i64 0
// CHECK-NEXT: store i64 [[ADDRESS]], ptr
// CHECK: call i64 @_Z12get_local_idj(i32 0)
// CHECK: store i32 1, ptr
// A failed load yields zero.
// CHECK: phi float [ {{%[0-9]+}}, %[[MAKE]] ], [ 0.000000e+00, %{{[0-9]+}} ]
// CHECK: ret void
kernel void arguments(global float *out, global const float *in, int n) {
  size_t i = get_global_id(0);
  int table[4] = {1, 2, 3, 4};
  table[n & 7] = 5;
  out[i] = in[i] + table[0];
}

// A __local variable: against its own 64 bytes; vstore4 is inlined so its
// store is checked (16 bytes).
// CHECK-LABEL: define {{.*}} @locals(
// CHECK: sub i64 {{%[0-9]+}}, ptrtoint (ptr addrspace(3) @locals.tile to i64)
// CHECK: icmp ule i64 {{%[0-9]+}}, 60
// CHECK-NOT: call {{.*}}vstore4
// CHECK: store <4 x float>
// CHECK: ret void
kernel void locals(global float *out) {
  local float tile[16];
  size_t l = get_local_id(0);
  tile[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  vstore4((float4)(tile[15 - l]), get_global_id(0), out);
}

// A pointer loaded from memory has no origin the compiler sees: the device
// is asked (memory_check_address, a call through the context).
// CHECK-LABEL: define {{.*}} @loaded(
// CHECK: call i32 %{{[0-9]+}}(ptr %context, i64 %{{[0-9]+}}, i64 4)
kernel void loaded(global ulong *table, global int *out) {
  global int *data = (global int *)table[0];
  out[get_global_id(0)] = data[get_global_id(0)];
}

// In a loop whose address steps by a constant, one condition before the
// loop (the first and the last address an iteration of the body can reach
// are inside; no iteration at all passes) lets each access skip its own
// check, which runs only on the side marked for the widener to skip.
// CHECK-LABEL: define {{.*}} @looped(
// CHECK: [[FIRST:%[0-9]+]] = ptrtoint ptr addrspace(1) %scevgep to i64
// CHECK: [[COUNT:%[0-9]+]] = zext i32 %smax to i64
// CHECK: [[NONE:%[0-9]+]] = icmp eq i64 [[COUNT]], 0
// CHECK: [[ITERATIONS:%[0-9]+]] = sub i64 [[COUNT]], 1
// CHECK: [[SPAN:%[0-9]+]] = mul i64 [[ITERATIONS]], 4
// CHECK: [[LAST:%[0-9]+]] = add i64 [[FIRST]], [[SPAN]]
// CHECK: sub i64 [[FIRST]], %object_begin
// CHECK: sub i64 [[LAST]], %object_begin
// CHECK: %loop_inside = or i1 [[NONE]],
// CHECK: for.body:
// CHECK: [[NOT:%[0-9]+]] = xor i1 %loop_inside, true
// CHECK: br i1 [[NOT]], label %[[OWN:[0-9]+]], label %[[JOIN:[0-9]+]], !weft.skippable_side
// CHECK: [[OWN]]:
// CHECK: %inside = and i1
// CHECK: [[JOIN]]:
// CHECK-NEXT: %inside_loop = phi i1 [ true, %for.body ], [ %inside, %[[OWN]] ]
// CHECK-NEXT: br i1 %inside_loop
// Widened, the access's own check is a side the widener jumps over when no
// work-item needs it (!weft.skippable_side), short as it is.
// WIDE-LABEL: define {{.*}} @__weft_body_looped.simd(
// WIDE: wi.round:
// WIDE: [[ANY:%[0-9]+]] = icmp ne i{{[0-9]+}} {{%[0-9]+}}, 0
// WIDE-NEXT: br i1 [[ANY]], label %wi.some, label %wi.joined
// WIDE: wi.some:
// WIDE-NEXT: sub <{{[0-9]+}} x i64>
// WIDE-NEXT: icmp ule <{{[0-9]+}} x i64>
kernel void looped(global const float *in, global float *out, int n) {
  float s = 0;
  for (int j = 0; j < n; ++j)
    s += in[get_global_id(0) + j];
  out[get_global_id(0)] = s;
}

// An int index extended once per iteration (a[row * n + k]): the loop's
// last index must fit an int too, or the condition does not hold.
// CHECK-LABEL: define {{.*}} @int_index(
// CHECK: [[START:%[0-9]+]] = sext i32 {{%[0-9]+}} to i64
// CHECK: [[LASTI:%[0-9]+]] = add i64 [[START]],
// CHECK-NEXT: [[NARROW:%[0-9]+]] = trunc i64 [[LASTI]] to i32
// CHECK-NEXT: [[BACK:%[0-9]+]] = sext i32 [[NARROW]] to i64
// CHECK-NEXT: icmp eq i64 [[BACK]], [[LASTI]]
// CHECK: mul i64 [[START]], 4
// CHECK: mul i64 [[LASTI]], 4
// CHECK: %loop_inside = or i1
kernel void int_index(global const float *a, global float *c, int n) {
  int row = get_global_id(0);
  float acc = 0;
  for (int k = 0; k < n; ++k)
    acc += a[row * n + k];
  c[row] = acc;
}

// Widened: the checks are lane compares, and on AVX2 code the accesses are
// plain when every lane passed, masked otherwise.
// WIDE-LABEL: define {{.*}} @__weft_body_widened.simd(
// WIDE: icmp ule <{{[0-9]+}} x i64>
// WIDE: wi.load_whole:
// WIDE: load <{{[0-9]+}} x float>
// WIDE: wi.load_masked:
// WIDE: call <{{[0-9]+}} x float> @llvm.masked.load
// WIDE: wi.store_whole:
// WIDE: store <{{[0-9]+}} x float>
// WIDE: wi.store_masked:
// WIDE: call void @llvm.masked.store
kernel void widened(global float *out, global const float *in, int n) {
  size_t i = get_global_id(0);
  out[i] = in[i] * n;
}
