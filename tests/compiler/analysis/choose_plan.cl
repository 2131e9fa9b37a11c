// weft-choose-plan: each kernel's plan from its features alone (before any
// pass that might fall back).
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 -passes='weft-kernel-bodies,weft-work-group-pipe-counters,weft-drop-redundant-barriers,weft-choose-plan,print<weft-kernels>' -disable-output | FileCheck %s

// CHECK-LABEL: kernel plain: widened
// CHECK-NOT: kernel
// CHECK: work_item_entry: false
kernel void plain(global float *y) { y[get_global_id(0)] *= 2.0f; }

// CHECK-LABEL: kernel with_barrier: regions, work-item entry
kernel void with_barrier(global float *y, local float *t) {
  t[get_local_id(0)] = y[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  y[get_global_id(0)] = t[get_local_size(0) - 1 - get_local_id(0)];
}

// Copies first: work-item 0 makes them, then everybody follows; and the
// read-through entry is asked for.
// CHECK-LABEL: kernel copies_first: work-item loop (async copies or work-group pipe reservations), work-item 0 makes the group's async copies first, read-through entry, work-item entry
kernel void copies_first(global const float *in, global float *out,
                         local float *tile) {
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)] * 2.0f;
}

// A copy after a shared write: work-item 0 leads as it runs.
// CHECK-LABEL: kernel copies_later: work-item loop (async copies or work-group pipe reservations), work-item 0 leads the group, work-item entry
kernel void copies_later(global float *in, global float *out,
                         local float *tile) {
  in[get_global_id(0)] += 1.0f;
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}

// A work-group reservation outside loops: a pipe leader.
// CHECK-LABEL: kernel pipe_group: work-item loop (async copies or work-group pipe reservations), work-item 0 leads the group, work-group pipe reservations made by work-item 0
// CHECK: pipe_leader: true
kernel void pipe_group(__write_only pipe int p, global const int *in) {
  reserve_id_t id = work_group_reserve_write_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(id))
    write_pipe(p, id, get_local_id(0), &in[get_global_id(0)]);
  work_group_commit_write_pipe(p, id);
}

// In a loop: the general scheme, no leader.
// CHECK-LABEL: kernel pipe_group_loop: work-item loop (async copies or work-group pipe reservations)
// CHECK: pipe_leader: false
kernel void pipe_group_loop(__write_only pipe int p, global const int *in,
                            int n) {
  for (int i = 0; i < n; ++i) {
    reserve_id_t id = work_group_reserve_write_pipe(p, get_local_size(0));
    if (is_valid_reserve_id(id))
      write_pipe(p, id, get_local_id(0), &in[get_global_id(0)]);
    work_group_commit_write_pipe(p, id);
  }
}
