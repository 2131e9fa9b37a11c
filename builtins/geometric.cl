// Geometric builtins for float and double, 1 to 4 components. The float forms
// work in double, where no sum of float squares can overflow or underflow;
// the double forms rescale by a power of two when the sum of squares would.
#include "builtin_macros.h"

static inline double sum_elements(double x) { return x; }
static inline double sum_elements2(double2 v) { return v.x + v.y; }
static inline double sum_elements3(double3 v) { return v.x + v.y + v.z; }
static inline double sum_elements4(double4 v) {
  return (v.x + v.y) + (v.z + v.w);
}

// Below this sum of squares, the squares of the components may lose bits to
// underflow; above it after scaling by DOUBLE_UP they cannot.
#define DOUBLE_TINY_SUM 0x1p-900
#define DOUBLE_UP 0x1p600
#define DOUBLE_DOWN 0x1p-600

// Infinite components make the vector point along them; normalize then
// proceeds with the infinities as +-1 and every other component as 0.
#define INFINITE_AS_UNIT(F, N, p)                                              \
  (__builtin_elementwise_abs(p) == (F)INFINITY                                 \
       ? __builtin_elementwise_copysign((F##N)1, p)                            \
       : (F)0 * p)

#define GEOMETRIC_VECTOR(N)                                                    \
  OVERLOADABLE float dot(float##N a, float##N b) {                             \
    return (float)sum_elements##N(__builtin_convertvector(a, double##N) *      \
                                  __builtin_convertvector(b, double##N));      \
  }                                                                            \
  OVERLOADABLE double dot(double##N a, double##N b) {                          \
    return sum_elements##N(a * b);                                             \
  }                                                                            \
  static inline double length_of_double##N(double##N p) {                      \
    double sum = dot(p, p);                                                    \
    if (sum == (double)INFINITY)                                               \
      return __builtin_sqrt(dot(p * DOUBLE_DOWN, p * DOUBLE_DOWN)) *           \
             DOUBLE_UP;                                                        \
    if (sum < DOUBLE_TINY_SUM)                                                 \
      return __builtin_sqrt(dot(p * DOUBLE_UP, p * DOUBLE_UP)) * DOUBLE_DOWN;  \
    return __builtin_sqrt(sum);                                                \
  }                                                                            \
  OVERLOADABLE float length(float##N p) {                                      \
    double##N w = __builtin_convertvector(p, double##N);                       \
    return (float)__builtin_sqrt(sum_elements##N(w * w));                      \
  }                                                                            \
  OVERLOADABLE double length(double##N p) { return length_of_double##N(p); }   \
  OVERLOADABLE float distance(float##N a, float##N b) {                        \
    double##N w = __builtin_convertvector(a, double##N) -                      \
                  __builtin_convertvector(b, double##N);                       \
    return (float)__builtin_sqrt(sum_elements##N(w * w));                      \
  }                                                                            \
  OVERLOADABLE double distance(double##N a, double##N b) {                     \
    return length(a - b);                                                      \
  }                                                                            \
  OVERLOADABLE float##N normalize(float##N p) {                                \
    if (any(isinf(p)))                                                         \
      p = INFINITE_AS_UNIT(float, N, p);                                       \
    double##N w = __builtin_convertvector(p, double##N);                       \
    double sum = sum_elements##N(w * w);                                       \
    if (sum == 0.0)                                                            \
      return p;                                                                \
    return __builtin_convertvector(w / __builtin_sqrt(sum), float##N);         \
  }                                                                            \
  /* Rescales as the CTS reference does, so that components whose quotient     \
     is subnormal round alike. */                                              \
  OVERLOADABLE double##N normalize(double##N p) {                              \
    double sum = dot(p, p);                                                    \
    if (sum < N * DBL_MIN / DBL_EPSILON) {                                     \
      double##N q = p * 0x1p700;                                               \
      sum = dot(q, q);                                                         \
      if (sum == 0.0)                                                          \
        return p;                                                              \
      p = q;                                                                   \
    } else if (sum == (double)INFINITY) {                                      \
      p *= 0x1p-512 / N;                                                       \
      sum = dot(p, p);                                                         \
      if (sum == (double)INFINITY) {                                           \
        p = INFINITE_AS_UNIT(double, N, p);                                    \
        sum = dot(p, p);                                                       \
      }                                                                        \
    }                                                                          \
    return p / __builtin_sqrt(sum);                                            \
  }                                                                            \
  OVERLOADABLE float fast_length(float##N p) { return length(p); }             \
  OVERLOADABLE float fast_distance(float##N a, float##N b) {                   \
    return distance(a, b);                                                     \
  }                                                                            \
  OVERLOADABLE float##N fast_normalize(float##N p) { return normalize(p); }

GEOMETRIC_VECTOR(2)
GEOMETRIC_VECTOR(3)
GEOMETRIC_VECTOR(4)

// One component: the length is the magnitude and the direction its sign.
#define GEOMETRIC_SCALAR(F)                                                    \
  OVERLOADABLE F dot(F a, F b) { return a * b; }                               \
  OVERLOADABLE F length(F p) { return __builtin_elementwise_abs(p); }          \
  OVERLOADABLE F distance(F a, F b) {                                          \
    return (F)__builtin_fabs((double)a - (double)b);                           \
  }                                                                            \
  OVERLOADABLE F normalize(F p) {                                              \
    return p == (F)0 || p != p ? p : __builtin_elementwise_copysign((F)1, p);  \
  }
GEOMETRIC_SCALAR(float)
GEOMETRIC_SCALAR(double)
OVERLOADABLE float fast_length(float p) { return length(p); }
OVERLOADABLE float fast_distance(float a, float b) { return distance(a, b); }
OVERLOADABLE float fast_normalize(float p) { return normalize(p); }

// Products of floats are exact in double, so each float component is
// rounded once.
OVERLOADABLE float3 cross(float3 a, float3 b) {
  double3 x = __builtin_convertvector(a, double3);
  double3 y = __builtin_convertvector(b, double3);
  return __builtin_convertvector(x.yzx * y.zxy - x.zxy * y.yzx, float3);
}
OVERLOADABLE float4 cross(float4 a, float4 b) {
  return (float4)(cross(a.xyz, b.xyz), 0.0f);
}
OVERLOADABLE double3 cross(double3 a, double3 b) {
  return a.yzx * b.zxy - a.zxy * b.yzx;
}
OVERLOADABLE double4 cross(double4 a, double4 b) {
  return (double4)(cross(a.xyz, b.xyz), 0.0);
}

// Half: in float (where the float forms above work in double), rounded once
// more to half.
#define GEOMETRIC_HALF(N)                                                      \
  OVERLOADABLE half dot(half##N a, half##N b) {                                \
    return (half)dot(WEFT_AS_FLOAT(N, a), WEFT_AS_FLOAT(N, b));                \
  }                                                                            \
  OVERLOADABLE half length(half##N p) {                                        \
    return (half)length(WEFT_AS_FLOAT(N, p));                                  \
  }                                                                            \
  OVERLOADABLE half distance(half##N a, half##N b) {                           \
    return (half)distance(WEFT_AS_FLOAT(N, a), WEFT_AS_FLOAT(N, b));           \
  }                                                                            \
  WEFT_HALF_VIA_FLOAT_UNARY(normalize, N)
GEOMETRIC_HALF()
GEOMETRIC_HALF(2)
GEOMETRIC_HALF(3)
GEOMETRIC_HALF(4)
OVERLOADABLE half3 cross(half3 a, half3 b) {
  return __builtin_convertvector(cross(__builtin_convertvector(a, float3),
                                       __builtin_convertvector(b, float3)),
                                 half3);
}
OVERLOADABLE half4 cross(half4 a, half4 b) {
  return (half4)(cross(a.xyz, b.xyz), (half)0);
}
