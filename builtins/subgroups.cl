// Sub-groups of one work-item each (OpenCL 3.0 and the cl_khr_subgroup_*
// extensions): the size the
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

// --- The cl_khr_subgroup_* extensions. -------------------------------------
// What only reads a ballot (bit extract, counts, scans, find, the masks) is
// written for any sub-group size, from the work-item's sub-group local ID
// and get_max_sub_group_size(); what exchanges values between work-items
// (ballot, broadcasts, votes, arithmetic, shuffles, clustered reductions)
// is, in a sub-group of one work-item, the work-item's own value, or the
// operation's identity for an exclusive scan.

// The ballot bits below `count` (any count up to 128).
static inline uint4 weft_ballot_bits_below(uint count) {
  uint4 bits;
  for (int i = 0; i < 4; ++i) {
    uint from = (uint)i * 32;
    uint in_word = count <= from ? 0 : min(count - from, 32u);
    bits[i] = in_word == 32 ? 0xffffffffu : (1u << in_word) - 1u;
  }
  return bits;
}

static inline uint weft_ballot_popcount(uint4 bits) {
  return popcount(bits.x) + popcount(bits.y) + popcount(bits.z) +
         popcount(bits.w);
}

// cl_khr_subgroup_ballot.
OVERLOADABLE uint4 sub_group_ballot(int predicate) {
  return (uint4)(predicate != 0, 0, 0, 0);
}
OVERLOADABLE int sub_group_ballot_bit_extract(uint4 value, uint index) {
  return index < 128 && ((value[index / 32] >> (index % 32)) & 1u);
}
OVERLOADABLE int sub_group_inverse_ballot(uint4 value) {
  return sub_group_ballot_bit_extract(value, get_sub_group_local_id());
}
OVERLOADABLE uint sub_group_ballot_bit_count(uint4 value) {
  return weft_ballot_popcount(value &
                              weft_ballot_bits_below(get_max_sub_group_size()));
}
OVERLOADABLE uint sub_group_ballot_inclusive_scan(uint4 value) {
  return weft_ballot_popcount(
      value & weft_ballot_bits_below(get_sub_group_local_id() + 1));
}
OVERLOADABLE uint sub_group_ballot_exclusive_scan(uint4 value) {
  return weft_ballot_popcount(value &
                              weft_ballot_bits_below(get_sub_group_local_id()));
}
OVERLOADABLE uint sub_group_ballot_find_lsb(uint4 value) {
  uint4 bits = value & weft_ballot_bits_below(get_max_sub_group_size());
  for (int i = 0; i < 4; ++i)
    if (bits[i])
      return (uint)i * 32 + ctz(bits[i]);
  return 0; // no bit set: undefined
}
OVERLOADABLE uint sub_group_ballot_find_msb(uint4 value) {
  uint4 bits = value & weft_ballot_bits_below(get_max_sub_group_size());
  for (int i = 3; i >= 0; --i)
    if (bits[i])
      return (uint)i * 32 + 31 - clz(bits[i]);
  return 0; // no bit set: undefined
}
OVERLOADABLE uint4 get_sub_group_eq_mask(void) {
  return weft_ballot_bits_below(get_sub_group_local_id() + 1) ^
         weft_ballot_bits_below(get_sub_group_local_id());
}
OVERLOADABLE uint4 get_sub_group_ge_mask(void) {
  return weft_ballot_bits_below(get_max_sub_group_size()) &
         ~weft_ballot_bits_below(get_sub_group_local_id());
}
OVERLOADABLE uint4 get_sub_group_gt_mask(void) {
  return weft_ballot_bits_below(get_max_sub_group_size()) &
         ~weft_ballot_bits_below(get_sub_group_local_id() + 1);
}
OVERLOADABLE uint4 get_sub_group_le_mask(void) {
  return weft_ballot_bits_below(get_sub_group_local_id() + 1);
}
OVERLOADABLE uint4 get_sub_group_lt_mask(void) {
  return weft_ballot_bits_below(get_sub_group_local_id());
}

// cl_khr_subgroup_non_uniform_vote.
OVERLOADABLE int sub_group_elect(void) { return 1; }
OVERLOADABLE int sub_group_non_uniform_all(int predicate) {
  return predicate != 0;
}
OVERLOADABLE int sub_group_non_uniform_any(int predicate) {
  return predicate != 0;
}

// Every scalar type: broadcasts (cl_khr_subgroup_ballot), the equality vote,
// shuffles (cl_khr_subgroup_shuffle, _shuffle_relative), and the
// arithmetic of every kind (cl_khr_subgroup_non_uniform_arithmetic,
// _clustered_reduce) that numbers take.
#define WEFT_SUB_GROUP_EXCHANGES(T)                                            \
  OVERLOADABLE T sub_group_non_uniform_broadcast(T x, uint index) {            \
    return x;                                                                  \
  }                                                                            \
  OVERLOADABLE T sub_group_broadcast_first(T x) { return x; }                  \
  OVERLOADABLE int sub_group_non_uniform_all_equal(T x) { return 1; }          \
  OVERLOADABLE T sub_group_shuffle(T x, uint index) { return x; }              \
  OVERLOADABLE T sub_group_shuffle_xor(T x, uint mask) { return x; }           \
  OVERLOADABLE T sub_group_shuffle_up(T x, uint delta) { return x; }           \
  OVERLOADABLE T sub_group_shuffle_down(T x, uint delta) { return x; }
#define WEFT_SUB_GROUP_ARITHMETIC(T, OP, IDENTITY)                             \
  OVERLOADABLE T sub_group_non_uniform_reduce_##OP(T x) { return x; }          \
  OVERLOADABLE T sub_group_non_uniform_scan_inclusive_##OP(T x) { return x; }  \
  OVERLOADABLE T sub_group_non_uniform_scan_exclusive_##OP(T x) {              \
    return IDENTITY;                                                           \
  }                                                                            \
  OVERLOADABLE T sub_group_clustered_reduce_##OP(T x, uint cluster_size) {     \
    return x;                                                                  \
  }
#define WEFT_SUB_GROUP_NUMBERS(T, LOWEST, HIGHEST)                             \
  WEFT_SUB_GROUP_EXCHANGES(T)                                                  \
  WEFT_SUB_GROUP_ARITHMETIC(T, add, (T)0)                                      \
  WEFT_SUB_GROUP_ARITHMETIC(T, mul, (T)1)                                      \
  WEFT_SUB_GROUP_ARITHMETIC(T, min, HIGHEST)                                   \
  WEFT_SUB_GROUP_ARITHMETIC(T, max, LOWEST)
#define WEFT_SUB_GROUP_INTEGERS(T, LOWEST, HIGHEST)                            \
  WEFT_SUB_GROUP_NUMBERS(T, LOWEST, HIGHEST)                                   \
  WEFT_SUB_GROUP_ARITHMETIC(T, and, (T)~(T)0)                                  \
  WEFT_SUB_GROUP_ARITHMETIC(T, or, (T)0)                                       \
  WEFT_SUB_GROUP_ARITHMETIC(T, xor, (T)0)

WEFT_SUB_GROUP_INTEGERS(char, (char)CHAR_MIN, (char)CHAR_MAX)
WEFT_SUB_GROUP_INTEGERS(uchar, (uchar)0, (uchar)UCHAR_MAX)
WEFT_SUB_GROUP_INTEGERS(short, (short)SHRT_MIN, (short)SHRT_MAX)
WEFT_SUB_GROUP_INTEGERS(ushort, (ushort)0, (ushort)USHRT_MAX)
WEFT_SUB_GROUP_INTEGERS(int, INT_MIN, INT_MAX)
WEFT_SUB_GROUP_INTEGERS(uint, 0u, UINT_MAX)
WEFT_SUB_GROUP_INTEGERS(long, LONG_MIN, LONG_MAX)
WEFT_SUB_GROUP_INTEGERS(ulong, 0ul, ULONG_MAX)
WEFT_SUB_GROUP_NUMBERS(float, -INFINITY, INFINITY)
WEFT_SUB_GROUP_NUMBERS(double, -(double)INFINITY, (double)INFINITY)
WEFT_SUB_GROUP_NUMBERS(half, -(half)INFINITY, (half)INFINITY)

// The logical operations on int predicates (non-uniform and clustered).
WEFT_SUB_GROUP_ARITHMETIC(int, logical_and, 1)
WEFT_SUB_GROUP_ARITHMETIC(int, logical_or, 0)
WEFT_SUB_GROUP_ARITHMETIC(int, logical_xor, 0)

// cl_khr_subgroup_extended_types: the 3.0 collectives for 8- and 16-bit
// integers, and broadcasts of vectors of every element type.
SUB_GROUP_COLLECTIVES(char, (char)CHAR_MIN, (char)CHAR_MAX)
SUB_GROUP_COLLECTIVES(uchar, (uchar)0, (uchar)UCHAR_MAX)
SUB_GROUP_COLLECTIVES(short, (short)SHRT_MIN, (short)SHRT_MAX)
SUB_GROUP_COLLECTIVES(ushort, (ushort)0, (ushort)USHRT_MAX)

#define WEFT_SUB_GROUP_VECTOR_BROADCASTS(T, N)                                 \
  OVERLOADABLE T##N sub_group_broadcast(T##N x, uint sub_group_local_id) {     \
    return x;                                                                  \
  }                                                                            \
  OVERLOADABLE T##N sub_group_non_uniform_broadcast(T##N x, uint index) {      \
    return x;                                                                  \
  }
#define WEFT_SUB_GROUP_VECTORS_OF(T)                                           \
  WEFT_SUB_GROUP_VECTOR_BROADCASTS(T, 2)                                       \
  WEFT_SUB_GROUP_VECTOR_BROADCASTS(T, 3)                                       \
  WEFT_SUB_GROUP_VECTOR_BROADCASTS(T, 4)                                       \
  WEFT_SUB_GROUP_VECTOR_BROADCASTS(T, 8)                                       \
  WEFT_SUB_GROUP_VECTOR_BROADCASTS(T, 16)
WEFT_SUB_GROUP_VECTORS_OF(char)
WEFT_SUB_GROUP_VECTORS_OF(uchar)
WEFT_SUB_GROUP_VECTORS_OF(short)
WEFT_SUB_GROUP_VECTORS_OF(ushort)
WEFT_SUB_GROUP_VECTORS_OF(int)
WEFT_SUB_GROUP_VECTORS_OF(uint)
WEFT_SUB_GROUP_VECTORS_OF(long)
WEFT_SUB_GROUP_VECTORS_OF(ulong)
WEFT_SUB_GROUP_VECTORS_OF(float)
WEFT_SUB_GROUP_VECTORS_OF(double)
WEFT_SUB_GROUP_VECTORS_OF(half)

// --- cl_intel_subgroups. ------------------------------------------------------
// Shuffles, from the work-item whose sub-group local ID the index names: in
// a sub-group of one work-item, the only one in range is the work-item
// itself, whose `next` (`previous`) value an index one sub-group past
// (before) names.
#define WEFT_INTEL_SHUFFLE_BODIES(T)                                           \
  OVERLOADABLE T intel_sub_group_shuffle(T data, uint c) { return data; }      \
  OVERLOADABLE T intel_sub_group_shuffle_down(T current, T next,               \
                                              uint delta) {                    \
    return get_sub_group_local_id() + delta < get_max_sub_group_size()         \
               ? current                                                       \
               : next;                                                         \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_shuffle_up(T previous, T current,             \
                                            uint delta) {                      \
    return delta <= get_sub_group_local_id() ? current : previous;             \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_shuffle_xor(T data, uint value) {             \
    return data;                                                               \
  }
#define WEFT_INTEL_SHUFFLE_BODIES_AND_VECTORS(T)                               \
  WEFT_INTEL_SHUFFLE_BODIES(T)                                                 \
  WEFT_INTEL_SHUFFLE_BODIES(T##2)                                              \
  WEFT_INTEL_SHUFFLE_BODIES(T##3)                                              \
  WEFT_INTEL_SHUFFLE_BODIES(T##4)                                              \
  WEFT_INTEL_SHUFFLE_BODIES(T##8)                                              \
  WEFT_INTEL_SHUFFLE_BODIES(T##16)
WEFT_INTEL_SHUFFLE_BODIES_AND_VECTORS(float)
WEFT_INTEL_SHUFFLE_BODIES_AND_VECTORS(int)
WEFT_INTEL_SHUFFLE_BODIES_AND_VECTORS(uint)
WEFT_INTEL_SHUFFLE_BODIES(long)
WEFT_INTEL_SHUFFLE_BODIES(ulong)
WEFT_INTEL_SHUFFLE_BODIES(half)
WEFT_INTEL_SHUFFLE_BODIES(double)

// Block reads and writes of global memory: value k of each work-item is
// p[local id + k * max sub-group size], for any sub-group size. SUFFIX
// names the element and width (none or _ui for uint, _uc, _us, _ul).
#define WEFT_BLOCK_AT(k)                                                       \
  (get_sub_group_local_id() + (k) * get_max_sub_group_size())
#define WEFT_GLOBAL_BLOCK_IO(SUFFIX, E, T, N)                                  \
  OVERLOADABLE T intel_sub_group_block_read##SUFFIX(const global E *p) {       \
    E values[N];                                                               \
    for (uint k = 0; k < N; ++k)                                               \
      values[k] = p[WEFT_BLOCK_AT(k)];                                         \
    return WEFT_BLOCK_LOAD##N(values);                                         \
  }                                                                            \
  OVERLOADABLE void intel_sub_group_block_write##SUFFIX(global E *p,           \
                                                        T data) {              \
    E values[N];                                                               \
    WEFT_BLOCK_STORE##N(data, values);                                         \
    for (uint k = 0; k < N; ++k)                                               \
      p[WEFT_BLOCK_AT(k)] = values[k];                                         \
  }
WEFT_INTEL_BLOCK_IO_TYPES(WEFT_GLOBAL_BLOCK_IO)

// cl_intel_subgroups_char and _short: shuffles of 8- and 16-bit values,
// and the 3.0 collectives under Intel's names.
WEFT_INTEL_SHUFFLE_BODIES_AND_VECTORS(char)
WEFT_INTEL_SHUFFLE_BODIES_AND_VECTORS(uchar)
WEFT_INTEL_SHUFFLE_BODIES_AND_VECTORS(short)
WEFT_INTEL_SHUFFLE_BODIES_AND_VECTORS(ushort)
#define WEFT_INTEL_COLLECTIVE_BODIES(T)                                        \
  OVERLOADABLE T intel_sub_group_broadcast(T x, uint id) {                     \
    return sub_group_broadcast(x, id);                                         \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_reduce_add(T x) {                             \
    return sub_group_reduce_add(x);                                            \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_reduce_min(T x) {                             \
    return sub_group_reduce_min(x);                                            \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_reduce_max(T x) {                             \
    return sub_group_reduce_max(x);                                            \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_scan_exclusive_add(T x) {                     \
    return sub_group_scan_exclusive_add(x);                                    \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_scan_exclusive_min(T x) {                     \
    return sub_group_scan_exclusive_min(x);                                    \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_scan_exclusive_max(T x) {                     \
    return sub_group_scan_exclusive_max(x);                                    \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_scan_inclusive_add(T x) {                     \
    return sub_group_scan_inclusive_add(x);                                    \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_scan_inclusive_min(T x) {                     \
    return sub_group_scan_inclusive_min(x);                                    \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_scan_inclusive_max(T x) {                     \
    return sub_group_scan_inclusive_max(x);                                    \
  }
WEFT_INTEL_COLLECTIVE_BODIES(char)
WEFT_INTEL_COLLECTIVE_BODIES(uchar)
WEFT_INTEL_COLLECTIVE_BODIES(short)
WEFT_INTEL_COLLECTIVE_BODIES(ushort)
