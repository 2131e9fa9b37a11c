// Common builtins (clamp, min/max, mix, step, smoothstep, sign, degrees,
// radians) for float and double. Written once with vector operators, which
// also apply to scalars; a vector comparison inside ?: selects per element.
#include "builtin_macros.h"

// F is float or double.
#define COMMON(F, N)                                                           \
  OVERLOADABLE F##N max(F##N x, F##N y) {                                      \
    return __builtin_elementwise_max(x, y);                                    \
  }                                                                            \
  OVERLOADABLE F##N min(F##N x, F##N y) {                                      \
    return __builtin_elementwise_min(x, y);                                    \
  }                                                                            \
  OVERLOADABLE F##N clamp(F##N x, F##N lo, F##N hi) {                          \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);    \
  }                                                                            \
  OVERLOADABLE F##N degrees(F##N r) { return r * (F)(180.0 / M_PI); }          \
  OVERLOADABLE F##N radians(F##N d) { return d * (F)(M_PI / 180.0); }          \
  OVERLOADABLE F##N mix(F##N x, F##N y, F##N a) { return x + (y - x) * a; }    \
  OVERLOADABLE F##N step(F##N edge, F##N x) {                                  \
    return x < edge ? (F##N)0 : (F##N)1;                                       \
  }                                                                            \
  OVERLOADABLE F##N smoothstep(F##N edge0, F##N edge1, F##N x) {               \
    F##N t = clamp((x - edge0) / (edge1 - edge0), (F##N)0, (F##N)1);           \
    return t * t * ((F)3 - (F)2 * t);                                          \
  }                                                                            \
  /* Zeros keep their sign; NaN gives 0. */                                    \
  OVERLOADABLE F##N sign(F##N x) {                                             \
    return x > (F)0 ? (F##N)1 : x < (F)0 ? (F##N)(-1) : x == x ? x : (F##N)0;  \
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

FOR_EACH_WIDTH(COMMON, float)
FOR_EACH_WIDTH(COMMON, double)
FOR_EACH_VECTOR_WIDTH(SCALAR_ARGUMENT_FORMS, float)
FOR_EACH_VECTOR_WIDTH(SCALAR_ARGUMENT_FORMS, double)

// Half: the exact ones in half, those that round in float (once, where
// half would round after every step).
#define COMMON_HALF(T, N)                                                         \
  OVERLOADABLE half##N max(half##N x, half##N y) {                             \
    return __builtin_elementwise_max(x, y);                                    \
  }                                                                            \
  OVERLOADABLE half##N min(half##N x, half##N y) {                             \
    return __builtin_elementwise_min(x, y);                                    \
  }                                                                            \
  OVERLOADABLE half##N clamp(half##N x, half##N lo, half##N hi) {              \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);    \
  }                                                                            \
  OVERLOADABLE half##N step(half##N edge, half##N x) {                         \
    return x < edge ? (half##N)0 : (half##N)1;                                 \
  }                                                                            \
  OVERLOADABLE half##N sign(half##N x) {                                       \
    return x > (half)0   ? (half##N)1                                          \
           : x < (half)0 ? (half##N)(-1)                                       \
           : x == x      ? x                                                   \
                         : (half##N)0;                                         \
  }                                                                            \
  WEFT_HALF_VIA_FLOAT_UNARY(degrees, N)                                        \
  WEFT_HALF_VIA_FLOAT_UNARY(radians, N)                                        \
  WEFT_HALF_VIA_FLOAT_TERNARY(mix, N)                                          \
  WEFT_HALF_VIA_FLOAT_TERNARY(smoothstep, N)
FOR_EACH_WIDTH(COMMON_HALF, half)
FOR_EACH_VECTOR_WIDTH(SCALAR_ARGUMENT_FORMS, half)
