// The storage a group entry of weft-barrier-regions asks the device for
// (region_state_layout.cpp): the resume states first, then one 64-byte
// aligned array per variable a work-item keeps across barriers, then the
// group copies of the group-uniform ones; and the group's stop when the
// device has no storage to give. The regions are kept scalar
// (-weft-widen-regions=false) so that each work-item's slot shows.
// RUN: %weft-cl %s -weft-widen-regions=false -passes='weft-kernel-bodies,weft-drop-redundant-barriers,weft-choose-plan,weft-barrier-regions,print<weft-kernels>' -o %t.ll > %t.plan
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan

// The states: 4 bytes per work-item.
// IR-LABEL: define void @__weft_group_layout(
// IR: %items = mul i64
// IR-NEXT: %[[STATES_END:[0-9]+]] = mul i64 %items, 4
// Then the arrays, each from a 64-byte boundary: the loop counter `s` (8
// bytes a work-item), `c` (1) and `v` (16).
// IR-NEXT: %[[R0:[0-9]+]] = add i64 %[[STATES_END]], 63
// IR-NEXT: %[[S_AT:[0-9]+]] = and i64 %[[R0]], -64
// IR-NEXT: %[[S_BYTES:[0-9]+]] = mul i64 %items, 8
// IR-NEXT: %[[S_END:[0-9]+]] = add i64 %[[S_AT]], %[[S_BYTES]]
// IR-NEXT: %[[R1:[0-9]+]] = add i64 %[[S_END]], 63
// IR-NEXT: %[[C_AT:[0-9]+]] = and i64 %[[R1]], -64
// IR-NEXT: %[[C_BYTES:[0-9]+]] = mul i64 %items, 1
// IR-NEXT: %[[C_END:[0-9]+]] = add i64 %[[C_AT]], %[[C_BYTES]]
// IR-NEXT: %[[R2:[0-9]+]] = add i64 %[[C_END]], 63
// IR-NEXT: %[[V_AT:[0-9]+]] = and i64 %[[R2]], -64
// IR-NEXT: %[[V_BYTES:[0-9]+]] = mul i64 %items, 16
// IR-NEXT: %[[V_END:[0-9]+]] = add i64 %[[V_AT]], %[[V_BYTES]]
// Last, two 64-byte lines for `s`, which is group-uniform: its current
// value and the one a run leaves for the next.
// IR-NEXT: %[[R3:[0-9]+]] = add i64 %[[V_END]], 63
// IR-NEXT: %[[U_AT:[0-9]+]] = and i64 %[[R3]], -64
// IR-NEXT: %[[END:[0-9]+]] = add i64 %[[U_AT]], 128
// The device's allocator, from the context; the storage is the group's
// alone and 64-byte aligned.
// IR-NEXT: %[[FIELD:[0-9]+]] = getelementptr inbounds i8, ptr %1, i64 {{[0-9]+}}
// IR-NEXT: %[[ALLOCATE:[0-9]+]] = load ptr, ptr %[[FIELD]], align 8, !invariant.load
// IR-NEXT: %[[BASE:[0-9]+]] = call noalias align 64 ptr %[[ALLOCATE]](ptr %1, i64 %[[END]])
// IR-NEXT: %[[NONE:[0-9]+]] = icmp eq ptr %[[BASE]], null
// IR-NEXT: br i1 %[[NONE]], label %no_storage, label %storage
// None: the group stops, kWorkGroupOutOfMemory (1) in its status.
// IR: no_storage:
// IR-NEXT: %[[STATUS:[0-9]+]] = getelementptr inbounds i8, ptr %1, i64 {{[0-9]+}}
// IR-NEXT: store i32 1, ptr %[[STATUS]], align 4
// IR-NEXT: ret void
// Each array's start, and the uniform lines'; no state needs a start value.
// IR: storage:
// IR-NEXT: %[[S:[0-9]+]] = getelementptr inbounds i8, ptr %[[BASE]], i64 %[[S_AT]]
// IR-NEXT: %[[C:[0-9]+]] = getelementptr inbounds i8, ptr %[[BASE]], i64 %[[C_AT]]
// IR-NEXT: %[[V:[0-9]+]] = getelementptr inbounds i8, ptr %[[BASE]], i64 %[[V_AT]]
// IR-NEXT: %[[CURRENT:[0-9]+]] = getelementptr inbounds i8, ptr %[[BASE]], i64 %[[U_AT]]
// IR-NEXT: %[[NEXT:[0-9]+]] = getelementptr inbounds i8, ptr %[[CURRENT]], i64 64
// IR-NEXT: store i1 false, ptr %diverged
// IR-NOT: llvm.memset
// A run starts from the current value; its uniform slice leaves the next.
// IR: run_region0:
// IR-NEXT: load i64, ptr %[[CURRENT]]
// IR: uniform_slice_end.u0:
// IR-NEXT: %[[LEFT:[0-9]+]] = load i64, ptr %s.0.across.uniform
// IR-NEXT: store i64 %[[LEFT]], ptr %[[NEXT]]
// A work-item's slot: its local linear id times the array's stride; its
// resume state: the linear id's i32 from the start.
// IR: %linear = add i64
// IR: %[[C_OFFSET:[0-9]+]] = mul i64 %linear, 1
// IR-NEXT: getelementptr inbounds i8, ptr %[[C]], i64 %[[C_OFFSET]]
// IR-NEXT: %[[V_OFFSET:[0-9]+]] = mul i64 %linear, 16
// IR-NEXT: getelementptr inbounds i8, ptr %[[V]], i64 %[[V_OFFSET]]
// IR: resume:
// IR-NEXT: %resume_state = phi i32
// IR-NEXT: %[[STATE:[0-9]+]] = getelementptr inbounds i32, ptr %[[BASE]], i64 %linear
// IR-NEXT: store i32 %resume_state, ptr %[[STATE]]
// After a divergent barrier each work-item gets the group's `s` in its own
// slot.
// IR: uniform_to_items:
// IR-NEXT: %[[I:i[0-9]*]] = phi i64
// IR-NEXT: %[[S_OFFSET:[0-9]+]] = mul i64 %[[I]], 8
// IR-NEXT: %[[S_SLOT:[0-9]+]] = getelementptr inbounds i8, ptr %[[S]], i64 %[[S_OFFSET]]
// IR-NEXT: %[[NOW:[0-9]+]] = load i64, ptr %[[CURRENT]]
// IR-NEXT: store i64 %[[NOW]], ptr %[[S_SLOT]]
// PLAN: kernel layout: regions, work-item entry
kernel void layout(global const float4 *in, global const char *flags,
                   global float *out, local float *tmp) {
  size_t l = get_local_id(0);
  float4 v = in[get_global_id(0)];
  char c = flags[get_global_id(0)];
  tmp[l] = v.x;
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < s)
      tmp[l] += tmp[l + s];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[0] * v.y + c;
}

// Nothing kept across the barrier: the storage is the states alone.
// IR-LABEL: define void @__weft_group_states_only(
// IR: %items = mul i64
// IR-NEXT: %[[STATES_ONLY:[0-9]+]] = mul i64 %items, 4
// IR-NEXT: getelementptr inbounds i8, ptr %1
// IR-NEXT: %[[ALLOCATOR:[0-9]+]] = load ptr
// IR-NEXT: call noalias align 64 ptr %[[ALLOCATOR]](ptr %1, i64 %[[STATES_ONLY]])
// PLAN: kernel states_only: regions, work-item entry
kernel void states_only(global float *out, local float *tmp) {
  tmp[get_local_id(0)] = out[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(get_local_id(0) + 1) % get_local_size(0)];
}
