// weft-work-group-pipe-counters: work-group reservations and commits become
// calls that pass the group's context and the work-item's own counters.
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 -passes=weft-kernel-bodies,weft-work-group-pipe-counters | FileCheck %s

// The library's wrappers went with their last call.
// CHECK-NOT: define {{.*}}@__work_group_reserve_write_pipe
// CHECK-NOT: define {{.*}}@__work_group_commit_write_pipe
// CHECK-LABEL: define internal void @__weft_body_produce(
// CHECK: %pipe_reserves = alloca i32
// CHECK: %pipe_commits = alloca i32
// CHECK: call {{.*}}@__weft_work_group_reserve(ptr %context, ptr %pipe_reserves, {{.*}}, i32 1)
// CHECK: call void @__weft_work_group_commit(ptr %context, ptr %pipe_commits, {{.*}}, i32 1)

kernel void produce(__write_only pipe int p, global const int *in) {
  reserve_id_t id = work_group_reserve_write_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(id))
    write_pipe(p, id, get_local_id(0), &in[get_global_id(0)]);
  work_group_commit_write_pipe(p, id);
}
