// Whether a kernel can tell its work-groups apart (KernelDescription::
// sees_work_groups): only then must a launch run in the groups it asked
// for. Global ids, sizes, offsets and the dimension count do not depend on
// the groups; local and group ids, group sizes and counts, sub-group
// queries (one work-item per sub-group: the local linear id), barriers,
// work-group functions and __local memory all do.
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 -passes='weft-kernel-pipeline' | FileCheck %s

// CHECK: !{!"name", !"blind", {{.*}}!"sees_work_groups", i64 0,
kernel void blind(global float *y, global const float *x) {
  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);
  y[i] = x[i] + (float)get_work_dim() + (float)get_global_offset(0) +
         (float)get_global_linear_id();
}

// CHECK: !{!"name", !"local_id", {{.*}}!"sees_work_groups", i64 1,
kernel void local_id(global int *y) {
  y[get_global_id(0)] = get_local_id(0);
}

// CHECK: !{!"name", !"group_count", {{.*}}!"sees_work_groups", i64 1,
kernel void group_count(global int *y) {
  y[get_global_id(0)] = get_num_groups(0);
}

// CHECK: !{!"name", !"sub_group", {{.*}}!"sees_work_groups", i64 1,
kernel void sub_group(global int *y) {
  y[get_global_id(0)] = get_sub_group_id();
}

// CHECK: !{!"name", !"local_argument", {{.*}}!"sees_work_groups", i64 1,
kernel void local_argument(global int *y, local int *scratch) {
  scratch[0] = 1;
  y[get_global_id(0)] = 2;
}

// CHECK: !{!"name", !"local_variable", {{.*}}!"sees_work_groups", i64 1,
kernel void local_variable(global int *y) {
  local int count;
  count = 1;
  y[get_global_id(0)] = count;
}

// CHECK: !{!"name", !"with_barrier", {{.*}}!"sees_work_groups", i64 1,
kernel void with_barrier(global int *y) {
  y[get_global_id(0)] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
}

// CHECK: !{!"name", !"collective", {{.*}}!"sees_work_groups", i64 1,
kernel void collective(global int *y) {
  y[get_global_id(0)] = work_group_reduce_add(1);
}
