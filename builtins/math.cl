// Math builtins for float and double: scalar forms map to the C library
// (resolved from the process by the JIT) or to LLVM intrinsics; vector forms
// apply the scalar one per element.
#include "builtin_macros.h"

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

UNARY_LIBM(acos)
UNARY_LIBM(acosh)
UNARY_LIBM(asin)
UNARY_LIBM(asinh)
UNARY_LIBM(atan)
UNARY_LIBM(atanh)
UNARY_LIBM(cbrt)
UNARY_LIBM(ceil)
UNARY_LIBM(cos)
UNARY_LIBM(cosh)
UNARY_LIBM(erf)
UNARY_LIBM(erfc)
UNARY_LIBM(exp)
UNARY_LIBM(exp2)
UNARY_LIBM(expm1)
UNARY_LIBM(fabs)
UNARY_LIBM(floor)
UNARY_LIBM(lgamma)
UNARY_LIBM(log)
UNARY_LIBM(log10)
UNARY_LIBM(log1p)
UNARY_LIBM(log2)
UNARY_LIBM(logb)
UNARY_LIBM(rint)
UNARY_LIBM(round)
UNARY_LIBM(sin)
UNARY_LIBM(sinh)
UNARY_LIBM(sqrt)
UNARY_LIBM(tan)
UNARY_LIBM(tanh)
UNARY_LIBM(tgamma)
UNARY_LIBM(trunc)

BINARY_LIBM(atan2)
BINARY_LIBM(copysign)
BINARY_LIBM(fdim)
BINARY_LIBM(fmax)
BINARY_LIBM(fmin)
BINARY_LIBM(fmod)
BINARY_LIBM(hypot)
BINARY_LIBM(nextafter)
BINARY_LIBM(pow)
BINARY_LIBM(remainder)

OVERLOADABLE float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
OVERLOADABLE double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
WEFT_VECTORIZE_TERNARY(float, fma, float)
WEFT_VECTORIZE_TERNARY(double, fma, double)

// mad may be computed with reduced accuracy: a fused multiply-add is allowed.
OVERLOADABLE float mad(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
OVERLOADABLE double mad(double a, double b, double c) { return __builtin_fma(a, b, c); }
WEFT_VECTORIZE_TERNARY(float, mad, float)
WEFT_VECTORIZE_TERNARY(double, mad, double)

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

OVERLOADABLE float exp10(float x) { return __builtin_exp2f(x * 3.32192809488736234787f); }
OVERLOADABLE double exp10(double x) { return __builtin_pow(10.0, x); }
WEFT_VECTORIZE_UNARY(float, exp10, float)
WEFT_VECTORIZE_UNARY(double, exp10, double)
