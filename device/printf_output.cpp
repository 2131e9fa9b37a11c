#include "device/printf_output.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include <sys/mman.h>

namespace weft {
namespace {

using printf_format::Conversion;
using printf_format::Length;

uint64_t readUnsigned(const unsigned char *bytes, unsigned size) {
  uint64_t value = 0;
  std::memcpy(&value, bytes, size < 8 ? size : 8); // little-endian
  return value;
}

double halfToDouble(uint16_t bits) {
  int exponent = (bits >> 10) & 0x1f;
  double mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(mantissa, -24);
  else if (exponent == 31)
    magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
  else
    magnitude = std::ldexp(mantissa + 1024, exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

double readFloat(const unsigned char *bytes, unsigned size) {
  if (size == 8) {
    double value;
    std::memcpy(&value, bytes, 8);
    return value;
  }
  if (size == 4) {
    float value;
    std::memcpy(&value, bytes, 4);
    return value;
  }
  return halfToDouble(static_cast<uint16_t>(readUnsigned(bytes, 2)));
}

// The C library's conversion of one value, with the specification rebuilt
// from its parts (the width and precision already resolved).
template <typename T>
void appendConverted(std::string &out, const std::string &spec, T value) {
  char small[128];
  int n = std::snprintf(small, sizeof small, spec.c_str(), value);
  if (n < 0)
    return;
  if (static_cast<size_t>(n) < sizeof small) {
    out.append(small, n);
    return;
  }
  std::vector<char> large(static_cast<size_t>(n) + 1);
  std::snprintf(large.data(), large.size(), spec.c_str(), value);
  out.append(large.data(), n);
}

// Formats one element (or a scalar) of `bytes`, `size` bytes wide.
void appendElement(std::string &out, const Conversion &c,
                   const std::string &prefix, const unsigned char *bytes,
                   unsigned size) {
  if (c.isFloat()) {
    appendConverted(out, prefix + c.conversion, readFloat(bytes, size));
    return;
  }
  uint64_t raw = readUnsigned(bytes, size);
  unsigned bits = 32;
  switch (c.length) {
  case Length::Char:
    bits = 8;
    break;
  case Length::Short:
    bits = 16;
    break;
  case Length::Long:
    bits = 64;
    break;
  case Length::Int:
  case Length::None:
    break;
  }
  if (bits < 64)
    raw &= (uint64_t{1} << bits) - 1;
  if (c.conversion == 'c') {
    appendConverted(out, prefix + 'c', static_cast<int>(raw & 0xff));
    return;
  }
  if (c.isSigned()) {
    int64_t value = static_cast<int64_t>(raw);
    if (bits < 64 && (raw >> (bits - 1)) & 1)
      value = static_cast<int64_t>(raw | ~((uint64_t{1} << bits) - 1));
    appendConverted(out, prefix + "ll" + c.conversion,
                    static_cast<long long>(value));
    return;
  }
  appendConverted(out, prefix + "ll" + c.conversion,
                  static_cast<unsigned long long>(raw));
}

// Reads the arguments of one record in order; running out yields null.
class ArgumentReader {
public:
  ArgumentReader(const PrintfArgument *arguments, size_t count)
      : arguments_(arguments), count_(count) {}
  const PrintfArgument *next() {
    return next_ < count_ ? &arguments_[next_++] : nullptr;
  }
  // A '*' width or precision: an int.
  int nextInt() {
    const PrintfArgument *a = next();
    if (!a || a->size == 0)
      return 0;
    uint64_t raw = readUnsigned(a->bytes, a->size >= 8 ? 8 : 4);
    return static_cast<int>(static_cast<int32_t>(raw));
  }

private:
  const PrintfArgument *arguments_;
  size_t count_;
  size_t next_ = 0;
};

void appendConversion(std::string &out, const Conversion &c,
                      ArgumentReader &arguments) {
  int width = c.width_argument ? arguments.nextInt() : c.width;
  int precision = c.precision_argument ? arguments.nextInt() : c.precision;
  std::string prefix = "%" + c.flags;
  if (c.width_argument && width < 0) {
    prefix += '-'; // a negative width is a '-' flag and a positive width
    width = -width;
  }
  if (width >= 0)
    prefix += std::to_string(width);
  if (precision >= 0)
    prefix += "." + std::to_string(precision);
  const PrintfArgument *argument = arguments.next();
  if (!argument)
    return; // too few arguments: the compiler refuses such formats
  if (c.conversion == 's' || c.conversion == 'p') {
    uint64_t address =
        argument->size >= 8 ? readUnsigned(argument->bytes, 8) : 0;
    if (c.conversion == 'p')
      appendConverted(out, prefix + 'p',
                      reinterpret_cast<const void *>(address));
    else if (address)
      appendConverted(out, prefix + 's',
                      reinterpret_cast<const char *>(address));
    else
      appendConverted(out, prefix + 's', "(null)");
    return;
  }
  if (!c.lanes) {
    unsigned size =
        static_cast<unsigned>(argument->size < 8 ? argument->size : 8);
    if (size == 0)
      return;
    appendElement(out, c, prefix, argument->bytes, size);
    return;
  }
  unsigned element = c.elementBytes();
  if (argument->size < uint64_t{element} * c.lanes)
    return; // the compiler checks each vector argument's size
  for (unsigned lane = 0; lane < c.lanes; ++lane) {
    if (lane)
      out += ',';
    appendElement(out, c, prefix, argument->bytes + lane * element, element);
  }
}

} // namespace

std::string formatPrintfRecord(const char *format,
                               const PrintfArgument *arguments,
                               size_t argument_count) {
  std::string out;
  std::string_view text(format);
  ArgumentReader reader(arguments, argument_count);
  size_t i = 0;
  while (i < text.size()) {
    size_t percent = text.find('%', i);
    if (percent == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, percent - i));
    Conversion c = printf_format::parseConversion(text, percent);
    if (c.error)
      out.append(text.substr(percent, c.end - percent));
    else if (c.conversion == '%')
      out += '%';
    else
      appendConversion(out, c, reader);
    i = c.end;
  }
  return out;
}

PrintfBufferStorage::PrintfBufferStorage(uint64_t capacity) {
  void *pages = capacity ? mmap(nullptr, capacity, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                         : MAP_FAILED;
  if (pages == MAP_FAILED)
    return;
  mapped_ = capacity;
  buffer_.capacity = capacity;
  buffer_.records = static_cast<char *>(pages);
}

PrintfBufferStorage::~PrintfBufferStorage() {
  if (buffer_.records)
    munmap(buffer_.records, mapped_);
}

PrintfOutput formatPrintfRecords(const PrintfBuffer &buffer) {
  PrintfOutput output;
  output.dropped = buffer.dropped;
  uint64_t end = buffer.used < buffer.capacity ? buffer.used : buffer.capacity;
  std::vector<PrintfArgument> arguments;
  uint64_t at = 0;
  while (at + sizeof(PrintfRecordHeader) <= end) {
    PrintfRecordHeader header;
    std::memcpy(&header, buffer.records + at, sizeof header);
    if (header.bytes < sizeof header || header.bytes % 8 ||
        header.bytes > end - at || !header.format)
      break;
    const unsigned char *record =
        reinterpret_cast<const unsigned char *>(buffer.records + at);
    uint64_t offset = sizeof header;
    arguments.clear();
    bool whole = true;
    for (uint32_t a = 0; a < header.argument_count && whole; ++a) {
      uint64_t size;
      if (offset + 8 > header.bytes) {
        whole = false;
        break;
      }
      std::memcpy(&size, record + offset, 8);
      offset += 8;
      if (size > header.bytes - offset) {
        whole = false;
        break;
      }
      arguments.push_back({record + offset, size});
      offset += (size + 7) / 8 * 8;
    }
    if (!whole)
      break;
    output.text +=
        formatPrintfRecord(header.format, arguments.data(), arguments.size());
    at += header.bytes;
  }
  return output;
}

} // namespace weft
