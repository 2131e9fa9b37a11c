// Images and samplers, from the OpenCL C spec's "Image Addressing and
// Filtering" and "Conversion Rules" chapters and the OpenCL 3.0 API spec's
// image and sampler sections. Every expected value comes from a small host
// reference written here from those pages (addressing and filtering
// formulas, normalized-integer, half, sRGB and integer conversions, channel
// orders, border colours), never from the driver: 2-D sampling in every
// addressing and filter mode at texel centres, edges and outside the image;
// border colours; round trips of every listed format through read_image*
// and write_image*; sRGB; 1-D, array and 3-D images; the image commands;
// and the API's error codes.
// clCreateImage2D (for its own errors) and clCreateSampler are deprecated.
#ifndef CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#endif
#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#endif
#include "api_fixture.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Float4 = std::array<float, 4>;

// --- Formats: what the spec's channel order and data type tables say. ---

enum class Kind { Unorm, Snorm, Half, Float, Signed, Unsigned };

// One channel of a packed type: which channel, where in the element.
struct PackedField {
  char channel;
  unsigned shift, bits;
};
const PackedField k565[] = {{'R', 11, 5}, {'G', 5, 6}, {'B', 0, 5}};
const PackedField k555[] = {{'R', 10, 5}, {'G', 5, 5}, {'B', 0, 5}};
const PackedField k101010[] = {{'R', 20, 10}, {'G', 10, 10}, {'B', 0, 10}};
const PackedField k101010_2[] = {
    {'R', 22, 10}, {'G', 12, 10}, {'B', 2, 10}, {'A', 0, 2}};

struct TypeInfo {
  cl_channel_type type;
  const char *name;
  Kind kind;
  unsigned bits; // per channel; 0 for packed types
  const PackedField *packed = nullptr;
  unsigned packed_count = 0;
  unsigned packed_bytes = 0;
};

const TypeInfo kTypes[] = {
    {CL_SNORM_INT8, "CL_SNORM_INT8", Kind::Snorm, 8},
    {CL_SNORM_INT16, "CL_SNORM_INT16", Kind::Snorm, 16},
    {CL_UNORM_INT8, "CL_UNORM_INT8", Kind::Unorm, 8},
    {CL_UNORM_INT16, "CL_UNORM_INT16", Kind::Unorm, 16},
    {CL_UNORM_SHORT_565, "CL_UNORM_SHORT_565", Kind::Unorm, 0, k565, 3, 2},
    {CL_UNORM_SHORT_555, "CL_UNORM_SHORT_555", Kind::Unorm, 0, k555, 3, 2},
    {CL_UNORM_INT_101010, "CL_UNORM_INT_101010", Kind::Unorm, 0, k101010, 3, 4},
    {CL_UNORM_INT_101010_2, "CL_UNORM_INT_101010_2", Kind::Unorm, 0, k101010_2,
     4, 4},
    {CL_SIGNED_INT8, "CL_SIGNED_INT8", Kind::Signed, 8},
    {CL_SIGNED_INT16, "CL_SIGNED_INT16", Kind::Signed, 16},
    {CL_SIGNED_INT32, "CL_SIGNED_INT32", Kind::Signed, 32},
    {CL_UNSIGNED_INT8, "CL_UNSIGNED_INT8", Kind::Unsigned, 8},
    {CL_UNSIGNED_INT16, "CL_UNSIGNED_INT16", Kind::Unsigned, 16},
    {CL_UNSIGNED_INT32, "CL_UNSIGNED_INT32", Kind::Unsigned, 32},
    {CL_HALF_FLOAT, "CL_HALF_FLOAT", Kind::Half, 16},
    {CL_FLOAT, "CL_FLOAT", Kind::Float, 32},
};

// The border colour of CLK_ADDRESS_CLAMP, by channel order ("Determining
// the Border Color or Value"): (0,0,0,0) for orders with alpha, (0,0,0,1)
// for orders without. The spec's lists put CL_Rx, CL_RGx, CL_RGBx and
// CL_sRGBx with the transparent ones and name no CL_sRGB; the CTS
// (test_image_streams, through has_alpha) requires the opaque border for
// all five, as for the orders they pad, and the CTS is the judge here.
enum class Border { Transparent, Opaque, Depth };

// `layout` names the channels in memory order: R G B A, I (intensity, read
// as I,I,I,I), L (luminance, L,L,L,1), D (depth) and x (padding, ignored).
struct OrderInfo {
  cl_channel_order order;
  const char *name;
  const char *layout;
  bool srgb;
  Border border;
};

const OrderInfo kOrders[] = {
    {CL_R, "CL_R", "R", false, Border::Opaque},
    {CL_A, "CL_A", "A", false, Border::Transparent},
    {CL_RG, "CL_RG", "RG", false, Border::Opaque},
    {CL_RA, "CL_RA", "RA", false, Border::Transparent},
    {CL_RGB, "CL_RGB", "RGB", false, Border::Opaque},
    {CL_RGBA, "CL_RGBA", "RGBA", false, Border::Transparent},
    {CL_BGRA, "CL_BGRA", "BGRA", false, Border::Transparent},
    {CL_ARGB, "CL_ARGB", "ARGB", false, Border::Transparent},
    {CL_ABGR, "CL_ABGR", "ABGR", false, Border::Transparent},
    {CL_INTENSITY, "CL_INTENSITY", "I", false, Border::Transparent},
    {CL_LUMINANCE, "CL_LUMINANCE", "L", false, Border::Opaque},
    {CL_Rx, "CL_Rx", "Rx", false, Border::Opaque},
    {CL_RGx, "CL_RGx", "RGx", false, Border::Opaque},
    {CL_RGBx, "CL_RGBx", "RGBx", false, Border::Opaque},
    {CL_DEPTH, "CL_DEPTH", "D", false, Border::Depth},
    {CL_sRGB, "CL_sRGB", "RGB", true, Border::Opaque},
    {CL_sRGBx, "CL_sRGBx", "RGBx", true, Border::Opaque},
    {CL_sRGBA, "CL_sRGBA", "RGBA", true, Border::Transparent},
    {CL_sBGRA, "CL_sBGRA", "BGRA", true, Border::Transparent},
};

struct Format {
  cl_image_format format;
  const OrderInfo *order;
  const TypeInfo *type;
  // Whether CL_Rx and CL_RGx store their ignored channel. The API spec's
  // channel order table calls them two- and three-channel formats; the
  // CTS's reference (get_channel_order_channel_count) stores one and two
  // channels. The padding comes last, so only the element size differs.
  bool padded = true;

  std::string name() const {
    return std::string(order->name) + "/" + type->name;
  }
  size_t elementSize() const {
    if (type->packed)
      return type->packed_bytes;
    size_t channels = std::strlen(order->layout);
    if (!padded && mayOmitPadding())
      --channels;
    return channels * type->bits / 8;
  }
  bool mayOmitPadding() const {
    return format.image_channel_order == CL_Rx ||
           format.image_channel_order == CL_RGx;
  }
  bool isInteger() const {
    return type->kind == Kind::Signed || type->kind == Kind::Unsigned;
  }
  bool isDepth() const { return format.image_channel_order == CL_DEPTH; }
};

// Null when the pair names an order or type this file does not know.
bool describe(const cl_image_format &f, Format &out) {
  out.format = f;
  out.order = nullptr;
  out.type = nullptr;
  for (const OrderInfo &o : kOrders)
    if (o.order == f.image_channel_order)
      out.order = &o;
  for (const TypeInfo &t : kTypes)
    if (t.type == f.image_channel_data_type)
      out.type = &t;
  return out.order && out.type;
}

std::string hexName(cl_image_format f) {
  std::ostringstream s;
  s << std::hex << "order 0x" << f.image_channel_order << "/type 0x"
    << f.image_channel_data_type;
  return s.str();
}

// --- Host conversions, from "Conversion Rules". ---

float halfToFloat(uint16_t h) {
  unsigned exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  float magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(float(fraction), -24);
  else if (exponent == 31)
    magnitude = fraction ? NAN : INFINITY;
  else
    magnitude = std::ldexp(float(fraction | 0x400), int(exponent) - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

float bitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t floatToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

int64_t signExtend(uint32_t raw, unsigned bits) {
  if (bits == 32)
    return int32_t(raw);
  uint32_t sign = 1u << (bits - 1);
  return int64_t(raw ^ sign) - int64_t(sign);
}

double srgbToLinear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double linearToSrgb(double c) {
  if (std::isnan(c))
    return 0.0;
  if (c > 1.0)
    return 1.0;
  if (c < 0.0)
    return 0.0;
  if (c < 0.0031308)
    return 12.92 * c;
  return 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

// One stored channel, as it sits in the element.
struct Field {
  char channel;
  uint32_t raw;
  unsigned bits;
};

std::vector<Field> unpack(const uint8_t *element, const Format &f) {
  std::vector<Field> fields;
  if (f.type->packed) {
    uint32_t word = 0;
    if (f.type->packed_bytes == 2) {
      uint16_t w;
      std::memcpy(&w, element, 2);
      word = w;
    } else {
      std::memcpy(&word, element, 4);
    }
    for (unsigned i = 0; i < f.type->packed_count; ++i) {
      const PackedField &p = f.type->packed[i];
      fields.push_back(
          {p.channel, (word >> p.shift) & ((1u << p.bits) - 1), p.bits});
    }
    return fields;
  }
  unsigned bytes = f.type->bits / 8;
  for (size_t i = 0; f.order->layout[i]; ++i) {
    char channel = f.order->layout[i];
    if (channel == 'x')
      continue;
    const uint8_t *p = element + i * bytes;
    uint32_t raw = 0;
    if (bytes == 1) {
      raw = p[0];
    } else if (bytes == 2) {
      uint16_t v;
      std::memcpy(&v, p, 2);
      raw = v;
    } else {
      std::memcpy(&raw, p, 4);
    }
    fields.push_back({channel, raw, f.type->bits});
  }
  return fields;
}

// Which of the four components read_image* puts a stored channel in (and
// write_image* takes it from): I and L come from x on a write.
std::vector<int> componentsOf(char channel, bool for_read) {
  switch (channel) {
  case 'R':
  case 'D':
    return {0};
  case 'G':
    return {1};
  case 'B':
    return {2};
  case 'A':
    return {3};
  case 'I':
    return for_read ? std::vector<int>{0, 1, 2, 3} : std::vector<int>{0};
  case 'L':
    return for_read ? std::vector<int>{0, 1, 2} : std::vector<int>{0};
  }
  return {};
}

// What read_imagef must return for one component, and how exactly.
struct Expected {
  enum How { Exact, Ulp15, Srgb } how = Exact;
  double value = 0;
  unsigned srgb_byte = 0;
};

bool isColour(char channel) {
  return channel == 'R' || channel == 'G' || channel == 'B';
}

Expected expectedFloat(const Field &field, const Format &f) {
  Expected e;
  switch (f.type->kind) {
  case Kind::Unorm: {
    uint32_t max = (1u << field.bits) - 1;
    if (f.order->srgb && isColour(field.channel)) {
      // The spec's sRGB accuracy: the value converted back to sRGB (without
      // rounding) within 0.5 of the stored byte.
      e.how = Expected::Srgb;
      e.value = srgbToLinear(field.raw / 255.0);
      e.srgb_byte = field.raw;
      return e;
    }
    e.value = double(field.raw) / max;
    // <= 1.5 ulp, but 0 and max are exact.
    e.how = (field.raw == 0 || field.raw == max) ? Expected::Exact
                                                 : Expected::Ulp15;
    return e;
  }
  case Kind::Snorm: {
    int64_t v = signExtend(field.raw, field.bits);
    int64_t max = (int64_t(1) << (field.bits - 1)) - 1;
    e.value = std::max(-1.0, double(v) / max);
    // -max-1 and -max are exactly -1, 0 is 0 and max is 1.
    e.how =
        (v <= -max || v == 0 || v == max) ? Expected::Exact : Expected::Ulp15;
    return e;
  }
  case Kind::Half:
    e.value = halfToFloat(uint16_t(field.raw));
    return e;
  case Kind::Float:
    e.value = bitsToFloat(field.raw);
    return e;
  default:
    return e;
  }
}

bool matches(float got, const Expected &e) {
  switch (e.how) {
  case Expected::Exact:
    return got == float(e.value);
  case Expected::Ulp15: {
    float magnitude = std::fabs(float(e.value));
    double ulp = std::nextafter(magnitude, INFINITY) - magnitude;
    return std::fabs(double(got) - e.value) <= 1.5 * ulp;
  }
  case Expected::Srgb:
    return std::fabs(255.0 * linearToSrgb(got) - e.srgb_byte) <= 0.5;
  }
  return false;
}

std::string describeExpected(const Expected &e) {
  std::ostringstream s;
  s.precision(9);
  s << e.value;
  if (e.how == Expected::Ulp15)
    s << " (within 1.5 ulp)";
  if (e.how == Expected::Srgb)
    s << " (sRGB byte " << e.srgb_byte << ", back within 0.5)";
  return s.str();
}

// What read_imagef returns for one element: missing channels 0, alpha 1.
std::array<Expected, 4> expectedTexel(const uint8_t *element, const Format &f) {
  std::array<Expected, 4> out;
  out[3].value = 1.0;
  for (const Field &field : unpack(element, f))
    for (int c : componentsOf(field.channel, true))
      out[c] = expectedFloat(field, f);
  return out;
}

// What read_imagei/read_imageui return: sign or zero extension; missing
// channels 0, alpha 1.
std::array<int64_t, 4> expectedIntegerTexel(const uint8_t *element,
                                            const Format &f) {
  std::array<int64_t, 4> out = {0, 0, 0, 1};
  for (const Field &field : unpack(element, f))
    for (int c : componentsOf(field.channel, true))
      out[c] = f.type->kind == Kind::Signed ? signExtend(field.raw, field.bits)
                                            : int64_t(field.raw);
  return out;
}

// The stored values write_image* may produce for one channel: [low, high].
struct Accepted {
  int64_t low, high;
};

// convert_<type>_sat_rte(f * max), with the multiplication in float as the
// spec writes it.
int64_t roundSaturate(float f, float scale, int64_t low, int64_t high) {
  float product = f * scale;
  if (std::isnan(product))
    return 0;
  double rounded = std::nearbyint(double(product)); // ties to even
  return int64_t(std::min(double(high), std::max(double(low), rounded)));
}

Accepted acceptedFromFloat(float f, const Field &field, const Format &fmt) {
  unsigned bits = field.bits;
  switch (fmt.type->kind) {
  case Kind::Unorm: {
    int64_t max = (int64_t(1) << bits) - 1;
    if (fmt.order->srgb && isColour(field.channel)) {
      // "|generated - scaled_reference_result| <= 0.6".
      double reference = linearToSrgb(f) * 255.0;
      int64_t low = int64_t(std::ceil(reference - 0.6));
      int64_t high = int64_t(std::floor(reference + 0.6));
      return {std::max<int64_t>(low, 0), std::min<int64_t>(high, 255)};
    }
    int64_t v = roundSaturate(f, float(max), 0, max);
    return {v, v};
  }
  case Kind::Snorm: {
    int64_t max = (int64_t(1) << (bits - 1)) - 1;
    int64_t v = roundSaturate(f, float(max), -max - 1, max);
    // Below -1 the spec's convert_char_sat_rte gives -128 (-32768); the
    // CTS's reference clamps at -127 (-32767); both read back as -1.0.
    if (v == -max - 1)
      return {-max - 1, -max};
    return {v, v};
  }
  default:
    return {0, 0};
  }
}

std::string formatFloat(float f) {
  std::ostringstream s;
  s.precision(9);
  s << f;
  return s.str();
}

// --- The host sampler: "Image Addressing and Filtering", axis by axis. ---

struct SamplerDesc {
  bool normalized;
  cl_addressing_mode mode;
  cl_filter_mode filter;

  std::string name() const {
    std::string s = normalized ? "normalized, " : "unnormalized, ";
    switch (mode) {
    case CL_ADDRESS_NONE:
      s += "CL_ADDRESS_NONE";
      break;
    case CL_ADDRESS_CLAMP_TO_EDGE:
      s += "CL_ADDRESS_CLAMP_TO_EDGE";
      break;
    case CL_ADDRESS_CLAMP:
      s += "CL_ADDRESS_CLAMP";
      break;
    case CL_ADDRESS_REPEAT:
      s += "CL_ADDRESS_REPEAT";
      break;
    case CL_ADDRESS_MIRRORED_REPEAT:
      s += "CL_ADDRESS_MIRRORED_REPEAT";
      break;
    }
    s += filter == CL_FILTER_NEAREST ? ", CL_FILTER_NEAREST"
                                     : ", CL_FILTER_LINEAR";
    return s;
  }
};

struct Tap {
  int index;
  double weight;
};

float frac(float x) { return x - std::floor(x); }

int addressMode(int coord, int size, cl_addressing_mode mode) {
  if (mode == CL_ADDRESS_CLAMP_TO_EDGE)
    return std::min(std::max(coord, 0), size - 1);
  if (mode == CL_ADDRESS_CLAMP)
    return std::min(std::max(coord, -1), size);
  return coord; // CL_ADDRESS_NONE
}

// The texels (and weights) one coordinate selects along an axis of `size`.
std::vector<Tap> axisTaps(float coord, int size, const SamplerDesc &s) {
  bool linear = s.filter == CL_FILTER_LINEAR;
  if (s.mode == CL_ADDRESS_REPEAT) {
    float u = (coord - std::floor(coord)) * float(size);
    if (!linear) {
      int i = int(std::floor(u));
      if (i > size - 1)
        i -= size;
      return {{i, 1.0}};
    }
    int i0 = int(std::floor(u - 0.5f));
    int i1 = i0 + 1;
    if (i0 < 0)
      i0 += size;
    if (i1 > size - 1)
      i1 -= size;
    float a = frac(u - 0.5f);
    return {{i0, 1.0 - a}, {i1, a}};
  }
  if (s.mode == CL_ADDRESS_MIRRORED_REPEAT) {
    float prime = 2.0f * std::rint(0.5f * coord); // ties to even
    prime = std::fabs(coord - prime);
    float u = prime * float(size);
    if (!linear)
      return {{std::min(int(std::floor(u)), size - 1), 1.0}};
    int i0 = int(std::floor(u - 0.5f));
    int i1 = i0 + 1;
    i0 = std::max(i0, 0);
    i1 = std::min(i1, size - 1);
    float a = frac(u - 0.5f);
    return {{i0, 1.0 - a}, {i1, a}};
  }
  float u = s.normalized ? coord * float(size) : coord;
  if (!linear)
    return {{addressMode(int(std::floor(u)), size, s.mode), 1.0}};
  int base = int(std::floor(u - 0.5f));
  float a = frac(u - 0.5f);
  return {{addressMode(base, size, s.mode), 1.0 - a},
          {addressMode(base + 1, size, s.mode), a}};
}

// An image as read_imagef sees it: decoded texels and the border colour.
struct HostImage {
  int width = 1, height = 1, depth = 1;
  std::vector<Float4> texels;
  Float4 border = {0, 0, 0, 0};

  Float4 at(int i, int j, int k) const {
    if (i < 0 || j < 0 || k < 0 || i >= width || j >= height || k >= depth)
      return border;
    return texels[(size_t(k) * height + j) * width + i];
  }

  // read_imagef(image, sampler, coord) for an image of `dims` dimensions.
  Float4 sample(const SamplerDesc &s, float x, float y = 0, float z = 0,
                int dims = 2) const {
    std::vector<Tap> ti = axisTaps(x, width, s);
    std::vector<Tap> tj =
        dims > 1 ? axisTaps(y, height, s) : std::vector<Tap>{{0, 1.0}};
    std::vector<Tap> tk =
        dims > 2 ? axisTaps(z, depth, s) : std::vector<Tap>{{0, 1.0}};
    std::array<double, 4> sum = {0, 0, 0, 0};
    for (const Tap &k : tk)
      for (const Tap &j : tj)
        for (const Tap &i : ti) {
          double w = i.weight * j.weight * k.weight;
          Float4 t = at(i.index, j.index, k.index);
          for (int c = 0; c < 4; ++c)
            sum[c] += w * t[c];
        }
    return {float(sum[0]), float(sum[1]), float(sum[2]), float(sum[3])};
  }
};

// Whether every texel an in-range-only mode (CL_ADDRESS_NONE) would touch
// along an axis is inside the image, weights of 0 included.
bool inRange(float coord, int size, const SamplerDesc &s) {
  float u = s.normalized ? coord * float(size) : coord;
  if (s.filter == CL_FILTER_NEAREST)
    return u >= 0 && u < float(size);
  return u >= 0.5f && u < float(size) - 0.5f;
}

std::string show(const Float4 &v) {
  std::ostringstream s;
  s.precision(9);
  s << "(" << v[0] << ", " << v[1] << ", " << v[2] << ", " << v[3] << ")";
  return s.str();
}

// Nearest filtering picks one texel: exact. Linear filtering blends in
// float: a small relative tolerance.
bool closeEnough(const Float4 &got, const Float4 &want, bool linear) {
  for (int c = 0; c < 4; ++c) {
    if (!linear) {
      if (got[c] != want[c])
        return false;
      continue;
    }
    double tolerance = 1e-5 * std::fabs(want[c]) + 1e-5;
    if (!(std::fabs(double(got[c]) - want[c]) <= tolerance))
      return false;
  }
  return true;
}

// --- Deterministic data. ---

struct Lcg {
  uint64_t state;
  uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(state >> 33);
  }
};

// Random element bytes; half and float channels are kept finite (and float
// ones normal) since the spec leaves NaN, infinity and flushed denormals to
// the implementation.
std::vector<uint8_t> randomElements(const Format &f, size_t count,
                                    uint64_t seed) {
  Lcg lcg{seed};
  std::vector<uint8_t> bytes(count * f.elementSize());
  for (uint8_t &b : bytes)
    b = uint8_t(lcg.next() >> 7);
  if (f.type->kind == Kind::Half) {
    for (size_t i = 0; i + 1 < bytes.size(); i += 2) {
      uint16_t h;
      std::memcpy(&h, &bytes[i], 2);
      if (((h >> 10) & 0x1f) == 0x1f)
        h &= ~uint16_t(0x0400); // exponent 30 instead of 31
      std::memcpy(&bytes[i], &h, 2);
    }
  }
  if (f.type->kind == Kind::Float) {
    for (size_t i = 0; i + 3 < bytes.size(); i += 4) {
      uint32_t bits;
      std::memcpy(&bits, &bytes[i], 4);
      uint32_t exponent = 100 + (bits >> 23) % 50;
      bits = (bits & 0x807fffffu) | (exponent << 23);
      std::memcpy(&bytes[i], &bits, 4);
    }
  }
  return bytes;
}

// --- Kernels. ---

const char *kSampling = R"CLC(
constant sampler_t kMirrorLinear =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT |
    CLK_FILTER_LINEAR;
constant sampler_t kClampNearest =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

kernel void sample_float(read_only image2d_t image, sampler_t sampler,
                         global const float2 *coords, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, sampler, coords[i]);
}

kernel void sample_int(read_only image2d_t image, sampler_t sampler,
                       global const int2 *coords, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, sampler, coords[i]);
}

kernel void load(read_only image2d_t image, global const int2 *coords,
                 global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, coords[i]);
}

// Program-scope samplers, and one declared in the kernel; the second reads
// with unnormalized coordinates scaled from the normalized ones.
kernel void sample_declared(read_only image2d_t image,
                            global const float2 *coords, global float4 *out) {
  const sampler_t repeat_nearest =
      CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
  size_t i = get_global_id(0);
  float2 size = (float2)(get_image_width(image), get_image_height(image));
  out[3 * i] = read_imagef(image, kMirrorLinear, coords[i]);
  out[3 * i + 1] = read_imagef(image, kClampNearest, coords[i] * size);
  out[3 * i + 2] = read_imagef(image, repeat_nearest, coords[i]);
}
)CLC";

const char *kFormatKernels = R"CLC(
kernel void read_f(read_only image2d_t image, global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(image) + x] = read_imagef(image, (int2)(x, y));
}
kernel void read_i(read_only image2d_t image, global int4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(image) + x] = read_imagei(image, (int2)(x, y));
}
kernel void read_ui(read_only image2d_t image, global uint4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(image) + x] = read_imageui(image, (int2)(x, y));
}
kernel void write_f(write_only image2d_t image, global const float4 *in) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(image, (int2)(x, y), in[y * get_image_width(image) + x]);
}
kernel void write_i(write_only image2d_t image, global const int4 *in) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagei(image, (int2)(x, y), in[y * get_image_width(image) + x]);
}
kernel void write_ui(write_only image2d_t image, global const uint4 *in) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imageui(image, (int2)(x, y), in[y * get_image_width(image) + x]);
}
kernel void border_f(read_only image2d_t image, sampler_t sampler,
                     global const int2 *coords, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, sampler, coords[i]);
}
kernel void border_i(read_only image2d_t image, sampler_t sampler,
                     global const int2 *coords, global int4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagei(image, sampler, coords[i]);
}
kernel void border_ui(read_only image2d_t image, sampler_t sampler,
                      global const int2 *coords, global uint4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imageui(image, sampler, coords[i]);
}
)CLC";

const char *kDepthKernels = R"CLC(
#pragma OPENCL EXTENSION cl_khr_depth_images : enable
kernel void read_depth(read_only image2d_depth_t image, global float *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(image) + x] = read_imagef(image, (int2)(x, y));
}
kernel void sample_depth(read_only image2d_depth_t image, sampler_t sampler,
                         global const float2 *coords, global float *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, sampler, coords[i]);
}
kernel void write_depth(write_only image2d_depth_t image,
                        global const float *in) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(image, (int2)(x, y), in[y * get_image_width(image) + x]);
}
)CLC";

// Each copies its source to its destination as 2v + 1 (exact in float) and
// reports the image queries.
const char *kDimensionKernels = R"CLC(
kernel void copy_1d(read_only image1d_t src, write_only image1d_t dst,
                    global int *dims) {
  int x = get_global_id(0);
  write_imagef(dst, x, read_imagef(src, x) * 2.0f + 1.0f);
  if (x == 0)
    dims[0] = get_image_width(src);
}
kernel void sample_1d(read_only image1d_t src, sampler_t sampler,
                      global const float *coords, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(src, sampler, coords[i]);
}
kernel void copy_1d_array(read_only image1d_array_t src,
                          write_only image1d_array_t dst, global int *dims) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, c, read_imagef(src, c) * 2.0f + 1.0f);
  if (c.x == 0 && c.y == 0) {
    dims[0] = get_image_width(src);
    dims[1] = (int)get_image_array_size(src);
  }
}
kernel void sample_1d_array(read_only image1d_array_t src, sampler_t sampler,
                            global const float2 *coords, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(src, sampler, coords[i]);
}
kernel void copy_2d_array(read_only image2d_array_t src,
                          write_only image2d_array_t dst, global int *dims) {
  int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imagef(dst, c, read_imagef(src, c) * 2.0f + 1.0f);
  if (c.x == 0 && c.y == 0 && c.z == 0) {
    dims[0] = get_image_width(src);
    dims[1] = get_image_height(src);
    dims[2] = (int)get_image_array_size(src);
    int2 dim = get_image_dim(src);
    dims[3] = dim.x;
    dims[4] = dim.y;
  }
}
kernel void sample_2d_array(read_only image2d_array_t src, sampler_t sampler,
                            global const float4 *coords, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(src, sampler, coords[i]);
}
kernel void read_3d(read_only image3d_t src, global float4 *out,
                    global int *dims) {
  int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  int w = get_image_width(src), h = get_image_height(src);
  out[(c.z * h + c.y) * w + c.x] = read_imagef(src, c) * 2.0f + 1.0f;
  if (c.x == 0 && c.y == 0 && c.z == 0) {
    dims[0] = w;
    dims[1] = h;
    dims[2] = get_image_depth(src);
    int4 dim = get_image_dim(src);
    dims[3] = dim.x;
    dims[4] = dim.y;
    dims[5] = dim.z;
    dims[6] = dim.w;
  }
}
kernel void sample_3d(read_only image3d_t src, sampler_t sampler,
                      global const float4 *coords, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(src, sampler, coords[i]);
}
)CLC";

const char *k3dWrites = R"CLC(
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
kernel void copy_3d(read_only image3d_t src, write_only image3d_t dst) {
  int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imagef(dst, c, read_imagef(src, c) * 2.0f + 1.0f);
}
)CLC";

// --- The fixture. ---

struct ImageFixture : WeftFixture {
  cl_program program(const char *source) {
    cl_program p;
    std::string log;
    cl_int status = build(source, p, log, "-cl-std=CL3.0");
    INFO(log);
    REQUIRE(status == CL_SUCCESS);
    return p;
  }
  cl_kernel kernelOf(cl_program p, const char *name) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    INFO("kernel " << name);
    REQUIRE(err == CL_SUCCESS);
    return k;
  }
  template <typename... Args> void setArgs(cl_kernel k, Args... args) {
    cl_uint index = 0;
    cl_int results[] = {clSetKernelArg(k, index++, sizeof(args), &args)...};
    for (cl_uint i = 0; i < index; ++i) {
      INFO("argument " << i);
      REQUIRE(results[i] == CL_SUCCESS);
    }
  }
  void run(cl_kernel k, std::vector<size_t> global) {
    REQUIRE(runAndWait(k, cl_uint(global.size()), global.data(), nullptr) ==
            CL_SUCCESS);
  }
  template <typename T> std::vector<T> readBuffer(cl_mem m, size_t count) {
    std::vector<T> out(count);
    REQUIRE(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * sizeof(T),
                                out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    return out;
  }
  cl_mem image(cl_mem_flags flags, const cl_image_format &format,
               const cl_image_desc &desc, void *host = nullptr) {
    cl_int err;
    cl_mem m = clCreateImage(context, flags, &format, &desc, host, &err);
    INFO("clCreateImage of " << hexName(format) << " returned " << err);
    REQUIRE(err == CL_SUCCESS);
    return m;
  }
  cl_mem image2d(cl_mem_flags flags, cl_channel_order order,
                 cl_channel_type type, size_t width, size_t height) {
    cl_image_desc desc = {};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    return image(flags, {order, type}, desc);
  }
  cl_sampler sampler(const SamplerDesc &s) {
    cl_int err;
    cl_sampler sm = clCreateSampler(context, s.normalized ? CL_TRUE : CL_FALSE,
                                    s.mode, s.filter, &err);
    INFO("clCreateSampler(" << s.name() << ") returned " << err);
    REQUIRE(err == CL_SUCCESS);
    return sm;
  }
  void writeImage(cl_mem m, const void *data, size_t width, size_t height,
                  size_t depth = 1) {
    const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, depth};
    REQUIRE(clEnqueueWriteImage(queue, m, CL_TRUE, origin, region, 0, 0, data,
                                0, nullptr, nullptr) == CL_SUCCESS);
  }
  void readImage(cl_mem m, void *data, size_t width, size_t height,
                 size_t depth = 1) {
    const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, depth};
    REQUIRE(clEnqueueReadImage(queue, m, CL_TRUE, origin, region, 0, 0, data, 0,
                               nullptr, nullptr) == CL_SUCCESS);
  }
  std::vector<cl_image_format> supported(cl_mem_flags flags,
                                         cl_mem_object_type type) {
    cl_uint count = 0;
    REQUIRE(clGetSupportedImageFormats(context, flags, type, 0, nullptr,
                                       &count) == CL_SUCCESS);
    std::vector<cl_image_format> formats(count);
    if (count)
      REQUIRE(clGetSupportedImageFormats(context, flags, type, count,
                                         formats.data(),
                                         nullptr) == CL_SUCCESS);
    return formats;
  }
  // The 2-D formats listed for CL_MEM_READ_WRITE, then those listed only
  // under `other` (CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY), each with the
  // flags of the list it came from. Formats this file does not know are
  // reported and left out.
  std::vector<std::pair<Format, cl_mem_flags>> formats2d(cl_mem_flags other) {
    std::vector<std::pair<Format, cl_mem_flags>> out;
    auto add = [&](cl_mem_flags flags) {
      for (const cl_image_format &f : supported(flags, CL_MEM_OBJECT_IMAGE2D)) {
        bool seen = false;
        for (auto &known : out)
          seen |=
              known.first.format.image_channel_order == f.image_channel_order &&
              known.first.format.image_channel_data_type ==
                  f.image_channel_data_type;
        Format described;
        if (seen)
          continue;
        if (!describe(f, described)) {
          WARN("format not known to this test, skipped: " << hexName(f));
          continue;
        }
        out.push_back({described, flags});
      }
    };
    add(CL_MEM_READ_WRITE);
    add(other);
    return out;
  }
  // Checks CL_IMAGE_ELEMENT_SIZE against the format's layout (either
  // reading, for CL_Rx and CL_RGx) and settles which one `f` uses.
  void settleElementSize(cl_mem img, Format &f) {
    size_t element = 0;
    REQUIRE(clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element,
                           nullptr) == CL_SUCCESS);
    f.padded = true;
    if (f.mayOmitPadding() && element != f.elementSize()) {
      f.padded = false;
      static bool noted = false;
      if (!noted)
        WARN("CL_Rx/CL_RGx store no ignored channel (the CTS's reading, not "
             "the channel order table's)");
      noted = true;
    }
    INFO("CL_IMAGE_ELEMENT_SIZE of " << f.name());
    CHECK(element == f.elementSize());
  }
  bool listed(cl_mem_flags flags, cl_mem_object_type type,
              cl_channel_order order, cl_channel_type data_type) {
    for (const cl_image_format &f : supported(flags, type))
      if (f.image_channel_order == order &&
          f.image_channel_data_type == data_type)
        return true;
    return false;
  }
  bool hasExtension(const char *name) {
    size_t length = 0;
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &length);
    std::string extensions(length, '\0');
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, length, extensions.data(),
                    nullptr);
    return (" " + extensions + " ").find(std::string(" ") + name + " ") !=
           std::string::npos;
  }
};

// --- 2-D sampling. ---

constexpr int kW = 4, kH = 3;

// Distinct values in every texel and channel, all exact in float.
Float4 texelValue(int x, int y) {
  return {float(1 + x + 4 * y), float(10 * (x + 1) + y),
          -float(3 * x + 7 * y + 2), 0.25f * float(x + 4 * y) + 0.5f};
}

HostImage samplingImage(Float4 border) {
  HostImage img;
  img.width = kW;
  img.height = kH;
  img.border = border;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x)
      img.texels.push_back(texelValue(x, y));
  return img;
}

// Coordinates at texel centres, on texel edges, just outside the image
// (a quarter texel), and far outside on both sides. All are exact in float
// and so are their products with the width (4) and height (3), so the
// spec's formulas leave nothing to rounding.
const float kNormalizedS[] = {0.125f,   0.375f,   0.875f,    0.0f,     0.25f,
                              0.5f,     0.75f,    1.0f,      -0.0625f, 1.0625f,
                              -0.5f,    -1.0f,    1.5f,      2.0f,     3.0f,
                              -1.3125f, 2.40625f, -7.15625f, 5.84375f, 0.3125f};
const float kNormalizedT[] = {0.5f,    0.0f,   0.25f,   1.0f, -0.0625f,
                              1.0625f, -1.75f, 2.6875f, 3.0f, 0.125f};
const float kUnnormalizedX[] = {0.5f,  1.5f,  3.5f,   0.0f,  1.0f,
                                2.0f,  4.0f,  -0.25f, 4.25f, 0.75f,
                                3.75f, -3.0f, 9.5f,   2.625f};
const float kUnnormalizedY[] = {0.5f,   2.5f,  0.0f,  1.0f,  3.0f,
                                -0.25f, 3.25f, 1.75f, -8.0f, 2.875f};

struct Coord {
  float s, t;
};

std::vector<Coord> coordinatesFor(const SamplerDesc &s) {
  std::vector<Coord> coords;
  auto add = [&](const float *xs, size_t nx, const float *ys, size_t ny) {
    for (size_t j = 0; j < ny; ++j)
      for (size_t i = 0; i < nx; ++i) {
        if (s.mode == CL_ADDRESS_NONE &&
            !(inRange(xs[i], kW, s) && inRange(ys[j], kH, s)))
          continue;
        coords.push_back({xs[i], ys[j]});
      }
  };
  if (s.normalized)
    add(kNormalizedS, std::size(kNormalizedS), kNormalizedT,
        std::size(kNormalizedT));
  else
    add(kUnnormalizedX, std::size(kUnnormalizedX), kUnnormalizedY,
        std::size(kUnnormalizedY));
  return coords;
}

struct SamplingFixture : ImageFixture {
  cl_program sampling = nullptr;
  cl_mem rgba = nullptr;
  HostImage reference = samplingImage({0, 0, 0, 0}); // CL_RGBA: transparent

  SamplingFixture() {
    sampling = program(kSampling);
    rgba = image2d(CL_MEM_READ_ONLY, CL_RGBA, CL_FLOAT, kW, kH);
    writeImage(rgba, reference.texels.data(), kW, kH);
  }
  ~SamplingFixture() {
    clReleaseMemObject(rgba);
    clReleaseProgram(sampling);
  }

  // Samples `rgba` at every coordinate for `s` with a sampler from
  // clCreateSampler and compares with the host reference.
  void checkSampler(const SamplerDesc &s) {
    std::vector<Coord> coords = coordinatesFor(s);
    REQUIRE(!coords.empty());
    cl_sampler sm = sampler(s);
    cl_kernel k = kernelOf(sampling, "sample_float");
    cl_mem in = buffer(coords.size() * sizeof(Coord), coords.data());
    cl_mem out = buffer(coords.size() * sizeof(Float4));
    setArgs(k, rgba, sm, in, out);
    run(k, {coords.size()});
    std::vector<Float4> got = readBuffer<Float4>(out, coords.size());
    bool linear = s.filter == CL_FILTER_LINEAR;
    for (size_t i = 0; i < coords.size(); ++i) {
      Float4 want = reference.sample(s, coords[i].s, coords[i].t);
      INFO("CL_RGBA/CL_FLOAT 4x3, sampler "
           << s.name() << ", coordinate (" << coords[i].s << ", " << coords[i].t
           << "): expected " << show(want) << ", got " << show(got[i]));
      CHECK(closeEnough(got[i], want, linear));
    }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseSampler(sm);
  }
};

} // namespace

TEST_CASE_METHOD(ImageFixture,
                 "the device reports image support with at least the "
                 "spec's minimum limits and formats",
                 "[images]") {
  cl_bool support = CL_FALSE;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof support,
                          &support, nullptr) == CL_SUCCESS);
  REQUIRE(support == CL_TRUE);
  struct Limit {
    cl_device_info query;
    const char *name;
    size_t minimum;
    bool is_size_t;
  };
  // The minimums of the device queries table for a full profile device
  // with images.
  const Limit limits[] = {
      {CL_DEVICE_MAX_READ_IMAGE_ARGS, "CL_DEVICE_MAX_READ_IMAGE_ARGS", 128,
       false},
      {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, "CL_DEVICE_MAX_WRITE_IMAGE_ARGS", 64,
       false},
      {CL_DEVICE_MAX_SAMPLERS, "CL_DEVICE_MAX_SAMPLERS", 16, false},
      {CL_DEVICE_IMAGE2D_MAX_WIDTH, "CL_DEVICE_IMAGE2D_MAX_WIDTH", 16384, true},
      {CL_DEVICE_IMAGE2D_MAX_HEIGHT, "CL_DEVICE_IMAGE2D_MAX_HEIGHT", 16384,
       true},
      {CL_DEVICE_IMAGE3D_MAX_WIDTH, "CL_DEVICE_IMAGE3D_MAX_WIDTH", 2048, true},
      {CL_DEVICE_IMAGE3D_MAX_HEIGHT, "CL_DEVICE_IMAGE3D_MAX_HEIGHT", 2048,
       true},
      {CL_DEVICE_IMAGE3D_MAX_DEPTH, "CL_DEVICE_IMAGE3D_MAX_DEPTH", 2048, true},
      {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, "CL_DEVICE_IMAGE_MAX_BUFFER_SIZE",
       65536, true},
      {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE", 2048,
       true},
  };
  for (const Limit &limit : limits) {
    INFO(limit.name);
    size_t value = 0;
    if (limit.is_size_t) {
      CHECK(clGetDeviceInfo(device, limit.query, sizeof value, &value,
                            nullptr) == CL_SUCCESS);
    } else {
      cl_uint v = 0;
      CHECK(clGetDeviceInfo(device, limit.query, sizeof v, &v, nullptr) ==
            CL_SUCCESS);
      value = v;
    }
    CHECK(value >= limit.minimum);
  }
  // "Minimum list of required image formats for reading or writing" (the
  // OpenCL 3.0 table), for read-only and write-only 2-D images.
  const cl_channel_type rgba_types[] = {
      CL_UNORM_INT8,   CL_UNORM_INT16,   CL_SIGNED_INT8,    CL_SIGNED_INT16,
      CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32,
      CL_HALF_FLOAT,   CL_FLOAT};
  for (cl_mem_flags flags : {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY}) {
    INFO((flags == CL_MEM_READ_ONLY ? "CL_MEM_READ_ONLY" : "CL_MEM_WRITE_ONLY")
         << " 2-D formats");
    for (cl_channel_type type : rgba_types) {
      Format f;
      describe({CL_RGBA, type}, f);
      INFO(f.name());
      CHECK(listed(flags, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, type));
    }
    CHECK(listed(flags, CL_MEM_OBJECT_IMAGE2D, CL_BGRA, CL_UNORM_INT8));
  }
}

TEST_CASE_METHOD(SamplingFixture,
                 "nearest filtering with normalized coordinates follows the "
                 "spec's formulas in every addressing mode",
                 "[images]") {
  for (cl_addressing_mode mode :
       {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
        CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT})
    checkSampler({true, mode, CL_FILTER_NEAREST});
}

TEST_CASE_METHOD(SamplingFixture,
                 "nearest filtering with unnormalized coordinates follows the "
                 "spec's formulas in the clamp modes",
                 "[images]") {
  for (cl_addressing_mode mode :
       {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP})
    checkSampler({false, mode, CL_FILTER_NEAREST});
}

TEST_CASE_METHOD(SamplingFixture,
                 "linear filtering with normalized coordinates follows the "
                 "spec's formulas in every addressing mode",
                 "[images]") {
  for (cl_addressing_mode mode :
       {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
        CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT})
    checkSampler({true, mode, CL_FILTER_LINEAR});
}

TEST_CASE_METHOD(SamplingFixture,
                 "linear filtering with unnormalized coordinates follows the "
                 "spec's formulas in the clamp modes",
                 "[images]") {
  for (cl_addressing_mode mode :
       {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP})
    checkSampler({false, mode, CL_FILTER_LINEAR});
}

TEST_CASE_METHOD(SamplingFixture,
                 "a few hand-worked samples: texel centres, a clamped edge, "
                 "a mirrored seam and a bilinear blend",
                 "[images]") {
  // Independent of the reference sampler: values worked out by hand from
  // texelValue's red channel, 1 + x + 4y.
  struct Case {
    SamplerDesc s;
    Coord c;
    float red;
  };
  const Case cases[] = {
      // Centre of texel (2, 1).
      {{false, CL_ADDRESS_NONE, CL_FILTER_NEAREST}, {2.5f, 1.5f}, 7.0f},
      // u = 4.0 is past the last texel: clamp to edge gives x = 3.
      {{false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST},
       {4.0f, 0.5f},
       4.0f},
      // u = 4.0 with CL_ADDRESS_CLAMP: the border, red 0.
      {{false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST}, {4.0f, 0.5f}, 0.0f},
      // s = 1.0 mirrored: 2 * rint(0.5) = 0, so s' = 1, u = 4, i = 3.
      {{true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST},
       {1.0f, 0.0f},
       4.0f},
      // s = 1.0 repeated: u = 0, i = 0.
      {{true, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST}, {1.0f, 0.0f}, 1.0f},
      // s = -0.0625 repeated: u = 3.75, i = 3; t = 1.0625: v = 0.1875, j = 0.
      {{true, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST}, {-0.0625f, 1.0625f}, 4.0f},
      // (1.0, 1.0) unnormalized: the four texels (0..1, 0..1) equally:
      // (1 + 2 + 5 + 6) / 4.
      {{false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR}, {1.0f, 1.0f}, 3.5f},
      // (0.25, 0.5) with CL_ADDRESS_CLAMP: i0 = -1 (border) weight 0.25,
      // i1 = 0 weight 0.75, j = 0: 0.75 * 1.
      {{false, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR}, {0.25f, 0.5f}, 0.75f},
      // Repeat, linear, s = 0: u = 0, i0 = -1 -> 3 and i1 = 0, each 0.5;
      // t = 0.5: v = 1.5, row 1 only: (8 + 5) / 2.
      {{true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR}, {0.0f, 0.5f}, 6.5f},
  };
  cl_kernel k = kernelOf(sampling, "sample_float");
  cl_mem in = buffer(sizeof(Coord));
  cl_mem out = buffer(sizeof(Float4));
  for (const Case &c : cases) {
    cl_sampler sm = sampler(c.s);
    REQUIRE(clEnqueueWriteBuffer(queue, in, CL_TRUE, 0, sizeof(Coord), &c.c, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
    setArgs(k, rgba, sm, in, out);
    run(k, {1});
    Float4 got = readBuffer<Float4>(out, 1)[0];
    INFO("sampler " << c.s.name() << ", coordinate (" << c.c.s << ", " << c.c.t
                    << "): got " << show(got));
    CHECK(got[0] == Approx(c.red).epsilon(1e-6).margin(1e-6));
    clReleaseSampler(sm);
  }
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(SamplingFixture,
                 "integer coordinates with a sampler clamp to the edge or "
                 "return the border; samplerless reads return each texel",
                 "[images]") {
  struct Int2 {
    cl_int x, y;
  };
  std::vector<Int2> coords;
  for (cl_int y : {-1, 0, 2, 3, 100, -7})
    for (cl_int x : {-5, -1, 0, 3, 4, 9, 1})
      coords.push_back({x, y});
  cl_mem in = buffer(coords.size() * sizeof(Int2), coords.data());
  cl_mem out = buffer(coords.size() * sizeof(Float4));
  cl_kernel k = kernelOf(sampling, "sample_int");
  for (cl_addressing_mode mode : {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP}) {
    SamplerDesc s = {false, mode, CL_FILTER_NEAREST};
    cl_sampler sm = sampler(s);
    setArgs(k, rgba, sm, in, out);
    run(k, {coords.size()});
    std::vector<Float4> got = readBuffer<Float4>(out, coords.size());
    for (size_t i = 0; i < coords.size(); ++i) {
      Float4 want = reference.sample(s, float(coords[i].x), float(coords[i].y));
      INFO("int2 coordinate (" << coords[i].x << ", " << coords[i].y
                               << "), sampler " << s.name() << ": expected "
                               << show(want) << ", got " << show(got[i]));
      CHECK(closeEnough(got[i], want, false));
    }
    clReleaseSampler(sm);
  }
  clReleaseKernel(k);
  clReleaseMemObject(in);
  clReleaseMemObject(out);

  std::vector<Int2> all;
  for (cl_int y = 0; y < kH; ++y)
    for (cl_int x = 0; x < kW; ++x)
      all.push_back({x, y});
  in = buffer(all.size() * sizeof(Int2), all.data());
  out = buffer(all.size() * sizeof(Float4));
  k = kernelOf(sampling, "load");
  setArgs(k, rgba, in, out);
  run(k, {all.size()});
  std::vector<Float4> got = readBuffer<Float4>(out, all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    Float4 want = texelValue(all[i].x, all[i].y);
    INFO("samplerless read_imagef at (" << all[i].x << ", " << all[i].y
                                        << "): expected " << show(want)
                                        << ", got " << show(got[i]));
    CHECK(closeEnough(got[i], want, false));
  }
  clReleaseKernel(k);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
}

TEST_CASE_METHOD(SamplingFixture,
                 "samplers declared at program scope and inside a kernel "
                 "sample like the same sampler from clCreateSampler",
                 "[images]") {
  std::vector<Coord> coords;
  for (float t : kNormalizedT)
    for (float s : kNormalizedS)
      coords.push_back({s, t});
  cl_kernel k = kernelOf(sampling, "sample_declared");
  cl_mem in = buffer(coords.size() * sizeof(Coord), coords.data());
  cl_mem out = buffer(3 * coords.size() * sizeof(Float4));
  setArgs(k, rgba, in, out);
  run(k, {coords.size()});
  std::vector<Float4> got = readBuffer<Float4>(out, 3 * coords.size());
  const SamplerDesc mirror_linear = {true, CL_ADDRESS_MIRRORED_REPEAT,
                                     CL_FILTER_LINEAR};
  const SamplerDesc clamp_nearest = {false, CL_ADDRESS_CLAMP,
                                     CL_FILTER_NEAREST};
  const SamplerDesc repeat_nearest = {true, CL_ADDRESS_REPEAT,
                                      CL_FILTER_NEAREST};
  for (size_t i = 0; i < coords.size(); ++i) {
    float s = coords[i].s, t = coords[i].t;
    INFO("normalized coordinate (" << s << ", " << t << ")");
    Float4 want = reference.sample(mirror_linear, s, t);
    INFO("program-scope " << mirror_linear.name() << ": expected " << show(want)
                          << ", got " << show(got[3 * i]));
    CHECK(closeEnough(got[3 * i], want, true));
    want = reference.sample(clamp_nearest, s * kW, t * kH);
    INFO("program-scope " << clamp_nearest.name() << ": expected " << show(want)
                          << ", got " << show(got[3 * i + 1]));
    CHECK(closeEnough(got[3 * i + 1], want, false));
    want = reference.sample(repeat_nearest, s, t);
    INFO("kernel-scope " << repeat_nearest.name() << ": expected " << show(want)
                         << ", got " << show(got[3 * i + 2]));
    CHECK(closeEnough(got[3 * i + 2], want, false));
  }
  clReleaseKernel(k);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
}

TEST_CASE_METHOD(ImageFixture,
                 "clCreateSampler and clCreateSamplerWithProperties report "
                 "their properties; bad values are refused",
                 "[images]") {
  cl_int err;
  cl_sampler s = clCreateSampler(context, CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT,
                                 CL_FILTER_LINEAR, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_bool normalized = CL_FALSE;
  cl_addressing_mode mode = 0;
  cl_filter_mode filter = 0;
  cl_context owner = nullptr;
  cl_uint references = 0;
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof normalized,
                         &normalized, nullptr) == CL_SUCCESS);
  CHECK(normalized == CL_TRUE);
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof mode, &mode,
                         nullptr) == CL_SUCCESS);
  CHECK(mode == CL_ADDRESS_MIRRORED_REPEAT);
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof filter, &filter,
                         nullptr) == CL_SUCCESS);
  CHECK(filter == CL_FILTER_LINEAR);
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof owner, &owner,
                         nullptr) == CL_SUCCESS);
  CHECK(owner == context);
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof references,
                         &references, nullptr) == CL_SUCCESS);
  CHECK(references == 1);
  clReleaseSampler(s);

  const cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                         CL_FALSE,
                                         CL_SAMPLER_ADDRESSING_MODE,
                                         CL_ADDRESS_CLAMP,
                                         CL_SAMPLER_FILTER_MODE,
                                         CL_FILTER_NEAREST,
                                         0};
  s = clCreateSamplerWithProperties(context, props, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof normalized,
                         &normalized, nullptr) == CL_SUCCESS);
  CHECK(normalized == CL_FALSE);
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof mode, &mode,
                         nullptr) == CL_SUCCESS);
  CHECK(mode == CL_ADDRESS_CLAMP);
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof filter, &filter,
                         nullptr) == CL_SUCCESS);
  CHECK(filter == CL_FILTER_NEAREST);
  // CL_SAMPLER_PROPERTIES returns the array it was created with.
  size_t size = 0;
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, nullptr, &size) ==
        CL_SUCCESS);
  CHECK(size == sizeof props);
  if (size == sizeof props) {
    cl_sampler_properties back[7] = {};
    CHECK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof back, back,
                           nullptr) == CL_SUCCESS);
    CHECK(std::memcmp(back, props, sizeof props) == 0);
  }
  clReleaseSampler(s);

  s = clCreateSampler(context, CL_TRUE, 0x9999, CL_FILTER_NEAREST, &err);
  CHECK(s == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  s = clCreateSampler(context, CL_TRUE, CL_ADDRESS_CLAMP, 0x9999, &err);
  CHECK(s == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  const cl_sampler_properties twice[] = {
      CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, CL_SAMPLER_FILTER_MODE,
      CL_FILTER_LINEAR, 0};
  s = clCreateSamplerWithProperties(context, twice, &err);
  CHECK(s == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  const cl_sampler_properties unknown[] = {0x7777, 1, 0};
  s = clCreateSamplerWithProperties(context, unknown, &err);
  CHECK(s == nullptr);
  CHECK(err == CL_INVALID_VALUE);

  // A sampler argument given something that is not a sampler.
  cl_program p = program(kSampling);
  cl_kernel k = kernelOf(p, "sample_float");
  cl_mem not_a_sampler = buffer(16);
  CHECK(clSetKernelArg(k, 1, sizeof(cl_sampler), &not_a_sampler) ==
        CL_INVALID_SAMPLER);
  clReleaseMemObject(not_a_sampler);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

// --- Border colours. ---

TEST_CASE_METHOD(ImageFixture,
                 "the border colour is opaque black for CL_R and transparent "
                 "black for CL_RGBA, also inside a linear blend",
                 "[images]") {
  cl_program p = program(kSampling);
  cl_kernel k = kernelOf(p, "sample_float");
  // 2x2 texels: red 2, 4 / 6, 8; in CL_RGBA also green 0.5, blue 0.25 and
  // alpha 1.
  const float reds[] = {2, 4, 6, 8};
  const float rgba[] = {2, 0.5f, 0.25f, 1, 4, 0.5f, 0.25f, 1,
                        6, 0.5f, 0.25f, 1, 8, 0.5f, 0.25f, 1};
  cl_mem r_image = image2d(CL_MEM_READ_ONLY, CL_R, CL_FLOAT, 2, 2);
  cl_mem rgba_image = image2d(CL_MEM_READ_ONLY, CL_RGBA, CL_FLOAT, 2, 2);
  writeImage(r_image, reds, 2, 2);
  writeImage(rgba_image, rgba, 2, 2);
  const Coord coords[] = {{-0.5f, 0.5f}, {2.5f, 1.0f}, {0.25f, 1.0f}};
  cl_mem in = buffer(sizeof coords, const_cast<Coord *>(coords));
  cl_mem out = buffer(3 * sizeof(Float4));
  struct Want {
    const char *what;
    Float4 r, rgba;
  };
  // At (0.25, 1.0), linear: i0 = -1 (border) weighs 0.25 and i1 = 0 weighs
  // 0.75; rows 0 and 1 weigh 0.5 each; red 0.75 * (2 + 6) / 2 = 3.
  const Want nearest[] = {
      {"nearest at (-0.5, 0.5)", {0, 0, 0, 1}, {0, 0, 0, 0}},
      {"nearest at (2.5, 1.0)", {0, 0, 0, 1}, {0, 0, 0, 0}},
      {"nearest at (0.25, 1.0)", {6, 0, 0, 1}, {6, 0.5f, 0.25f, 1}},
  };
  const Want linear[] = {
      {"linear at (-0.5, 0.5)", {0, 0, 0, 1}, {0, 0, 0, 0}},
      // i0 = 1 weighs 0, i1 = 2 is the border and weighs 1 (a = 0).
      {"linear at (2.5, 1.0)", {0, 0, 0, 1}, {0, 0, 0, 0}},
      {"linear at (0.25, 1.0)", {3, 0, 0, 1}, {3, 0.375f, 0.1875f, 0.75f}},
  };
  for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
    cl_sampler sm = sampler({false, CL_ADDRESS_CLAMP, filter});
    const Want *wants = filter == CL_FILTER_NEAREST ? nearest : linear;
    for (int which = 0; which < 2; ++which) {
      cl_mem img = which == 0 ? r_image : rgba_image;
      setArgs(k, img, sm, in, out);
      run(k, {3});
      std::vector<Float4> got = readBuffer<Float4>(out, 3);
      for (int i = 0; i < 3; ++i) {
        const Float4 &want = which == 0 ? wants[i].r : wants[i].rgba;
        INFO((which == 0 ? "CL_R" : "CL_RGBA")
             << "/CL_FLOAT, CL_ADDRESS_CLAMP, " << wants[i].what
             << ": expected " << show(want) << ", got " << show(got[i]));
        CHECK(closeEnough(got[i], want, filter == CL_FILTER_LINEAR));
      }
    }
    clReleaseSampler(sm);
  }
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseMemObject(r_image);
  clReleaseMemObject(rgba_image);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE_METHOD(ImageFixture,
                 "every readable format returns its channel order's border "
                 "colour outside the image with CL_ADDRESS_CLAMP",
                 "[images]") {
  cl_program p = program(kFormatKernels);
  cl_sampler sm = sampler({false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST});
  struct Int2 {
    cl_int x, y;
  };
  // The last one is inside: the texel itself.
  const Int2 coords[] = {{-1, 0}, {2, 1}, {0, -1}, {1, 2}, {-5, -5}, {0, 0}};
  const size_t n = std::size(coords);
  cl_mem in = buffer(sizeof coords, const_cast<Int2 *>(coords));
  cl_mem out = buffer(n * 16);
  int index = 0;
  for (auto &[f, flags] : formats2d(CL_MEM_READ_ONLY)) {
    if (f.isDepth())
      continue;
    INFO("format " << f.name());
    cl_mem img = image2d(flags, f.format.image_channel_order,
                         f.format.image_channel_data_type, 2, 2);
    settleElementSize(img, f);
    std::vector<uint8_t> bytes = randomElements(f, 4, 77 + index++);
    writeImage(img, bytes.data(), 2, 2);
    bool opaque = f.order->border == Border::Opaque;
    const char *name = f.type->kind == Kind::Signed     ? "border_i"
                       : f.type->kind == Kind::Unsigned ? "border_ui"
                                                        : "border_f";
    cl_kernel k = kernelOf(p, name);
    setArgs(k, img, sm, in, out);
    run(k, {n});
    std::vector<cl_int> got_int = readBuffer<cl_int>(out, 4 * n);
    std::vector<float> got_float = readBuffer<float>(out, 4 * n);
    for (size_t i = 0; i < n; ++i) {
      INFO("int2 coordinate (" << coords[i].x << ", " << coords[i].y << ")");
      bool inside = i == n - 1;
      if (f.isInteger()) {
        const std::vector<cl_int> &got = got_int;
        std::array<int64_t, 4> want = {0, 0, 0, opaque ? 1 : 0};
        if (inside)
          want = expectedIntegerTexel(bytes.data(), f);
        for (int c = 0; c < 4; ++c) {
          INFO("component " << c << ": expected " << want[c] << ", got "
                            << got[4 * i + c]);
          if (f.type->kind == Kind::Unsigned)
            CHECK(uint32_t(got[4 * i + c]) == uint32_t(want[c]));
          else
            CHECK(got[4 * i + c] == want[c]);
        }
        continue;
      }
      const std::vector<float> &got = got_float;
      std::array<Expected, 4> want;
      want[3].value = opaque ? 1.0 : 0.0;
      if (inside)
        want = expectedTexel(bytes.data(), f);
      for (int c = 0; c < 4; ++c) {
        INFO("component " << c << ": expected " << describeExpected(want[c])
                          << ", got " << formatFloat(got[4 * i + c]));
        CHECK(matches(got[4 * i + c], want[c]));
      }
    }
    clReleaseKernel(k);
    clReleaseMemObject(img);
  }
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseSampler(sm);
  clReleaseProgram(p);
}

// --- Round trips of every format. ---

namespace {
constexpr size_t kRW = 7, kRH = 5; // odd sizes: rows are not a power of two
} // namespace

TEST_CASE_METHOD(ImageFixture,
                 "every readable 2-D format reads in a kernel as the host "
                 "decodes its bytes",
                 "[images]") {
  auto formats = formats2d(CL_MEM_READ_ONLY);
  REQUIRE(!formats.empty());
  cl_program p = program(kFormatKernels);
  cl_mem out = buffer(kRW * kRH * 16);
  uint64_t seed = 1;
  for (auto &[f, flags] : formats) {
    if (f.isDepth())
      continue; // its own test, with image2d_depth_t
    INFO("format " << f.name() << " ("
                   << (flags == CL_MEM_READ_WRITE ? "CL_MEM_READ_WRITE"
                                                  : "CL_MEM_READ_ONLY")
                   << ")");
    cl_mem img = image2d(flags, f.format.image_channel_order,
                         f.format.image_channel_data_type, kRW, kRH);
    settleElementSize(img, f);
    std::vector<uint8_t> bytes = randomElements(f, kRW * kRH, seed++);
    writeImage(img, bytes.data(), kRW, kRH);
    const char *name = f.type->kind == Kind::Signed     ? "read_i"
                       : f.type->kind == Kind::Unsigned ? "read_ui"
                                                        : "read_f";
    cl_kernel k = kernelOf(p, name);
    setArgs(k, img, out);
    run(k, {kRW, kRH});
    int mismatches = 0;
    if (f.isInteger()) {
      std::vector<cl_int> got = readBuffer<cl_int>(out, 4 * kRW * kRH);
      for (size_t t = 0; t < kRW * kRH; ++t) {
        auto want = expectedIntegerTexel(bytes.data() + t * f.elementSize(), f);
        for (int c = 0; c < 4; ++c) {
          bool ok = f.type->kind == Kind::Unsigned
                        ? uint32_t(got[4 * t + c]) == uint32_t(want[c])
                        : got[4 * t + c] == want[c];
          if (!ok && ++mismatches <= 4)
            FAIL_CHECK("texel (" << t % kRW << ", " << t / kRW << ") component "
                                 << c << ": expected " << want[c] << ", got "
                                 << got[4 * t + c]);
        }
      }
    } else {
      std::vector<float> got = readBuffer<float>(out, 4 * kRW * kRH);
      for (size_t t = 0; t < kRW * kRH; ++t) {
        auto want = expectedTexel(bytes.data() + t * f.elementSize(), f);
        for (int c = 0; c < 4; ++c)
          if (!matches(got[4 * t + c], want[c]) && ++mismatches <= 4)
            FAIL_CHECK("texel (" << t % kRW << ", " << t / kRW << ") component "
                                 << c << ": expected "
                                 << describeExpected(want[c]) << ", got "
                                 << formatFloat(got[4 * t + c]));
      }
    }
    CHECK(mismatches == 0);
    clReleaseKernel(k);
    clReleaseMemObject(img);
  }
  clReleaseMemObject(out);
  clReleaseProgram(p);
}

namespace {

// Inputs to write_imagef for normalized formats: the saturation points,
// ties, sRGB's linear segment, then a spread over [-0.2, 1.2].
const float kNormalizedInputs[] = {-2.0f,  -1.0f,       -0.5f,  -0.0f,  0.0f,
                                   0.001f, 0.0031308f,  0.002f, 0.04f,  0.1f,
                                   0.25f,  1.0f / 3.0f, 0.5f,   0.75f,  0.999f,
                                   1.0f,   1.5f,        100.0f, -0.25f, 0.6f};

float normalizedInput(size_t i, Lcg &lcg) {
  if (i < std::size(kNormalizedInputs))
    return kNormalizedInputs[i];
  return float(int(lcg.next() % 1401) - 200) / 1000.0f;
}

const cl_int kSignedInputs[] = {
    INT_MIN, -70000, -32769, -32768, -129,  -128,  -1,    0,     1,
    127,     128,    255,    256,    32767, 32768, 65535, 65536, INT_MAX};
const cl_uint kUnsignedInputs[] = {0,     1,          127,         128,
                                   255,   256,        32767,       65535,
                                   65536, 0x7fffffff, 0x80000000u, 0xffffffffu};

} // namespace

TEST_CASE_METHOD(ImageFixture,
                 "every writable 2-D format stores what the spec's "
                 "conversions give for write_imagef, write_imagei and "
                 "write_imageui",
                 "[images]") {
  auto formats = formats2d(CL_MEM_WRITE_ONLY);
  REQUIRE(!formats.empty());
  cl_program p = program(kFormatKernels);
  const size_t texels = kRW * kRH;
  cl_mem in = buffer(texels * 16);
  uint64_t seed = 100;
  for (auto &[f, flags] : formats) {
    if (f.isDepth())
      continue;
    INFO("format " << f.name() << " ("
                   << (flags == CL_MEM_READ_WRITE ? "CL_MEM_READ_WRITE"
                                                  : "CL_MEM_WRITE_ONLY")
                   << ")");
    Lcg lcg{seed++};
    // One input vector per texel, and for each stored channel of each
    // texel the accepted stored values.
    std::vector<float> floats(4 * texels);
    std::vector<cl_int> ints(4 * texels);
    const char *kernel_name = "write_f";
    switch (f.type->kind) {
    case Kind::Unorm:
    case Kind::Snorm:
      for (size_t i = 0; i < floats.size(); ++i)
        floats[i] = normalizedInput(i, lcg);
      break;
    case Kind::Half:
      // Halves as floats: exact either way the spec lets the conversion
      // round (to nearest even or toward zero), and normal.
      for (float &v : floats) {
        uint16_t h = uint16_t(lcg.next());
        unsigned exponent = 1 + (h >> 10 & 0x1f) % 30;
        v = halfToFloat(uint16_t((h & 0x83ff) | (exponent << 10)));
      }
      break;
    case Kind::Float:
      for (float &v : floats)
        v = bitsToFloat((lcg.next() & 0x807fffffu) |
                        ((100 + lcg.next() % 50) << 23));
      break;
    case Kind::Signed:
      kernel_name = "write_i";
      for (size_t i = 0; i < ints.size(); ++i)
        ints[i] = i < std::size(kSignedInputs)
                      ? kSignedInputs[i]
                      : cl_int(lcg.next() * 2654435761u);
      break;
    case Kind::Unsigned:
      kernel_name = "write_ui";
      for (size_t i = 0; i < ints.size(); ++i)
        ints[i] =
            cl_int(i < std::size(kUnsignedInputs) ? kUnsignedInputs[i]
                                                  : lcg.next() * 2654435761u);
      break;
    }
    const void *data = f.isInteger() ? static_cast<const void *>(ints.data())
                                     : static_cast<const void *>(floats.data());
    REQUIRE(clEnqueueWriteBuffer(queue, in, CL_TRUE, 0, texels * 16, data, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
    cl_mem img = image2d(flags, f.format.image_channel_order,
                         f.format.image_channel_data_type, kRW, kRH);
    settleElementSize(img, f);
    cl_kernel k = kernelOf(p, kernel_name);
    setArgs(k, img, in);
    run(k, {kRW, kRH});
    std::vector<uint8_t> stored(texels * f.elementSize());
    readImage(img, stored.data(), kRW, kRH);
    int mismatches = 0;
    for (size_t t = 0; t < texels; ++t) {
      for (const Field &field :
           unpack(stored.data() + t * f.elementSize(), f)) {
        int c = componentsOf(field.channel, false)[0];
        size_t i = 4 * t + c;
        int64_t got =
            f.type->kind == Kind::Snorm || f.type->kind == Kind::Signed
                ? signExtend(field.raw, field.bits)
                : int64_t(field.raw);
        Accepted want{0, 0};
        std::string input;
        switch (f.type->kind) {
        case Kind::Unorm:
        case Kind::Snorm:
          want = acceptedFromFloat(floats[i], field, f);
          input = formatFloat(floats[i]);
          break;
        case Kind::Half:
        case Kind::Float: {
          // Exactly representable: the same bits (the half's, or the
          // float's).
          input = formatFloat(floats[i]);
          if (f.type->kind == Kind::Float) {
            want.low = want.high = floatToBits(floats[i]);
          } else {
            // Find the half whose value this is.
            uint32_t bits = floatToBits(floats[i]);
            int exponent = int((bits >> 23) & 0xff) - 127 + 15;
            want.low = want.high = ((bits >> 16) & 0x8000) |
                                   (uint32_t(exponent) << 10) |
                                   ((bits >> 13) & 0x3ff);
          }
          break;
        }
        case Kind::Signed: {
          int64_t low = -(int64_t(1) << (field.bits - 1));
          int64_t high = (int64_t(1) << (field.bits - 1)) - 1;
          want.low = want.high =
              std::min(high, std::max(low, int64_t(ints[i])));
          input = std::to_string(ints[i]);
          break;
        }
        case Kind::Unsigned: {
          int64_t high = (int64_t(1) << field.bits) - 1;
          want.low = want.high = std::min(high, int64_t(uint32_t(ints[i])));
          input = std::to_string(uint32_t(ints[i]));
          break;
        }
        }
        if ((got < want.low || got > want.high) && ++mismatches <= 4)
          FAIL_CHECK("texel (" << t % kRW << ", " << t / kRW << ") channel "
                               << field.channel << ": wrote " << input
                               << ", expected stored " << want.low
                               << (want.high != want.low
                                       ? " to " + std::to_string(want.high)
                                       : std::string())
                               << ", got " << got);
      }
    }
    CHECK(mismatches == 0);
    clReleaseKernel(k);
    clReleaseMemObject(img);
  }
  clReleaseMemObject(in);
  clReleaseProgram(p);
}

TEST_CASE_METHOD(ImageFixture,
                 "depth images read and write one float through "
                 "image2d_depth_t, with a border of 0",
                 "[images]") {
  auto readable = formats2d(CL_MEM_READ_ONLY);
  auto writable = formats2d(CL_MEM_WRITE_ONLY);
  bool any = false;
  for (auto &[f, flags] : readable)
    any |= f.isDepth();
  if (!any) {
    WARN("no CL_DEPTH format is listed for 2-D images: nothing to test");
    return;
  }
  cl_program p = program(kDepthKernels);
  const size_t texels = kRW * kRH;
  cl_mem out = buffer(texels * sizeof(float));
  for (auto &[f, flags] : readable) {
    if (!f.isDepth())
      continue;
    INFO("format " << f.name());
    std::vector<uint8_t> bytes = randomElements(f, texels, 9);
    cl_mem img =
        image2d(flags, CL_DEPTH, f.format.image_channel_data_type, kRW, kRH);
    writeImage(img, bytes.data(), kRW, kRH);
    cl_kernel k = kernelOf(p, "read_depth");
    setArgs(k, img, out);
    run(k, {kRW, kRH});
    std::vector<float> got = readBuffer<float>(out, texels);
    for (size_t t = 0; t < texels; ++t) {
      Expected want = expectedTexel(bytes.data() + t * f.elementSize(), f)[0];
      INFO("texel (" << t % kRW << ", " << t / kRW << "): expected "
                     << describeExpected(want) << ", got "
                     << formatFloat(got[t]));
      CHECK(matches(got[t], want));
    }
    clReleaseKernel(k);
    // Outside with CL_ADDRESS_CLAMP: the depth border value, 0.
    const Coord coords[] = {{-0.5f, 0.5f}, {0.5f, 5.5f}};
    cl_mem in = buffer(sizeof coords, const_cast<Coord *>(coords));
    cl_sampler sm = sampler({false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST});
    k = kernelOf(p, "sample_depth");
    setArgs(k, img, sm, in, out);
    run(k, {2});
    got = readBuffer<float>(out, 2);
    CHECK(got[0] == 0.0f);
    CHECK(got[1] == 0.0f);
    clReleaseKernel(k);
    clReleaseSampler(sm);
    clReleaseMemObject(in);
    clReleaseMemObject(img);
  }
  cl_mem in = buffer(texels * sizeof(float));
  for (auto &[f, flags] : writable) {
    if (!f.isDepth())
      continue;
    INFO("writing format " << f.name());
    Lcg lcg{5};
    std::vector<float> values(texels);
    for (size_t i = 0; i < texels; ++i)
      values[i] = f.type->kind == Kind::Float
                      ? float(int(lcg.next() % 2001) - 1000) / 64.0f
                      : normalizedInput(i, lcg);
    REQUIRE(clEnqueueWriteBuffer(queue, in, CL_TRUE, 0, texels * sizeof(float),
                                 values.data(), 0, nullptr,
                                 nullptr) == CL_SUCCESS);
    cl_mem img =
        image2d(flags, CL_DEPTH, f.format.image_channel_data_type, kRW, kRH);
    cl_kernel k = kernelOf(p, "write_depth");
    setArgs(k, img, in);
    run(k, {kRW, kRH});
    std::vector<uint8_t> stored(texels * f.elementSize());
    readImage(img, stored.data(), kRW, kRH);
    for (size_t t = 0; t < texels; ++t) {
      Field field = unpack(stored.data() + t * f.elementSize(), f)[0];
      INFO("texel (" << t % kRW << ", " << t / kRW << "): wrote "
                     << formatFloat(values[t]));
      if (f.type->kind == Kind::Float) {
        CHECK(bitsToFloat(field.raw) == values[t]);
      } else {
        Accepted want = acceptedFromFloat(values[t], field, f);
        CHECK(int64_t(field.raw) >= want.low);
        CHECK(int64_t(field.raw) <= want.high);
      }
    }
    clReleaseKernel(k);
    clReleaseMemObject(img);
  }
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseProgram(p);
}

// --- sRGB. ---

TEST_CASE_METHOD(ImageFixture,
                 "sRGB bytes read as the spec's linear values, alpha "
                 "unconverted, and linear filtering blends after conversion",
                 "[images]") {
  if (!listed(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, CL_sRGBA,
              CL_UNORM_INT8)) {
    WARN("CL_sRGBA/CL_UNORM_INT8 is not listed for reading: nothing to test");
    return;
  }
  // Every byte in red; green reversed; alpha the byte itself (linear).
  std::vector<uint8_t> bytes(256 * 4);
  for (int i = 0; i < 256; ++i) {
    bytes[4 * i] = uint8_t(i);
    bytes[4 * i + 1] = uint8_t(255 - i);
    bytes[4 * i + 2] = uint8_t(i * 7);
    bytes[4 * i + 3] = uint8_t(i);
  }
  cl_mem img = image2d(CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8, 16, 16);
  writeImage(img, bytes.data(), 16, 16);
  cl_program p = program(kFormatKernels);
  cl_kernel k = kernelOf(p, "read_f");
  cl_mem out = buffer(256 * sizeof(Float4));
  setArgs(k, img, out);
  run(k, {16, 16});
  std::vector<Float4> got = readBuffer<Float4>(out, 256);
  for (int i = 0; i < 256; ++i) {
    INFO("sRGB byte " << i << " (red), " << 255 - i << " (green), "
                      << (i * 7 & 255) << " (blue), alpha " << i << ": got "
                      << show(got[i]));
    // The spec's accuracy: converted back to sRGB, within 0.5 of the byte.
    CHECK(std::fabs(255.0 * linearToSrgb(got[i][0]) - i) <= 0.5);
    CHECK(std::fabs(255.0 * linearToSrgb(got[i][1]) - (255 - i)) <= 0.5);
    CHECK(std::fabs(255.0 * linearToSrgb(got[i][2]) - (i * 7 & 255)) <= 0.5);
    Expected alpha;
    alpha.value = i / 255.0;
    alpha.how = (i == 0 || i == 255) ? Expected::Exact : Expected::Ulp15;
    CHECK(matches(got[i][3], alpha));
  }
  // Known values, worked out from the spec's formula: byte 10 is on the
  // linear segment, 10 / 255 / 12.92; byte 128 on the curve,
  // ((128 / 255 + 0.055) / 1.055)^2.4.
  struct Known {
    int byte;
    double linear;
  };
  const Known known[] = {
      {0, 0.0}, {10, 0.0030352698}, {128, 0.2158605}, {255, 1.0}};
  for (const Known &kv : known) {
    INFO("sRGB byte " << kv.byte << ": got " << formatFloat(got[kv.byte][0])
                      << ", the formula gives " << kv.linear);
    // Half a step of the byte around the value, in linear terms.
    double below = srgbToLinear(std::max(0.0, kv.byte - 0.5) / 255.0);
    double above = srgbToLinear(std::min(255.0, kv.byte + 0.5) / 255.0);
    CHECK(got[kv.byte][0] >= below - 1e-7);
    CHECK(got[kv.byte][0] <= above + 1e-7);
  }
  CHECK(got[0][0] == 0.0f);
  clReleaseKernel(k);
  clReleaseMemObject(out);
  clReleaseMemObject(img);

  // Conversion happens before filtering: halfway between sRGB 0 and 255 is
  // linear 0.5, not srgbToLinear(0.5) = 0.214.
  // Alpha goes from 0 to 255 too, unconverted: halfway is 0.5 either way.
  const uint8_t pair[] = {0, 0, 0, 0, 255, 255, 255, 255};
  img = image2d(CL_MEM_READ_ONLY, CL_sRGBA, CL_UNORM_INT8, 2, 1);
  writeImage(img, pair, 2, 1);
  cl_program sp = program(kSampling);
  k = kernelOf(sp, "sample_float");
  cl_sampler sm = sampler({false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR});
  const Coord middle = {1.0f, 0.5f};
  cl_mem in = buffer(sizeof middle, const_cast<Coord *>(&middle));
  out = buffer(sizeof(Float4));
  setArgs(k, img, sm, in, out);
  run(k, {1});
  Float4 blend = readBuffer<Float4>(out, 1)[0];
  INFO("linear filter halfway between sRGB 0 and 255: got " << show(blend));
  CHECK(blend[0] == Approx(0.5).margin(1e-4));
  CHECK(blend[3] == Approx(0.5).margin(1e-4));
  clReleaseSampler(sm);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(sp);
  clReleaseMemObject(img);
  clReleaseProgram(p);
}

// cl_khr_srgb_image_writes: write_imagef converts linear values to sRGB
// (clamped to [0, 1], NaN as 0) before rounding to the byte; alpha is
// written as it is. Read back through the kernel, the value is what was
// written within the byte's rounding.
TEST_CASE_METHOD(ImageFixture,
                 "sRGB images written from linear values (cl_khr_srgb_image_"
                 "writes), and read back",
                 "[images]") {
  REQUIRE(hasExtension("cl_khr_srgb_image_writes"));
  for (cl_mem_flags flags :
       {CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, CL_MEM_KERNEL_READ_AND_WRITE})
    for (cl_channel_order order : {CL_sRGBA, CL_sBGRA})
      CHECK(listed(flags, CL_MEM_OBJECT_IMAGE2D, order, CL_UNORM_INT8));
  constexpr int kValues = 256;
  std::vector<Float4> linear(kValues);
  for (int i = 0; i < kValues; ++i) {
    float v = float(i) / 250.0f - 0.01f; // a little past both ends
    linear[i] = {v, 1.0f - v, v * v, float(i) / 255.0f};
  }
  linear[5][0] = NAN;
  cl_mem img = image2d(CL_MEM_READ_WRITE, CL_sRGBA, CL_UNORM_INT8, 16, 16);
  cl_mem in = buffer(kValues * sizeof(Float4), linear.data());
  cl_program p = program(kFormatKernels);
  cl_kernel write = kernelOf(p, "write_f");
  setArgs(write, img, in);
  run(write, {16, 16});
  std::vector<uint8_t> bytes(kValues * 4);
  readImage(img, bytes.data(), 16, 16);
  auto toByte = [](double linear_value) {
    if (std::isnan(linear_value))
      linear_value = 0.0;
    linear_value = std::clamp(linear_value, 0.0, 1.0);
    return 255.0 * linearToSrgb(linear_value);
  };
  for (int i = 0; i < kValues; ++i) {
    INFO("texel " << i << ": linear " << show(linear[i]) << ", bytes "
                  << int(bytes[4 * i]) << " " << int(bytes[4 * i + 1]) << " "
                  << int(bytes[4 * i + 2]) << " " << int(bytes[4 * i + 3]));
    for (int c = 0; c < 3; ++c)
      CHECK(std::fabs(bytes[4 * i + c] - toByte(linear[i][c])) <= 0.6);
    CHECK(std::fabs(bytes[4 * i + 3] - 255.0 * linear[i][3]) <= 0.6);
  }
  // Read back by a kernel: the linear value again, to the byte's step.
  cl_kernel read = kernelOf(p, "read_f");
  cl_mem out = buffer(kValues * sizeof(Float4));
  setArgs(read, img, out);
  run(read, {16, 16});
  std::vector<Float4> got = readBuffer<Float4>(out, kValues);
  for (int i = 0; i < kValues; ++i) {
    double want = std::isnan(linear[i][0])
                      ? 0.0
                      : std::clamp(double(linear[i][0]), 0.0, 1.0);
    double step = srgbToLinear(std::min(1.0, (toByte(want) + 0.6) / 255.0)) -
                  srgbToLinear(std::max(0.0, (toByte(want) - 0.6) / 255.0));
    INFO("texel " << i);
    CHECK(std::fabs(got[i][0] - want) <= step + 1e-6);
  }
  for (cl_kernel k : {write, read})
    clReleaseKernel(k);
  for (cl_mem m : {img, in, out})
    clReleaseMemObject(m);
  clReleaseProgram(p);
}

// --- The image commands and queries. ---

TEST_CASE_METHOD(ImageFixture,
                 "clGetImageInfo and clGetMemObjectInfo describe a 2-D image",
                 "[images]") {
  cl_mem img = image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8, 5, 3);
  cl_image_format format = {};
  size_t element = 0, row_pitch = 0, slice_pitch = 99, width = 0, height = 0,
         depth = 99, array_size = 99;
  CHECK(clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof format, &format, nullptr) ==
        CL_SUCCESS);
  CHECK(format.image_channel_order == CL_RGBA);
  CHECK(format.image_channel_data_type == CL_UNORM_INT8);
  CHECK(clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element,
                       nullptr) == CL_SUCCESS);
  CHECK(element == 4);
  CHECK(clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof row_pitch, &row_pitch,
                       nullptr) == CL_SUCCESS);
  CHECK(row_pitch >= 5 * 4);
  // "For a 1D image, 1D image buffer and 2D image object return 0."
  CHECK(clGetImageInfo(img, CL_IMAGE_SLICE_PITCH, sizeof slice_pitch,
                       &slice_pitch, nullptr) == CL_SUCCESS);
  CHECK(slice_pitch == 0);
  CHECK(clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof width, &width, nullptr) ==
        CL_SUCCESS);
  CHECK(width == 5);
  CHECK(clGetImageInfo(img, CL_IMAGE_HEIGHT, sizeof height, &height, nullptr) ==
        CL_SUCCESS);
  CHECK(height == 3);
  CHECK(clGetImageInfo(img, CL_IMAGE_DEPTH, sizeof depth, &depth, nullptr) ==
        CL_SUCCESS);
  CHECK(depth == 0);
  CHECK(clGetImageInfo(img, CL_IMAGE_ARRAY_SIZE, sizeof array_size, &array_size,
                       nullptr) == CL_SUCCESS);
  CHECK(array_size == 0);
  // A size too small for the value.
  CHECK(clGetImageInfo(img, CL_IMAGE_WIDTH, 1, &width, nullptr) ==
        CL_INVALID_VALUE);
  cl_mem_object_type type = 0;
  CHECK(clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof type, &type, nullptr) ==
        CL_SUCCESS);
  CHECK(type == CL_MEM_OBJECT_IMAGE2D);
  size_t size = 0;
  CHECK(clGetMemObjectInfo(img, CL_MEM_SIZE, sizeof size, &size, nullptr) ==
        CL_SUCCESS);
  CHECK(size >= row_pitch * 3);
  // A buffer is not an image.
  cl_mem plain = buffer(64);
  CHECK(clGetImageInfo(plain, CL_IMAGE_WIDTH, sizeof width, &width, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(plain);
  clReleaseMemObject(img);
}

TEST_CASE_METHOD(ImageFixture,
                 "image writes and reads honour host row pitches, and "
                 "CL_MEM_COPY_HOST_PTR takes a padded source",
                 "[images]") {
  // 5x3 RGBA8 from a host array with 40-byte rows (20 used).
  std::vector<uint8_t> padded(40 * 3, 0xee);
  for (int y = 0; y < 3; ++y)
    for (int i = 0; i < 20; ++i)
      padded[40 * y + i] = uint8_t(y * 20 + i);
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 5;
  desc.image_height = 3;
  desc.image_row_pitch = 40;
  cl_mem copied = image(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        {CL_RGBA, CL_UNORM_INT8}, desc, padded.data());
  // Read it back with 32-byte rows: the gaps are left alone.
  std::vector<uint8_t> back(32 * 3, 0x55);
  const size_t origin[3] = {0, 0, 0}, region[3] = {5, 3, 1};
  REQUIRE(clEnqueueReadImage(queue, copied, CL_TRUE, origin, region, 32, 0,
                             back.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  for (int y = 0; y < 3; ++y)
    for (int i = 0; i < 32; ++i) {
      INFO("row " << y << " byte " << i);
      CHECK(back[32 * y + i] == (i < 20 ? uint8_t(y * 20 + i) : 0x55));
    }
  // Write a 2x2 sub-region at (2, 1) from rows of 12 bytes (8 used).
  const uint8_t patch[24] = {1, 2,  3,  4,  5,  6,  7,  8,  0, 0, 0, 0,
                             9, 10, 11, 12, 13, 14, 15, 16, 0, 0, 0, 0};
  const size_t at[3] = {2, 1, 0}, two[3] = {2, 2, 1};
  REQUIRE(clEnqueueWriteImage(queue, copied, CL_TRUE, at, two, 12, 0, patch, 0,
                              nullptr, nullptr) == CL_SUCCESS);
  std::vector<uint8_t> tight(20 * 3);
  readImage(copied, tight.data(), 5, 3);
  for (int y = 0; y < 3; ++y)
    for (int i = 0; i < 20; ++i) {
      int x = i / 4;
      uint8_t want = uint8_t(y * 20 + i);
      if (x >= 2 && x < 4 && y >= 1)
        want = patch[12 * (y - 1) + 4 * (x - 2) + i % 4];
      INFO("texel (" << x << ", " << y << ") byte " << i % 4);
      CHECK(tight[20 * y + i] == want);
    }
  clReleaseMemObject(copied);
}

TEST_CASE_METHOD(ImageFixture,
                 "clEnqueueFillImage converts the colour and fills only the "
                 "region",
                 "[images]") {
  const size_t origin[3] = {0, 0, 0}, whole[3] = {6, 4, 1};
  const size_t at[3] = {1, 1, 0}, part[3] = {3, 2, 1};
  auto inside = [](size_t x, size_t y) {
    return x >= 1 && x < 4 && y >= 1 && y < 3;
  };
  SECTION("a float colour on CL_RGBA/CL_UNORM_INT8") {
    cl_mem img = image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8, 6, 4);
    const cl_float zero[4] = {0, 0, 0, 0};
    // 0.5 * 255 = 127.5 rounds to even 128; 0.25 * 255 = 63.75 to 64; 2.0
    // saturates.
    const cl_float colour[4] = {1.0f, 0.5f, 2.0f, 0.25f};
    REQUIRE(clEnqueueFillImage(queue, img, zero, origin, whole, 0, nullptr,
                               nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueFillImage(queue, img, colour, at, part, 0, nullptr,
                               nullptr) == CL_SUCCESS);
    std::vector<uint8_t> got(6 * 4 * 4);
    readImage(img, got.data(), 6, 4);
    const uint8_t filled[4] = {255, 128, 255, 64};
    for (size_t y = 0; y < 4; ++y)
      for (size_t x = 0; x < 6; ++x)
        for (int c = 0; c < 4; ++c) {
          INFO("texel (" << x << ", " << y << ") channel " << c);
          CHECK(got[(y * 6 + x) * 4 + c] == (inside(x, y) ? filled[c] : 0));
        }
    clReleaseMemObject(img);
  }
  SECTION("an integer colour on CL_RGBA/CL_SIGNED_INT16") {
    cl_mem img = image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_SIGNED_INT16, 6, 4);
    const cl_int zero[4] = {0, 0, 0, 0};
    const cl_int colour[4] = {-3, 32767, -32768, 1234};
    REQUIRE(clEnqueueFillImage(queue, img, zero, origin, whole, 0, nullptr,
                               nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueFillImage(queue, img, colour, at, part, 0, nullptr,
                               nullptr) == CL_SUCCESS);
    std::vector<int16_t> got(6 * 4 * 4);
    readImage(img, got.data(), 6, 4);
    for (size_t y = 0; y < 4; ++y)
      for (size_t x = 0; x < 6; ++x)
        for (int c = 0; c < 4; ++c) {
          INFO("texel (" << x << ", " << y << ") channel " << c);
          CHECK(got[(y * 6 + x) * 4 + c] == (inside(x, y) ? colour[c] : 0));
        }
    clReleaseMemObject(img);
  }
}

TEST_CASE_METHOD(ImageFixture,
                 "clEnqueueCopyImage copies a sub-region between images of "
                 "different sizes",
                 "[images]") {
  cl_mem src = image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_UNSIGNED_INT8, 6, 4);
  cl_mem dst = image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_UNSIGNED_INT8, 5, 5);
  std::vector<uint8_t> a(6 * 4 * 4), b(5 * 5 * 4);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = uint8_t(i);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = uint8_t(200 + i % 50);
  writeImage(src, a.data(), 6, 4);
  writeImage(dst, b.data(), 5, 5);
  const size_t from[3] = {1, 2, 0}, to[3] = {2, 0, 0}, region[3] = {3, 2, 1};
  REQUIRE(clEnqueueCopyImage(queue, src, dst, from, to, region, 0, nullptr,
                             nullptr) == CL_SUCCESS);
  std::vector<uint8_t> got(b.size());
  readImage(dst, got.data(), 5, 5);
  for (size_t y = 0; y < 5; ++y)
    for (size_t x = 0; x < 5; ++x)
      for (size_t c = 0; c < 4; ++c) {
        uint8_t want = b[(y * 5 + x) * 4 + c];
        if (x >= 2 && y < 2)
          want = a[((y + 2) * 6 + (x - 2 + 1)) * 4 + c];
        INFO("destination texel (" << x << ", " << y << ") channel " << c);
        CHECK(got[(y * 5 + x) * 4 + c] == want);
      }
  // Different formats cannot be copied.
  cl_mem other = image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8, 5, 5);
  CHECK(clEnqueueCopyImage(queue, src, other, from, to, region, 0, nullptr,
                           nullptr) == CL_IMAGE_FORMAT_MISMATCH);
  // A region past the source's edge.
  const size_t too_far[3] = {4, 2, 0};
  CHECK(clEnqueueCopyImage(queue, src, dst, too_far, to, region, 0, nullptr,
                           nullptr) == CL_INVALID_VALUE);
  clReleaseMemObject(other);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
}

TEST_CASE_METHOD(ImageFixture,
                 "clEnqueueCopyImageToBuffer and clEnqueueCopyBufferToImage "
                 "pack a region's rows tightly at the buffer offset",
                 "[images]") {
  cl_mem img = image2d(CL_MEM_READ_WRITE, CL_RG, CL_UNSIGNED_INT16, 6, 4);
  std::vector<uint16_t> texels(6 * 4 * 2);
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = uint16_t(1000 + i);
  writeImage(img, texels.data(), 6, 4);
  // Region 4x2 at (1, 1) into a buffer at byte offset 8.
  std::vector<uint16_t> init(4 + 4 * 2 * 2 + 4, 0xabcd);
  cl_mem buf = buffer(init.size() * 2, init.data());
  const size_t at[3] = {1, 1, 0}, region[3] = {4, 2, 1};
  REQUIRE(clEnqueueCopyImageToBuffer(queue, img, buf, at, region, 8, 0, nullptr,
                                     nullptr) == CL_SUCCESS);
  std::vector<uint16_t> got = readBuffer<uint16_t>(buf, init.size());
  for (size_t i = 0; i < got.size(); ++i) {
    uint16_t want = 0xabcd;
    if (i >= 4 && i < 4 + 16) {
      size_t j = i - 4, x = 1 + (j / 2) % 4, y = 1 + j / 8, c = j % 2;
      want = texels[(y * 6 + x) * 2 + c];
    }
    INFO("buffer element " << i);
    CHECK(got[i] == want);
  }
  // And back: the buffer's 16 values from byte offset 8 into a 2x4 region
  // at (4, 0).
  std::vector<uint16_t> source(4 + 16);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = uint16_t(7 * i);
  REQUIRE(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, source.size() * 2,
                               source.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
  const size_t to[3] = {4, 0, 0}, tall[3] = {2, 4, 1};
  REQUIRE(clEnqueueCopyBufferToImage(queue, buf, img, 8, to, tall, 0, nullptr,
                                     nullptr) == CL_SUCCESS);
  std::vector<uint16_t> now(texels.size());
  readImage(img, now.data(), 6, 4);
  for (size_t y = 0; y < 4; ++y)
    for (size_t x = 0; x < 6; ++x)
      for (size_t c = 0; c < 2; ++c) {
        uint16_t want = texels[(y * 6 + x) * 2 + c];
        if (x >= 4)
          want = source[4 + (y * 2 + (x - 4)) * 2 + c];
        INFO("texel (" << x << ", " << y << ") channel " << c);
        CHECK(now[(y * 6 + x) * 2 + c] == want);
      }
  clReleaseMemObject(buf);
  clReleaseMemObject(img);
}

TEST_CASE_METHOD(ImageFixture,
                 "clEnqueueMapImage returns the row pitch and a pointer to "
                 "the region's origin, and writes through the map land",
                 "[images]") {
  cl_mem img = image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_UNSIGNED_INT8, 7, 5);
  std::vector<uint8_t> texels(7 * 5 * 4);
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = uint8_t(i * 3);
  writeImage(img, texels.data(), 7, 5);
  const size_t at[3] = {2, 1, 0}, region[3] = {4, 3, 1};
  size_t row_pitch = 0, slice_pitch = 99;
  cl_int err;
  auto *mapped = static_cast<uint8_t *>(clEnqueueMapImage(
      queue, img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, at, region, &row_pitch,
      &slice_pitch, 0, nullptr, nullptr, &err));
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(mapped != nullptr);
  CHECK(row_pitch >= 7 * 4);
  CHECK(slice_pitch == 0); // a 2-D image
  for (size_t y = 0; y < 3; ++y)
    for (size_t i = 0; i < 16; ++i) {
      INFO("mapped row " << y << " byte " << i);
      CHECK(mapped[y * row_pitch + i] == texels[((y + 1) * 7 + 2) * 4 + i]);
      mapped[y * row_pitch + i] = uint8_t(~mapped[y * row_pitch + i]);
    }
  REQUIRE(clEnqueueUnmapMemObject(queue, img, mapped, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  std::vector<uint8_t> got(texels.size());
  readImage(img, got.data(), 7, 5);
  for (size_t y = 0; y < 5; ++y)
    for (size_t x = 0; x < 7; ++x)
      for (size_t c = 0; c < 4; ++c) {
        size_t i = (y * 7 + x) * 4 + c;
        bool changed = x >= 2 && x < 6 && y >= 1 && y < 4;
        INFO("texel (" << x << ", " << y << ") channel " << c);
        CHECK(got[i] == (changed ? uint8_t(~texels[i]) : texels[i]));
      }
  // Without image_row_pitch, mapping an image fails.
  clEnqueueMapImage(queue, img, CL_TRUE, CL_MAP_READ, at, region, nullptr,
                    nullptr, 0, nullptr, nullptr, &err);
  CHECK(err == CL_INVALID_VALUE);
  clReleaseMemObject(img);
}

// --- Other image types, written and read by kernels. ---

namespace {

Float4 texel3(int x, int y, int z) {
  return {float(x + 10 * y + 100 * z), float(-x - 1), float(y) * 0.5f,
          float(z) + 0.25f};
}

Float4 twicePlusOne(const Float4 &v) {
  return {2 * v[0] + 1, 2 * v[1] + 1, 2 * v[2] + 1, 2 * v[3] + 1};
}

} // namespace

TEST_CASE_METHOD(ImageFixture,
                 "1-D images: kernels query, read and write them, and a "
                 "sampler filters along x",
                 "[images]") {
  const int w = 9;
  std::vector<Float4> data;
  for (int x = 0; x < w; ++x)
    data.push_back(texel3(x, 0, 0));
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE1D;
  desc.image_width = w;
  cl_mem src = image(CL_MEM_READ_ONLY, {CL_RGBA, CL_FLOAT}, desc);
  cl_mem dst = image(CL_MEM_WRITE_ONLY, {CL_RGBA, CL_FLOAT}, desc);
  writeImage(src, data.data(), w, 1);
  cl_program p = program(kDimensionKernels);
  cl_kernel k = kernelOf(p, "copy_1d");
  cl_mem dims = buffer(8 * sizeof(cl_int));
  setArgs(k, src, dst, dims);
  run(k, {size_t(w)});
  CHECK(readBuffer<cl_int>(dims, 1)[0] == w);
  std::vector<Float4> got(w);
  readImage(dst, got.data(), w, 1);
  for (int x = 0; x < w; ++x) {
    INFO("x " << x << ": got " << show(got[x]));
    CHECK(closeEnough(got[x], twicePlusOne(data[x]), false));
  }
  clReleaseKernel(k);

  HostImage ref;
  ref.width = w;
  ref.texels = data;
  const float coords[] = {0.5f, 2.25f, -0.25f, 9.25f, 8.75f, 4.0f, -3.0f};
  cl_mem in = buffer(sizeof coords, const_cast<float *>(coords));
  cl_mem out = buffer(std::size(coords) * sizeof(Float4));
  k = kernelOf(p, "sample_1d");
  for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
    SamplerDesc s = {false, CL_ADDRESS_CLAMP, filter};
    cl_sampler sm = sampler(s);
    setArgs(k, src, sm, in, out);
    run(k, {std::size(coords)});
    std::vector<Float4> sampled = readBuffer<Float4>(out, std::size(coords));
    for (size_t i = 0; i < std::size(coords); ++i) {
      Float4 want = ref.sample(s, coords[i], 0, 0, 1);
      INFO("1-D, sampler " << s.name() << ", x " << coords[i] << ": expected "
                           << show(want) << ", got " << show(sampled[i]));
      CHECK(closeEnough(sampled[i], want, filter == CL_FILTER_LINEAR));
    }
    clReleaseSampler(sm);
  }
  clReleaseKernel(k);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseMemObject(dims);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  clReleaseProgram(p);
}

TEST_CASE_METHOD(ImageFixture,
                 "1-D image arrays: kernels query, read and write each "
                 "layer, and a sampler picks the layer by rint and clamps it",
                 "[images]") {
  const int w = 5, layers = 3;
  std::vector<Float4> data;
  for (int l = 0; l < layers; ++l)
    for (int x = 0; x < w; ++x)
      data.push_back(texel3(x, l, 0));
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY;
  desc.image_width = w;
  desc.image_array_size = layers;
  cl_mem src = image(CL_MEM_READ_ONLY, {CL_RGBA, CL_FLOAT}, desc);
  cl_mem dst = image(CL_MEM_WRITE_ONLY, {CL_RGBA, CL_FLOAT}, desc);
  size_t array_size = 0;
  CHECK(clGetImageInfo(src, CL_IMAGE_ARRAY_SIZE, sizeof array_size, &array_size,
                       nullptr) == CL_SUCCESS);
  CHECK(array_size == size_t(layers));
  // For a 1-D array, the region's second value counts layers.
  writeImage(src, data.data(), w, layers);
  cl_program p = program(kDimensionKernels);
  cl_kernel k = kernelOf(p, "copy_1d_array");
  cl_mem dims = buffer(8 * sizeof(cl_int));
  setArgs(k, src, dst, dims);
  run(k, {size_t(w), size_t(layers)});
  std::vector<cl_int> d = readBuffer<cl_int>(dims, 2);
  CHECK(d[0] == w);
  CHECK(d[1] == layers);
  std::vector<Float4> got(data.size());
  readImage(dst, got.data(), w, layers);
  for (size_t i = 0; i < data.size(); ++i) {
    INFO("x " << i % w << ", layer " << i / w << ": got " << show(got[i]));
    CHECK(closeEnough(got[i], twicePlusOne(data[i]), false));
  }
  clReleaseKernel(k);

  // "layer = clamp(rint(v), 0, h - 1)", whatever the addressing mode.
  struct Sample {
    float x, layer;
    int want_layer;
  };
  const Sample samples[] = {{1.5f, 0.4f, 0}, {1.5f, 0.5f, 0},  {1.5f, 1.5f, 2},
                            {1.5f, 0.6f, 1}, {1.5f, -7.0f, 0}, {1.5f, 99.0f, 2},
                            {3.5f, 1.0f, 1}, {3.5f, 2.5f, 2}};
  const size_t n = std::size(samples);
  std::vector<std::array<float, 2>> coords;
  for (const Sample &s : samples)
    coords.push_back({s.x, s.layer});
  cl_mem in = buffer(n * 2 * sizeof(float), coords.data());
  cl_mem out = buffer(n * sizeof(Float4));
  cl_sampler sm = sampler({false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST});
  k = kernelOf(p, "sample_1d_array");
  setArgs(k, src, sm, in, out);
  run(k, {n});
  std::vector<Float4> sampled = readBuffer<Float4>(out, n);
  for (size_t i = 0; i < n; ++i) {
    Float4 want = texel3(int(samples[i].x), samples[i].want_layer, 0);
    INFO("x " << samples[i].x << ", layer coordinate " << samples[i].layer
              << ": expected layer " << samples[i].want_layer << " "
              << show(want) << ", got " << show(sampled[i]));
    CHECK(closeEnough(sampled[i], want, false));
  }
  clReleaseSampler(sm);
  clReleaseKernel(k);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseMemObject(dims);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  clReleaseProgram(p);
}

TEST_CASE_METHOD(ImageFixture,
                 "2-D image arrays: kernels query, read and write each "
                 "layer, and filtering stays within the selected layer",
                 "[images]") {
  const int w = 4, h = 3, layers = 3;
  std::vector<Float4> data;
  for (int l = 0; l < layers; ++l)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        data.push_back(texel3(x, y, l));
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY;
  desc.image_width = w;
  desc.image_height = h;
  desc.image_array_size = layers;
  cl_mem src = image(CL_MEM_READ_ONLY, {CL_RGBA, CL_FLOAT}, desc);
  cl_mem dst = image(CL_MEM_WRITE_ONLY, {CL_RGBA, CL_FLOAT}, desc);
  size_t slice_pitch = 0, row_pitch = 0;
  CHECK(clGetImageInfo(src, CL_IMAGE_ROW_PITCH, sizeof row_pitch, &row_pitch,
                       nullptr) == CL_SUCCESS);
  CHECK(clGetImageInfo(src, CL_IMAGE_SLICE_PITCH, sizeof slice_pitch,
                       &slice_pitch, nullptr) == CL_SUCCESS);
  CHECK(row_pitch >= w * sizeof(Float4));
  CHECK(slice_pitch >= row_pitch * h);
  writeImage(src, data.data(), w, h, layers);
  cl_program p = program(kDimensionKernels);
  cl_kernel k = kernelOf(p, "copy_2d_array");
  cl_mem dims = buffer(8 * sizeof(cl_int));
  setArgs(k, src, dst, dims);
  run(k, {size_t(w), size_t(h), size_t(layers)});
  std::vector<cl_int> d = readBuffer<cl_int>(dims, 5);
  CHECK(d[0] == w);
  CHECK(d[1] == h);
  CHECK(d[2] == layers);
  CHECK(d[3] == w); // get_image_dim: (width, height)
  CHECK(d[4] == h);
  std::vector<Float4> got(data.size());
  readImage(dst, got.data(), w, h, layers);
  for (size_t i = 0; i < data.size(); ++i) {
    INFO("x " << i % w << ", y " << i / w % h << ", layer " << i / (w * h)
              << ": got " << show(got[i]));
    CHECK(closeEnough(got[i], twicePlusOne(data[i]), false));
  }
  clReleaseKernel(k);

  auto layerImage = [&](int l) {
    HostImage img;
    img.width = w;
    img.height = h;
    img.texels.assign(data.begin() + l * w * h, data.begin() + (l + 1) * w * h);
    return img;
  };
  struct Sample {
    float x, y, layer;
    int want_layer;
  };
  const Sample samples[] = {{1.0f, 1.0f, 1.0f, 1},  {1.0f, 1.0f, 1.5f, 2},
                            {1.0f, 1.0f, 0.5f, 0},  {2.5f, 0.25f, -3.0f, 0},
                            {3.75f, 2.5f, 2.5f, 2}, {0.5f, 0.5f, 2.49f, 2}};
  const size_t n = std::size(samples);
  std::vector<Float4> coords;
  for (const Sample &s : samples)
    coords.push_back({s.x, s.y, s.layer, 0});
  cl_mem in = buffer(n * sizeof(Float4), coords.data());
  cl_mem out = buffer(n * sizeof(Float4));
  SamplerDesc s = {false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR};
  cl_sampler sm = sampler(s);
  k = kernelOf(p, "sample_2d_array");
  setArgs(k, src, sm, in, out);
  run(k, {n});
  std::vector<Float4> sampled = readBuffer<Float4>(out, n);
  for (size_t i = 0; i < n; ++i) {
    Float4 want =
        layerImage(samples[i].want_layer).sample(s, samples[i].x, samples[i].y);
    INFO("(" << samples[i].x << ", " << samples[i].y << "), layer coordinate "
             << samples[i].layer << " (layer " << samples[i].want_layer
             << "), sampler " << s.name() << ": expected " << show(want)
             << ", got " << show(sampled[i]));
    CHECK(closeEnough(sampled[i], want, true));
  }
  clReleaseSampler(sm);
  clReleaseKernel(k);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseMemObject(dims);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  clReleaseProgram(p);
}

TEST_CASE_METHOD(ImageFixture,
                 "3-D images: kernels query and read them (and write them "
                 "with cl_khr_3d_image_writes), with trilinear filtering",
                 "[images]") {
  const int w = 4, h = 3, depth = 2;
  std::vector<Float4> data;
  HostImage ref;
  ref.width = w;
  ref.height = h;
  ref.depth = depth;
  for (int z = 0; z < depth; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        data.push_back(texel3(x, y, z));
  ref.texels = data;
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE3D;
  desc.image_width = w;
  desc.image_height = h;
  desc.image_depth = depth;
  // From a host array with padded rows (80 bytes, 64 used) and slices (256
  // bytes, 240 used), through clEnqueueWriteImage's pitches.
  std::vector<uint8_t> padded(256 * depth, 0);
  for (int z = 0; z < depth; ++z)
    for (int y = 0; y < h; ++y)
      std::memcpy(&padded[256 * z + 80 * y], &data[(z * h + y) * w],
                  w * sizeof(Float4));
  cl_mem src = image(CL_MEM_READ_ONLY, {CL_RGBA, CL_FLOAT}, desc);
  const size_t origin[3] = {0, 0, 0}, region[3] = {w, h, depth};
  REQUIRE(clEnqueueWriteImage(queue, src, CL_TRUE, origin, region, 80, 256,
                              padded.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  size_t image_depth = 0;
  CHECK(clGetImageInfo(src, CL_IMAGE_DEPTH, sizeof image_depth, &image_depth,
                       nullptr) == CL_SUCCESS);
  CHECK(image_depth == size_t(depth));
  cl_program p = program(kDimensionKernels);
  cl_kernel k = kernelOf(p, "read_3d");
  cl_mem out = buffer(data.size() * sizeof(Float4));
  cl_mem dims = buffer(8 * sizeof(cl_int));
  setArgs(k, src, out, dims);
  run(k, {size_t(w), size_t(h), size_t(depth)});
  std::vector<cl_int> d = readBuffer<cl_int>(dims, 7);
  CHECK(d[0] == w);
  CHECK(d[1] == h);
  CHECK(d[2] == depth);
  CHECK(d[3] == w); // get_image_dim: (width, height, depth, 0)
  CHECK(d[4] == h);
  CHECK(d[5] == depth);
  CHECK(d[6] == 0);
  std::vector<Float4> got = readBuffer<Float4>(out, data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    INFO("texel " << i % w << ", " << i / w % h << ", " << i / (w * h)
                  << ": got " << show(got[i]));
    CHECK(closeEnough(got[i], twicePlusOne(data[i]), false));
  }
  clReleaseKernel(k);
  clReleaseMemObject(out);

  const Float4 coords[] = {{1.0f, 1.0f, 1.0f, 0},   {0.5f, 0.5f, 0.5f, 0},
                           {3.25f, 2.75f, 1.5f, 0}, {1.5f, 1.5f, -0.5f, 0},
                           {2.0f, 0.25f, 1.75f, 0}, {4.5f, 1.5f, 0.5f, 0}};
  const size_t n = std::size(coords);
  cl_mem in = buffer(sizeof coords, const_cast<Float4 *>(coords));
  out = buffer(n * sizeof(Float4));
  k = kernelOf(p, "sample_3d");
  for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR})
    for (cl_addressing_mode mode :
         {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP}) {
      SamplerDesc s = {false, mode, filter};
      cl_sampler sm = sampler(s);
      setArgs(k, src, sm, in, out);
      run(k, {n});
      std::vector<Float4> sampled = readBuffer<Float4>(out, n);
      for (size_t i = 0; i < n; ++i) {
        Float4 want =
            ref.sample(s, coords[i][0], coords[i][1], coords[i][2], 3);
        INFO("3-D, sampler " << s.name() << ", coordinate (" << coords[i][0]
                             << ", " << coords[i][1] << ", " << coords[i][2]
                             << "): expected " << show(want) << ", got "
                             << show(sampled[i]));
        CHECK(closeEnough(sampled[i], want, filter == CL_FILTER_LINEAR));
      }
      clReleaseSampler(sm);
    }
  clReleaseKernel(k);
  clReleaseMemObject(in);
  clReleaseMemObject(out);

  if (hasExtension("cl_khr_3d_image_writes")) {
    cl_mem dst = image(CL_MEM_WRITE_ONLY, {CL_RGBA, CL_FLOAT}, desc);
    cl_program wp = program(k3dWrites);
    k = kernelOf(wp, "copy_3d");
    setArgs(k, src, dst);
    run(k, {size_t(w), size_t(h), size_t(depth)});
    // Read back with padded rows and slices again.
    std::vector<uint8_t> back(256 * depth, 0xff);
    REQUIRE(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 80, 256,
                               back.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    for (int z = 0; z < depth; ++z)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          Float4 v;
          std::memcpy(&v, &back[256 * z + 80 * y + x * sizeof(Float4)],
                      sizeof v);
          INFO("written texel " << x << ", " << y << ", " << z << ": got "
                                << show(v));
          CHECK(closeEnough(v, twicePlusOne(texel3(x, y, z)), false));
        }
    CHECK(back[80 * 2 + 64] == 0xff); // the row padding is left alone
    clReleaseKernel(k);
    clReleaseProgram(wp);
    clReleaseMemObject(dst);
  } else {
    WARN("cl_khr_3d_image_writes is not reported: 3-D writes not tested");
  }
  clReleaseMemObject(dims);
  clReleaseMemObject(src);
  clReleaseProgram(p);
}

// --- Errors. ---

TEST_CASE_METHOD(ImageFixture,
                 "image creation refuses unsupported formats, bad "
                 "descriptors, zero sizes and short row pitches",
                 "[images]") {
  cl_int err;
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 4;
  desc.image_height = 4;
  const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};

  SECTION("a valid format the device does not list") {
    // Valid pairs from the channel order table; the first one the device
    // lists for no access at all must be refused.
    const cl_image_format candidates[] = {{CL_RGB, CL_UNORM_SHORT_565},
                                          {CL_RGB, CL_UNORM_SHORT_555},
                                          {CL_RGB, CL_UNORM_INT_101010},
                                          {CL_RGBx, CL_UNORM_SHORT_565},
                                          {CL_ARGB, CL_SIGNED_INT8},
                                          {CL_ABGR, CL_UNORM_INT8},
                                          {CL_INTENSITY, CL_HALF_FLOAT},
                                          {CL_LUMINANCE, CL_SNORM_INT16},
                                          {CL_A, CL_UNSIGNED_INT32},
                                          {CL_RA, CL_SNORM_INT8},
                                          {CL_Rx, CL_FLOAT},
                                          {CL_RGBA, CL_UNORM_INT_101010_2},
                                          {CL_sRGBA, CL_UNORM_INT8},
                                          {CL_BGRA, CL_SIGNED_INT8}};
    bool found = false;
    for (const cl_image_format &f : candidates) {
      bool anywhere = false;
      for (cl_mem_flags flags :
           {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY})
        anywhere |= listed(flags, CL_MEM_OBJECT_IMAGE2D, f.image_channel_order,
                           f.image_channel_data_type);
      if (anywhere)
        continue;
      found = true;
      Format described;
      describe(f, described);
      INFO("unlisted format " << described.name());
      cl_mem m =
          clCreateImage(context, CL_MEM_READ_WRITE, &f, &desc, nullptr, &err);
      CHECK(m == nullptr);
      CHECK(err == CL_IMAGE_FORMAT_NOT_SUPPORTED);
      break;
    }
    if (!found)
      WARN("every candidate format is listed: CL_IMAGE_FORMAT_NOT_SUPPORTED "
           "not tested");
  }
  SECTION("an invalid format descriptor") {
    const cl_image_format bad_order = {0x1234, CL_UNORM_INT8};
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &bad_order, &desc, nullptr,
                        &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    const cl_image_format bad_type = {CL_RGBA, 0x1234};
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &bad_type, &desc, nullptr,
                        &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE, nullptr, &desc, nullptr,
                        &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  }
  SECTION("sizes of 0 and past the device's maximum") {
    desc.image_width = 0;
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &rgba8, &desc, nullptr,
                        &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_SIZE);
    desc.image_width = 4;
    desc.image_height = 0;
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &rgba8, &desc, nullptr,
                        &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_SIZE);
    // clCreateImage2D spells it out: "image_width or image_height are 0".
    CHECK(clCreateImage2D(context, CL_MEM_READ_WRITE, &rgba8, 0, 4, 0, nullptr,
                          &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_SIZE);
    size_t max_width = 0;
    REQUIRE(clGetDeviceInfo(device, CL_DEVICE_IMAGE2D_MAX_WIDTH,
                            sizeof max_width, &max_width,
                            nullptr) == CL_SUCCESS);
    desc.image_width = max_width + 1;
    desc.image_height = 1;
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &rgba8, &desc, nullptr,
                        &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_SIZE);
  }
  SECTION("row pitches that break the descriptor's rules") {
    std::vector<uint8_t> host(64 * 4);
    // Shorter than a row (16 bytes).
    desc.image_row_pitch = 12;
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        &rgba8, &desc, host.data(), &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR);
    // Not a multiple of the element size.
    desc.image_row_pitch = 18;
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        &rgba8, &desc, host.data(), &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR);
    // Non-zero without a host pointer.
    desc.image_row_pitch = 16;
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &rgba8, &desc, nullptr,
                        &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR);
    // A host pointer without a flag that uses it.
    desc.image_row_pitch = 0;
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &rgba8, &desc, host.data(),
                        &err) == nullptr);
    CHECK(err == CL_INVALID_HOST_PTR);
  }
  SECTION("an unknown image type") {
    desc.image_type = CL_MEM_OBJECT_BUFFER;
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &rgba8, &desc, nullptr,
                        &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR);
    CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &rgba8, nullptr, nullptr,
                        &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR);
  }
}

TEST_CASE_METHOD(ImageFixture,
                 "image reads and writes refuse regions outside the image",
                 "[images]") {
  cl_mem img = image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8, 4, 4);
  std::vector<uint8_t> host(16 * 16 * 4);
  struct Bad {
    const char *what;
    size_t origin[3], region[3];
  };
  const Bad bad[] = {
      {"region past the right edge", {1, 0, 0}, {4, 4, 1}},
      {"region past the bottom", {0, 3, 0}, {4, 2, 1}},
      {"origin outside", {4, 0, 0}, {1, 1, 1}},
      {"a 2-D image with region[2] of 2", {0, 0, 0}, {4, 4, 2}},
      {"a 2-D image with origin[2] of 1", {0, 0, 1}, {4, 4, 1}},
      {"an empty region", {0, 0, 0}, {0, 4, 1}},
  };
  for (const Bad &b : bad) {
    INFO(b.what);
    CHECK(clEnqueueReadImage(queue, img, CL_TRUE, b.origin, b.region, 0, 0,
                             host.data(), 0, nullptr,
                             nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueWriteImage(queue, img, CL_TRUE, b.origin, b.region, 0, 0,
                              host.data(), 0, nullptr,
                              nullptr) == CL_INVALID_VALUE);
  }
  const size_t origin[3] = {0, 0, 0}, region[3] = {4, 4, 1};
  // A slice pitch for a 2-D image.
  CHECK(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 256,
                           host.data(), 0, nullptr,
                           nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 0, nullptr,
                           0, nullptr, nullptr) == CL_INVALID_VALUE);
  // A buffer is not an image.
  cl_mem plain = buffer(256);
  CHECK(clEnqueueReadImage(queue, plain, CL_TRUE, origin, region, 0, 0,
                           host.data(), 0, nullptr,
                           nullptr) == CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(plain);
  clReleaseMemObject(img);
  // The host said it would only write it.
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 4;
  desc.image_height = 4;
  img = image(CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY,
              {CL_RGBA, CL_UNORM_INT8}, desc);
  CHECK(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 0,
                           host.data(), 0, nullptr,
                           nullptr) == CL_INVALID_OPERATION);
  clReleaseMemObject(img);
}

TEST_CASE_METHOD(ImageFixture,
                 "a pointer to a struct whose name starts with image is a "
                 "buffer argument, not an image",
                 "[images]") {
  // The CTS's kernel_image_methods passes `global image_kernel_data *`
  // beside an image; only Clang's image type names make image arguments.
  cl_program p = program(R"CLC(
typedef struct { int width; int order; } image_kernel_data;
kernel void query(read_only image2d_t input, global image_kernel_data *out) {
  out->width = get_image_width(input);
  out->order = get_image_channel_order(input);
}
)CLC");
  cl_kernel k = kernelOf(p, "query");
  cl_mem img = image2d(CL_MEM_READ_ONLY, CL_RGBA, CL_UNORM_INT8, 5, 3);
  cl_mem out = buffer(2 * sizeof(cl_int));
  setArgs(k, img, out);
  run(k, {1});
  std::vector<cl_int> got = readBuffer<cl_int>(out, 2);
  CHECK(got[0] == 5);
  CHECK(got[1] == CL_RGBA);
  clReleaseMemObject(out);
  clReleaseMemObject(img);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE_METHOD(ImageFixture,
                 "a program with image kernels lists only its own kernels, "
                 "and each runs whatever its images' formats",
                 "[images]") {
  // Weft compiles image kernels once more for 8-bit and float RGBA images
  // (weft-image-format-variants); the variants are not kernels of the
  // program, and a launch with other formats runs the general kernel.
  cl_program p = program(R"CLC(
kernel void scale(read_only image2d_t src, write_only image2d_t dst) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, at, read_imagef(src, at) * 0.5f);
}
)CLC");
  size_t count = 0;
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(count), &count,
                           nullptr) == CL_SUCCESS);
  CHECK(count == 1);
  char names[256] = {};
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names,
                           nullptr) == CL_SUCCESS);
  CHECK(std::string(names) == "scale");
  cl_kernel all[4] = {};
  cl_uint created = 0;
  REQUIRE(clCreateKernelsInProgram(p, 4, all, &created) == CL_SUCCESS);
  CHECK(created == 1);
  for (cl_uint i = 0; i < created; ++i)
    clReleaseKernel(all[i]);
  cl_kernel k = kernelOf(p, "scale");
  struct Case {
    cl_image_format src, dst;
  };
  // Both images of a variant's format (8-bit, float RGBA), and two launches
  // that run the general kernel: one format of neither, and a mixed pair.
  const Case cases[] = {{{CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_UNORM_INT8}},
                        {{CL_RGBA, CL_FLOAT}, {CL_RGBA, CL_FLOAT}},
                        {{CL_RGBA, CL_UNORM_INT16}, {CL_RGBA, CL_FLOAT}},
                        {{CL_R, CL_FLOAT}, {CL_RGBA, CL_FLOAT}}};
  for (const Case &c : cases) {
    INFO("source " << c.src.image_channel_order << "/"
                   << c.src.image_channel_data_type << ", destination "
                   << c.dst.image_channel_order << "/"
                   << c.dst.image_channel_data_type);
    cl_mem src = image2d(CL_MEM_READ_ONLY, c.src.image_channel_order,
                         c.src.image_channel_data_type, 4, 2);
    cl_mem dst = image2d(CL_MEM_WRITE_ONLY, c.dst.image_channel_order,
                         c.dst.image_channel_data_type, 4, 2);
    float one[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    const size_t origin[3] = {0, 0, 0}, region[3] = {4, 2, 1};
    REQUIRE(clEnqueueFillImage(queue, src, one, origin, region, 0, nullptr,
                               nullptr) == CL_SUCCESS);
    setArgs(k, src, dst);
    run(k, {4, 2});
    // Halved: (0.5, 0.5, 0.5, 0.5), or (0.5, 0, 0, 0.5) from CL_R's
    // (r, 0, 0, 1); 8-bit stores 127.5 rounded to even, 128.
    bool single = c.src.image_channel_order == CL_R;
    if (c.dst.image_channel_data_type == CL_UNORM_INT8) {
      std::vector<uint8_t> got(4 * 8);
      REQUIRE(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 0, 0,
                                 got.data(), 0, nullptr,
                                 nullptr) == CL_SUCCESS);
      for (uint8_t byte : got)
        CHECK(byte == 128);
    } else {
      std::vector<float> got(4 * 8);
      REQUIRE(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 0, 0,
                                 got.data(), 0, nullptr,
                                 nullptr) == CL_SUCCESS);
      for (int t = 0; t < 8; ++t) {
        CHECK(got[4 * t + 0] == 0.5f);
        CHECK(got[4 * t + 1] == (single ? 0.0f : 0.5f));
        CHECK(got[4 * t + 2] == (single ? 0.0f : 0.5f));
        CHECK(got[4 * t + 3] == 0.5f);
      }
    }
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE_METHOD(ImageFixture,
                 "a read_write image is read and written by one kernel, its "
                 "writes ordered by atomic_work_item_fence on image memory",
                 "[images]") {
  // Each work-item doubles its texel in place, makes the write visible to
  // its own later reads with the image fence, and reads it back.
  cl_program p = program(R"CLC(
kernel void twice(read_write image2d_t img, global float4 *seen) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(img, at, read_imagef(img, at) * 2.0f);
  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel,
                         memory_scope_work_item);
  seen[at.y * get_image_width(img) + at.x] = read_imagef(img, at);
}
)CLC");
  cl_kernel k = kernelOf(p, "twice");
  cl_mem img = image2d(CL_MEM_READ_WRITE, CL_RGBA, CL_FLOAT, 3, 2);
  std::vector<float> texels(4 * 6);
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = float(i);
  writeImage(img, texels.data(), 3, 2);
  cl_mem seen = buffer(6 * 4 * sizeof(float));
  setArgs(k, img, seen);
  run(k, {3, 2});
  std::vector<float> got = readBuffer<float>(seen, 6 * 4);
  for (size_t i = 0; i < texels.size(); ++i) {
    INFO("channel " << i);
    CHECK(got[i] == 2.0f * texels[i]);
  }
  clReleaseMemObject(seen);
  clReleaseMemObject(img);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE_METHOD(ImageFixture,
                 "linear filtering of normalized channels blends their "
                 "values, with the border and missing alpha at 1",
                 "[images]") {
  // Two texels at the channel type's ends, sampled halfway between their
  // centres (x = 1.0, unnormalized) and halfway between the border and the
  // first (x = 0.0, CLK_ADDRESS_CLAMP), for each normalized type of CL_R:
  // red blends, alpha is 1 on both sides.
  cl_program p = program(R"CLC(
constant sampler_t linear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP |
                            CLK_FILTER_LINEAR;
kernel void blend(read_only image2d_t img, global float4 *out) {
  out[0] = read_imagef(img, linear, (float2)(1.0f, 0.5f));
  out[1] = read_imagef(img, linear, (float2)(0.0f, 0.5f));
}
)CLC");
  cl_kernel k = kernelOf(p, "blend");
  struct Case {
    cl_channel_type type;
    int32_t low, high; // stored values
    float low_value, high_value;
  };
  const Case cases[] = {{CL_UNORM_INT8, 0, 255, 0.0f, 1.0f},
                        {CL_SNORM_INT8, -128, 127, -1.0f, 1.0f},
                        {CL_UNORM_INT16, 0, 65535, 0.0f, 1.0f},
                        {CL_SNORM_INT16, -32768, 32767, -1.0f, 1.0f}};
  for (const Case &c : cases) {
    INFO("CL_R, channel type " << c.type);
    cl_mem img = image2d(CL_MEM_READ_ONLY, CL_R, c.type, 2, 1);
    uint8_t bytes[4];
    bool wide = c.type == CL_UNORM_INT16 || c.type == CL_SNORM_INT16;
    if (wide) {
      int16_t v[2] = {int16_t(c.low), int16_t(c.high)};
      if (c.type == CL_UNORM_INT16) {
        uint16_t u[2] = {uint16_t(c.low), uint16_t(c.high)};
        std::memcpy(bytes, u, 4);
      } else {
        std::memcpy(bytes, v, 4);
      }
    } else {
      bytes[0] = uint8_t(c.low);
      bytes[1] = uint8_t(c.high);
    }
    writeImage(img, bytes, 2, 1);
    cl_mem out = buffer(2 * 4 * sizeof(float));
    setArgs(k, img, out);
    run(k, {1});
    std::vector<float> got = readBuffer<float>(out, 8);
    float middle = 0.5f * (c.low_value + c.high_value);
    CHECK(std::fabs(got[0] - middle) <= 1e-6f);
    CHECK(got[1] == 0.0f);
    CHECK(got[2] == 0.0f);
    CHECK(std::fabs(got[3] - 1.0f) <= 1e-6f);
    // Half the border (0) and half the first texel.
    CHECK(std::fabs(got[4] - 0.5f * c.low_value) <= 1e-6f);
    CHECK(std::fabs(got[7] - 1.0f) <= 1e-6f);
    clReleaseMemObject(out);
    clReleaseMemObject(img);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE_METHOD(ImageFixture,
                 "a row pitch so large that a slice's rows overflow size_t "
                 "is refused, not wrapped round",
                 "[images]") {
  // With host memory the application names the pitches; a row pitch of
  // 2^63 times 2 rows wraps to 0 in size_t, which must not pass for a
  // slice that fits.
  std::vector<uint8_t> host(256);
  for (cl_mem_object_type type :
       {CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D}) {
    INFO("image type " << type);
    cl_image_desc desc = {};
    desc.image_type = type;
    desc.image_width = 2;
    desc.image_height = 2;
    desc.image_depth = 2;
    desc.image_array_size = 2;
    desc.image_row_pitch = size_t(1) << 63;
    const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
    cl_int err = CL_SUCCESS;
    cl_mem img = clCreateImage(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                               &format, &desc, host.data(), &err);
    CHECK(img == nullptr);
    CHECK((err == CL_INVALID_IMAGE_SIZE || err == CL_INVALID_IMAGE_DESCRIPTOR));
    if (img)
      clReleaseMemObject(img);
  }
}
