// Sub-groups (OpenCL 3.0, the cl_khr_subgroup_* extensions and
// cl_intel_subgroups). A sub-group is a run of the kernel's sub-group size
// (S, KernelDescription::sub_group_size: the required size, or as many
// 32-bit lanes as a vector register holds) consecutive work-items along
// dimension 0 of one row of the work-group; a row whose length is not a
// multiple of S ends in a shorter one.
//
// Every function that passes values between a sub-group's work-items is
// written with two primitives the compiler provides per path
// (compiler/analysis/builtin_identities.def): __weft_sub_group_sync leaves
// the work-item's value (as 64 bits) and returns the mask of the work-items
// that reached the same point with it (the active ones: all of the
// sub-group in uniform control flow); __weft_sub_group_read(i) is then the
// value sub-group local id i left there. On the widened path a sub-group is
// one chunk of lanes and the two are a store of the lanes and a load; on
// fibers the group's scheduler (device/fiber_group.cpp) runs every
// work-item of the sub-group up to an exchange before any goes on.
// The functions read the members' values in order, each folded in only
// where its bit is set, so the loops are the same for every work-item of a
// sub-group (one pass, whatever the lanes hold).
#include "builtin_macros.h"

uint __weft_sub_group_width(void);
uint __weft_sub_group_local_id(void);
ulong __weft_sub_group_sync(ulong value);
ulong __weft_sub_group_read(uint member);
int __weft_sub_group_in_lanes(void);

#define WEFT_WIDTH __weft_sub_group_width()
// S is a power of two: an index is kept inside the sub-group's values.
#define WEFT_READ(i) __weft_sub_group_read((uint)(i) & (WEFT_WIDTH - 1))

// Sub-groups per row of a group of `row` work-items along dimension 0.
static inline uint weft_runs(size_t row) {
  return (uint)((row + WEFT_WIDTH - 1) / WEFT_WIDTH);
}

// The local id along dimension 0 modulo S, which the widened path knows to
// be the lane (compiler/passes/kernels/kernel_bodies.cpp).
OVERLOADABLE uint get_sub_group_local_id(void) {
  return __weft_sub_group_local_id();
}
OVERLOADABLE uint get_sub_group_size(void) {
  uint first = (uint)get_local_id(0) & ~(WEFT_WIDTH - 1);
  return min(WEFT_WIDTH, (uint)get_local_size(0) - first);
}
OVERLOADABLE uint get_max_sub_group_size(void) {
  return min(WEFT_WIDTH, (uint)get_enqueued_local_size(0));
}
OVERLOADABLE uint get_num_sub_groups(void) {
  return weft_runs(get_local_size(0)) *
         (uint)(get_local_size(1) * get_local_size(2));
}
OVERLOADABLE uint get_enqueued_num_sub_groups(void) {
  return weft_runs(get_enqueued_local_size(0)) *
         (uint)(get_enqueued_local_size(1) * get_enqueued_local_size(2));
}
OVERLOADABLE uint get_sub_group_id(void) {
  uint row = (uint)(get_local_id(2) * get_local_size(1) + get_local_id(1));
  return row * weft_runs(get_local_size(0)) +
         (uint)get_local_id(0) / WEFT_WIDTH;
}

// A barrier among the sub-group's work-items: an exchange of nothing.
OVERLOADABLE void sub_group_barrier(cl_mem_fence_flags flags) {
  __weft_sub_group_sync(0);
}
OVERLOADABLE void sub_group_barrier(cl_mem_fence_flags flags,
                                    memory_scope scope) {
  __weft_sub_group_sync(0);
}

// Every scalar type as 64 bits and back.
#define WEFT_BITS_OF(T, U)                                                     \
  static inline OVERLOADABLE ulong weft_bits(T x) { return (ulong)as_##U(x); } \
  static inline T weft_##T##_from(ulong bits) { return as_##T((U)bits); }
WEFT_BITS_OF(char, uchar)
WEFT_BITS_OF(uchar, uchar)
WEFT_BITS_OF(short, ushort)
WEFT_BITS_OF(ushort, ushort)
WEFT_BITS_OF(int, uint)
WEFT_BITS_OF(uint, uint)
WEFT_BITS_OF(long, ulong)
WEFT_BITS_OF(ulong, ulong)
WEFT_BITS_OF(float, uint)
WEFT_BITS_OF(double, ulong)
WEFT_BITS_OF(half, ushort)

// The sub-group local ids below `count` (up to 64) as a mask.
static inline ulong weft_ids_below(uint count) {
  return count >= 64 ? ~0ul : (1ul << count) - 1;
}

// The members of `active` whose predicate, just exchanged, was true.
static inline ulong weft_true_members(ulong active) {
  ulong yes = 0;
  for (uint i = 0; i < WEFT_WIDTH; ++i)
    yes |= (WEFT_READ(i) != 0 ? 1ul : 0ul) << i;
  return yes & active;
}

OVERLOADABLE int sub_group_all(int predicate) {
  ulong active = __weft_sub_group_sync(predicate != 0);
  return weft_true_members(active) == active;
}
OVERLOADABLE int sub_group_any(int predicate) {
  ulong active = __weft_sub_group_sync(predicate != 0);
  return weft_true_members(active) != 0;
}

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


// cl_khr_subgroup_ballot (what only reads a ballot needs no exchange).
OVERLOADABLE uint4 sub_group_ballot(int predicate) {
  ulong yes = weft_true_members(__weft_sub_group_sync(predicate != 0));
  return (uint4)((uint)yes, (uint)(yes >> 32), 0, 0);
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
OVERLOADABLE int sub_group_elect(void) {
  ulong active = __weft_sub_group_sync(0);
  return get_sub_group_local_id() == (uint)ctz(active);
}
OVERLOADABLE int sub_group_non_uniform_all(int predicate) {
  return sub_group_all(predicate);
}
OVERLOADABLE int sub_group_non_uniform_any(int predicate) {
  return sub_group_any(predicate);
}

// The operations, as expressions of two values.
#define WEFT_OP_add(a, b) ((a) + (b))
#define WEFT_OP_mul(a, b) ((a) * (b))
#define WEFT_OP_min(a, b) min(a, b)
#define WEFT_OP_max(a, b) max(a, b)
#define WEFT_OP_and(a, b) ((a) & (b))
#define WEFT_OP_or(a, b) ((a) | (b))
#define WEFT_OP_xor(a, b) ((a) ^ (b))

// The fold of OP over the values of `members` (after an exchange), in
// sub-group local id order: any members, a step per member.
#define WEFT_FOLD(T, OP, IDENTITY)                                             \
  static inline T weft_fold_##OP##_##T(ulong members) {                        \
    T total = IDENTITY;                                                        \
    for (uint i = 0; i < WEFT_WIDTH; ++i) {                                    \
      T value = weft_##T##_from(WEFT_READ(i));                                 \
      total = (members >> i) & 1 ? (T)WEFT_OP_##OP(total, value) : total;      \
    }                                                                          \
    return total;                                                              \
  }

// A whole sub-group, every work-item active, folds in log2(size) exchanges
// instead: each work-item swaps its partial result with the one `mask` away
// (a butterfly: every work-item ends with its cluster's total), or adds the
// one `delta` below (a scan). Each exchange reads a member named by a
// constant offset from the work-item's own id, which the widened path makes
// one permutation of the lanes. Whether the sub-group is whole is the same
// for all its work-items, so each runs the same form.
static inline ulong weft_whole(void) { return weft_ids_below(WEFT_WIDTH); }
#define WEFT_SWAPPED(T, v, index)                                              \
  (__weft_sub_group_sync(weft_bits(v)), weft_##T##_from(WEFT_READ(index)))
#define WEFT_BUTTERFLY_STEP(T, OP, v, span, m)                                 \
  if ((m) < (span)) {                                                          \
    T other = WEFT_SWAPPED(T, v, get_sub_group_local_id() ^ (m));              \
    v = (T)WEFT_OP_##OP(v, other);                                             \
  }
#define WEFT_SCAN_STEP(T, OP, v, d)                                            \
  if ((d) < WEFT_WIDTH) {                                                      \
    uint me = get_sub_group_local_id();                                        \
    T below = WEFT_SWAPPED(T, v, me - (d));                                    \
    v = me >= (d) ? (T)WEFT_OP_##OP(below, v) : v;                             \
  }
#define WEFT_LOG_STEPS(T, OP, IDENTITY)                                        \
  static inline T weft_butterfly_##OP##_##T(T v, uint span) {                  \
    WEFT_BUTTERFLY_STEP(T, OP, v, span, 1)                                     \
    WEFT_BUTTERFLY_STEP(T, OP, v, span, 2)                                     \
    WEFT_BUTTERFLY_STEP(T, OP, v, span, 4)                                     \
    WEFT_BUTTERFLY_STEP(T, OP, v, span, 8)                                     \
    WEFT_BUTTERFLY_STEP(T, OP, v, span, 16)                                    \
    WEFT_BUTTERFLY_STEP(T, OP, v, span, 32)                                    \
    return v;                                                                  \
  }                                                                            \
  static inline T weft_prefix_##OP##_##T(T v) {                                \
    WEFT_SCAN_STEP(T, OP, v, 1)                                                \
    WEFT_SCAN_STEP(T, OP, v, 2)                                                \
    WEFT_SCAN_STEP(T, OP, v, 4)                                                \
    WEFT_SCAN_STEP(T, OP, v, 8)                                                \
    WEFT_SCAN_STEP(T, OP, v, 16)                                               \
    WEFT_SCAN_STEP(T, OP, v, 32)                                               \
    return v;                                                                  \
  }                                                                            \
  static inline T weft_prefix_before_##OP##_##T(T v) {                         \
    T inclusive = weft_prefix_##OP##_##T(v);                                   \
    T before = WEFT_SWAPPED(T, inclusive, get_sub_group_local_id() - 1);       \
    return get_sub_group_local_id() == 0 ? (T)(IDENTITY) : before;             \
  }

// The members a work-item's result folds: all active ones, those up to it,
// those before it, or those of its cluster.
#define WEFT_UP_TO_ME weft_ids_below(get_sub_group_local_id() + 1)
#define WEFT_BEFORE_ME weft_ids_below(get_sub_group_local_id())
static inline ulong weft_cluster_of_me(uint cluster_size) {
  uint first = get_sub_group_local_id() & ~(cluster_size - 1);
  return weft_ids_below(first + cluster_size) & ~weft_ids_below(first);
}

// As lanes of one vector (the widened path) a whole sub-group, every
// work-item active, folds in log2(size) permutations; learning which are
// active costs nothing there. Run one work-item at a time (fibers) every
// exchange is a switch of each work-item, so one exchange and the fold a
// member at a time cost less.
#define WEFT_FOLDED(T, OP, LOG_STEPS, MEMBERS)                                 \
  if (__weft_sub_group_in_lanes() &&                                           \
      __weft_sub_group_sync(0) == weft_whole())                                \
    return LOG_STEPS;                                                          \
  ulong active = __weft_sub_group_sync(weft_bits(x));                          \
  return weft_fold_##OP##_##T(MEMBERS);

#define WEFT_ARITHMETIC(T, OP, IDENTITY, PREFIX)                               \
  OVERLOADABLE T PREFIX##reduce_##OP(T x) {                                    \
    WEFT_FOLDED(T, OP, weft_butterfly_##OP##_##T(x, WEFT_WIDTH), active)       \
  }                                                                            \
  OVERLOADABLE T PREFIX##scan_inclusive_##OP(T x) {                            \
    WEFT_FOLDED(T, OP, weft_prefix_##OP##_##T(x), active & WEFT_UP_TO_ME)      \
  }                                                                            \
  OVERLOADABLE T PREFIX##scan_exclusive_##OP(T x) {                            \
    WEFT_FOLDED(T, OP, weft_prefix_before_##OP##_##T(x),                       \
                active & WEFT_BEFORE_ME)                                       \
  }
#define WEFT_ALL_ARITHMETIC(T, OP, IDENTITY)                                   \
  WEFT_FOLD(T, OP, IDENTITY)                                                   \
  WEFT_LOG_STEPS(T, OP, IDENTITY)                                              \
  WEFT_ARITHMETIC(T, OP, IDENTITY, sub_group_non_uniform_)                     \
  OVERLOADABLE T sub_group_clustered_reduce_##OP(T x, uint cluster_size) {     \
    WEFT_FOLDED(T, OP, weft_butterfly_##OP##_##T(x, cluster_size),             \
                active & weft_cluster_of_me(cluster_size))                     \
  }

// The OpenCL 3.0 collectives (add, min, max) and broadcast.
#define SUB_GROUP_COLLECTIVES(T, LOWEST, HIGHEST)                              \
  WEFT_ARITHMETIC(T, add, (T)0, sub_group_)                                    \
  WEFT_ARITHMETIC(T, min, HIGHEST, sub_group_)                                 \
  WEFT_ARITHMETIC(T, max, LOWEST, sub_group_)                                  \
  OVERLOADABLE T sub_group_broadcast(T x, uint sub_group_local_id) {           \
    __weft_sub_group_sync(weft_bits(x));                                       \
    return weft_##T##_from(WEFT_READ(sub_group_local_id));                     \
  }

// Broadcasts (cl_khr_subgroup_ballot), the equality vote, shuffles
// (cl_khr_subgroup_shuffle, _shuffle_relative) and rotations
// (cl_khr_subgroup_rotate). An index outside the sub-group gives an
// undefined value, read from inside it.
#define WEFT_SUB_GROUP_EXCHANGES(T)                                            \
  OVERLOADABLE T sub_group_non_uniform_broadcast(T x, uint index) {            \
    __weft_sub_group_sync(weft_bits(x));                                       \
    return weft_##T##_from(WEFT_READ(index));                                  \
  }                                                                            \
  OVERLOADABLE T sub_group_broadcast_first(T x) {                              \
    ulong active = __weft_sub_group_sync(weft_bits(x));                        \
    return weft_##T##_from(WEFT_READ(ctz(active)));                            \
  }                                                                            \
  OVERLOADABLE int sub_group_non_uniform_all_equal(T x) {                      \
    ulong active = __weft_sub_group_sync(weft_bits(x));                        \
    int equal = 1;                                                             \
    for (uint i = 0; i < WEFT_WIDTH; ++i)                                      \
      equal &= !((active >> i) & 1) || weft_##T##_from(WEFT_READ(i)) == x;     \
    return equal;                                                              \
  }                                                                            \
  OVERLOADABLE T sub_group_shuffle(T x, uint index) {                          \
    __weft_sub_group_sync(weft_bits(x));                                       \
    return weft_##T##_from(WEFT_READ(index));                                  \
  }                                                                            \
  OVERLOADABLE T sub_group_shuffle_xor(T x, uint mask) {                       \
    __weft_sub_group_sync(weft_bits(x));                                       \
    return weft_##T##_from(WEFT_READ(get_sub_group_local_id() ^ mask));        \
  }                                                                            \
  OVERLOADABLE T sub_group_shuffle_up(T x, uint delta) {                       \
    __weft_sub_group_sync(weft_bits(x));                                       \
    return weft_##T##_from(WEFT_READ(get_sub_group_local_id() - delta));       \
  }                                                                            \
  OVERLOADABLE T sub_group_shuffle_down(T x, uint delta) {                     \
    __weft_sub_group_sync(weft_bits(x));                                       \
    return weft_##T##_from(WEFT_READ(get_sub_group_local_id() + delta));       \
  }                                                                            \
  OVERLOADABLE T sub_group_rotate(T x, int delta) {                            \
    __weft_sub_group_sync(weft_bits(x));                                       \
    uint size = get_sub_group_size();                                          \
    uint shift = (uint)(delta % (int)size + (int)size);                        \
    return weft_##T##_from(WEFT_READ((get_sub_group_local_id() + shift) % size)); \
  }                                                                            \
  OVERLOADABLE T sub_group_clustered_rotate(T x, int delta,                    \
                                            uint cluster_size) {               \
    __weft_sub_group_sync(weft_bits(x));                                       \
    uint me = get_sub_group_local_id();                                        \
    uint first = me & ~(cluster_size - 1);                                     \
    uint shift = (uint)(delta % (int)cluster_size + (int)cluster_size);        \
    return weft_##T##_from(                                                    \
        WEFT_READ(first + (me - first + shift) % cluster_size));               \
  }

#define WEFT_SUB_GROUP_NUMBERS(T, LOWEST, HIGHEST)                             \
  WEFT_SUB_GROUP_EXCHANGES(T)                                                  \
  WEFT_ALL_ARITHMETIC(T, add, (T)0)                                            \
  WEFT_ALL_ARITHMETIC(T, mul, (T)1)                                            \
  WEFT_ALL_ARITHMETIC(T, min, HIGHEST)                                         \
  WEFT_ALL_ARITHMETIC(T, max, LOWEST)
#define WEFT_SUB_GROUP_INTEGERS(T, LOWEST, HIGHEST)                            \
  WEFT_SUB_GROUP_NUMBERS(T, LOWEST, HIGHEST)                                   \
  WEFT_ALL_ARITHMETIC(T, and, (T)~(T)0)                                        \
  WEFT_ALL_ARITHMETIC(T, or, (T)0)                                             \
  WEFT_ALL_ARITHMETIC(T, xor, (T)0)

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

// The logical operations on int predicates (non-uniform and clustered):
// the bitwise ones on each predicate as 0 or 1, the answer as 0 or 1 (an
// exclusive scan's identity for `and` is all ones).
#define WEFT_LOGICAL(OP, BITWISE)                                              \
  OVERLOADABLE int sub_group_non_uniform_reduce_logical_##OP(int x) {          \
    return sub_group_non_uniform_reduce_##BITWISE(x != 0) != 0;                \
  }                                                                            \
  OVERLOADABLE int sub_group_non_uniform_scan_inclusive_logical_##OP(int x) {  \
    return sub_group_non_uniform_scan_inclusive_##BITWISE(x != 0) != 0;        \
  }                                                                            \
  OVERLOADABLE int sub_group_non_uniform_scan_exclusive_logical_##OP(int x) {  \
    return sub_group_non_uniform_scan_exclusive_##BITWISE(x != 0) != 0;        \
  }                                                                            \
  OVERLOADABLE int sub_group_clustered_reduce_logical_##OP(int x,              \
                                                           uint cluster_size) { \
    return sub_group_clustered_reduce_##BITWISE(x != 0, cluster_size) != 0;    \
  }
WEFT_LOGICAL(and, and)
WEFT_LOGICAL(or, or)
WEFT_LOGICAL(xor, xor)

// The OpenCL 3.0 collectives, and for 8- and 16-bit integers
// (cl_khr_subgroup_extended_types).
SUB_GROUP_COLLECTIVES(char, (char)CHAR_MIN, (char)CHAR_MAX)
SUB_GROUP_COLLECTIVES(uchar, (uchar)0, (uchar)UCHAR_MAX)
SUB_GROUP_COLLECTIVES(short, (short)SHRT_MIN, (short)SHRT_MAX)
SUB_GROUP_COLLECTIVES(ushort, (ushort)0, (ushort)USHRT_MAX)
SUB_GROUP_COLLECTIVES(int, INT_MIN, INT_MAX)
SUB_GROUP_COLLECTIVES(uint, 0u, UINT_MAX)
SUB_GROUP_COLLECTIVES(long, LONG_MIN, LONG_MAX)
SUB_GROUP_COLLECTIVES(ulong, 0ul, ULONG_MAX)
SUB_GROUP_COLLECTIVES(float, -INFINITY, INFINITY)
SUB_GROUP_COLLECTIVES(double, -(double)INFINITY, (double)INFINITY)
SUB_GROUP_COLLECTIVES(half, -(half)INFINITY, (half)INFINITY)

// Vectors, element by element: broadcasts of every vector type
// (cl_khr_subgroup_extended_types, _ballot) and Intel's shuffles.
#define WEFT_ELEMENTS(T, N, CALL)                                              \
  T##N result;                                                                 \
  for (int k = 0; k < N; ++k)                                                  \
    result[k] = CALL;                                                          \
  return result;
#define WEFT_SUB_GROUP_VECTOR_BROADCASTS(T, N)                                 \
  OVERLOADABLE T##N sub_group_broadcast(T##N x, uint sub_group_local_id) {     \
    WEFT_ELEMENTS(T, N, sub_group_broadcast(x[k], sub_group_local_id))         \
  }                                                                            \
  OVERLOADABLE T##N sub_group_non_uniform_broadcast(T##N x, uint index) {      \
    WEFT_ELEMENTS(T, N, sub_group_non_uniform_broadcast(x[k], index))          \
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
// Shuffles from the work-item the index names; shuffle_down and shuffle_up
// read an index past the sub-group's end (before its start) from the
// `next` (`previous`) values, counted in the largest sub-group's size.
#define WEFT_INTEL_SHUFFLES(T)                                                 \
  OVERLOADABLE T intel_sub_group_shuffle(T data, uint c) {                     \
    return sub_group_shuffle(data, c);                                         \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_shuffle_xor(T data, uint value) {             \
    return sub_group_shuffle_xor(data, value);                                 \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_shuffle_down(T current, T next,               \
                                              uint delta) {                    \
    uint size = get_max_sub_group_size();                                      \
    uint index = get_sub_group_local_id() + delta;                             \
    T from_current = sub_group_shuffle(current, index);                        \
    T from_next = sub_group_shuffle(next, index - size);                       \
    return index < size ? from_current : from_next;                            \
  }                                                                            \
  OVERLOADABLE T intel_sub_group_shuffle_up(T previous, T current,             \
                                            uint delta) {                      \
    uint size = get_max_sub_group_size();                                      \
    uint me = get_sub_group_local_id();                                        \
    T from_current = sub_group_shuffle(current, me - delta);                   \
    T from_previous = sub_group_shuffle(previous, size + me - delta);          \
    return delta <= me ? from_current : from_previous;                         \
  }
#define WEFT_INTEL_VECTOR_SHUFFLES(T, N)                                       \
  OVERLOADABLE T##N intel_sub_group_shuffle(T##N data, uint c) {               \
    WEFT_ELEMENTS(T, N, intel_sub_group_shuffle(data[k], c))                   \
  }                                                                            \
  OVERLOADABLE T##N intel_sub_group_shuffle_xor(T##N data, uint value) {       \
    WEFT_ELEMENTS(T, N, intel_sub_group_shuffle_xor(data[k], value))           \
  }                                                                            \
  OVERLOADABLE T##N intel_sub_group_shuffle_down(T##N current, T##N next,      \
                                                 uint delta) {                 \
    WEFT_ELEMENTS(T, N,                                                        \
                  intel_sub_group_shuffle_down(current[k], next[k], delta))    \
  }                                                                            \
  OVERLOADABLE T##N intel_sub_group_shuffle_up(T##N previous, T##N current,    \
                                               uint delta) {                   \
    WEFT_ELEMENTS(T, N,                                                        \
                  intel_sub_group_shuffle_up(previous[k], current[k], delta))  \
  }
#define WEFT_INTEL_SHUFFLES_AND_VECTORS(T)                                     \
  WEFT_INTEL_SHUFFLES(T)                                                       \
  WEFT_INTEL_VECTOR_SHUFFLES(T, 2)                                             \
  WEFT_INTEL_VECTOR_SHUFFLES(T, 3)                                             \
  WEFT_INTEL_VECTOR_SHUFFLES(T, 4)                                             \
  WEFT_INTEL_VECTOR_SHUFFLES(T, 8)                                             \
  WEFT_INTEL_VECTOR_SHUFFLES(T, 16)
WEFT_INTEL_SHUFFLES_AND_VECTORS(float)
WEFT_INTEL_SHUFFLES_AND_VECTORS(int)
WEFT_INTEL_SHUFFLES_AND_VECTORS(uint)
WEFT_INTEL_SHUFFLES(long)
WEFT_INTEL_SHUFFLES(ulong)
WEFT_INTEL_SHUFFLES(half)
WEFT_INTEL_SHUFFLES(double)

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
WEFT_INTEL_SHUFFLES_AND_VECTORS(char)
WEFT_INTEL_SHUFFLES_AND_VECTORS(uchar)
WEFT_INTEL_SHUFFLES_AND_VECTORS(short)
WEFT_INTEL_SHUFFLES_AND_VECTORS(ushort)
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
