// The convert_<type><n>[_sat][_<rounding>] builtins. Default rounding and
// saturation stay vector operations; rounding modes the hardware conversion
// does not provide are corrected per element by an exact remainder check.
#include "builtin_macros.h"
#include "half_rounding.h"

#define WEFT_CAT_(a, b) a##b
#define WEFT_CAT(a, b) WEFT_CAT_(a, b)

// Applies M to each vector size; the empty first size is the scalar form.
#define WEFT_ALL_SIZES(M, ...)                                                 \
  M(, __VA_ARGS__)                                                             \
  M(2, __VA_ARGS__)                                                            \
  M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)


#define WEFT_MIN_char CHAR_MIN
#define WEFT_MIN_uchar 0
#define WEFT_MIN_short SHRT_MIN
#define WEFT_MIN_ushort 0
#define WEFT_MIN_int INT_MIN
#define WEFT_MIN_uint 0
#define WEFT_MIN_long LONG_MIN
#define WEFT_MIN_ulong 0
#define WEFT_MAX_char CHAR_MAX
#define WEFT_MAX_uchar UCHAR_MAX
#define WEFT_MAX_short SHRT_MAX
#define WEFT_MAX_ushort USHRT_MAX
#define WEFT_MAX_int INT_MAX
#define WEFT_MAX_uint UINT_MAX
#define WEFT_MAX_long LONG_MAX
#define WEFT_MAX_ulong ULONG_MAX
// Vector selects need a condition whose elements are as wide as the result's.
#define WEFT_MASK_char char
#define WEFT_MASK_uchar char
#define WEFT_MASK_short short
#define WEFT_MASK_ushort short
#define WEFT_MASK_int int
#define WEFT_MASK_uint int
#define WEFT_MASK_long long
#define WEFT_MASK_ulong long
#define WEFT_MANT_DIG_float FLT_MANT_DIG
#define WEFT_MANT_DIG_double DBL_MANT_DIG
#define WEFT_BITS_float uint
#define WEFT_BITS_double ulong
// The largest value below 1, to find the largest value below a power of two.
#define WEFT_BELOW_ONE_float 0x1.fffffep-1f
#define WEFT_BELOW_ONE_double 0x1.fffffffffffffp-1

#define WEFT_IS_SIGNED(T) ((T)-1 < (T)0)
// One past the largest value of integer type T, a power of two, in type F.
#define WEFT_TOP(F, T) ((F)(WEFT_MAX_##T / 2 + 1) * (F)2)

// Rounding to an integral value in a floating-point type; the conversion
// itself then truncates.
#define WEFT_ROUND_(x) (x)
#define WEFT_ROUND__rtz(x) (x)
#define WEFT_ROUND__rte(x) __builtin_elementwise_roundeven(x)
#define WEFT_ROUND__rtp(x) __builtin_elementwise_ceil(x)
#define WEFT_ROUND__rtn(x) __builtin_elementwise_floor(x)


// Integer to integer: rounding modes change nothing; saturation clamps in the
// source type to whichever destination limits the source can exceed.
#define INT_TO_INT_SIZE(N, S, D)                                               \
  static D##N weft_sat_##S##_##D##N(S##N x) {                                  \
    const bool clamp_low =                                                     \
        WEFT_IS_SIGNED(S) && (!WEFT_IS_SIGNED(D) || sizeof(D) < sizeof(S));    \
    const bool clamp_high =                                                    \
        sizeof(D) < sizeof(S) ||                                               \
        (sizeof(D) == sizeof(S) && WEFT_IS_SIGNED(D) && !WEFT_IS_SIGNED(S));   \
    if (clamp_low)                                                             \
      x = __builtin_elementwise_max(x, (S##N)(S)WEFT_MIN_##D);                 \
    if (clamp_high)                                                            \
      x = __builtin_elementwise_min(x, (S##N)(S)WEFT_MAX_##D);                 \
    return WEFT_CONVERT_##N(D##N, x);                                          \
  }                                                                            \
  INT_TO_INT_MODE(N, S, D, )                                                   \
  INT_TO_INT_MODE(N, S, D, _rte)                                               \
  INT_TO_INT_MODE(N, S, D, _rtz)                                               \
  INT_TO_INT_MODE(N, S, D, _rtp)                                               \
  INT_TO_INT_MODE(N, S, D, _rtn)
#define INT_TO_INT_MODE(N, S, D, MODE)                                         \
  OVERLOADABLE D##N convert_##D##N##MODE(S##N x) {                             \
    return WEFT_CONVERT_##N(D##N, x);                                          \
  }                                                                            \
  OVERLOADABLE D##N convert_##D##N##_sat##MODE(S##N x) {                       \
    return weft_sat_##S##_##D##N(x);                                           \
  }

// Floating point to integer: round in the source type, then convert. With
// saturation NaN becomes 0 and values are clamped below the destination's
// limits; those too large keep the maximum, which the source type may not
// represent.
#define FLOAT_TO_INT_SIZE(N, S, D)                                             \
  FLOAT_TO_INT_MODE(N, S, D, )                                                 \
  FLOAT_TO_INT_MODE(N, S, D, _rte)                                             \
  FLOAT_TO_INT_MODE(N, S, D, _rtz)                                             \
  FLOAT_TO_INT_MODE(N, S, D, _rtp)                                             \
  FLOAT_TO_INT_MODE(N, S, D, _rtn)
#define FLOAT_TO_INT_MODE(N, S, D, MODE)                                       \
  OVERLOADABLE D##N convert_##D##N##MODE(S##N x) {                             \
    return WEFT_CONVERT_##N(D##N, WEFT_ROUND_##MODE(x));                       \
  }                                                                            \
  OVERLOADABLE D##N convert_##D##N##_sat##MODE(S##N x) {                       \
    S##N rounded = WEFT_ROUND_##MODE(x);                                       \
    S##N y = rounded != rounded ? (S##N)0 : rounded;                           \
    y = __builtin_elementwise_max(y, (S##N)(S)WEFT_MIN_##D);                   \
    y = __builtin_elementwise_min(                                             \
        y, (S##N)(WEFT_TOP(S, D) * WEFT_BELOW_ONE_##S));                       \
    D##N result = WEFT_CONVERT_##N(D##N, y);                                   \
    return WEFT_CONVERT_##N(WEFT_CAT(WEFT_MASK_##D, N),                        \
                            rounded >= (S##N)WEFT_TOP(S, D))                   \
               ? (D##N)WEFT_MAX_##D                                            \
               : result;                                                       \
  }

// Steps a correctly rounded-to-nearest F one unit in the last place when the
// requested mode rounds the other way. 'order' is the sign of f - exact.
#define ADJUST_ROUNDING(F)                                                     \
  static F weft_adjust_##F(F f, int order, enum weft_rounding mode) {          \
    WEFT_BITS_##F bits = __builtin_astype(f, WEFT_BITS_##F);                   \
    bool negative = (bits >> (sizeof(F) * 8 - 1)) != 0;                        \
    bool shrink = false, grow = false;                                         \
    switch (mode) {                                                            \
    case ROUND_TE:                                                             \
      break;                                                                   \
    case ROUND_TZ:                                                             \
      shrink = negative ? order < 0 : order > 0;                               \
      break;                                                                   \
    case ROUND_TP:                                                             \
      shrink = order < 0 && negative;                                          \
      grow = order < 0 && !negative;                                           \
      break;                                                                   \
    case ROUND_TN:                                                             \
      shrink = order > 0 && !negative;                                         \
      grow = order > 0 && negative;                                            \
      break;                                                                   \
    }                                                                          \
    bits = bits + (WEFT_BITS_##F)grow - (WEFT_BITS_##F)shrink;                 \
    return __builtin_astype(bits, F);                                          \
  }
ADJUST_ROUNDING(float)
ADJUST_ROUNDING(double)

static float weft_double_to_float(double x, enum weft_rounding mode) {
  float f = (float)x;
  double back = (double)f;
  return weft_adjust_float(f, back > x ? 1 : (back < x ? -1 : 0), mode);
}

// Converting the rounded value back is exact unless it rounded up past the
// integer type's range.
#define INT_TO_FLOAT_SCALAR(S, D)                                              \
  static D weft_##S##_to_##D(S x, enum weft_rounding mode) {                   \
    if (sizeof(S) * 8 <= WEFT_MANT_DIG_##D)                                    \
      return (D)x;                                                             \
    D f = (D)x;                                                                \
    int order;                                                                 \
    if (f >= WEFT_TOP(D, S)) {                                                 \
      order = 1;                                                               \
    } else {                                                                   \
      S back = (S)f;                                                           \
      order = back > x ? 1 : (back < x ? -1 : 0);                              \
    }                                                                          \
    return weft_adjust_##D(f, order, mode);                                    \
  }

// Conversions to floating point whose rounding modes other than the default
// are computed per element by SCALAR(x, mode), unless EXACT holds.
#define TO_FLOAT_SIZES(S, D, SCALAR, EXACT)                                    \
  WEFT_ALL_SIZES(TO_FLOAT_DEFAULT, S, D)                                       \
  TO_FLOAT_MODE(S, D, _rtz, ROUND_TZ, SCALAR, EXACT)                           \
  TO_FLOAT_MODE(S, D, _rtp, ROUND_TP, SCALAR, EXACT)                           \
  TO_FLOAT_MODE(S, D, _rtn, ROUND_TN, SCALAR, EXACT)
#define TO_FLOAT_DEFAULT(N, S, D)                                              \
  OVERLOADABLE D##N convert_##D##N(S##N x) {                                   \
    return WEFT_CONVERT_##N(D##N, x);                                          \
  }                                                                            \
  OVERLOADABLE D##N convert_##D##N##_rte(S##N x) {                             \
    return WEFT_CONVERT_##N(D##N, x);                                          \
  }
#define TO_FLOAT_MODE(S, D, MODE, ROUNDING, SCALAR, EXACT)                     \
  OVERLOADABLE D convert_##D##MODE(S x) {                                      \
    return EXACT ? (D)x : SCALAR(x, ROUNDING);                                 \
  }                                                                            \
  OVERLOADABLE D##2 convert_##D##2##MODE(S##2 x) {                             \
    if (EXACT)                                                                 \
      return __builtin_convertvector(x, D##2);                                 \
    return (D##2)(convert_##D##MODE(x.s0), convert_##D##MODE(x.s1));           \
  }                                                                            \
  OVERLOADABLE D##3 convert_##D##3##MODE(S##3 x) {                             \
    if (EXACT)                                                                 \
      return __builtin_convertvector(x, D##3);                                 \
    return (D##3)(convert_##D##MODE(x.s0), convert_##D##MODE(x.s1),            \
                  convert_##D##MODE(x.s2));                                    \
  }                                                                            \
  TO_FLOAT_HALVES(S, D, MODE, EXACT, 4, 2)                                     \
  TO_FLOAT_HALVES(S, D, MODE, EXACT, 8, 4)                                     \
  TO_FLOAT_HALVES(S, D, MODE, EXACT, 16, 8)
#define TO_FLOAT_HALVES(S, D, MODE, EXACT, N, HALF)                            \
  OVERLOADABLE D##N convert_##D##N##MODE(S##N x) {                             \
    if (EXACT)                                                                 \
      return __builtin_convertvector(x, D##N);                                 \
    return (D##N)(convert_##D##HALF##MODE(x.lo),                               \
                  convert_##D##HALF##MODE(x.hi));                              \
  }

#define INT_TO_FLOAT(S, D)                                                     \
  INT_TO_FLOAT_SCALAR(S, D)                                                    \
  TO_FLOAT_SIZES(S, D, weft_##S##_to_##D, sizeof(S) * 8 <= WEFT_MANT_DIG_##D)

#define FROM_INT(S)                                                            \
  WEFT_ALL_SIZES(INT_TO_INT_SIZE, S, char)                                     \
  WEFT_ALL_SIZES(INT_TO_INT_SIZE, S, uchar)                                    \
  WEFT_ALL_SIZES(INT_TO_INT_SIZE, S, short)                                    \
  WEFT_ALL_SIZES(INT_TO_INT_SIZE, S, ushort)                                   \
  WEFT_ALL_SIZES(INT_TO_INT_SIZE, S, int)                                      \
  WEFT_ALL_SIZES(INT_TO_INT_SIZE, S, uint)                                     \
  WEFT_ALL_SIZES(INT_TO_INT_SIZE, S, long)                                     \
  WEFT_ALL_SIZES(INT_TO_INT_SIZE, S, ulong)                                    \
  INT_TO_FLOAT(S, float)                                                       \
  INT_TO_FLOAT(S, double)

#define FROM_FLOAT(S)                                                          \
  WEFT_ALL_SIZES(FLOAT_TO_INT_SIZE, S, char)                                   \
  WEFT_ALL_SIZES(FLOAT_TO_INT_SIZE, S, uchar)                                  \
  WEFT_ALL_SIZES(FLOAT_TO_INT_SIZE, S, short)                                  \
  WEFT_ALL_SIZES(FLOAT_TO_INT_SIZE, S, ushort)                                 \
  WEFT_ALL_SIZES(FLOAT_TO_INT_SIZE, S, int)                                    \
  WEFT_ALL_SIZES(FLOAT_TO_INT_SIZE, S, uint)                                   \
  WEFT_ALL_SIZES(FLOAT_TO_INT_SIZE, S, long)                                   \
  WEFT_ALL_SIZES(FLOAT_TO_INT_SIZE, S, ulong)

FROM_INT(char)
FROM_INT(uchar)
FROM_INT(short)
FROM_INT(ushort)
FROM_INT(int)
FROM_INT(uint)
FROM_INT(long)
FROM_INT(ulong)
FROM_FLOAT(float)
FROM_FLOAT(double)

// Between floating-point types only narrowing double to float can be inexact.
#define WEFT_EXACT(x, mode) (x)
TO_FLOAT_SIZES(float, float, WEFT_EXACT, 1)
TO_FLOAT_SIZES(float, double, WEFT_EXACT, 1)
TO_FLOAT_SIZES(double, double, WEFT_EXACT, 1)
TO_FLOAT_SIZES(double, float, weft_double_to_float, 0)

// Half (cl_khr_fp16). From half: every half is exactly a float, so each
// conversion is the float one.
#define HALF_TO_INT_MODE(N, D, MODE)                                           \
  OVERLOADABLE D##N convert_##D##N##MODE(half##N x) {                          \
    return convert_##D##N##MODE(WEFT_CONVERT_##N(float##N, x));                \
  }                                                                            \
  OVERLOADABLE D##N convert_##D##N##_sat##MODE(half##N x) {                    \
    return convert_##D##N##_sat##MODE(WEFT_CONVERT_##N(float##N, x));          \
  }
#define HALF_TO_INT_SIZE(N, S, D)                                              \
  HALF_TO_INT_MODE(N, D, )                                                     \
  HALF_TO_INT_MODE(N, D, _rte)                                                 \
  HALF_TO_INT_MODE(N, D, _rtz)                                                 \
  HALF_TO_INT_MODE(N, D, _rtp)                                                 \
  HALF_TO_INT_MODE(N, D, _rtn)
WEFT_ALL_SIZES(HALF_TO_INT_SIZE, half, char)
WEFT_ALL_SIZES(HALF_TO_INT_SIZE, half, uchar)
WEFT_ALL_SIZES(HALF_TO_INT_SIZE, half, short)
WEFT_ALL_SIZES(HALF_TO_INT_SIZE, half, ushort)
WEFT_ALL_SIZES(HALF_TO_INT_SIZE, half, int)
WEFT_ALL_SIZES(HALF_TO_INT_SIZE, half, uint)
WEFT_ALL_SIZES(HALF_TO_INT_SIZE, half, long)
WEFT_ALL_SIZES(HALF_TO_INT_SIZE, half, ulong)
TO_FLOAT_SIZES(half, half, WEFT_EXACT, 1)
TO_FLOAT_SIZES(half, float, WEFT_EXACT, 1)
TO_FLOAT_SIZES(half, double, WEFT_EXACT, 1)

// To half: floats and doubles round in vectors (half_rounding.h). An
// integer goes through float, exactly up to 2^24; every larger integer is
// beyond half's range, where its float rounds to the same half in each
// mode.
#define INT_TO_HALF_VECTOR(S, N)                                               \
  static half##N weft_##S##_to_half##N(S##N x, enum weft_rounding mode) {      \
    return weft_float_to_half##N(__builtin_convertvector(x, float##N), mode);  \
  }
#define INT_TO_HALF_HELPERS(S)                                                 \
  static half weft_##S##_to_half(S x, enum weft_rounding mode) {               \
    return weft_float_to_half((float)x, mode);                                 \
  }                                                                            \
  FOR_EACH_VECTOR_WIDTH(INT_TO_HALF_VECTOR, S)
#define TO_HALF_MODE(N, S, SUFFIX, MODE)                                       \
  OVERLOADABLE half##N convert_half##N##SUFFIX(S##N x) {                       \
    return weft_##S##_to_half##N(x, MODE);                                     \
  }
#define TO_HALF_SIZE(N, S)                                                     \
  TO_HALF_MODE(N, S, , ROUND_TE)                                               \
  TO_HALF_MODE(N, S, _rte, ROUND_TE)                                           \
  TO_HALF_MODE(N, S, _rtz, ROUND_TZ)                                           \
  TO_HALF_MODE(N, S, _rtp, ROUND_TP)                                           \
  TO_HALF_MODE(N, S, _rtn, ROUND_TN)
#define INT_TO_HALF(S)                                                         \
  INT_TO_HALF_HELPERS(S)                                                       \
  WEFT_ALL_SIZES(TO_HALF_SIZE, S)
INT_TO_HALF(char)
INT_TO_HALF(uchar)
INT_TO_HALF(short)
INT_TO_HALF(ushort)
INT_TO_HALF(int)
INT_TO_HALF(uint)
INT_TO_HALF(long)
INT_TO_HALF(ulong)
WEFT_ALL_SIZES(TO_HALF_SIZE, float)
WEFT_ALL_SIZES(TO_HALF_SIZE, double)
