// cl_khr_extended_bit_ops: bitfield insert and extract, bit reverse, for
// char..ulong scalars and vectors. The offset and count are one uint for all
// elements, so each mask is computed once as a scalar and applied to the
// whole vector. A count of 0 is allowed with any offset up to the width
// (offset + count <= width); the masks are built in 64 bits so that neither
// a count of 0 nor one of the full width needs a shift by the width.
#include "builtin_macros.h"

// The count low bits set, in 64 bits (count <= 64).
static ulong weft_low_bits(uint count) {
  return count >= 64 ? ~0ul : (1ul << count) - 1ul;
}

#define EXTENDED_BIT_OPS(T, UT, ST, BITS, N)                                   \
  OVERLOADABLE T##N bitfield_insert(T##N base, T##N insert, uint offset,       \
                                    uint count) {                              \
    if (count == 0)                                                            \
      return base;                                                             \
    UT mask = (UT)(weft_low_bits(count) << offset);                            \
    UT##N merged = (as_##UT##N(base) & (UT##N)(UT)~mask) |                     \
                   ((UT##N)(as_##UT##N(insert) << (UT##N)(UT)offset) &        \
                    (UT##N)mask);                                              \
    return as_##T##N(merged);                                                  \
  }                                                                            \
  OVERLOADABLE UT##N bitfield_extract_unsigned(T##N base, uint offset,         \
                                               uint count) {                   \
    if (count == 0)                                                            \
      return (UT##N)0;                                                         \
    return (UT##N)(as_##UT##N(base) >> (UT##N)(UT)offset) &                    \
           (UT##N)(UT)weft_low_bits(count);                                    \
  }                                                                            \
  /* The field's top bit moved to the element's top, then shifted back  \
     arithmetically: 1 <= count, offset + count <= BITS. */                    \
  OVERLOADABLE ST##N bitfield_extract_signed(T##N base, uint offset,           \
                                             uint count) {                     \
    if (count == 0)                                                            \
      return (ST##N)0;                                                         \
    ST##N top = (ST##N)(as_##ST##N(base) << (ST##N)(ST)(BITS - offset - count)); \
    return (ST##N)(top >> (ST##N)(ST)(BITS - count));                          \
  }

// bit_reverse: scalars through the fixed-width builtins (the element-wise one would
// promote a char or short to int first); vectors element-wise.
#define BIT_REVERSE_SCALAR(T, UT, BITS)                                        \
  OVERLOADABLE T bit_reverse(T base) {                                         \
    return as_##T((UT)__builtin_bitreverse##BITS((UT)base));                   \
  }
#define BIT_REVERSE_VECTOR(T, UT, N)                                           \
  OVERLOADABLE T##N bit_reverse(T##N base) {                                   \
    return as_##T##N(__builtin_elementwise_bitreverse(as_##UT##N(base)));      \
  }

#define EXTENDED_BIT_OPS_PAIR(T, UT, BITS)                                     \
  FOR_EACH_WIDTH(EXTENDED_BIT_OPS, T, UT, T, BITS)                             \
  FOR_EACH_WIDTH(EXTENDED_BIT_OPS, UT, UT, T, BITS)                            \
  BIT_REVERSE_SCALAR(T, UT, BITS)                                              \
  BIT_REVERSE_SCALAR(UT, UT, BITS)                                             \
  FOR_EACH_VECTOR_WIDTH(BIT_REVERSE_VECTOR, T, UT)                             \
  FOR_EACH_VECTOR_WIDTH(BIT_REVERSE_VECTOR, UT, UT)

EXTENDED_BIT_OPS_PAIR(char, uchar, 8)
EXTENDED_BIT_OPS_PAIR(short, ushort, 16)
EXTENDED_BIT_OPS_PAIR(int, uint, 32)
EXTENDED_BIT_OPS_PAIR(long, ulong, 64)
