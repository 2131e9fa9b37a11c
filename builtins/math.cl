// Math builtins for float and double: scalar forms map to the C library
// (resolved from the process by the JIT) or to LLVM intrinsics; vector forms
// apply the scalar one per element.
#include "builtin_macros.h"
#include "half_rounding.h"

#define UNARY_LIBM(NAME)                                                       \
  OVERLOADABLE float NAME(float x) { return __builtin_##NAME##f(x); }         \
  OVERLOADABLE double NAME(double x) { return __builtin_##NAME(x); }          \
  WEFT_VECTORIZE_UNARY(float, NAME, float)                                     \
  WEFT_VECTORIZE_UNARY(double, NAME, double)

#define BINARY_LIBM(NAME)                                                      \
  OVERLOADABLE float NAME(float x, float y) { return __builtin_##NAME##f(x, y); } \
  OVERLOADABLE double NAME(double x, double y) { return __builtin_##NAME(x, y); } \
  WEFT_VECTORIZE_BINARY(float, NAME, float)                                    \
  WEFT_VECTORIZE_BINARY(double, NAME, double)

// Functions with an LLVM intrinsic: vectors stay whole (builtin_macros.h).
#define UNARY_ELEMENTWISE(NAME, BUILTIN)                                       \
  OVERLOADABLE float NAME(float x) { return __builtin_##NAME##f(x); }         \
  OVERLOADABLE double NAME(double x) { return __builtin_##NAME(x); }          \
  WEFT_ELEMENTWISE_UNARY(float, NAME, BUILTIN)                                 \
  WEFT_ELEMENTWISE_UNARY(double, NAME, BUILTIN)

#define BINARY_ELEMENTWISE(NAME, BUILTIN)                                      \
  OVERLOADABLE float NAME(float x, float y) { return __builtin_##NAME##f(x, y); } \
  OVERLOADABLE double NAME(double x, double y) { return __builtin_##NAME(x, y); } \
  WEFT_ELEMENTWISE_BINARY(float, NAME, BUILTIN)                                \
  WEFT_ELEMENTWISE_BINARY(double, NAME, BUILTIN)

UNARY_LIBM(acos)
UNARY_LIBM(acosh)
UNARY_LIBM(asin)
UNARY_LIBM(asinh)
UNARY_LIBM(atan)
UNARY_LIBM(atanh)
UNARY_ELEMENTWISE(ceil, __builtin_elementwise_ceil)
UNARY_LIBM(cos)
UNARY_LIBM(cosh)
UNARY_LIBM(erf)
UNARY_LIBM(erfc)
UNARY_LIBM(exp)
UNARY_LIBM(exp2)
UNARY_LIBM(expm1)
UNARY_ELEMENTWISE(fabs, __builtin_elementwise_abs)
UNARY_ELEMENTWISE(floor, __builtin_elementwise_floor)
UNARY_LIBM(lgamma)
UNARY_LIBM(log)
UNARY_LIBM(log10)
UNARY_LIBM(log1p)
UNARY_LIBM(log2)
UNARY_LIBM(logb)
UNARY_ELEMENTWISE(rint, __builtin_elementwise_rint)
UNARY_ELEMENTWISE(round, __builtin_elementwise_round)
UNARY_LIBM(sin)
UNARY_LIBM(sinh)
UNARY_ELEMENTWISE(sqrt, __builtin_elementwise_sqrt)
UNARY_LIBM(tan)
UNARY_LIBM(tanh)
UNARY_LIBM(tgamma)
UNARY_ELEMENTWISE(trunc, __builtin_elementwise_trunc)

// cbrt: glibc's double cbrt is up to ~2.02 ulp off (-0x1.27p+961), over the
// 2 ulp OpenCL allows; one Newton step with the residual y^3 - x computed
// exactly (y*y as a sum of two doubles, then fma) brings it within 1 ulp.
// Below 2^-900 the residual would fall among the subnormals, too coarse for
// the step (CTS test_bruteforce: 2.13 ulp at -0x0.19ffffffffe00p-1022):
// such x are scaled by 2^300 first, their root by 2^-100 after, exactly.
OVERLOADABLE float cbrt(float x) { return __builtin_cbrtf(x); }
OVERLOADABLE double cbrt(double x) {
  bool tiny = __builtin_fabs(x) < 0x1p-900;
  double scaled = tiny ? x * 0x1p300 : x;
  double y = __builtin_cbrt(scaled);
  if (y != 0.0 && __builtin_isfinite(y)) {
    double square = y * y;
    double square_low = __builtin_fma(y, y, -square); // y*y = square + low
    double residual = __builtin_fma(square, y, -scaled) + square_low * y;
    y = y - residual / (3.0 * square);
  }
  return tiny ? y * 0x1p-100 : y;
}
WEFT_VECTORIZE_UNARY(float, cbrt, float)
WEFT_VECTORIZE_UNARY(double, cbrt, double)

BINARY_LIBM(atan2)
BINARY_ELEMENTWISE(copysign, __builtin_elementwise_copysign)
BINARY_LIBM(fdim)
BINARY_ELEMENTWISE(fmax, __builtin_elementwise_max)
BINARY_ELEMENTWISE(fmin, __builtin_elementwise_min)
BINARY_LIBM(fmod)
BINARY_LIBM(hypot)
BINARY_LIBM(nextafter)
BINARY_LIBM(pow)
BINARY_LIBM(remainder)

OVERLOADABLE float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
OVERLOADABLE double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
WEFT_ELEMENTWISE_TERNARY(float, fma, __builtin_elementwise_fma)
WEFT_ELEMENTWISE_TERNARY(double, fma, __builtin_elementwise_fma)

// mad may be computed with reduced accuracy: a fused multiply-add is allowed.
OVERLOADABLE float mad(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
OVERLOADABLE double mad(double a, double b, double c) { return __builtin_fma(a, b, c); }
WEFT_ELEMENTWISE_TERNARY(float, mad, __builtin_elementwise_fma)
WEFT_ELEMENTWISE_TERNARY(double, mad, __builtin_elementwise_fma)

OVERLOADABLE float rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
OVERLOADABLE double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
WEFT_VECTORIZE_UNARY(float, rsqrt, float)
WEFT_VECTORIZE_UNARY(double, rsqrt, double)

// native_ and half_ variants: implementation-defined accuracy; the full
// precision versions satisfy it.
#define NATIVE_ALIAS(PREFIX, NAME)                                             \
  OVERLOADABLE float PREFIX##NAME(float x) { return NAME(x); }                 \
  WEFT_VECTORIZE_UNARY(float, PREFIX##NAME, float)
NATIVE_ALIAS(native_, cos)
NATIVE_ALIAS(native_, exp)
NATIVE_ALIAS(native_, exp2)
NATIVE_ALIAS(native_, exp10)
NATIVE_ALIAS(native_, log)
NATIVE_ALIAS(native_, log2)
NATIVE_ALIAS(native_, log10)
NATIVE_ALIAS(native_, rsqrt)
NATIVE_ALIAS(native_, sin)
NATIVE_ALIAS(native_, sqrt)
NATIVE_ALIAS(native_, tan)
NATIVE_ALIAS(half_, cos)
NATIVE_ALIAS(half_, exp)
NATIVE_ALIAS(half_, exp2)
NATIVE_ALIAS(half_, log)
NATIVE_ALIAS(half_, log2)
NATIVE_ALIAS(half_, rsqrt)
NATIVE_ALIAS(half_, sin)
NATIVE_ALIAS(half_, sqrt)
NATIVE_ALIAS(half_, tan)
OVERLOADABLE float native_recip(float x) { return 1.0f / x; }
WEFT_VECTORIZE_UNARY(float, native_recip, float)
OVERLOADABLE float native_divide(float x, float y) { return x / y; }
WEFT_VECTORIZE_BINARY(float, native_divide, float)
OVERLOADABLE float native_powr(float x, float y) { return __builtin_powf(x, y); }
WEFT_VECTORIZE_BINARY(float, native_powr, float)

// exp2(x * log2(10)) in float loses ~|x| ulps to the rounded product; pow in
// double rounded once is exact to the float ulp.
OVERLOADABLE float exp10(float x) { return (float)__builtin_pow(10.0, (double)x); }
OVERLOADABLE double exp10(double x) { return __builtin_pow(10.0, x); }
WEFT_VECTORIZE_UNARY(float, exp10, float)
WEFT_VECTORIZE_UNARY(double, exp10, double)

// ---------------------------------------------------------------------------
// The rest of the OpenCL C 3.0 math list.

// Float forms evaluated in double and rounded once are within an ulp.
#define FLOAT_VIA_DOUBLE_UNARY(NAME)                                           \
  OVERLOADABLE float NAME(float x) { return (float)NAME((double)x); }          \
  WEFT_VECTORIZE_UNARY(float, NAME, float)                                     \
  WEFT_VECTORIZE_UNARY(double, NAME, double)
#define FLOAT_VIA_DOUBLE_BINARY(NAME)                                          \
  OVERLOADABLE float NAME(float x, float y) {                                  \
    return (float)NAME((double)x, (double)y);                                  \
  }                                                                            \
  WEFT_VECTORIZE_BINARY(float, NAME, float)                                    \
  WEFT_VECTORIZE_BINARY(double, NAME, double)

OVERLOADABLE double acospi(double x) { return __builtin_acos(x) * M_1_PI; }
OVERLOADABLE double asinpi(double x) { return __builtin_asin(x) * M_1_PI; }
OVERLOADABLE double atanpi(double x) { return __builtin_atan(x) * M_1_PI; }
OVERLOADABLE double atan2pi(double y, double x) {
  return __builtin_atan2(y, x) * M_1_PI;
}
FLOAT_VIA_DOUBLE_UNARY(acospi)
FLOAT_VIA_DOUBLE_UNARY(asinpi)
FLOAT_VIA_DOUBLE_UNARY(atanpi)
FLOAT_VIA_DOUBLE_BINARY(atan2pi)

// The pi functions reduce x exactly (fmod by 2 is exact) and fold it to
// [0, 1/2] before multiplying by pi, so large arguments keep full accuracy
// and integers and half-integers give exact zeros and ones.
static double sin_pi_folded(double y) { // y in [0, 1/2]
  return y <= 0.25 ? __builtin_sin(M_PI * y) : __builtin_cos(M_PI * (0.5 - y));
}
OVERLOADABLE double sinpi(double x) {
  double y = __builtin_fmod(__builtin_fabs(x), 2.0);
  double sign = __builtin_copysign(1.0, x);
  if (y >= 1.0) {
    y -= 1.0;
    sign = -sign;
  }
  if (y > 0.5)
    y = 1.0 - y;
  // y is 0 for integers: the zero takes the sign of x.
  return y == 0.0 ? __builtin_copysign(0.0, x) : sign * sin_pi_folded(y);
}
OVERLOADABLE double cospi(double x) {
  double y = __builtin_fmod(__builtin_fabs(x), 2.0);
  if (y > 1.0)
    y = 2.0 - y;
  double sign = 1.0;
  if (y > 0.5) {
    y = 1.0 - y;
    sign = -1.0;
  }
  if (y == 0.5)
    return 0.0;
  return sign * sin_pi_folded(0.5 - y);
}
OVERLOADABLE double tanpi(double x) {
  // Integers give a zero signed as the spec requires (copysign(0, x) for
  // even, copysign(0, -x) for odd), half-integers +-infinity.
  return sinpi(x) / cospi(x);
}
FLOAT_VIA_DOUBLE_UNARY(sinpi)
FLOAT_VIA_DOUBLE_UNARY(cospi)
FLOAT_VIA_DOUBLE_UNARY(tanpi)

#define MAXMAG_MINMAG(F)                                                       \
  OVERLOADABLE F maxmag(F x, F y) {                                            \
    F ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);    \
    return ax > ay ? x : ay > ax ? y : __builtin_elementwise_max(x, y);        \
  }                                                                            \
  OVERLOADABLE F minmag(F x, F y) {                                            \
    F ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);    \
    return ax < ay ? x : ay < ax ? y : __builtin_elementwise_min(x, y);        \
  }                                                                            \
  WEFT_VECTORIZE_BINARY(F, maxmag, F)                                          \
  WEFT_VECTORIZE_BINARY(F, minmag, F)
MAXMAG_MINMAG(float)
MAXMAG_MINMAG(double)

// fmax and fmin with a scalar second argument.
#define FMAX_FMIN_SCALAR(F, N)                                                 \
  OVERLOADABLE F##N fmax(F##N x, F y) { return fmax(x, (F##N)y); }             \
  OVERLOADABLE F##N fmin(F##N x, F y) { return fmin(x, (F##N)y); }
FOR_EACH_VECTOR_WIDTH(FMAX_FMIN_SCALAR, float)
FOR_EACH_VECTOR_WIDTH(FMAX_FMIN_SCALAR, double)

// ilogb: OpenCL's FP_ILOGBNAN (INT_MAX) differs from glibc's.
OVERLOADABLE int ilogb(float x) {
  return x != x ? FP_ILOGBNAN : __builtin_ilogbf(x);
}
OVERLOADABLE int ilogb(double x) {
  return x != x ? FP_ILOGBNAN : __builtin_ilogb(x);
}
WEFT_VECTORIZE_UNARY(int, ilogb, float)
WEFT_VECTORIZE_UNARY(int, ilogb, double)

#define WITH_INT_EXPONENT(F, NAME, N)                                          \
  OVERLOADABLE F##N NAME(F##N x, int##N n) {                                   \
    F##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = NAME(x[i], n[i]);                                                 \
    return r;                                                                  \
  }                                                                            \
  OVERLOADABLE F##N NAME(F##N x, int n) { return NAME(x, (int##N)n); }

OVERLOADABLE float ldexp(float x, int n) { return __builtin_ldexpf(x, n); }
OVERLOADABLE double ldexp(double x, int n) { return __builtin_ldexp(x, n); }
FOR_EACH_VECTOR_WIDTH(WITH_INT_EXPONENT, float, ldexp)
FOR_EACH_VECTOR_WIDTH(WITH_INT_EXPONENT, double, ldexp)

// pown: n converts exactly to double, and pow's special cases for an integral
// exponent are pown's. The float form rounds a double result once.
OVERLOADABLE float pown(float x, int n) {
  return (float)__builtin_pow((double)x, (double)n);
}
OVERLOADABLE double pown(double x, int n) {
  return __builtin_pow(x, (double)n);
}
#define POWN_VECTOR(F, N)                                                      \
  OVERLOADABLE F##N pown(F##N x, int##N n) {                                   \
    F##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = pown(x[i], n[i]);                                                 \
    return r;                                                                  \
  }
FOR_EACH_VECTOR_WIDTH(POWN_VECTOR, float)
FOR_EACH_VECTOR_WIDTH(POWN_VECTOR, double)

// rootn: the float form is pow in double, whose rounded 1/n is far below a
// float ulp. In double that error scales with log(x), so one Newton step on
// the relative residual x' = pow(r, n) / |x| corrects it.
OVERLOADABLE double rootn(double x, int n) {
  if (n == 0 || (x < 0.0 && (n & 1) == 0))
    return __builtin_nan("");
  double ax = __builtin_fabs(x);
  // A subnormal x is scaled by 2^(|n|k), whose root 2^(+-k) is exact.
  double unscale = 1.0;
  int an = n < 0 ? -n : n;
  if (ax < DBL_MIN && ax != 0.0 && an <= 600) {
    int k = 600 / an;
    ax = __builtin_ldexp(ax, an * k);
    unscale = __builtin_ldexp(1.0, n > 0 ? -k : k);
  }
  double r = __builtin_pow(ax, 1.0 / (double)n);
  if (ax >= DBL_MIN && ax < (double)INFINITY && r != 0.0 &&
      r < (double)INFINITY) {
    double q = __builtin_pow(r, (double)n) / ax;
    if (q < (double)INFINITY && q > 0.0)
      r -= r * (q - 1.0) / (double)n;
  }
  r *= unscale;
  return (n & 1) ? __builtin_copysign(r, x) : r;
}
OVERLOADABLE float rootn(float x, int n) {
  if (n == 0 || (x < 0.0f && (n & 1) == 0))
    return __builtin_nanf("");
  double r = __builtin_pow(__builtin_fabs((double)x), 1.0 / (double)n);
  return (float)((n & 1) ? __builtin_copysign(r, (double)x) : r);
}
#define ROOTN_VECTOR(F, N)                                                     \
  OVERLOADABLE F##N rootn(F##N x, int##N n) {                                  \
    F##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = rootn(x[i], n[i]);                                                \
    return r;                                                                  \
  }
FOR_EACH_VECTOR_WIDTH(ROOTN_VECTOR, float)
FOR_EACH_VECTOR_WIDTH(ROOTN_VECTOR, double)

// powr is pow for x >= 0, with NaN for the cases pow defines by convention.
#define POWR(F)                                                                \
  OVERLOADABLE F powr(F x, F y) {                                              \
    F ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);    \
    if (x < (F)0 || x != x || y != y || (ax == (F)0 && ay == (F)0) ||          \
        (x == (F)1 && ay == (F)INFINITY) || (ax == (F)INFINITY && ay == (F)0)) \
      return (F)NAN;                                                           \
    return pow(ax, y);                                                         \
  }                                                                            \
  WEFT_VECTORIZE_BINARY(F, powr, F)
POWR(float)
POWR(double)

#define NAN_WITH_CODE(F, U, QUIET, PAYLOAD, N)                                 \
  OVERLOADABLE F##N nan(U##N code) {                                           \
    /* the cast keeps a ushort from promoting to int */                        \
    return as_##F##N((U##N)((U##N)(QUIET) | (code & (U)(PAYLOAD))));           \
  }
NAN_WITH_CODE(float, uint, 0x7fc00000u, 0x003fffffu, )
NAN_WITH_CODE(double, ulong, 0x7ff8000000000000ul, 0x0007fffffffffffful, )
FOR_EACH_VECTOR_WIDTH(NAN_WITH_CODE, float, uint, 0x7fc00000u, 0x003fffffu)
FOR_EACH_VECTOR_WIDTH(NAN_WITH_CODE, double, ulong, 0x7ff8000000000000ul,
                      0x0007fffffffffffful)

// remquo: glibc returns only three bits of the quotient and OpenCL wants
// seven. fmod by 128|y| is exact and keeps the quotient's low seven bits;
// the rest finds the rounded quotient of what is left, with fma giving the
// exact residue for each candidate.
#define REMQUO_CORE(F, MAX)                                                    \
  static OVERLOADABLE F remquo_private(F x, F y, int *quo) {                   \
    F ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);    \
    if (x != x || y != y || ax == (F)INFINITY || ay == (F)0) {                 \
      *quo = 0;                                                                \
      return (F)NAN;                                                           \
    }                                                                          \
    /* A finite x by an infinite y: x itself (0 * inf would make a NaN). */   \
    if (ay == (F)INFINITY) {                                                   \
      *quo = 0;                                                                \
      return x;                                                                \
    }                                                                          \
    F rest = ay <= (F)(MAX) / (F)128 ? fmod(ax, (F)128 * ay) : ax;             \
    F q = trunc(rest / ay);                                                    \
    F r = fma(-q, ay, rest);                                                   \
    while (r < (F)0) {                                                         \
      q -= (F)1;                                                               \
      r = fma(-q, ay, rest);                                                   \
    }                                                                          \
    while (r >= ay) {                                                          \
      q += (F)1;                                                               \
      r = fma(-q, ay, rest);                                                   \
    }                                                                          \
    /* Round to nearest, ties to the even quotient. */                         \
    F other = ay - r;                                                          \
    if (r > other || (r == other && ((int)q & 1))) {                           \
      q += (F)1;                                                               \
      r = -other;                                                              \
    }                                                                          \
    int bits = (int)q & 127;                                                   \
    *quo = (x < (F)0) != (y < (F)0) ? -bits : bits;                            \
    return __builtin_elementwise_copysign((F)1, x) * r;                        \
  }
REMQUO_CORE(float, FLT_MAX)
REMQUO_CORE(double, DBL_MAX)

// lgamma_r: glibc's reentrant lgamma reports the sign of gamma.
float glibc_lgammaf_r(float x, int *sign) __asm__("lgammaf_r");
double glibc_lgamma_r(double x, int *sign) __asm__("lgamma_r");
static OVERLOADABLE float lgamma_r_private(float x, int *sign) {
  return glibc_lgammaf_r(x, sign);
}
static OVERLOADABLE double lgamma_r_private(double x, int *sign) {
  return glibc_lgamma_r(x, sign);
}

// fract is x - floor(x), kept below 1 for tiny negative x; infinities give
// a zero of their sign, NaN itself.
#define FRACT_CORE(F, BELOW_ONE, SUFFIX)                                       \
  static OVERLOADABLE F fract_private(F x, F *whole) {                         \
    F fl = floor(x);                                                           \
    *whole = fl;                                                               \
    if (x != x)                                                                \
      return x;                                                                \
    if (__builtin_elementwise_abs(x) == (F)INFINITY)                           \
      return __builtin_elementwise_copysign((F)0, x);                          \
    return __builtin_elementwise_min(x - fl, (F)(BELOW_ONE));                  \
  }                                                                            \
  static OVERLOADABLE F frexp_private(F x, int *e) {                           \
    return __builtin_frexp##SUFFIX(x, e);                                      \
  }                                                                            \
  static OVERLOADABLE F modf_private(F x, F *whole) {                          \
    return __builtin_modf##SUFFIX(x, whole);                                   \
  }                                                                            \
  static OVERLOADABLE F sincos_private(F x, F *c) {                            \
    *c = cos(x);                                                               \
    return sin(x);                                                             \
  }
FRACT_CORE(float, 0x1.fffffep-1f, f)
FRACT_CORE(double, 0x1.fffffffffffffp-1, )

// Each function with a result through a pointer gets an overload per address
// space the caller may pass; all go through the private-pointer core.
#define OUT_SCALAR(F, NAME, OUT, AS)                                           \
  OVERLOADABLE F NAME(F x, AS OUT *p) {                                        \
    OUT o;                                                                     \
    F r = NAME##_private(x, &o);                                               \
    *p = o;                                                                    \
    return r;                                                                  \
  }
#define OUT_VECTOR(F, NAME, OUT, AS, N)                                        \
  OVERLOADABLE F##N NAME(F##N x, AS OUT##N *p) {                               \
    F##N r;                                                                    \
    OUT##N o;                                                                  \
    for (int i = 0; i < N; ++i) {                                              \
      OUT e;                                                                   \
      r[i] = NAME##_private(x[i], &e);                                         \
      o[i] = e;                                                                \
    }                                                                          \
    *p = o;                                                                    \
    return r;                                                                  \
  }
#define OUT2_SCALAR(F, NAME, OUT, AS)                                          \
  OVERLOADABLE F NAME(F x, F y, AS OUT *p) {                                   \
    OUT o;                                                                     \
    F r = NAME##_private(x, y, &o);                                            \
    *p = o;                                                                    \
    return r;                                                                  \
  }
#define OUT2_VECTOR(F, NAME, OUT, AS, N)                                       \
  OVERLOADABLE F##N NAME(F##N x, F##N y, AS OUT##N *p) {                       \
    F##N r;                                                                    \
    OUT##N o;                                                                  \
    for (int i = 0; i < N; ++i) {                                              \
      OUT e;                                                                   \
      r[i] = NAME##_private(x[i], y[i], &e);                                   \
      o[i] = e;                                                                \
    }                                                                          \
    *p = o;                                                                    \
    return r;                                                                  \
  }
#define OUT_ALL_WIDTHS(F, NAME, OUT, AS)                                       \
  OUT_SCALAR(F, NAME, OUT, AS)                                                 \
  FOR_EACH_VECTOR_WIDTH(OUT_VECTOR, F, NAME, OUT, AS)
#define OUT2_ALL_WIDTHS(F, NAME, OUT, AS)                                      \
  OUT2_SCALAR(F, NAME, OUT, AS)                                                \
  FOR_EACH_VECTOR_WIDTH(OUT2_VECTOR, F, NAME, OUT, AS)
#define OUT_FUNCTIONS(F, AS)                                                   \
  OUT_ALL_WIDTHS(F, fract, F, AS)                                              \
  OUT_ALL_WIDTHS(F, frexp, int, AS)                                            \
  OUT_ALL_WIDTHS(F, modf, F, AS)                                               \
  OUT_ALL_WIDTHS(F, sincos, F, AS)                                             \
  OUT_ALL_WIDTHS(F, lgamma_r, int, AS)                                         \
  OUT2_ALL_WIDTHS(F, remquo, int, AS)
OUT_FUNCTIONS(float, __global)
OUT_FUNCTIONS(float, __local)
OUT_FUNCTIONS(float, __private)
OUT_FUNCTIONS(double, __global)
OUT_FUNCTIONS(double, __local)
OUT_FUNCTIONS(double, __private)
#ifdef __opencl_c_generic_address_space
OUT_FUNCTIONS(float, __generic)
OUT_FUNCTIONS(double, __generic)
#endif

// half_ variants: at least 11 bits, which the full-precision ones give.
OVERLOADABLE float half_divide(float x, float y) { return x / y; }
WEFT_VECTORIZE_BINARY(float, half_divide, float)
OVERLOADABLE float half_recip(float x) { return 1.0f / x; }
WEFT_VECTORIZE_UNARY(float, half_recip, float)
OVERLOADABLE float half_powr(float x, float y) { return powr(x, y); }
WEFT_VECTORIZE_BINARY(float, half_powr, float)
NATIVE_ALIAS(half_, exp10)
NATIVE_ALIAS(half_, log10)

// Half (cl_khr_fp16): computed in float and rounded once to half. Float's
// results are within a few float ulps, far inside the spec's half bounds;
// the exact functions (fabs, floor, fmod, ...) stay exact.
#define HALF_UNARY(NAME) FOR_EACH_WIDTH(WEFT_HALF_VIA_FLOAT_UNARY, NAME)
#define HALF_BINARY(NAME) FOR_EACH_WIDTH(WEFT_HALF_VIA_FLOAT_BINARY, NAME)
HALF_UNARY(acos)
HALF_UNARY(acosh)
HALF_UNARY(acospi)
HALF_UNARY(asin)
HALF_UNARY(asinh)
HALF_UNARY(asinpi)
HALF_UNARY(atan)
HALF_UNARY(atanh)
HALF_UNARY(atanpi)
HALF_UNARY(cbrt)
HALF_UNARY(ceil)
HALF_UNARY(cos)
HALF_UNARY(cosh)
HALF_UNARY(cospi)
HALF_UNARY(erf)
HALF_UNARY(erfc)
HALF_UNARY(exp)
HALF_UNARY(exp10)
HALF_UNARY(exp2)
HALF_UNARY(expm1)
HALF_UNARY(fabs)
HALF_UNARY(floor)
HALF_UNARY(lgamma)
HALF_UNARY(log)
HALF_UNARY(log10)
HALF_UNARY(log1p)
HALF_UNARY(log2)
HALF_UNARY(logb)
HALF_UNARY(rint)
HALF_UNARY(round)
HALF_UNARY(rsqrt)
HALF_UNARY(sin)
HALF_UNARY(sinh)
HALF_UNARY(sinpi)
HALF_UNARY(sqrt)
HALF_UNARY(tan)
HALF_UNARY(tanh)
HALF_UNARY(tanpi)
HALF_UNARY(tgamma)
HALF_UNARY(trunc)
HALF_BINARY(atan2)
HALF_BINARY(atan2pi)
HALF_BINARY(copysign)
HALF_BINARY(fdim)
HALF_BINARY(fmax)
HALF_BINARY(fmin)
HALF_BINARY(fmod)
HALF_BINARY(hypot)
HALF_BINARY(maxmag)
HALF_BINARY(minmag)
HALF_BINARY(pow)
HALF_BINARY(powr)
HALF_BINARY(remainder)
FOR_EACH_VECTOR_WIDTH(FMAX_FMIN_SCALAR, half)

// fma is correctly rounded, in float arithmetic only, so that vectors of
// half stay vectors of float lanes: the product of two halves is exact in
// float; their sum s with the third half, and its exact error e (TwoSum),
// give the float nearest the exact result rounded to odd (truncated, the
// last bit set when inexact), whose 24 bits leave the rounding to half
// correct. Inputs that are infinite or NaN give s itself.
#pragma OPENCL FP_CONTRACT OFF
#define HALF_FMA(T, N)                                                         \
  OVERLOADABLE half##N fma(half##N a, half##N b, half##N c) {                 \
    float##N p = WEFT_AS_FLOAT(N, a) * WEFT_AS_FLOAT(N, b);                    \
    float##N z = WEFT_AS_FLOAT(N, c);                                          \
    float##N s = p + z;                                                        \
    float##N t = s - p;                                                        \
    float##N e = (p - (s - t)) + (z - t);                                      \
    int##N bits = as_int##N(s);                                                \
    int##N truncated = (as_int##N(e) ^ bits) < 0 ? bits - 1 : bits;           \
    int##N odd = (e != 0 && s - s == 0) ? (truncated | 1) : bits;              \
    return WEFT_AS_HALF(N, as_float##N(odd));                                  \
  }
FOR_EACH_WIDTH(HALF_FMA, half)
#pragma OPENCL FP_CONTRACT ON
// mad may round twice: one FMA, native with AVX-512 FP16, in float and
// rounded to half elsewhere (passes/optimizer/half_fma_in_float).
OVERLOADABLE half mad(half a, half b, half c) {
  return __builtin_elementwise_fma(a, b, c);
}
WEFT_ELEMENTWISE_TERNARY(half, mad, __builtin_elementwise_fma)

// nextafter steps in half's own representation.
OVERLOADABLE half nextafter(half x, half y) {
  if (x != x || y != y)
    return x + y;
  if (x == y)
    return y;
  short bits = as_short(x);
  if ((bits & 0x7fff) == 0) // from a zero: the smallest subnormal toward y
    return as_half((short)((as_short(y) & (short)0x8000) | 1));
  bool away = (x < y) == (x > (half)0); // the magnitude grows
  return as_half((short)(away ? bits + 1 : bits - 1));
}
WEFT_VECTORIZE_BINARY(half, nextafter, half)

#define HALF_WITH_INT(T, N)                                                       \
  OVERLOADABLE int##N ilogb(half##N x) { return ilogb(WEFT_AS_FLOAT(N, x)); } \
  OVERLOADABLE half##N ldexp(half##N x, int##N n) {                            \
    return WEFT_AS_HALF(N, ldexp(WEFT_AS_FLOAT(N, x), n));                     \
  }                                                                            \
  OVERLOADABLE half##N pown(half##N x, int##N n) {                             \
    return WEFT_AS_HALF(N, pown(WEFT_AS_FLOAT(N, x), n));                      \
  }                                                                            \
  OVERLOADABLE half##N rootn(half##N x, int##N n) {                            \
    return WEFT_AS_HALF(N, rootn(WEFT_AS_FLOAT(N, x), n));                     \
  }
FOR_EACH_WIDTH(HALF_WITH_INT, half)
#define HALF_LDEXP_SCALAR_EXPONENT(T, N)                                          \
  OVERLOADABLE half##N ldexp(half##N x, int n) { return ldexp(x, (int##N)n); }
FOR_EACH_VECTOR_WIDTH(HALF_LDEXP_SCALAR_EXPONENT, half)
NAN_WITH_CODE(half, ushort, 0x7e00, 0x01ff, )
FOR_EACH_VECTOR_WIDTH(NAN_WITH_CODE, half, ushort, 0x7e00, 0x01ff)

// The functions with a result through a pointer, via their float forms.
// fract's result stays below 1 after rounding to half too.
static OVERLOADABLE half fract_private(half x, half *whole) {
  float w;
  half r = (half)fract_private((float)x, &w);
  *whole = (half)w;
  return r > 0x1.ffcp-1h ? 0x1.ffcp-1h : r;
}
static OVERLOADABLE half frexp_private(half x, int *e) {
  return (half)frexp_private((float)x, e);
}
static OVERLOADABLE half modf_private(half x, half *whole) {
  float w;
  half r = (half)modf_private((float)x, &w);
  *whole = (half)w;
  return r;
}
static OVERLOADABLE half sincos_private(half x, half *c) {
  float cosine;
  half r = (half)sincos_private((float)x, &cosine);
  *c = (half)cosine;
  return r;
}
static OVERLOADABLE half lgamma_r_private(half x, int *sign) {
  return (half)lgamma_r_private((float)x, sign);
}
static OVERLOADABLE half remquo_private(half x, half y, int *quo) {
  return (half)remquo_private((float)x, (float)y, quo);
}
OUT_FUNCTIONS(half, __global)
OUT_FUNCTIONS(half, __local)
OUT_FUNCTIONS(half, __private)
#ifdef __opencl_c_generic_address_space
OUT_FUNCTIONS(half, __generic)
#endif
