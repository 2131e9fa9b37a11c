// cl_khr_subgroups with sub-groups of one work-item each: the size the
// device reports (CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE is 1) and the one
// that keeps a work-item loop a plain loop. A sub-group barrier then orders
// nothing beyond the work-item's own program order, every collective is its
// own input, and an exclusive scan yields the operation's identity.
#include "builtin_macros.h"

OVERLOADABLE uint get_sub_group_size(void) { return 1; }
OVERLOADABLE uint get_max_sub_group_size(void) { return 1; }
OVERLOADABLE uint get_num_sub_groups(void) {
  return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}
OVERLOADABLE uint get_enqueued_num_sub_groups(void) {
  return (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                get_enqueued_local_size(2));
}
OVERLOADABLE uint get_sub_group_id(void) { return (uint)get_local_linear_id(); }
OVERLOADABLE uint get_sub_group_local_id(void) { return 0; }

OVERLOADABLE void sub_group_barrier(cl_mem_fence_flags flags) {}
OVERLOADABLE void sub_group_barrier(cl_mem_fence_flags flags,
                                    memory_scope scope) {}

OVERLOADABLE int sub_group_all(int predicate) { return predicate != 0; }
OVERLOADABLE int sub_group_any(int predicate) { return predicate != 0; }

#define SUB_GROUP_COLLECTIVES(T, LOWEST, HIGHEST)                              \
  OVERLOADABLE T sub_group_broadcast(T x, uint sub_group_local_id) {           \
    return x;                                                                  \
  }                                                                            \
  OVERLOADABLE T sub_group_reduce_add(T x) { return x; }                       \
  OVERLOADABLE T sub_group_reduce_min(T x) { return x; }                       \
  OVERLOADABLE T sub_group_reduce_max(T x) { return x; }                       \
  OVERLOADABLE T sub_group_scan_inclusive_add(T x) { return x; }               \
  OVERLOADABLE T sub_group_scan_inclusive_min(T x) { return x; }               \
  OVERLOADABLE T sub_group_scan_inclusive_max(T x) { return x; }               \
  OVERLOADABLE T sub_group_scan_exclusive_add(T x) { return (T)0; }            \
  OVERLOADABLE T sub_group_scan_exclusive_min(T x) { return HIGHEST; }         \
  OVERLOADABLE T sub_group_scan_exclusive_max(T x) { return LOWEST; }

SUB_GROUP_COLLECTIVES(int, INT_MIN, INT_MAX)
SUB_GROUP_COLLECTIVES(uint, 0u, UINT_MAX)
SUB_GROUP_COLLECTIVES(long, LONG_MIN, LONG_MAX)
SUB_GROUP_COLLECTIVES(ulong, 0ul, ULONG_MAX)
SUB_GROUP_COLLECTIVES(float, -INFINITY, INFINITY)
SUB_GROUP_COLLECTIVES(double, -(double)INFINITY, (double)INFINITY)
SUB_GROUP_COLLECTIVES(half, -(half)INFINITY, (half)INFINITY)

// cl_khr_subgroup_rotate: the value of the work-item `delta` places on in
// the sub-group (or in its cluster), wrapping round; in a sub-group of one
// work-item (and so clusters of one) that is the work-item's own.
#define SUB_GROUP_ROTATE(T)                                                    \
  OVERLOADABLE T sub_group_rotate(T x, int delta) { return x; }                \
  OVERLOADABLE T sub_group_clustered_rotate(T x, int delta,                    \
                                            uint cluster_size) {               \
    return x;                                                                  \
  }
SUB_GROUP_ROTATE(char)
SUB_GROUP_ROTATE(uchar)
SUB_GROUP_ROTATE(short)
SUB_GROUP_ROTATE(ushort)
SUB_GROUP_ROTATE(int)
SUB_GROUP_ROTATE(uint)
SUB_GROUP_ROTATE(long)
SUB_GROUP_ROTATE(ulong)
SUB_GROUP_ROTATE(float)
SUB_GROUP_ROTATE(double)
SUB_GROUP_ROTATE(half)
