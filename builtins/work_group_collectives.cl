// Work-group collective functions (OpenCL C 3.0 §6.15.16, the
// __opencl_c_work_group_collective_functions feature) and the operations of
// cl_khr_work_group_uniform_arithmetic.
//
// All work-items of a group run on one thread, one after another in local
// linear id order between barriers (in a loop over the work-items, or as
// fibers that each run to their next barrier in turn: the order
// WorkGroupContext::collective_slots promises in device/launch_abi.h). So a
// collective needs no atomics, no count of arrivals and only one barrier:
// every work-item leaves its value in its own slot; the last one, the
// highest local linear id, combines the slots (in place for a scan, into the
// result slot otherwise); the barrier then lets everybody read its answer.
// The memory (device/launch_abi.h):
//   bytes 8-15   the result of a reduction, broadcast, all or any
//   from 64      one 4-byte slot per work-item (local linear id order) for
//                the 4-byte types, then, from the next multiple of 64, one
//                8-byte slot per work-item for the 8-byte types
// One barrier is enough for back-to-back collectives: a work-item's next
// write goes to its own slot, which nobody else reads, and the result slot
// and the other slots are rewritten only by the last work-item at the next
// collective, when everybody has read this one's answer. The two sizes have
// slots of their own so that a work-item's long can never reach into
// another work-item's int that it has yet to read back.
//
// The last to arrive combines the slots eight at a time in vectors (a
// prefix within the vector in three shifted steps for scans): the order of
// floating-point operations of these functions is unspecified (OpenCL C
// 3.0 §6.15.16), and integer results do not depend on it.
#include "builtin_macros.h"

// Answered by the compiler inside each kernel from the group's context
// (compiler/passes/kernels/kernel_bodies.cpp). In no named address space of the kernel's;
// __global keeps it apart from __local memory (weft-separate-local-memory).
__global ulong *__weft_collective_slots(void);
// Whether the calling work-item has the group's highest local linear id.
// The loop over the work-items of a region knows it without a test: it runs
// the others apart from the last (compiler/passes/kernels/barrier_regions.cpp), so the
// loop that leaves every value in its slot has no branch and vectorizes.
bool __weft_last_in_group(void);

static size_t group_items(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

// The group's slots for values of `size` bytes.
static __global void *slots_of_size(__global ulong *slots, size_t items,
                                    size_t size) {
  __global char *four = (__global char *)slots + 64;
  return size == 4 ? four : four + ((items * 4 + 63) & ~(size_t)63);
}

// Leaves the calling work-item's VALUE in its slot; `last` says whether it
// is the last of its group to arrive. Without a count of arrivals in memory
// the loop over the work-items keeps no chain of loads and stores through
// one address, and the compiler peels the last work-item off it.
#define ARRIVE(T, VALUE)                                                       \
  __global ulong *slots = __weft_collective_slots();                           \
  size_t items = group_items();                                                \
  size_t me = get_local_linear_id();                                           \
  __global T *values = (__global T *)slots_of_size(slots, items, sizeof(T));   \
  values[me] = VALUE;                                                          \
  bool last = __weft_last_in_group();

#define RESULT(T) (*(__global T *)(slots + 1))

// After the barrier, the answers are found again from the context and the
// local id rather than kept from before it: split at the barrier, a value
// live across it is stored and reloaded per work-item.
#define ANSWER(T) (*(__global T *)(__weft_collective_slots() + 1))
#define OWN_SLOT(T)                                                            \
  ((__global T *)slots_of_size(__weft_collective_slots(), group_items(),       \
                               sizeof(T)))[get_local_linear_id()]

// Vector shifts by 1, 2 and 4 lanes towards the top, filling with `fill`.
#define SHIFT_UP(V, fill, by, M) shuffle2(fill, V, (M##8)(SHIFT_MASK_##by))
#define SHIFT_MASK_1 0, 8, 9, 10, 11, 12, 13, 14
#define SHIFT_MASK_2 0, 0, 8, 9, 10, 11, 12, 13
#define SHIFT_MASK_4 0, 0, 0, 0, 8, 9, 10, 11

// A reduction: the last to arrive folds every value into the result slot.
#define REDUCE(NAME, T, M, COMBINE, IDENTITY, INPUT)                           \
  OVERLOADABLE T work_group_reduce_##NAME(T x) {                               \
    ARRIVE(T, INPUT(x))                                                        \
    if (last) {                                                                \
      T##8 lanes = (T##8)(IDENTITY);                                           \
      size_t i = 0;                                                            \
      for (; i + 8 <= items; i += 8)                                           \
        lanes = COMBINE(lanes, vload8(0, values + i));                         \
      T##4 four = COMBINE(lanes.lo, lanes.hi);                                 \
      T##2 two = COMBINE(four.lo, four.hi);                                    \
      T total = COMBINE(two.lo, two.hi);                                       \
      for (; i < items; ++i)                                                   \
        total = COMBINE(total, values[i]);                                     \
      RESULT(T) = total;                                                       \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return ANSWER(T);                                                          \
  }

// Scans rewrite the slots in place, so each work-item reads back its own.
// Each vector of eight becomes its own inclusive prefix, then takes the
// running total of the vectors before it; the total grows by the prefix's
// last lane, so the chain from one vector to the next is one operation.
#define SCAN(KIND, NAME, T, M, COMBINE, IDENTITY, INPUT, EXCLUSIVE)            \
  OVERLOADABLE T work_group_scan_##KIND##_##NAME(T x) {                        \
    ARRIVE(T, INPUT(x))                                                        \
    if (last) {                                                                \
      T running = IDENTITY;                                                    \
      /* A shift that fills with a constant zero becomes an AVX-512 expand  */ \
      /* instruction, which AMD's Zen 4 and 5 run slowly (the scan took     */ \
      /* twice as long): the fill is read from a volatile variable, and the */ \
      /* shifts are two-input permutes.                                     */ \
      volatile T identity = IDENTITY;                                          \
      T##8 fill = (T##8)(identity);                                            \
      size_t i = 0;                                                            \
      for (; i + 8 <= items; i += 8) {                                         \
        T##8 v = vload8(0, values + i);                                        \
        v = COMBINE(v, SHIFT_UP(v, fill, 1, M));                               \
        v = COMBINE(v, SHIFT_UP(v, fill, 2, M));                               \
        v = COMBINE(v, SHIFT_UP(v, fill, 4, M));                               \
        T##8 before = (T##8)(running);                                         \
        T##8 total = COMBINE(before, v);                                       \
        vstore8(EXCLUSIVE ? SHIFT_UP(total, before, 1, M) : total, 0,          \
                values + i);                                                   \
        running = COMBINE(running, v.s7);                                      \
      }                                                                        \
      for (; i < items; ++i) {                                                 \
        T value = values[i];                                                   \
        T combined = COMBINE(running, value);                                  \
        values[i] = EXCLUSIVE ? running : combined;                            \
        running = combined;                                                    \
      }                                                                        \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return OWN_SLOT(T);                                                        \
  }

// INPUT is applied to each work-item's value first: AS_IS, or TRUTH for the
// logical operations, whose answers are 0 or 1 whatever the inputs. M is
// the unsigned integer type of T's size (shuffle masks).
#define OPERATION_OF(NAME, T, M, COMBINE, IDENTITY, INPUT)                     \
  REDUCE(NAME, T, M, COMBINE, IDENTITY, INPUT)                                 \
  SCAN(inclusive, NAME, T, M, COMBINE, IDENTITY, INPUT, false)                 \
  SCAN(exclusive, NAME, T, M, COMBINE, IDENTITY, INPUT, true)
#define OPERATION(NAME, T, M, COMBINE, IDENTITY)                               \
  OPERATION_OF(NAME, T, M, COMBINE, IDENTITY, AS_IS)
#define AS_IS(x) (x)
#define TRUTH(x) ((int)((x) != 0))

// Each works on scalars and, element by element, on vectors.
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
      RESULT(T) = values[source < items ? source : 0];                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return ANSWER(T);                                                          \
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
#define CORE_TYPE(T, M, LOWEST, HIGHEST)                                       \
  OPERATION(add, T, M, ADD, (T)0)                                              \
  OPERATION(min, T, M, MIN, HIGHEST)                                           \
  OPERATION(max, T, M, MAX, LOWEST)                                            \
  OPERATION(mul, T, M, MUL, (T)1)                                              \
  BROADCAST(T)
#define INTEGER_TYPE(T, M, LOWEST, HIGHEST)                                    \
  CORE_TYPE(T, M, LOWEST, HIGHEST)                                             \
  OPERATION(and, T, M, AND, (T) ~(T)0)                                         \
  OPERATION(or, T, M, OR, (T)0)                                                \
  OPERATION(xor, T, M, XOR, (T)0)

INTEGER_TYPE(int, uint, INT_MIN, INT_MAX)
INTEGER_TYPE(uint, uint, 0u, UINT_MAX)
INTEGER_TYPE(long, ulong, LONG_MIN, LONG_MAX)
INTEGER_TYPE(ulong, ulong, 0ul, ULONG_MAX)
CORE_TYPE(float, uint, -INFINITY, INFINITY)
CORE_TYPE(double, ulong, -(double)INFINITY, (double)INFINITY)

// Half through float: the float forms combine exactly what half's would,
// and each result rounds once to half.
#define HALF_VIA_FLOAT(OP)                                                     \
  OVERLOADABLE half work_group_reduce_##OP(half x) {                           \
    return (half)work_group_reduce_##OP((float)x);                             \
  }                                                                            \
  OVERLOADABLE half work_group_scan_inclusive_##OP(half x) {                   \
    return (half)work_group_scan_inclusive_##OP((float)x);                     \
  }                                                                            \
  OVERLOADABLE half work_group_scan_exclusive_##OP(half x) {                   \
    return (half)work_group_scan_exclusive_##OP((float)x);                     \
  }
HALF_VIA_FLOAT(add)
HALF_VIA_FLOAT(min)
HALF_VIA_FLOAT(max)
HALF_VIA_FLOAT(mul)
OVERLOADABLE half work_group_broadcast(half x, size_t local_id) {
  return (half)work_group_broadcast((float)x, local_id);
}
OVERLOADABLE half work_group_broadcast(half x, size_t x_id, size_t y_id) {
  return (half)work_group_broadcast((float)x, x_id, y_id);
}
OVERLOADABLE half work_group_broadcast(half x, size_t x_id, size_t y_id,
                                       size_t z_id) {
  return (half)work_group_broadcast((float)x, x_id, y_id, z_id);
}

// On values of 0 and 1 the bitwise operations are the logical ones.
OPERATION_OF(logical_and, int, uint, AND, 1, TRUTH)
OPERATION_OF(logical_or, int, uint, OR, 0, TRUTH)
OPERATION_OF(logical_xor, int, uint, XOR, 0, TRUTH)

// The predicate forms: whether every (any) work-item's predicate is true.
OVERLOADABLE int work_group_all(int predicate) {
  return work_group_reduce_logical_and(predicate);
}
OVERLOADABLE int work_group_any(int predicate) {
  return work_group_reduce_logical_or(predicate);
}
