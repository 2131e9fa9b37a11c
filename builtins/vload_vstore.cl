// vloadn/vstoren and the half load/store builtins. Pointers need only be
// aligned to the element, so vector accesses go through under-aligned types.
#include "builtin_macros.h"
#include "half_rounding.h"

// Vector types aligned to their element: the compiler then emits unaligned
// vector moves instead of assuming the vector's natural alignment.
#define UNALIGNED_TYPES(T)                                                     \
  typedef T##2 __attribute__((aligned(sizeof(T)))) weft_unaligned_##T##2;      \
  typedef T##4 __attribute__((aligned(sizeof(T)))) weft_unaligned_##T##4;      \
  typedef T##8 __attribute__((aligned(sizeof(T)))) weft_unaligned_##T##8;      \
  typedef T##16 __attribute__((aligned(sizeof(T)))) weft_unaligned_##T##16;

#define VLOAD_N(T, N, AS)                                                      \
  OVERLOADABLE T##N vload##N(size_t offset, const AS T *p) {                   \
    return *(const AS weft_unaligned_##T##N *)(p + offset * N);                \
  }
#define VSTORE_N(T, N, AS)                                                     \
  OVERLOADABLE void vstore##N(T##N data, size_t offset, AS T *p) {             \
    *(AS weft_unaligned_##T##N *)(p + offset * N) = data;                      \
  }

// A 3-vector occupies four elements in memory, so it cannot be moved as one.
#define VLOAD_3(T, AS)                                                         \
  OVERLOADABLE T##3 vload3(size_t offset, const AS T *p) {                     \
    const AS T *q = p + offset * 3;                                            \
    return (T##3)(q[0], q[1], q[2]);                                           \
  }
#define VSTORE_3(T, AS)                                                        \
  OVERLOADABLE void vstore3(T##3 data, size_t offset, AS T *p) {               \
    AS T *q = p + offset * 3;                                                  \
    q[0] = data.s0;                                                            \
    q[1] = data.s1;                                                            \
    q[2] = data.s2;                                                            \
  }

#define VLOAD_ALL(T, AS)                                                       \
  VLOAD_N(T, 2, AS)                                                            \
  VLOAD_3(T, AS)                                                               \
  VLOAD_N(T, 4, AS) VLOAD_N(T, 8, AS) VLOAD_N(T, 16, AS)
#define VSTORE_ALL(T, AS)                                                      \
  VSTORE_N(T, 2, AS)                                                           \
  VSTORE_3(T, AS)                                                              \
  VSTORE_N(T, 4, AS) VSTORE_N(T, 8, AS) VSTORE_N(T, 16, AS)

// With the generic address space, Clang declares only the generic forms.
#ifdef __opencl_c_generic_address_space
#define GENERIC_VLOAD_VSTORE(T) VLOAD_ALL(T, __generic) VSTORE_ALL(T, __generic)
#else
#define GENERIC_VLOAD_VSTORE(T)
#endif

#define VLOAD_VSTORE_TYPE(T)                                                   \
  UNALIGNED_TYPES(T)                                                           \
  VLOAD_ALL(T, __global)                                                       \
  VLOAD_ALL(T, __local)                                                        \
  VLOAD_ALL(T, __constant)                                                     \
  VLOAD_ALL(T, __private)                                                      \
  VSTORE_ALL(T, __global)                                                      \
  VSTORE_ALL(T, __local)                                                       \
  VSTORE_ALL(T, __private)                                                     \
  GENERIC_VLOAD_VSTORE(T)

VLOAD_VSTORE_TYPE(char)
VLOAD_VSTORE_TYPE(uchar)
VLOAD_VSTORE_TYPE(short)
VLOAD_VSTORE_TYPE(ushort)
VLOAD_VSTORE_TYPE(int)
VLOAD_VSTORE_TYPE(uint)
VLOAD_VSTORE_TYPE(long)
VLOAD_VSTORE_TYPE(ulong)
VLOAD_VSTORE_TYPE(float)
VLOAD_VSTORE_TYPE(double)

VLOAD_VSTORE_TYPE(half)

// vload_half and vstore_half convert with the hardware (half_rounding.h);
// the directed rounding modes correct its nearest-even result. A double is
// rounded once, straight to half.

#define VLOAD_HALF(AS)                                                         \
  OVERLOADABLE float vload_half(size_t offset, const AS half *p) {             \
    return (float)p[offset];                                                   \
  }                                                                            \
  OVERLOADABLE float3 vload_half3(size_t offset, const AS half *p) {           \
    return __builtin_convertvector(vload3(offset, p), float3);                 \
  }                                                                            \
  VLOAD_HALF_N(AS, 2) VLOAD_HALF_N(AS, 4) VLOAD_HALF_N(AS, 8)                  \
  VLOAD_HALF_N(AS, 16)                                                         \
  /* vloada_half3 reads from a four-element slot. */                           \
  OVERLOADABLE float3 vloada_half3(size_t offset, const AS half *p) {          \
    return vload_half3(0, p + offset * 4);                                     \
  }
#define VLOAD_HALF_N(AS, N)                                                    \
  OVERLOADABLE float##N vload_half##N(size_t offset, const AS half *p) {       \
    return __builtin_convertvector(vload##N(offset, p), float##N);             \
  }                                                                            \
  OVERLOADABLE float##N vloada_half##N(size_t offset, const AS half *p) {      \
    return __builtin_convertvector(*(const AS half##N *)(p + offset * N),      \
                                   float##N);                                  \
  }

VLOAD_HALF(__global)
VLOAD_HALF(__local)
VLOAD_HALF(__constant)
VLOAD_HALF(__private)
#ifdef __opencl_c_generic_address_space
VLOAD_HALF(__generic)
#endif

#define VSTORE_HALF_MODE(SRC, AS, SUFFIX, MODE)                                \
  OVERLOADABLE void vstore_half##SUFFIX(SRC data, size_t offset, AS half *p) { \
    p[offset] = weft_##SRC##_to_half(data, MODE);                              \
  }                                                                            \
  OVERLOADABLE void vstore_half3##SUFFIX(SRC##3 data, size_t offset,           \
                                         AS half *p) {                         \
    vstore3(weft_##SRC##_to_half3(data, MODE), offset, p);                     \
  }                                                                            \
  OVERLOADABLE void vstorea_half3##SUFFIX(SRC##3 data, size_t offset,          \
                                          AS half *p) {                        \
    vstore_half3##SUFFIX(data, 0, p + offset * 4);                             \
  }                                                                            \
  VSTORE_HALF_N(SRC, AS, SUFFIX, MODE, 2)                                      \
  VSTORE_HALF_N(SRC, AS, SUFFIX, MODE, 4)                                      \
  VSTORE_HALF_N(SRC, AS, SUFFIX, MODE, 8)                                      \
  VSTORE_HALF_N(SRC, AS, SUFFIX, MODE, 16)
#define VSTORE_HALF_N(SRC, AS, SUFFIX, MODE, N)                                \
  OVERLOADABLE void vstore_half##N##SUFFIX(SRC##N data, size_t offset,         \
                                           AS half *p) {                       \
    vstore##N(weft_##SRC##_to_half##N(data, MODE), offset, p);                 \
  }                                                                            \
  OVERLOADABLE void vstorea_half##N##SUFFIX(SRC##N data, size_t offset,        \
                                            AS half *p) {                      \
    *(AS half##N *)(p + offset * N) = weft_##SRC##_to_half##N(data, MODE);     \
  }

// Without a suffix the store uses the default rounding mode, to nearest even.
#define VSTORE_HALF(SRC, AS)                                                   \
  VSTORE_HALF_MODE(SRC, AS, , ROUND_TE)                                        \
  VSTORE_HALF_MODE(SRC, AS, _rte, ROUND_TE)                                    \
  VSTORE_HALF_MODE(SRC, AS, _rtz, ROUND_TZ)                                    \
  VSTORE_HALF_MODE(SRC, AS, _rtp, ROUND_TP)                                    \
  VSTORE_HALF_MODE(SRC, AS, _rtn, ROUND_TN)

VSTORE_HALF(float, __global)
VSTORE_HALF(float, __local)
VSTORE_HALF(float, __private)
VSTORE_HALF(double, __global)
VSTORE_HALF(double, __local)
VSTORE_HALF(double, __private)
#ifdef __opencl_c_generic_address_space
VSTORE_HALF(float, __generic)
VSTORE_HALF(double, __generic)
#endif
