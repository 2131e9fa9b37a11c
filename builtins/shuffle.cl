// shuffle and shuffle2: permute the elements of one or two vectors by a
// run-time mask, for every integer, float and double vector of 2, 4, 8, 16.
#include "builtin_macros.h"

// The masks are run-time values, so __builtin_shufflevector (which needs
// constant indices) does not apply; a fixed-length loop over the result is
// unrolled at -O2 into extract/insert pairs. Only the low bits of a mask
// element that can address the input count, as the specification requires,
// which also keeps every index in range. shuffle2 reads both inputs and
// selects by bit N of the mask, so it stays free of branches.
#define SHUFFLE(T, U, N, M)                                                    \
  OVERLOADABLE T##M shuffle(T##N x, U##M mask) {                               \
    T##M r;                                                                    \
    for (int i = 0; i < M; ++i)                                                \
      r[i] = x[mask[i] & (N - 1)];                                             \
    return r;                                                                  \
  }                                                                            \
  OVERLOADABLE T##M shuffle2(T##N x, T##N y, U##M mask) {                      \
    T##M r;                                                                    \
    for (int i = 0; i < M; ++i) {                                              \
      U k = mask[i] & (N - 1);                                                 \
      r[i] = (mask[i] & N) ? y[k] : x[k];                                      \
    }                                                                          \
    return r;                                                                  \
  }

#define FOR_EACH_MASK_WIDTH(T, U, N)                                           \
  SHUFFLE(T, U, N, 2)                                                          \
  SHUFFLE(T, U, N, 4)                                                          \
  SHUFFLE(T, U, N, 8)                                                          \
  SHUFFLE(T, U, N, 16)

// U is the unsigned integer type with T's element size.
#define FOR_EACH_SOURCE_WIDTH(T, U)                                                   \
  FOR_EACH_MASK_WIDTH(T, U, 2)                                                 \
  FOR_EACH_MASK_WIDTH(T, U, 4)                                                 \
  FOR_EACH_MASK_WIDTH(T, U, 8)                                                 \
  FOR_EACH_MASK_WIDTH(T, U, 16)

FOR_EACH_SOURCE_WIDTH(char, uchar)
FOR_EACH_SOURCE_WIDTH(uchar, uchar)
FOR_EACH_SOURCE_WIDTH(short, ushort)
FOR_EACH_SOURCE_WIDTH(ushort, ushort)
FOR_EACH_SOURCE_WIDTH(int, uint)
FOR_EACH_SOURCE_WIDTH(uint, uint)
FOR_EACH_SOURCE_WIDTH(long, ulong)
FOR_EACH_SOURCE_WIDTH(ulong, ulong)
FOR_EACH_SOURCE_WIDTH(float, uint)
FOR_EACH_SOURCE_WIDTH(double, ulong)
FOR_EACH_SOURCE_WIDTH(half, ushort)
