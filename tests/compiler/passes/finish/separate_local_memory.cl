// weft-separate-local-memory: accesses to __local memory and to __global or
// __constant memory are told apart by scoped-noalias metadata.
// RUN: %weft-cl %s -passes=weft-kernel-pipeline,weft-separate-local-memory | FileCheck %s

// CHECK-LABEL: define internal void @__weft_body_mix(
// CHECK: store float {{.*}}, ptr addrspace(3) {{.*}}!alias.scope ![[LOCAL:[0-9]+]], !noalias ![[OTHER:[0-9]+]]
// CHECK: load float, ptr addrspace(1) {{.*}}!alias.scope ![[OTHER]], !noalias ![[LOCAL]]

kernel void mix(global float *out, local float *tile) {
  tile[get_local_id(0)] = 2.0f;
  out[get_global_id(0)] += 1.0f;
}
