// weft-pipe-leaders: work-item 0's body notes its commits for the end of the
// group; the followers read its reservation ids and commit nothing; the
// group entry makes the noted commits after the last work-item.
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 -passes=weft-kernel-pipeline -o %t.ll
// RUN: FileCheck %s < %t.ll

// CHECK-LABEL: define internal void @__weft_body_produce.follower(
// CHECK: call {{.*}}@__weft_work_group_reserved_id(ptr %context
// CHECK-NOT: @__weft_work_group_commit(
// CHECK: ret void
// CHECK-LABEL: define internal void @__weft_body_produce.leader(
// CHECK: call {{.*}}@__weft_work_group_reserve(
// CHECK: call void @__weft_work_group_defer_commit(
// CHECK: ret void
// CHECK-LABEL: define void @__weft_group_produce(
// CHECK: call void @__weft_body_produce.leader({{.*}}, i64 0, i64 0, i64 0)
// CHECK: call void @__weft_body_produce.follower(
// CHECK: call void @__weft_work_group_deferred_commits(ptr %1)

kernel void produce(__write_only pipe int p, global const int *in) {
  reserve_id_t id = work_group_reserve_write_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(id))
    write_pipe(p, id, get_local_id(0), &in[get_global_id(0)]);
  work_group_commit_write_pipe(p, id);
}
