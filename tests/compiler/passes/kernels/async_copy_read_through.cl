// weft-async-copy-read-through: a barrier-free kernel whose copies only
// stage data gets a body that reads the global source instead, and the
// plan names the buffers the runtime must check; a tile read that may leave
// the copied elements keeps the copies, and the plan says why.
// RUN: %weft-cl %s -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.ll > %t.plan
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: FileCheck %s --check-prefix=IR < %t.ll

// PLAN-LABEL: kernel stencil: {{.*}}read-through entry
// PLAN: read_through_note: "tiles read from global memory when the buffers copied from and those written do not overlap"
// PLAN: read_through_sources: [0]
// PLAN: written_buffers: [1]
// PLAN-LABEL: kernel scattered: work-item loop
// PLAN-NOT: read-through entry
// PLAN: read_through: false
// PLAN: read_through_note: "copies stay copies: {{.*}}"

// IR-LABEL: define internal void @__weft_body_stencil.read_through(
// IR-NOT: @__weft_async_copy_for
// IR: load float, ptr addrspace(1)
// IR: ret void
// IR-LABEL: define void @__weft_read_through_stencil(

kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void stencil(global const float *in, global float *out, local float *tile) {
  size_t base = get_group_id(0) * 16;
  event_t e = async_work_group_copy(tile, in + base, 18, 0);
  wait_group_events(1, &e);
  size_t l = get_local_id(0);
  out[base + l] = tile[l] + tile[l + 1] + tile[l + 2];
}

kernel void scattered(global const float *in, global float *out,
                      global const int *index, local float *tile) {
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[index[get_global_id(0)]];
}
