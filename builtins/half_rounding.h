// Rounding float and double to half in each of OpenCL's four modes, for the
// conversions, vstore_half and the half math builtins. The conversion to
// nearest even is the hardware's (fptrunc: F16C's vcvtps2ph, AVX-512 FP16
// where present); the directed modes step that result one unit in the last
// place when it lies on the wrong side of the exact value. A double is first
// rounded to a float "to odd" (truncated, with the last bit set when
// inexact): float's 24 bits keep enough beyond half's 11 for the second
// rounding to give the correctly rounded half in every mode.
#pragma once
#include "builtin_macros.h"

// Which of "one step smaller" (shrink) or "one step larger" (grow) in
// magnitude `mode` asks of a nearest-even result that is above (above) or
// below (below) the exact value, with the sign `negative`. Works on scalars
// (0/1) and on vector masks (0/-1) alike.
#define WEFT_DIRECTED_STEP(mode, negative, above, below, shrink, grow)         \
  switch (mode) {                                                              \
  case ROUND_TE:                                                               \
    break;                                                                     \
  case ROUND_TZ:                                                               \
    shrink = ((negative) & (below)) | (~(negative) & (above));                 \
    break;                                                                     \
  case ROUND_TP:                                                               \
    shrink = (below) & (negative);                                             \
    grow = (below) & ~(negative);                                              \
    break;                                                                     \
  case ROUND_TN:                                                               \
    shrink = (above) & ~(negative);                                            \
    grow = (above) & (negative);                                               \
    break;                                                                     \
  }

static half weft_float_to_half(float x, enum weft_rounding mode) {
  half h = (half)x;
  if (mode == ROUND_TE)
    return h;
  float back = (float)h;
  short bits = as_short(h);
  short negative = bits < 0 ? -1 : 0;
  short above = back > x ? -1 : 0, below = back < x ? -1 : 0;
  short shrink = 0, grow = 0;
  WEFT_DIRECTED_STEP(mode, negative, above, below, shrink, grow)
  return as_half((short)(bits - grow + shrink));
}

// The float nearest to x rounded to odd: the same comparisons with every
// half as x itself, and a half rounding of it that is x's.
static float weft_double_to_odd_float(double x) {
  float f = (float)x;
  double back = (double)f;
  int bits = as_int(f);
  if (__builtin_fabs(back) > __builtin_fabs(x))
    bits -= 1; // toward zero
  if (back != x)
    bits |= 1; // inexact (NaN keeps a NaN)
  return as_float(bits);
}

static half weft_double_to_half(double x, enum weft_rounding mode) {
  return weft_float_to_half(weft_double_to_odd_float(x), mode);
}

#define WEFT_HALF_ROUNDING_VECTOR(N)                                           \
  static half##N weft_float_to_half##N(float##N x, enum weft_rounding mode) {  \
    half##N h = __builtin_convertvector(x, half##N);                           \
    if (mode == ROUND_TE)                                                      \
      return h;                                                                \
    float##N back = __builtin_convertvector(h, float##N);                      \
    short##N bits = as_short##N(h);                                            \
    short##N negative = bits < (short)0;                                       \
    short##N above = __builtin_convertvector(back > x, short##N);              \
    short##N below = __builtin_convertvector(back < x, short##N);              \
    short##N shrink = 0, grow = 0;                                             \
    WEFT_DIRECTED_STEP(mode, negative, above, below, shrink, grow)             \
    /* the masks are -1 where set */                                           \
    return as_half##N((short##N)(bits - grow + shrink));                       \
  }                                                                            \
  static float##N weft_double_to_odd_float##N(double##N x) {                   \
    float##N f = __builtin_convertvector(x, float##N);                         \
    double##N back = __builtin_convertvector(f, double##N);                    \
    int##N bits = as_int##N(f);                                                \
    bits += __builtin_convertvector(                                           \
        __builtin_elementwise_abs(back) > __builtin_elementwise_abs(x),        \
        int##N);                                                               \
    bits |= __builtin_convertvector(back != x, int##N) & 1;                    \
    return as_float##N(bits);                                                  \
  }                                                                            \
  static half##N weft_double_to_half##N(double##N x,                           \
                                        enum weft_rounding mode) {             \
    return weft_float_to_half##N(weft_double_to_odd_float##N(x), mode);        \
  }
WEFT_HALF_ROUNDING_VECTOR(2)
WEFT_HALF_ROUNDING_VECTOR(3)
WEFT_HALF_ROUNDING_VECTOR(4)
WEFT_HALF_ROUNDING_VECTOR(8)
WEFT_HALF_ROUNDING_VECTOR(16)
