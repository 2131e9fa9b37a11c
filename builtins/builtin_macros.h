// Helpers that turn one scalar definition into the vector overloads OpenCL C
// requires, so each builtin family file states each function once.
#pragma once
#define OVERLOADABLE __attribute__((overloadable))

// OpenCL's rounding modes, for the conversions and stores that name one.
enum weft_rounding { ROUND_TE, ROUND_TZ, ROUND_TP, ROUND_TN };

// The library defines the half builtins too (cl_khr_fp16).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// WEFT_CONVERT_##N(T, x): a plain C conversion for scalars (N empty) and an
// element-wise one for vectors: both truncate toward zero into integers and
// round to nearest even into floating point.
#define WEFT_CONVERT_(T, x) ((T)(x))
#define WEFT_CONVERT_2(T, x) __builtin_convertvector((x), T)
#define WEFT_CONVERT_3(T, x) __builtin_convertvector((x), T)
#define WEFT_CONVERT_4(T, x) __builtin_convertvector((x), T)
#define WEFT_CONVERT_8(T, x) __builtin_convertvector((x), T)
#define WEFT_CONVERT_16(T, x) __builtin_convertvector((x), T)

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

// Half builtins computed in float: the argument converts exactly, and the
// float result rounds once to half. WEFT_AS_FLOAT(N, x) and
// WEFT_AS_HALF(N, x) convert scalars (N empty) and vectors alike.
#define WEFT_AS_FLOAT(N, x) WEFT_CONVERT_##N(float##N, x)
#define WEFT_AS_HALF(N, x) WEFT_CONVERT_##N(half##N, x)
#define WEFT_HALF_VIA_FLOAT_UNARY(NAME, N)                                     \
  OVERLOADABLE half##N NAME(half##N x) {                                       \
    return WEFT_AS_HALF(N, NAME(WEFT_AS_FLOAT(N, x)));                         \
  }
#define WEFT_HALF_VIA_FLOAT_BINARY(NAME, N)                                    \
  OVERLOADABLE half##N NAME(half##N x, half##N y) {                            \
    return WEFT_AS_HALF(N, NAME(WEFT_AS_FLOAT(N, x), WEFT_AS_FLOAT(N, y)));    \
  }
#define WEFT_HALF_VIA_FLOAT_TERNARY(NAME, N)                                   \
  OVERLOADABLE half##N NAME(half##N x, half##N y, half##N z) {                 \
    return WEFT_AS_HALF(N, NAME(WEFT_AS_FLOAT(N, x), WEFT_AS_FLOAT(N, y),      \
                                WEFT_AS_FLOAT(N, z)));                         \
  }

// Vector forms that are one LLVM vector intrinsic (fma, fabs, floor, ...):
// whole vectors reach the compiler as vectors, which the widener keeps whole
// and the code generator emits as whole-register instructions, where the
// element-by-element forms above reach it as a tree of halves.
#define WEFT_ELEMENTWISE_UNARY_N(T, NAME, BUILTIN, N)                          \
  OVERLOADABLE T##N NAME(T##N x) { return BUILTIN(x); }
#define WEFT_ELEMENTWISE_BINARY_N(T, NAME, BUILTIN, N)                         \
  OVERLOADABLE T##N NAME(T##N x, T##N y) { return BUILTIN(x, y); }
#define WEFT_ELEMENTWISE_TERNARY_N(T, NAME, BUILTIN, N)                        \
  OVERLOADABLE T##N NAME(T##N x, T##N y, T##N z) { return BUILTIN(x, y, z); }
#define WEFT_ELEMENTWISE_UNARY(T, NAME, BUILTIN)                               \
  FOR_EACH_VECTOR_WIDTH(WEFT_ELEMENTWISE_UNARY_N, T, NAME, BUILTIN)
#define WEFT_ELEMENTWISE_BINARY(T, NAME, BUILTIN)                              \
  FOR_EACH_VECTOR_WIDTH(WEFT_ELEMENTWISE_BINARY_N, T, NAME, BUILTIN)
#define WEFT_ELEMENTWISE_TERNARY(T, NAME, BUILTIN)                             \
  FOR_EACH_VECTOR_WIDTH(WEFT_ELEMENTWISE_TERNARY_N, T, NAME, BUILTIN)

// A vector of N elements from a private array of them, and back (the block
// reads and writes of builtins/subgroups.cl and images.cl).
#define WEFT_BLOCK_LOAD1(values) values[0]
#define WEFT_BLOCK_LOAD2(values) vload2(0, values)
#define WEFT_BLOCK_LOAD4(values) vload4(0, values)
#define WEFT_BLOCK_LOAD8(values) vload8(0, values)
#define WEFT_BLOCK_LOAD16(values) vload16(0, values)
#define WEFT_BLOCK_STORE1(data, values) values[0] = data
#define WEFT_BLOCK_STORE2(data, values) vstore2(data, 0, values)
#define WEFT_BLOCK_STORE4(data, values) vstore4(data, 0, values)
#define WEFT_BLOCK_STORE8(data, values) vstore8(data, 0, values)
#define WEFT_BLOCK_STORE16(data, values) vstore16(data, 0, values)

// cl_intel_subgroups' block reads and writes (global memory in
// subgroups.cl, images in images.cl): M(SUFFIX, E, T, N) for each suffix
// and element type Intel names, N elements of type E a work-item (T is E
// or its vector of N).
#define WEFT_INTEL_BLOCK_WIDTHS_TO_8(M, SUFFIX, E)                             \
  M(SUFFIX, E, E, 1)                                                           \
  M(SUFFIX##2, E, E##2, 2)                                                     \
  M(SUFFIX##4, E, E##4, 4)                                                     \
  M(SUFFIX##8, E, E##8, 8)
#define WEFT_INTEL_BLOCK_IO_TYPES(M)                                           \
  WEFT_INTEL_BLOCK_WIDTHS_TO_8(M, , uint)                                      \
  WEFT_INTEL_BLOCK_WIDTHS_TO_8(M, _ui, uint)                                   \
  WEFT_INTEL_BLOCK_WIDTHS_TO_8(M, _uc, uchar)                                  \
  M(_uc16, uchar, uchar16, 16)                                                 \
  WEFT_INTEL_BLOCK_WIDTHS_TO_8(M, _us, ushort)                                 \
  M(_us16, ushort, ushort16, 16)                                               \
  WEFT_INTEL_BLOCK_WIDTHS_TO_8(M, _ul, ulong)
