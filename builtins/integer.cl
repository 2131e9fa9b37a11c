// Integer builtins for char..ulong scalars and vectors. Most are written once
// with vector operators and clang's elementwise builtins, which accept scalars
// and vectors alike; the bit-counting and widening ones go element by element.
#include "builtin_macros.h"

// T is the type, UT its unsigned counterpart, BITS its element width.
// Scalar char and short arithmetic is done in int and narrowed on return,
// hence the typed temporaries.
#define COMMON_INTEGER(T, UT, BITS, N)                                         \
  OVERLOADABLE UT##N abs_diff(T##N x, T##N y) {                                \
    T##N hi = __builtin_elementwise_max(x, y);                                 \
    T##N lo = __builtin_elementwise_min(x, y);                                 \
    return as_##UT##N(hi) - as_##UT##N(lo);                                    \
  }                                                                            \
  /* Halving each operand first cannot overflow; the dropped low bits          \
     contribute the carry. */                                                  \
  OVERLOADABLE T##N hadd(T##N x, T##N y) {                                     \
    return (x >> (T)1) + (y >> (T)1) + (x & y & (T)1);                         \
  }                                                                            \
  OVERLOADABLE T##N rhadd(T##N x, T##N y) {                                    \
    return (x >> (T)1) + (y >> (T)1) + ((x | y) & (T)1);                       \
  }                                                                            \
  OVERLOADABLE T##N max(T##N x, T##N y) {                                      \
    return __builtin_elementwise_max(x, y);                                    \
  }                                                                            \
  OVERLOADABLE T##N min(T##N x, T##N y) {                                      \
    return __builtin_elementwise_min(x, y);                                    \
  }                                                                            \
  OVERLOADABLE T##N clamp(T##N x, T##N lo, T##N hi) {                          \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);    \
  }                                                                            \
  /* Shift counts are taken modulo the width, as for the shift operators. */   \
  OVERLOADABLE T##N rotate(T##N v, T##N i) {                                   \
    UT##N u = as_##UT##N(v);                                                   \
    UT##N s = as_##UT##N(i) & (UT)(BITS - 1);                                  \
    UT##N r = (u << s) | (u >> (((UT)BITS - s) & (UT)(BITS - 1)));             \
    return as_##T##N(r);                                                       \
  }                                                                            \
  OVERLOADABLE T##N mad_hi(T##N a, T##N b, T##N c) { return mul_hi(a, b) + c; }

// Scalar char and short would be promoted to int and saturate at its limits;
// a two-element vector keeps the element type.
#define SATURATING(T)                                                          \
  OVERLOADABLE T add_sat(T x, T y) {                                           \
    return __builtin_elementwise_add_sat((T##2)(x), (T##2)(y)).x;              \
  }                                                                            \
  OVERLOADABLE T sub_sat(T x, T y) {                                           \
    return __builtin_elementwise_sub_sat((T##2)(x), (T##2)(y)).x;              \
  }                                                                            \
  FOR_EACH_VECTOR_WIDTH(SATURATING_VECTOR, T)
#define SATURATING_VECTOR(T, N)                                                \
  OVERLOADABLE T##N add_sat(T##N x, T##N y) {                                  \
    return __builtin_elementwise_add_sat(x, y);                                \
  }                                                                            \
  OVERLOADABLE T##N sub_sat(T##N x, T##N y) {                                  \
    return __builtin_elementwise_sub_sat(x, y);                                \
  }

#define SCALAR_ARGUMENT_FORMS(T, N)                                            \
  OVERLOADABLE T##N max(T##N x, T y) { return max(x, (T##N)y); }               \
  OVERLOADABLE T##N min(T##N x, T y) { return min(x, (T##N)y); }               \
  OVERLOADABLE T##N clamp(T##N x, T lo, T hi) {                                \
    return clamp(x, (T##N)lo, (T##N)hi);                                       \
  }

#define SIGNED_ABS(T, UT, N)                                                   \
  OVERLOADABLE UT##N abs(T##N x) {                                             \
    T##N a = __builtin_elementwise_abs(x);                                     \
    return as_##UT##N(a);                                                      \
  }
#define UNSIGNED_ABS(T, N)                                                     \
  OVERLOADABLE T##N abs(T##N x) { return x; }

// The counts are defined for zero: the element width.
#define BIT_COUNTS(T, UT, BITS)                                                \
  OVERLOADABLE T clz(T x) { return __builtin_clzg((UT)x, BITS); }              \
  OVERLOADABLE T ctz(T x) { return __builtin_ctzg((UT)x, BITS); }              \
  OVERLOADABLE T popcount(T x) { return __builtin_popcountg((UT)x); }          \
  WEFT_VECTORIZE_UNARY(T, clz, T)                                              \
  WEFT_VECTORIZE_UNARY(T, ctz, T)                                              \
  WEFT_VECTORIZE_UNARY(T, popcount, T)

#define INTEGER_PAIR(T, UT, BITS)                                              \
  FOR_EACH_WIDTH(COMMON_INTEGER, T, UT, BITS)                                  \
  FOR_EACH_WIDTH(COMMON_INTEGER, UT, UT, BITS)                                 \
  FOR_EACH_VECTOR_WIDTH(SCALAR_ARGUMENT_FORMS, T)                              \
  FOR_EACH_VECTOR_WIDTH(SCALAR_ARGUMENT_FORMS, UT)                             \
  FOR_EACH_WIDTH(SIGNED_ABS, T, UT)                                            \
  FOR_EACH_WIDTH(UNSIGNED_ABS, UT)                                             \
  SATURATING(T)                                                                \
  SATURATING(UT)                                                               \
  BIT_COUNTS(T, UT, BITS)                                                      \
  BIT_COUNTS(UT, UT, BITS)

// The widening operations: the product of two elements fits in WT.
#define WIDENING(T, WT, BITS, MIN, MAX)                                        \
  OVERLOADABLE T mul_hi(T a, T b) { return ((WT)a * (WT)b) >> BITS; }          \
  OVERLOADABLE T mad_sat(T a, T b, T c) {                                      \
    WT r = (WT)a * (WT)b + (WT)c;                                              \
    return r < (WT)(MIN) ? (T)(MIN) : r > (WT)(MAX) ? (T)(MAX) : (T)r;         \
  }                                                                            \
  WEFT_VECTORIZE_BINARY(T, mul_hi, T)                                          \
  WEFT_VECTORIZE_TERNARY(T, mad_sat, T)

WIDENING(char, short, 8, CHAR_MIN, CHAR_MAX)
WIDENING(uchar, ushort, 8, 0, UCHAR_MAX)
WIDENING(short, int, 16, SHRT_MIN, SHRT_MAX)
WIDENING(ushort, uint, 16, 0, USHRT_MAX)
WIDENING(int, long, 32, INT_MIN, INT_MAX)
WIDENING(uint, ulong, 32, 0, UINT_MAX)
WIDENING(long, __int128, 64, LONG_MIN, LONG_MAX)
WIDENING(ulong, unsigned __int128, 64, 0, ULONG_MAX)

INTEGER_PAIR(char, uchar, 8)
INTEGER_PAIR(short, ushort, 16)
INTEGER_PAIR(int, uint, 32)
INTEGER_PAIR(long, ulong, 64)

// upsample(hi, lo) joins two halves into the twice-as-wide type WT.
#define UPSAMPLE_VECTOR(WT, HT, LT, N)                                         \
  OVERLOADABLE WT##N upsample(HT##N hi, LT##N lo) {                            \
    return (WT##N)(upsample(hi.lo, lo.lo), upsample(hi.hi, lo.hi));            \
  }
#define UPSAMPLE(WT, HT, LT, BITS)                                             \
  OVERLOADABLE WT upsample(HT hi, LT lo) { return ((WT)hi << BITS) | lo; }     \
  OVERLOADABLE WT##3 upsample(HT##3 hi, LT##3 lo) {                            \
    return (WT##3)(upsample(hi.s0, lo.s0), upsample(hi.s1, lo.s1),             \
                   upsample(hi.s2, lo.s2));                                    \
  }                                                                            \
  UPSAMPLE_VECTOR(WT, HT, LT, 2)                                               \
  UPSAMPLE_VECTOR(WT, HT, LT, 4)                                               \
  UPSAMPLE_VECTOR(WT, HT, LT, 8)                                               \
  UPSAMPLE_VECTOR(WT, HT, LT, 16)

UPSAMPLE(short, char, uchar, 8)
UPSAMPLE(ushort, uchar, uchar, 8)
UPSAMPLE(int, short, ushort, 16)
UPSAMPLE(uint, ushort, ushort, 16)
UPSAMPLE(long, int, uint, 32)
UPSAMPLE(ulong, uint, uint, 32)

// mul24 and mad24 are only defined for 24-bit operands, whose full product
// a 32-bit multiply gives.
#define MUL24(T, N)                                                            \
  OVERLOADABLE T##N mul24(T##N a, T##N b) { return a * b; }                    \
  OVERLOADABLE T##N mad24(T##N a, T##N b, T##N c) { return a * b + c; }
FOR_EACH_WIDTH(MUL24, int)
FOR_EACH_WIDTH(MUL24, uint)
