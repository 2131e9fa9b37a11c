// Atomic builtins: the OpenCL 1.x atomic_*/atom_* functions and the C11-style
// ones. Work-groups run on different threads, so every one is a real atomic
// instruction; scopes are all treated as the whole device (x86 is coherent).
#include "builtin_macros.h"

// Clang only declares the C11 forms without an explicit order or scope when
// the device's feature macros say so. These are the ones Weft assumes a CPU
// device reports; defining them here makes Clang declare every overload.
#define __opencl_c_atomic_order_acq_rel 1
#define __opencl_c_atomic_order_seq_cst 1
#define __opencl_c_atomic_scope_device 1
#define __opencl_c_atomic_scope_all_devices 1

// OpenCL 1.x atomics are relaxed by the spec; a sequentially consistent
// read-modify-write is the same x86 instruction and also keeps the compiler
// from moving plain accesses across it.
#define SEQ __ATOMIC_SEQ_CST

#define LEGACY_BINARY(NAME, BUILTIN, T, AS)                                    \
  OVERLOADABLE T NAME(volatile AS T *p, T value) {                             \
    return BUILTIN(p, value, SEQ);                                             \
  }
#define LEGACY_UNARY(NAME, BUILTIN, T, AS)                                     \
  OVERLOADABLE T NAME(volatile AS T *p) { return BUILTIN(p, (T)1, SEQ); }
#define LEGACY_CMPXCHG(NAME, T, AS)                                            \
  OVERLOADABLE T NAME(volatile AS T *p, T expected, T desired) {               \
    __atomic_compare_exchange_n(p, &expected, desired, false, SEQ, SEQ);       \
    return expected;                                                           \
  }

#define LEGACY_BASE(PREFIX, T, AS)                                             \
  LEGACY_BINARY(PREFIX##add, __atomic_fetch_add, T, AS)                        \
  LEGACY_BINARY(PREFIX##sub, __atomic_fetch_sub, T, AS)                        \
  LEGACY_BINARY(PREFIX##xchg, __atomic_exchange_n, T, AS)                      \
  LEGACY_UNARY(PREFIX##inc, __atomic_fetch_add, T, AS)                         \
  LEGACY_UNARY(PREFIX##dec, __atomic_fetch_sub, T, AS)                         \
  LEGACY_CMPXCHG(PREFIX##cmpxchg, T, AS)
#define LEGACY_EXTENDED(PREFIX, T, AS)                                         \
  LEGACY_BINARY(PREFIX##min, __atomic_fetch_min, T, AS)                        \
  LEGACY_BINARY(PREFIX##max, __atomic_fetch_max, T, AS)                        \
  LEGACY_BINARY(PREFIX##and, __atomic_fetch_and, T, AS)                        \
  LEGACY_BINARY(PREFIX## or, __atomic_fetch_or, T, AS)                         \
  LEGACY_BINARY(PREFIX## xor, __atomic_fetch_xor, T, AS)
#define LEGACY_ALL(PREFIX, T, AS)                                              \
  LEGACY_BASE(PREFIX, T, AS)                                                   \
  LEGACY_EXTENDED(PREFIX, T, AS)

#define LEGACY_ADDRESS_SPACE(AS)                                               \
  LEGACY_ALL(atomic_, int, AS)                                                 \
  LEGACY_ALL(atomic_, uint, AS)                                                \
  LEGACY_ALL(atom_, int, AS)                                                   \
  LEGACY_ALL(atom_, uint, AS)                                                  \
  LEGACY_ALL(atom_, long, AS)                                                  \
  LEGACY_ALL(atom_, ulong, AS)                                                 \
  OVERLOADABLE float atomic_xchg(volatile AS float *p, float value) {          \
    return __builtin_astype(__atomic_exchange_n((volatile AS uint *)p,         \
                                                __builtin_astype(value, uint), \
                                                SEQ),                          \
                            float);                                            \
  }

LEGACY_ADDRESS_SPACE(__global)
LEGACY_ADDRESS_SPACE(__local)

// C11-style atomics. The __opencl_atomic_* builtins take the order and scope
// as run-time values; once inlined into a kernel with constant arguments they
// fold to a single instruction.
// The header only names these enumerators under the feature macros, which it
// has already seen undefined.
#define ORDER ((memory_order)__ATOMIC_SEQ_CST)
#define SCOPE ((memory_scope)__OPENCL_MEMORY_SCOPE_DEVICE)

#define C11_LOAD_STORE(A, T, AS)                                               \
  OVERLOADABLE void atomic_init(volatile AS A *p, T value) {                   \
    __opencl_atomic_init(p, value);                                            \
  }                                                                            \
  OVERLOADABLE void atomic_store_explicit(                                     \
      volatile AS A *p, T value, memory_order order, memory_scope scope) {     \
    __opencl_atomic_store(p, value, order, scope);                             \
  }                                                                            \
  OVERLOADABLE void atomic_store_explicit(volatile AS A *p, T value,           \
                                          memory_order order) {                \
    __opencl_atomic_store(p, value, order, SCOPE);                             \
  }                                                                            \
  OVERLOADABLE void atomic_store(volatile AS A *p, T value) {                  \
    __opencl_atomic_store(p, value, ORDER, SCOPE);                             \
  }                                                                            \
  OVERLOADABLE T atomic_load_explicit(volatile AS A *p, memory_order order,    \
                                      memory_scope scope) {                    \
    return __opencl_atomic_load(p, order, scope);                              \
  }                                                                            \
  OVERLOADABLE T atomic_load_explicit(volatile AS A *p, memory_order order) {  \
    return __opencl_atomic_load(p, order, SCOPE);                              \
  }                                                                            \
  OVERLOADABLE T atomic_load(volatile AS A *p) {                               \
    return __opencl_atomic_load(p, ORDER, SCOPE);                              \
  }                                                                            \
  C11_RMW(exchange, A, T, T, AS)                                               \
  C11_COMPARE_EXCHANGE(strong, A, T, AS, __global)                             \
  C11_COMPARE_EXCHANGE(strong, A, T, AS, __local)                              \
  C11_COMPARE_EXCHANGE(strong, A, T, AS, __private)                            \
  C11_COMPARE_EXCHANGE(weak, A, T, AS, __global)                               \
  C11_COMPARE_EXCHANGE(weak, A, T, AS, __local)                                \
  C11_COMPARE_EXCHANGE(weak, A, T, AS, __private)

// NAME is the part after atomic_ ("exchange", "fetch_add", ...).
#define C11_RMW(NAME, A, T, OPERAND, AS)                                       \
  OVERLOADABLE T atomic_##NAME##_explicit(volatile AS A *p, OPERAND value,     \
                                          memory_order order,                  \
                                          memory_scope scope) {                \
    return __opencl_atomic_##NAME(p, value, order, scope);                     \
  }                                                                            \
  OVERLOADABLE T atomic_##NAME##_explicit(volatile AS A *p, OPERAND value,     \
                                          memory_order order) {                \
    return __opencl_atomic_##NAME(p, value, order, SCOPE);                     \
  }                                                                            \
  OVERLOADABLE T atomic_##NAME(volatile AS A *p, OPERAND value) {              \
    return __opencl_atomic_##NAME(p, value, ORDER, SCOPE);                     \
  }

// 'expected' may point to any named address space; the builtin needs a
// private copy of it.
#define C11_COMPARE_EXCHANGE(STRENGTH, A, T, AS, EXPECTED_AS)                  \
  OVERLOADABLE bool atomic_compare_exchange_##STRENGTH##_explicit(             \
      volatile AS A *p, EXPECTED_AS T *expected, T desired,                    \
      memory_order success, memory_order failure, memory_scope scope) {        \
    T old = *expected;                                                         \
    bool exchanged = __opencl_atomic_compare_exchange_##STRENGTH(              \
        p, &old, desired, success, failure, scope);                            \
    *expected = old;                                                           \
    return exchanged;                                                          \
  }                                                                            \
  OVERLOADABLE bool atomic_compare_exchange_##STRENGTH##_explicit(             \
      volatile AS A *p, EXPECTED_AS T *expected, T desired,                    \
      memory_order success, memory_order failure) {                            \
    return atomic_compare_exchange_##STRENGTH##_explicit(                      \
        p, expected, desired, success, failure, SCOPE);                        \
  }                                                                            \
  OVERLOADABLE bool atomic_compare_exchange_##STRENGTH(                        \
      volatile AS A *p, EXPECTED_AS T *expected, T desired) {                  \
    return atomic_compare_exchange_##STRENGTH##_explicit(p, expected, desired, \
                                                         ORDER, ORDER, SCOPE); \
  }

#define C11_INTEGER(A, T, AS)                                                  \
  C11_LOAD_STORE(A, T, AS)                                                     \
  C11_RMW(fetch_add, A, T, T, AS)                                              \
  C11_RMW(fetch_sub, A, T, T, AS)                                              \
  C11_RMW(fetch_or, A, T, T, AS)                                               \
  C11_RMW(fetch_xor, A, T, T, AS)                                              \
  C11_RMW(fetch_and, A, T, T, AS)                                              \
  C11_RMW(fetch_min, A, T, T, AS)                                              \
  C11_RMW(fetch_max, A, T, T, AS)

// cl_ext_float_atomics: add, sub, min and max (LLVM's atomicrmw fadd, fsub,
// fmin, fmax; x86 makes them compare-exchange loops). min and max follow
// fmin and fmax: a NaN operand loses to a number.
#define C11_FLOATING(A, T, AS)                                                 \
  C11_LOAD_STORE(A, T, AS)                                                     \
  C11_RMW(fetch_add, A, T, T, AS)                                              \
  C11_RMW(fetch_sub, A, T, T, AS)                                              \
  C11_RMW(fetch_min, A, T, T, AS)                                              \
  C11_RMW(fetch_max, A, T, T, AS)

#define C11_ADDRESS_SPACE(AS)                                                  \
  C11_INTEGER(atomic_int, int, AS)                                             \
  C11_INTEGER(atomic_uint, uint, AS)                                           \
  C11_INTEGER(atomic_long, long, AS)                                           \
  C11_INTEGER(atomic_ulong, ulong, AS)                                         \
  C11_FLOATING(atomic_float, float, AS)                                        \
  C11_FLOATING(atomic_double, double, AS)                                      \
  C11_RMW(fetch_add, atomic_uintptr_t, uintptr_t, ptrdiff_t, AS)               \
  C11_RMW(fetch_sub, atomic_uintptr_t, uintptr_t, ptrdiff_t, AS)               \
  C11_FLAG(AS)

#define C11_FLAG(AS)                                                           \
  OVERLOADABLE bool atomic_flag_test_and_set_explicit(                         \
      volatile AS atomic_flag *flag, memory_order order, memory_scope scope) { \
    return __opencl_atomic_exchange((volatile AS atomic_int *)flag, 1, order,  \
                                    scope) != 0;                               \
  }                                                                            \
  OVERLOADABLE bool atomic_flag_test_and_set_explicit(                         \
      volatile AS atomic_flag *flag, memory_order order) {                     \
    return atomic_flag_test_and_set_explicit(flag, order, SCOPE);              \
  }                                                                            \
  OVERLOADABLE bool atomic_flag_test_and_set(volatile AS atomic_flag *flag) {  \
    return atomic_flag_test_and_set_explicit(flag, ORDER, SCOPE);              \
  }                                                                            \
  OVERLOADABLE void atomic_flag_clear_explicit(                                \
      volatile AS atomic_flag *flag, memory_order order, memory_scope scope) { \
    __opencl_atomic_store((volatile AS atomic_int *)flag, 0, order, scope);    \
  }                                                                            \
  OVERLOADABLE void atomic_flag_clear_explicit(volatile AS atomic_flag *flag,  \
                                               memory_order order) {           \
    atomic_flag_clear_explicit(flag, order, SCOPE);                            \
  }                                                                            \
  OVERLOADABLE void atomic_flag_clear(volatile AS atomic_flag *flag) {         \
    atomic_flag_clear_explicit(flag, ORDER, SCOPE);                            \
  }

C11_ADDRESS_SPACE(__global)
C11_ADDRESS_SPACE(__local)

// With the generic address space, Clang declares only the generic forms
// (object and 'expected' both generic).
#ifdef __opencl_c_generic_address_space
C11_ADDRESS_SPACE(__generic)
#define C11_GENERIC_EXPECTED(A, T)                                             \
  C11_COMPARE_EXCHANGE(strong, A, T, __generic, __generic)                     \
  C11_COMPARE_EXCHANGE(weak, A, T, __generic, __generic)
C11_GENERIC_EXPECTED(atomic_int, int)
C11_GENERIC_EXPECTED(atomic_uint, uint)
C11_GENERIC_EXPECTED(atomic_long, long)
C11_GENERIC_EXPECTED(atomic_ulong, ulong)
C11_GENERIC_EXPECTED(atomic_float, float)
C11_GENERIC_EXPECTED(atomic_double, double)
#endif

OVERLOADABLE void atomic_work_item_fence(cl_mem_fence_flags flags,
                                         memory_order order,
                                         memory_scope scope) {
  __c11_atomic_thread_fence(order);
}
