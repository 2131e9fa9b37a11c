// cl_khr_integer_dot_product: the dot product of four 8-bit integers, as
// vectors (char4/uchar4) or packed in a uint, optionally added to an
// accumulator with saturation. Each product and their sum fit in 32 bits
// (4 x 255 x 255 at most), so the four products are summed in int and only
// the accumulation saturates. Written on whole 4-element vectors so that a
// widened kernel's dots stay vector multiplies and adds.
#include "builtin_macros.h"

// The four products summed, operands widened to int first (sign or zero
// extended as their types say).
#define WEFT_DOT4(a, b)                                                        \
  ({                                                                           \
    int4 products = convert_int4(a) * convert_int4(b);                         \
    products.x + products.y + products.z + products.w;                         \
  })

OVERLOADABLE uint dot(uchar4 a, uchar4 b) { return (uint)WEFT_DOT4(a, b); }
OVERLOADABLE int dot(char4 a, char4 b) { return WEFT_DOT4(a, b); }
OVERLOADABLE int dot(uchar4 a, char4 b) { return WEFT_DOT4(a, b); }
OVERLOADABLE int dot(char4 a, uchar4 b) { return WEFT_DOT4(a, b); }

OVERLOADABLE uint dot_acc_sat(uchar4 a, uchar4 b, uint acc) {
  return add_sat(acc, dot(a, b));
}
OVERLOADABLE int dot_acc_sat(char4 a, char4 b, int acc) {
  return add_sat(acc, dot(a, b));
}
OVERLOADABLE int dot_acc_sat(uchar4 a, char4 b, int acc) {
  return add_sat(acc, dot(a, b));
}
OVERLOADABLE int dot_acc_sat(char4 a, uchar4 b, int acc) {
  return add_sat(acc, dot(a, b));
}

// Packed: element i is byte i of the uint (the first is the least
// significant), as in the extension's definition.
OVERLOADABLE uint dot_4x8packed_uu_uint(uint a, uint b) {
  return dot(as_uchar4(a), as_uchar4(b));
}
OVERLOADABLE int dot_4x8packed_ss_int(uint a, uint b) {
  return dot(as_char4(a), as_char4(b));
}
OVERLOADABLE int dot_4x8packed_us_int(uint a, uint b) {
  return dot(as_uchar4(a), as_char4(b));
}
OVERLOADABLE int dot_4x8packed_su_int(uint a, uint b) {
  return dot(as_char4(a), as_uchar4(b));
}
OVERLOADABLE uint dot_acc_sat_4x8packed_uu_uint(uint a, uint b, uint acc) {
  return dot_acc_sat(as_uchar4(a), as_uchar4(b), acc);
}
OVERLOADABLE int dot_acc_sat_4x8packed_ss_int(uint a, uint b, int acc) {
  return dot_acc_sat(as_char4(a), as_char4(b), acc);
}
OVERLOADABLE int dot_acc_sat_4x8packed_us_int(uint a, uint b, int acc) {
  return dot_acc_sat(as_uchar4(a), as_char4(b), acc);
}
OVERLOADABLE int dot_acc_sat_4x8packed_su_int(uint a, uint b, int acc) {
  return dot_acc_sat(as_char4(a), as_uchar4(b), acc);
}

// SPIR-V's OpUDot, OpSDot, OpSUDot and their AccSat forms
// (SPV_KHR_integer_dot_product), as llvm-spirv-15 names them when it reads
// a module: packed operands with their PackedVectorFormat (0, 4x8-bit, the
// only one defined), or four-element 8-bit vectors, whose signedness the
// instruction gives. 32-bit results.
OVERLOADABLE uint __spirv_UDotKHR_Ruint(int a, int b, int format) {
  return dot_4x8packed_uu_uint(a, b);
}
OVERLOADABLE int __spirv_SDotKHR_Rint(int a, int b, int format) {
  return dot_4x8packed_ss_int(a, b);
}
OVERLOADABLE int __spirv_SUDotKHR_Rint(int a, int b, int format) {
  return dot_4x8packed_su_int(a, b);
}
OVERLOADABLE uint __spirv_UDotAccSatKHR_Ruint(int a, int b, int acc,
                                              int format) {
  return dot_acc_sat_4x8packed_uu_uint(a, b, (uint)acc);
}
OVERLOADABLE int __spirv_SDotAccSatKHR_Rint(int a, int b, int acc,
                                            int format) {
  return dot_acc_sat_4x8packed_ss_int(a, b, acc);
}
OVERLOADABLE int __spirv_SUDotAccSatKHR_Rint(int a, int b, int acc,
                                             int format) {
  return dot_acc_sat_4x8packed_su_int(a, b, acc);
}
OVERLOADABLE uint __spirv_UDotKHR_Ruint(char4 a, char4 b) {
  return dot(as_uchar4(a), as_uchar4(b));
}
OVERLOADABLE int __spirv_SDotKHR_Rint(char4 a, char4 b) { return dot(a, b); }
OVERLOADABLE int __spirv_SUDotKHR_Rint(char4 a, char4 b) {
  return dot(a, as_uchar4(b));
}
OVERLOADABLE uint __spirv_UDotAccSatKHR_Ruint(char4 a, char4 b, int acc) {
  return dot_acc_sat(as_uchar4(a), as_uchar4(b), (uint)acc);
}
OVERLOADABLE int __spirv_SDotAccSatKHR_Rint(char4 a, char4 b, int acc) {
  return dot_acc_sat(a, b, acc);
}
OVERLOADABLE int __spirv_SUDotAccSatKHR_Rint(char4 a, char4 b, int acc) {
  return dot_acc_sat(a, as_uchar4(b), acc);
}
