// Helpers that turn one scalar definition into the vector overloads OpenCL C
// requires, so each builtin family file states each function once.
#pragma once
#define OVERLOADABLE __attribute__((overloadable))

// Instantiate M(args..., N) for the scalar (N empty) and every vector width,
// or for the vector widths only.
#define FOR_EACH_WIDTH(M, ...)                                                 \
  M(__VA_ARGS__, )                                                             \
  M(__VA_ARGS__, 2)                                                            \
  M(__VA_ARGS__, 3)                                                            \
  M(__VA_ARGS__, 4)                                                            \
  M(__VA_ARGS__, 8)                                                            \
  M(__VA_ARGS__, 16)

#define FOR_EACH_VECTOR_WIDTH(M, ...)                                          \
  M(__VA_ARGS__, 2)                                                            \
  M(__VA_ARGS__, 3)                                                            \
  M(__VA_ARGS__, 4)                                                            \
  M(__VA_ARGS__, 8)                                                            \
  M(__VA_ARGS__, 16)

// Applies a scalar function element by element to vectors of 2..16.
#define WEFT_VECTORIZE_UNARY(RET, NAME, ARG)                                   \
  OVERLOADABLE RET##2 NAME(ARG##2 x) { return (RET##2)(NAME(x.lo), NAME(x.hi)); } \
  OVERLOADABLE RET##3 NAME(ARG##3 x) {                                        \
    return (RET##3)(NAME(x.s0), NAME(x.s1), NAME(x.s2));                       \
  }                                                                            \
  OVERLOADABLE RET##4 NAME(ARG##4 x) { return (RET##4)(NAME(x.lo), NAME(x.hi)); } \
  OVERLOADABLE RET##8 NAME(ARG##8 x) { return (RET##8)(NAME(x.lo), NAME(x.hi)); } \
  OVERLOADABLE RET##16 NAME(ARG##16 x) {                                      \
    return (RET##16)(NAME(x.lo), NAME(x.hi));                                  \
  }

#define WEFT_VECTORIZE_BINARY(RET, NAME, ARG)                                  \
  OVERLOADABLE RET##2 NAME(ARG##2 x, ARG##2 y) {                              \
    return (RET##2)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                       \
  }                                                                            \
  OVERLOADABLE RET##3 NAME(ARG##3 x, ARG##3 y) {                              \
    return (RET##3)(NAME(x.s0, y.s0), NAME(x.s1, y.s1), NAME(x.s2, y.s2));     \
  }                                                                            \
  OVERLOADABLE RET##4 NAME(ARG##4 x, ARG##4 y) {                              \
    return (RET##4)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                       \
  }                                                                            \
  OVERLOADABLE RET##8 NAME(ARG##8 x, ARG##8 y) {                              \
    return (RET##8)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                       \
  }                                                                            \
  OVERLOADABLE RET##16 NAME(ARG##16 x, ARG##16 y) {                           \
    return (RET##16)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                      \
  }

#define WEFT_VECTORIZE_TERNARY(RET, NAME, ARG)                                 \
  OVERLOADABLE RET##2 NAME(ARG##2 x, ARG##2 y, ARG##2 z) {                    \
    return (RET##2)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));           \
  }                                                                            \
  OVERLOADABLE RET##3 NAME(ARG##3 x, ARG##3 y, ARG##3 z) {                    \
    return (RET##3)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1),            \
                    NAME(x.s2, y.s2, z.s2));                                   \
  }                                                                            \
  OVERLOADABLE RET##4 NAME(ARG##4 x, ARG##4 y, ARG##4 z) {                    \
    return (RET##4)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));           \
  }                                                                            \
  OVERLOADABLE RET##8 NAME(ARG##8 x, ARG##8 y, ARG##8 z) {                    \
    return (RET##8)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));           \
  }                                                                            \
  OVERLOADABLE RET##16 NAME(ARG##16 x, ARG##16 y, ARG##16 z) {                \
    return (RET##16)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));          \
  }
