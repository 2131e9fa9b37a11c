// vloadn/vstoren and the half load/store builtins. Pointers need only be
// aligned to the element, so vector accesses go through under-aligned types.
#include "builtin_macros.h"

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

// Half values are handled as their bit patterns: the library is built without
// cl_khr_fp16, and conversions must honour an explicit rounding mode.

// Every half is exactly representable as a float.
static float half_bits_to_float(ushort h) {
  uint sign = (uint)(h & 0x8000) << 16;
  uint exponent = (h >> 10) & 0x1f;
  uint mantissa = h & 0x3ff;
  if (exponent == 0) {
    float magnitude = (float)mantissa * 0x1.0p-24f;
    return as_float(as_uint(magnitude) | sign);
  }
  if (exponent == 31)
    return as_float(sign | 0x7f800000u | (mantissa << 13));
  return as_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

enum weft_rounding { ROUND_TE, ROUND_TZ, ROUND_TP, ROUND_TN };

// Rounds straight from double so double sources are rounded only once (a
// float source converts to double exactly).
static ushort double_to_half_bits(double x, enum weft_rounding mode) {
  ulong bits = as_ulong(x);
  ushort sign = (ushort)((bits >> 48) & 0x8000);
  bool negative = sign != 0;
  bits &= 0x7fffffffffffffffUL;
  if (bits > 0x7ff0000000000000UL)
    return sign | 0x7e00 | (ushort)((bits >> 42) & 0x1ff);
  if (bits == 0)
    return sign;
  int exponent = (int)(bits >> 52) - 1023;
  ulong mantissa = bits & 0x000fffffffffffffUL;
  if (exponent == -1023)
    exponent = -1022;
  else
    mantissa |= 1UL << 52;

  bool away_rounds_up = mode == ROUND_TE || (mode == ROUND_TP && !negative) ||
                        (mode == ROUND_TN && negative);
  if (exponent > 15) // includes infinity
    return sign | (away_rounds_up ? 0x7c00 : 0x7bff);

  // Normal halves keep 10 of the 52 fraction bits; subnormals fewer.
  int shift = 42;
  uint biased = 0;
  if (exponent >= -14)
    biased = (uint)(exponent + 15);
  else
    shift = exponent < -35 ? 63 : 42 + (-14 - exponent);
  ulong kept = mantissa >> shift;
  ulong rest = mantissa & ((1UL << shift) - 1);
  ulong halfway = 1UL << (shift - 1);
  // With the implicit bit in 'kept', adding the exponent field counts it once
  // too often for normals; subtract it.
  uint h = exponent >= -14 ? ((biased << 10) + (uint)kept - 0x400) : (uint)kept;
  bool round_up;
  switch (mode) {
  case ROUND_TE:
    round_up = rest > halfway || (rest == halfway && (h & 1));
    break;
  case ROUND_TZ:
    round_up = false;
    break;
  case ROUND_TP:
    round_up = rest != 0 && !negative;
    break;
  default:
    round_up = rest != 0 && negative;
    break;
  }
  // A carry out of the mantissa correctly bumps the exponent, up to infinity.
  return sign | (ushort)(h + round_up);
}

#define VLOAD_HALF(AS)                                                         \
  OVERLOADABLE float vload_half(size_t offset, const AS half *p) {             \
    return half_bits_to_float(((const AS ushort *)p)[offset]);                 \
  }                                                                            \
  OVERLOADABLE float2 vload_half2(size_t offset, const AS half *p) {           \
    const AS ushort *q = (const AS ushort *)p + offset * 2;                    \
    return (float2)(half_bits_to_float(q[0]), half_bits_to_float(q[1]));       \
  }                                                                            \
  OVERLOADABLE float3 vload_half3(size_t offset, const AS half *p) {           \
    const AS ushort *q = (const AS ushort *)p + offset * 3;                    \
    return (float3)(half_bits_to_float(q[0]), half_bits_to_float(q[1]),        \
                    half_bits_to_float(q[2]));                                 \
  }                                                                            \
  OVERLOADABLE float4 vload_half4(size_t offset, const AS half *p) {           \
    return (float4)(vload_half2(offset * 2, p),                                \
                    vload_half2(offset * 2 + 1, p));                           \
  }                                                                            \
  OVERLOADABLE float8 vload_half8(size_t offset, const AS half *p) {           \
    return (float8)(vload_half4(offset * 2, p),                                \
                    vload_half4(offset * 2 + 1, p));                           \
  }                                                                            \
  OVERLOADABLE float16 vload_half16(size_t offset, const AS half *p) {         \
    return (float16)(vload_half8(offset * 2, p),                               \
                     vload_half8(offset * 2 + 1, p));                          \
  }                                                                            \
  OVERLOADABLE float2 vloada_half2(size_t offset, const AS half *p) {          \
    return vload_half2(offset, p);                                             \
  }                                                                            \
  /* vloada_half3 reads from a four-element slot. */                           \
  OVERLOADABLE float3 vloada_half3(size_t offset, const AS half *p) {          \
    return vload_half3(0, p + offset * 4);                                     \
  }                                                                            \
  OVERLOADABLE float4 vloada_half4(size_t offset, const AS half *p) {          \
    return vload_half4(offset, p);                                             \
  }                                                                            \
  OVERLOADABLE float8 vloada_half8(size_t offset, const AS half *p) {          \
    return vload_half8(offset, p);                                             \
  }                                                                            \
  OVERLOADABLE float16 vloada_half16(size_t offset, const AS half *p) {        \
    return vload_half16(offset, p);                                            \
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
    ((AS ushort *)p)[offset] = double_to_half_bits(data, MODE);                \
  }                                                                            \
  OVERLOADABLE void vstore_half2##SUFFIX(SRC##2 data, size_t offset,           \
                                         AS half *p) {                         \
    AS ushort *q = (AS ushort *)p + offset * 2;                                \
    q[0] = double_to_half_bits(data.s0, MODE);                                 \
    q[1] = double_to_half_bits(data.s1, MODE);                                 \
  }                                                                            \
  OVERLOADABLE void vstore_half3##SUFFIX(SRC##3 data, size_t offset,           \
                                         AS half *p) {                         \
    AS ushort *q = (AS ushort *)p + offset * 3;                                \
    q[0] = double_to_half_bits(data.s0, MODE);                                 \
    q[1] = double_to_half_bits(data.s1, MODE);                                 \
    q[2] = double_to_half_bits(data.s2, MODE);                                 \
  }                                                                            \
  OVERLOADABLE void vstore_half4##SUFFIX(SRC##4 data, size_t offset,           \
                                         AS half *p) {                         \
    vstore_half2##SUFFIX(data.lo, offset * 2, p);                              \
    vstore_half2##SUFFIX(data.hi, offset * 2 + 1, p);                          \
  }                                                                            \
  OVERLOADABLE void vstore_half8##SUFFIX(SRC##8 data, size_t offset,           \
                                         AS half *p) {                         \
    vstore_half4##SUFFIX(data.lo, offset * 2, p);                              \
    vstore_half4##SUFFIX(data.hi, offset * 2 + 1, p);                          \
  }                                                                            \
  OVERLOADABLE void vstore_half16##SUFFIX(SRC##16 data, size_t offset,         \
                                          AS half *p) {                        \
    vstore_half8##SUFFIX(data.lo, offset * 2, p);                              \
    vstore_half8##SUFFIX(data.hi, offset * 2 + 1, p);                          \
  }                                                                            \
  OVERLOADABLE void vstorea_half2##SUFFIX(SRC##2 data, size_t offset,          \
                                          AS half *p) {                        \
    vstore_half2##SUFFIX(data, offset, p);                                     \
  }                                                                            \
  OVERLOADABLE void vstorea_half3##SUFFIX(SRC##3 data, size_t offset,          \
                                          AS half *p) {                        \
    vstore_half3##SUFFIX(data, 0, p + offset * 4);                             \
  }                                                                            \
  OVERLOADABLE void vstorea_half4##SUFFIX(SRC##4 data, size_t offset,          \
                                          AS half *p) {                        \
    vstore_half4##SUFFIX(data, offset, p);                                     \
  }                                                                            \
  OVERLOADABLE void vstorea_half8##SUFFIX(SRC##8 data, size_t offset,          \
                                          AS half *p) {                        \
    vstore_half8##SUFFIX(data, offset, p);                                     \
  }                                                                            \
  OVERLOADABLE void vstorea_half16##SUFFIX(SRC##16 data, size_t offset,        \
                                           AS half *p) {                       \
    vstore_half16##SUFFIX(data, offset, p);                                    \
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
