// What printf's output is made of between a kernel and the host: the buffer
// a launch's records go to, the layout of one record, and (for C++) how a
// format's conversions are read. The compiler lowers printf calls by these
// rules (compiler/passes/prepare/printf_lowering.cpp) and the host formats the
// records by the same ones (device/printf_output.cpp), so both read a format
// alike.
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#include <string>
#include <string_view>

namespace weft {
#endif

// The output of printf during one launch: kernels append records
// (builtins/printf_buffer.c reserves them) and the host formats them once
// the launch has ended. A record that does not fit is dropped and counted;
// `used` may then pass `capacity`.
struct PrintfBuffer {
  uint64_t used;     // bytes reserved so far
  uint64_t capacity; // bytes of `records`
  uint64_t dropped;  // printf calls whose record did not fit
  uint64_t reserved;
  char *records;
};

// One record: this header, then `argument_count` arguments, each an 8-byte
// size and that many bytes of the argument as the call passed it (a small
// vector may arrive as an integer or a double of the same bytes), padded to
// 8. The format and %s arguments point into the kernel's constant data,
// which stays loaded until the host has formatted the launch's output.
struct PrintfRecordHeader {
  uint32_t bytes; // the whole record, header included; a multiple of 8
  uint32_t argument_count;
  const char *format;
};

#ifdef __cplusplus
namespace printf_format {

// The length modifier: hh, h, hl (vectors only), l; ll, j, z and t (and L
// for floating point) are read as l, since every OpenCL integer type they
// could name is 64-bit.
enum class Length { None, Char, Short, Int, Long };

// One conversion specification of a format, from its '%' on.
struct Conversion {
  size_t begin = 0, end = 0; // [begin, end) in the format
  std::string flags;         // of "-+ #0", as written
  int width = -1;            // -1: none
  bool width_argument = false;
  int precision = -1; // -1: none
  bool precision_argument = false;
  unsigned lanes = 0; // the vector specifier's n; 0 for a scalar
  Length length = Length::None;
  char conversion = 0;         // 'd' ... '%'
  const char *error = nullptr; // why the specification is not valid

  bool isInteger() const {
    return std::string_view("diouxXc").find(conversion) !=
           std::string_view::npos;
  }
  bool isFloat() const {
    return std::string_view("fFeEgGaA").find(conversion) !=
           std::string_view::npos;
  }
  bool isSigned() const { return conversion == 'd' || conversion == 'i'; }
  // Bytes of one element of a vector conversion's argument.
  unsigned elementBytes() const {
    switch (length) {
    case Length::Char:
      return 1;
    case Length::Short:
      return 2;
    case Length::Int:
      return 4;
    case Length::Long:
      return 8;
    case Length::None:
      break;
    }
    return 4;
  }
  // Bytes the argument of a vector conversion may have: n elements, or the
  // n + 1 a 3-element vector occupies.
  unsigned vectorBytes() const { return elementBytes() * lanes; }
  unsigned paddedVectorBytes() const {
    return elementBytes() * (lanes == 3 ? 4 : lanes);
  }
};

inline bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Reads the specification that starts at format[at] (a '%').
inline Conversion parseConversion(std::string_view format, size_t at) {
  Conversion c;
  c.begin = at;
  size_t i = at + 1;
  auto fail = [&](const char *why) {
    c.error = why;
    c.end = i < format.size() ? i + 1 : format.size();
    return c;
  };
  auto number = [&] {
    int value = 0;
    while (i < format.size() && isDigit(format[i])) {
      if (value < 100000)
        value = value * 10 + (format[i] - '0');
      ++i;
    }
    return value;
  };
  while (i < format.size() &&
         std::string_view("-+ #0").find(format[i]) != std::string_view::npos)
    c.flags += format[i++];
  if (i < format.size() && format[i] == '*') {
    c.width_argument = true;
    ++i;
  } else if (i < format.size() && isDigit(format[i])) {
    c.width = number();
  }
  if (i < format.size() && format[i] == '.') {
    ++i;
    if (i < format.size() && format[i] == '*') {
      c.precision_argument = true;
      ++i;
    } else {
      c.precision = number();
    }
  }
  if (i < format.size() && format[i] == 'v') {
    ++i;
    c.lanes = number();
    if (c.lanes != 2 && c.lanes != 3 && c.lanes != 4 && c.lanes != 8 &&
        c.lanes != 16)
      return fail("a vector specifier whose n is not 2, 3, 4, 8 or 16");
  }
  if (format.substr(i, 2) == "hh") {
    c.length = Length::Char;
    i += 2;
  } else if (format.substr(i, 2) == "hl") {
    c.length = Length::Int;
    i += 2;
  } else if (format.substr(i, 2) == "ll") {
    c.length = Length::Long;
    i += 2;
  } else if (i < format.size() && format[i] == 'h') {
    c.length = Length::Short;
    ++i;
  } else if (i < format.size() && std::string_view("ljztL").find(format[i]) !=
                                      std::string_view::npos) {
    c.length = Length::Long;
    ++i;
  }
  if (i >= format.size())
    return fail("a conversion cut short at the end of the format");
  c.conversion = format[i];
  c.end = i + 1;
  if (c.conversion == 'n')
    return fail("%n, which OpenCL C does not have");
  if (std::string_view("diouxXcfFeEgGaAsp%").find(c.conversion) ==
      std::string_view::npos)
    return fail("an unknown conversion");
  if (c.conversion == '%' && (c.end - c.begin != 2))
    return fail("a '%%' with flags, a width or a precision");
  if (c.lanes) {
    if (c.conversion == 'c' || c.conversion == 's' || c.conversion == 'p')
      return fail("a vector specifier with %c, %s or %p");
    if (c.length == Length::None)
      return fail("a vector specifier without a length modifier (hh, h, "
                  "hl or l)");
    if (c.isFloat() && c.length == Length::Char)
      return fail("a floating-point vector conversion with hh");
  } else if (c.length == Length::Int) {
    return fail("the hl length modifier outside a vector specifier");
  }
  return c;
}

} // namespace printf_format
} // namespace weft
#endif
