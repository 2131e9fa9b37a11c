// Relational builtins: comparisons and classification of half, float and
// double, any/all, bitselect and select. Scalar tests return 1 or 0; vector tests
// return -1 or 0 in the signed integer type of the element width, which is
// exactly what OpenCL C's own vector comparison operators yield, so one
// expression serves both.
#include "builtin_macros.h"

// Comparisons. IT is the result integer type of the element width.
#define COMPARE(F, IT, N)                                                      \
  OVERLOADABLE IT##N isequal(F##N x, F##N y) { return x == y; }                \
  OVERLOADABLE IT##N isnotequal(F##N x, F##N y) { return x != y; }             \
  OVERLOADABLE IT##N isgreater(F##N x, F##N y) { return x > y; }               \
  OVERLOADABLE IT##N isgreaterequal(F##N x, F##N y) { return x >= y; }         \
  OVERLOADABLE IT##N isless(F##N x, F##N y) { return x < y; }                  \
  OVERLOADABLE IT##N islessequal(F##N x, F##N y) { return x <= y; }            \
  OVERLOADABLE IT##N islessgreater(F##N x, F##N y) {                           \
    return (x < y) | (x > y);                                                  \
  }                                                                            \
  OVERLOADABLE IT##N isordered(F##N x, F##N y) { return (x == x) & (y == y); } \
  OVERLOADABLE IT##N isunordered(F##N x, F##N y) { return (x != x) | (y != y); }

// Classification by magnitude; MIN is the smallest normal value. signbit
// reads the sign bit so that it sees -0.0 and negative NaNs.
#define CLASSIFY(F, IT, MIN, N)                                                \
  OVERLOADABLE IT##N isfinite(F##N x) {                                        \
    return __builtin_elementwise_abs(x) < (F)INFINITY;                         \
  }                                                                            \
  OVERLOADABLE IT##N isinf(F##N x) {                                           \
    return __builtin_elementwise_abs(x) == (F)INFINITY;                        \
  }                                                                            \
  OVERLOADABLE IT##N isnan(F##N x) { return x != x; }                          \
  OVERLOADABLE IT##N isnormal(F##N x) {                                        \
    F##N m = __builtin_elementwise_abs(x);                                     \
    return (m >= MIN) & (m < (F)INFINITY);                                     \
  }

FOR_EACH_WIDTH(COMPARE, float, int)
FOR_EACH_WIDTH(COMPARE, double, long)
FOR_EACH_WIDTH(COMPARE, half, short)
FOR_EACH_WIDTH(CLASSIFY, float, int, FLT_MIN)
FOR_EACH_WIDTH(CLASSIFY, double, long, DBL_MIN)
FOR_EACH_WIDTH(CLASSIFY, half, short, HALF_MIN)

OVERLOADABLE int signbit(float x) { return as_int(x) < 0; }
OVERLOADABLE int signbit(double x) { return as_long(x) < 0; }
OVERLOADABLE int signbit(half x) { return as_short(x) < 0; }
#define SIGNBIT_VECTOR(F, IT, N)                                               \
  OVERLOADABLE IT##N signbit(F##N x) { return as_##IT##N(x) < (IT)0; }
FOR_EACH_VECTOR_WIDTH(SIGNBIT_VECTOR, float, int)
FOR_EACH_VECTOR_WIDTH(SIGNBIT_VECTOR, double, long)
FOR_EACH_VECTOR_WIDTH(SIGNBIT_VECTOR, half, short)

// any and all test the most significant bit: OR-ing (AND-ing) the elements
// keeps it set when any (every) element has it.
#define ANY_ALL_SCALAR(T)                                                      \
  OVERLOADABLE int any(T x) { return x < 0; }                                  \
  OVERLOADABLE int all(T x) { return x < 0; }
#define ANY_ALL_VECTOR(T, N)                                                   \
  OVERLOADABLE int any(T##N x) { return __builtin_reduce_or(x) < 0; }          \
  OVERLOADABLE int all(T##N x) { return __builtin_reduce_and(x) < 0; }
ANY_ALL_SCALAR(char)
ANY_ALL_SCALAR(short)
ANY_ALL_SCALAR(int)
ANY_ALL_SCALAR(long)
FOR_EACH_VECTOR_WIDTH(ANY_ALL_VECTOR, char)
FOR_EACH_VECTOR_WIDTH(ANY_ALL_VECTOR, short)
FOR_EACH_VECTOR_WIDTH(ANY_ALL_VECTOR, int)
FOR_EACH_VECTOR_WIDTH(ANY_ALL_VECTOR, long)

// bitselect and select work on the bits of integer type UT of the same
// element width as T (T itself for integer types).
#define BITSELECT(T, UT, N)                                                    \
  OVERLOADABLE T##N bitselect(T##N a, T##N b, T##N c) {                        \
    UT##N m = as_##UT##N(c);                                                   \
    UT##N r = (as_##UT##N(a) & ~m) | (as_##UT##N(b) & m);                      \
    return as_##T##N(r);                                                       \
  }

// A scalar selector picks b when non-zero; a vector one when its element's
// most significant bit is set.
#define SELECT_SCALAR(T, ST, UT)                                               \
  OVERLOADABLE T select(T a, T b, ST c) { return c ? b : a; }                  \
  OVERLOADABLE T select(T a, T b, UT c) { return c ? b : a; }
#define SELECT_VECTOR(T, ST, UT, N)                                            \
  OVERLOADABLE T##N select(T##N a, T##N b, ST##N c) {                          \
    return c < (ST)0 ? b : a;                                                  \
  }                                                                            \
  OVERLOADABLE T##N select(T##N a, T##N b, UT##N c) {                          \
    return as_##ST##N(c) < (ST)0 ? b : a;                                      \
  }

#define BIT_FAMILY(T, ST, UT)                                                  \
  FOR_EACH_WIDTH(BITSELECT, T, UT)                                             \
  SELECT_SCALAR(T, ST, UT)                                                     \
  FOR_EACH_VECTOR_WIDTH(SELECT_VECTOR, T, ST, UT)

BIT_FAMILY(char, char, uchar)
BIT_FAMILY(uchar, char, uchar)
BIT_FAMILY(short, short, ushort)
BIT_FAMILY(ushort, short, ushort)
BIT_FAMILY(int, int, uint)
BIT_FAMILY(uint, int, uint)
BIT_FAMILY(long, long, ulong)
BIT_FAMILY(ulong, long, ulong)
BIT_FAMILY(float, int, uint)
BIT_FAMILY(double, long, ulong)
BIT_FAMILY(half, short, ushort)
