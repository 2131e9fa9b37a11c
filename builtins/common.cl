// Common builtins (clamp, min/max, mix, step, smoothstep, sign, degrees,
// radians) for half, float and double. Written once with vector operators,
// which also apply to scalars; a vector comparison inside ?: selects per
// element.
#include "builtin_macros.h"

// Exact in any floating-point type F.
#define EXACT_COMMON(F, N)                                                     \
  OVERLOADABLE F##N max(F##N x, F##N y) {                                      \
    return __builtin_elementwise_max(x, y);                                    \
  }                                                                            \
  OVERLOADABLE F##N min(F##N x, F##N y) {                                      \
    return __builtin_elementwise_min(x, y);                                    \
  }                                                                            \
  OVERLOADABLE F##N clamp(F##N x, F##N lo, F##N hi) {                          \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);    \
  }                                                                            \
  OVERLOADABLE F##N step(F##N edge, F##N x) {                                  \
    return x < edge ? (F##N)0 : (F##N)1;                                       \
  }                                                                            \
  /* Zeros keep their sign; NaN gives 0. */                                    \
  OVERLOADABLE F##N sign(F##N x) {                                             \
    return x > (F)0 ? (F##N)1 : x < (F)0 ? (F##N)(-1) : x == x ? x : (F##N)0;  \
  }

// Rounded at each step, in F: float or double.
#define ROUNDED_COMMON(F, N)                                                   \
  OVERLOADABLE F##N degrees(F##N r) { return r * (F)(180.0 / M_PI); }          \
  OVERLOADABLE F##N radians(F##N d) { return d * (F)(M_PI / 180.0); }          \
  OVERLOADABLE F##N mix(F##N x, F##N y, F##N a) { return x + (y - x) * a; }    \
  OVERLOADABLE F##N smoothstep(F##N edge0, F##N edge1, F##N x) {               \
    F##N t = clamp((x - edge0) / (edge1 - edge0), (F##N)0, (F##N)1);           \
    return t * t * ((F)3 - (F)2 * t);                                          \
  }

#define SCALAR_ARGUMENT_FORMS(F, N)                                            \
  OVERLOADABLE F##N max(F##N x, F y) { return max(x, (F##N)y); }               \
  OVERLOADABLE F##N min(F##N x, F y) { return min(x, (F##N)y); }               \
  OVERLOADABLE F##N clamp(F##N x, F lo, F hi) {                                \
    return clamp(x, (F##N)lo, (F##N)hi);                                       \
  }                                                                            \
  OVERLOADABLE F##N mix(F##N x, F##N y, F a) { return mix(x, y, (F##N)a); }    \
  OVERLOADABLE F##N step(F edge, F##N x) { return step((F##N)edge, x); }       \
  OVERLOADABLE F##N smoothstep(F edge0, F edge1, F##N x) {                     \
    return smoothstep((F##N)edge0, (F##N)edge1, x);                            \
  }

FOR_EACH_WIDTH(EXACT_COMMON, float)
FOR_EACH_WIDTH(EXACT_COMMON, double)
FOR_EACH_WIDTH(EXACT_COMMON, half)
FOR_EACH_WIDTH(ROUNDED_COMMON, float)
FOR_EACH_WIDTH(ROUNDED_COMMON, double)
// Half rounds once, in float, where half arithmetic would round after every
// step.
#define ROUNDED_COMMON_HALF(T, N)                                              \
  WEFT_HALF_VIA_FLOAT_UNARY(degrees, N)                                        \
  WEFT_HALF_VIA_FLOAT_UNARY(radians, N)                                        \
  WEFT_HALF_VIA_FLOAT_TERNARY(mix, N)                                          \
  WEFT_HALF_VIA_FLOAT_TERNARY(smoothstep, N)
FOR_EACH_WIDTH(ROUNDED_COMMON_HALF, half)
FOR_EACH_VECTOR_WIDTH(SCALAR_ARGUMENT_FORMS, float)
FOR_EACH_VECTOR_WIDTH(SCALAR_ARGUMENT_FORMS, double)
FOR_EACH_VECTOR_WIDTH(SCALAR_ARGUMENT_FORMS, half)
