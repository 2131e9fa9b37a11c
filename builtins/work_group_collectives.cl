// Work-group collective functions (OpenCL C 3.0 §6.15.16, the
// __opencl_c_work_group_collective_functions feature) and the operations of
// cl_khr_work_group_uniform_arithmetic.
//
// All work-items of a group run on one thread (one after another in a loop
// between barriers, or as fibers), so a collective needs no atomics and only
// one barrier: every work-item leaves its value in its own slot and counts
// itself in; the last to arrive combines the slots (in place for a scan, into
// the result slot otherwise); the barrier then lets everybody read its
// answer. The device gives every group the slots
// (WorkGroupContext::collective_slots, device/launch_abi.h):
//   slots[0]   the count of arrived work-items, zero between collectives
//   slots[1]   the result of a reduction, broadcast, all or any
//   slots[2..] one per work-item, in local linear id order, holding a value
//              of the collective's type in its first bytes (a full slot
//              each, even for int: a work-item's long in a later
//              collective must not reach into another work-item's int)
// One barrier is enough for back-to-back collectives: a work-item's next
// write goes to its own slot, which nobody else reads, and the result slot
// and the other slots are rewritten only by the last to arrive at the next
// collective, when everybody has read this one's answer.
#include "builtin_macros.h"

// In no named address space of the kernel's (builtins/work_group_slots.c);
// __global keeps it apart from __local memory (weft-separate-local-memory).
__global ulong *__weft_collective_slots(void);

#define HEADER_SLOTS 2

static size_t group_items(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

// Leaves the calling work-item's VALUE in its slot and counts it in;
// `last` says whether it is the last of its group to arrive (it then resets
// the count for the next collective).
#define ARRIVE(T, VALUE)                                                       \
  __global ulong *slots = __weft_collective_slots();                           \
  size_t items = group_items();                                                \
  size_t me = get_local_linear_id();                                           \
  SLOT(T, me) = VALUE;                                                         \
  bool last = ++slots[0] == items;                                             \
  if (last)                                                                    \
    slots[0] = 0;

#define RESULT(T) (*(__global T *)(slots + 1))
#define SLOT(T, i) (*(__global T *)(slots + HEADER_SLOTS + (i)))

// A reduction: the last to arrive folds every value into the result slot.
#define REDUCE(NAME, T, COMBINE, INPUT)                                        \
  OVERLOADABLE T work_group_reduce_##NAME(T x) {                               \
    ARRIVE(T, INPUT(x))                                                        \
    if (last) {                                                                \
      T total = SLOT(T, 0);                                                    \
      for (size_t i = 1; i < items; ++i)                                       \
        total = COMBINE(total, SLOT(T, i));                                    \
      RESULT(T) = total;                                                       \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return RESULT(T);                                                          \
  }

// Scans rewrite the slots in place, so each work-item reads back its own.
#define SCAN_INCLUSIVE(NAME, T, COMBINE, INPUT)                                \
  OVERLOADABLE T work_group_scan_inclusive_##NAME(T x) {                       \
    ARRIVE(T, INPUT(x))                                                        \
    if (last) {                                                                \
      T running = SLOT(T, 0);                                                  \
      for (size_t i = 1; i < items; ++i) {                                     \
        running = COMBINE(running, SLOT(T, i));                                \
        SLOT(T, i) = running;                                                  \
      }                                                                        \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return SLOT(T, me);                                                        \
  }

#define SCAN_EXCLUSIVE(NAME, T, COMBINE, IDENTITY, INPUT)                      \
  OVERLOADABLE T work_group_scan_exclusive_##NAME(T x) {                       \
    ARRIVE(T, INPUT(x))                                                        \
    if (last) {                                                                \
      T running = IDENTITY;                                                    \
      for (size_t i = 0; i < items; ++i) {                                     \
        T value = SLOT(T, i);                                                  \
        SLOT(T, i) = running;                                                  \
        running = COMBINE(running, value);                                     \
      }                                                                        \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return SLOT(T, me);                                                        \
  }

// INPUT is applied to each work-item's value first: AS_IS, or TRUTH for the
// logical operations, whose answers are 0 or 1 whatever the inputs.
#define OPERATION_OF(NAME, T, COMBINE, IDENTITY, INPUT)                        \
  REDUCE(NAME, T, COMBINE, INPUT)                                              \
  SCAN_INCLUSIVE(NAME, T, COMBINE, INPUT)                                      \
  SCAN_EXCLUSIVE(NAME, T, COMBINE, IDENTITY, INPUT)
#define OPERATION(NAME, T, COMBINE, IDENTITY)                                  \
  OPERATION_OF(NAME, T, COMBINE, IDENTITY, AS_IS)
#define AS_IS(x) (x)
#define TRUTH(x) ((int)((x) != 0))

#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#define MIN(a, b) ((b) < (a) ? (b) : (a))
#define MAX(a, b) ((b) > (a) ? (b) : (a))
#define AND(a, b) ((a) & (b))
#define OR(a, b) ((a) | (b))
#define XOR(a, b) ((a) ^ (b))

// work_group_broadcast: every work-item leaves its value; the last copies
// the chosen one into the result slot. An id outside the group is undefined
// behaviour in OpenCL C; here it reads work-item 0's value.
#define BROADCAST(T)                                                           \
  static T broadcast_##T(T x, size_t source) {                                 \
    ARRIVE(T, x)                                                               \
    if (last)                                                                  \
      RESULT(T) = SLOT(T, source < items ? source : 0);                        \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return RESULT(T);                                                          \
  }                                                                            \
  OVERLOADABLE T work_group_broadcast(T x, size_t local_id) {                  \
    return broadcast_##T(x, local_id);                                         \
  }                                                                            \
  OVERLOADABLE T work_group_broadcast(T x, size_t local_id_x,                  \
                                      size_t local_id_y) {                     \
    return broadcast_##T(x, local_id_x + local_id_y * get_local_size(0));      \
  }                                                                            \
  OVERLOADABLE T work_group_broadcast(T x, size_t local_id_x,                  \
                                      size_t local_id_y, size_t local_id_z) {  \
    return broadcast_##T(                                                      \
        x, local_id_x + get_local_size(0) *                                    \
                            (local_id_y + local_id_z * get_local_size(1)));    \
  }

// Every type of the core feature gets add, min and max, and broadcast; the
// uniform-arithmetic extension adds mul for all of them, the bitwise
// operations for the integers and the logical ones for int.
#define CORE_TYPE(T, LOWEST, HIGHEST)                                          \
  OPERATION(add, T, ADD, (T)0)                                                 \
  OPERATION(min, T, MIN, HIGHEST)                                              \
  OPERATION(max, T, MAX, LOWEST)                                               \
  OPERATION(mul, T, MUL, (T)1)                                                 \
  BROADCAST(T)
#define INTEGER_TYPE(T, LOWEST, HIGHEST)                                       \
  CORE_TYPE(T, LOWEST, HIGHEST)                                                \
  OPERATION(and, T, AND, (T) ~(T)0)                                            \
  OPERATION(or, T, OR, (T)0)                                                   \
  OPERATION(xor, T, XOR, (T)0)

INTEGER_TYPE(int, INT_MIN, INT_MAX)
INTEGER_TYPE(uint, 0u, UINT_MAX)
INTEGER_TYPE(long, LONG_MIN, LONG_MAX)
INTEGER_TYPE(ulong, 0ul, ULONG_MAX)
CORE_TYPE(float, -INFINITY, INFINITY)
CORE_TYPE(double, -(double)INFINITY, (double)INFINITY)

// On values of 0 and 1 the bitwise operations are the logical ones.
OPERATION_OF(logical_and, int, AND, 1, TRUTH)
OPERATION_OF(logical_or, int, OR, 0, TRUTH)
OPERATION_OF(logical_xor, int, XOR, 0, TRUTH)

// The predicate forms: whether every (any) work-item's predicate is true.
OVERLOADABLE int work_group_all(int predicate) {
  return work_group_reduce_logical_and(predicate);
}
OVERLOADABLE int work_group_any(int predicate) {
  return work_group_reduce_logical_or(predicate);
}
