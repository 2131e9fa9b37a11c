// weft-kernel-bodies: the kernel becomes a work-item function of its
// arguments, the context and the local ids; queries read the context,
// barriers become the marker, __local variables slices of local memory.
// RUN: %weft-cl %s -passes=weft-kernel-bodies | FileCheck %s

// The kernel itself is gone.
// CHECK-NOT: define{{.*}}spir_kernel
// CHECK-LABEL: define internal void @__weft_body_queries(ptr addrspace(1) {{.*}}%out, ptr %context, i64 %local_id_x, i64 %local_id_y, i64 %local_id_z)
// The __local tile: the context's local memory pointer (offset 200).
// CHECK: getelementptr inbounds i8, ptr %context, i64 200
// CHECK: store i32 1, ptr addrspace(3)
// CHECK: call void @__weft_barrier(ptr %context)
// get_group_id(1): group_id is at 160, dimension 1.
// CHECK: getelementptr inbounds i8, ptr %context, i64 160
// CHECK-NEXT: getelementptr inbounds i64, ptr %{{.*}}, i64 1
// CHECK-NEXT: load i64, {{.*}}!invariant.load
// get_global_id(0) = group_id * enqueued_local_size + offset + local id,
// none of which wraps (the runtime refuses an offset that would).
// CHECK: add nuw i64 %{{.*}}, %local_id_x
// CHECK: ret void
// No query stays a call.
// CHECK-NOT: call {{.*}}@_Z13get_global_idj
// CHECK-NOT: call {{.*}}@_Z7barrierj
// CHECK: !weft.kernels = !{![[RECORD:[0-9]+]]}
// CHECK: ![[RECORD]] = !{ptr @__weft_body_queries, !{{[0-9]+}}}

kernel void queries(global ulong *out) {
  local int tile[16];
  tile[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = get_group_id(1) + get_local_size(0) + tile[0];
}
