#include "runtime/image_format.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace weft {
namespace {

constexpr cl_channel_type kUnpackedTypes[] = {
    CL_UNORM_INT8,     CL_UNORM_INT16,    CL_SNORM_INT8,   CL_SNORM_INT16,
    CL_SIGNED_INT8,    CL_SIGNED_INT16,   CL_SIGNED_INT32, CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT};
constexpr cl_channel_type kPackedTypes[] = {
    CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010};
constexpr cl_channel_type kByteTypes[] = {CL_UNORM_INT8, CL_SNORM_INT8,
                                          CL_SIGNED_INT8, CL_UNSIGNED_INT8};
constexpr cl_channel_type kNormalizedAndFloatTypes[] = {
    CL_UNORM_INT8,  CL_UNORM_INT16, CL_SNORM_INT8,
    CL_SNORM_INT16, CL_HALF_FLOAT,  CL_FLOAT};
constexpr cl_channel_type kUnormByte[] = {CL_UNORM_INT8};
constexpr cl_channel_type kDepthTypes[] = {CL_UNORM_INT16, CL_FLOAT};

// The spec's table of channel orders and the types each takes, in the order
// clGetSupportedImageFormats lists them.
struct OrderTypes {
  cl_channel_order order;
  const cl_channel_type *types;
  size_t count;
};
template <size_t N>
constexpr OrderTypes row(cl_channel_order order,
                         const cl_channel_type (&types)[N]) {
  return {order, types, N};
}
constexpr OrderTypes kFormatTable[] = {
    row(CL_RGBA, kUnpackedTypes),
    row(CL_BGRA, kByteTypes),
    row(CL_ARGB, kByteTypes),
    row(CL_ABGR, kByteTypes),
    row(CL_R, kUnpackedTypes),
    row(CL_RG, kUnpackedTypes),
    row(CL_A, kUnpackedTypes),
    row(CL_RA, kUnpackedTypes),
    row(CL_Rx, kUnpackedTypes),
    row(CL_RGx, kUnpackedTypes),
    row(CL_RGB, kPackedTypes),
    row(CL_RGBx, kPackedTypes),
    row(CL_INTENSITY, kNormalizedAndFloatTypes),
    row(CL_LUMINANCE, kNormalizedAndFloatTypes),
    row(CL_sRGBA, kUnormByte),
    row(CL_sBGRA, kUnormByte),
    row(CL_sRGB, kUnormByte),
    row(CL_sRGBx, kUnormByte),
    row(CL_DEPTH, kDepthTypes),
};

bool isSrgb(cl_channel_order order) {
  return order == CL_sRGB || order == CL_sRGBA || order == CL_sBGRA ||
         order == CL_sRGBx;
}

bool tableHas(const cl_image_format &format) {
  for (const OrderTypes &entry : kFormatTable) {
    if (entry.order != format.image_channel_order)
      continue;
    return std::find(entry.types, entry.types + entry.count,
                     format.image_channel_data_type) !=
           entry.types + entry.count;
  }
  return false;
}

size_t channelTypeSize(cl_channel_type type) {
  switch (type) {
  case CL_UNORM_INT8:
  case CL_SNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return 1;
  case CL_UNORM_INT16:
  case CL_SNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
    return 2;
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT:
    return 4;
  default:
    return 0;
  }
}

// float -> half, rounding to nearest even (write_imagef's rule).
uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000) // NaN: keep it quiet and signed
    return static_cast<uint16_t>(sign | 0x7e00 | ((magnitude >> 13) & 0x1ff));
  if (magnitude >= 0x477ff000) // rounds past the largest half (65504)
    return static_cast<uint16_t>(sign | 0x7c00);
  if (magnitude < 0x38800000) { // below the smallest normal half: subnormal
    // Scaling by 2^24 turns the subnormal step (2^-24) into 1; the float
    // addition rounds to nearest even.
    float scaled = std::fabs(value) * 16777216.0f;
    return static_cast<uint16_t>(sign |
                                 static_cast<uint16_t>(std::nearbyint(scaled)));
  }
  uint32_t rebiased = magnitude - (112u << 23); // exponent 127 -> 15
  uint32_t half = rebiased >> 13;
  uint32_t rest = rebiased & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return static_cast<uint16_t>(sign | half);
}

float clampUnit(float x, float low) {
  if (std::isnan(x))
    return 0.0f;
  return std::min(1.0f, std::max(low, x));
}

template <typename T> T saturate(long long value) {
  long long low = static_cast<long long>(std::numeric_limits<T>::min());
  long long high = static_cast<long long>(std::numeric_limits<T>::max());
  return static_cast<T>(std::min(high, std::max(low, value)));
}

long long roundedScaled(float x, float low, float scale) {
  return std::llrint(static_cast<double>(clampUnit(x, low)) * scale);
}

float linearToSrgb(float c) {
  if (std::isnan(c))
    return 0.0f;
  c = std::min(1.0f, std::max(0.0f, c));
  if (c < 0.0031308f)
    return 12.92f * c;
  return 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

// Writes channel `value` (already in the order the texel stores) of a
// non-packed type at `out`.
template <typename T> void put(unsigned char *out, T value) {
  std::memcpy(out, &value, sizeof(value));
}

void encodeChannel(cl_channel_type type, const void *color, unsigned index,
                   unsigned char *out) {
  const float f = static_cast<const float *>(color)[index];
  const int32_t i = static_cast<const int32_t *>(color)[index];
  const uint32_t u = static_cast<const uint32_t *>(color)[index];
  switch (type) {
  case CL_UNORM_INT8:
    return put(out, static_cast<uint8_t>(roundedScaled(f, 0.0f, 255.0f)));
  case CL_UNORM_INT16:
    return put(out, static_cast<uint16_t>(roundedScaled(f, 0.0f, 65535.0f)));
  case CL_SNORM_INT8:
    return put(out, static_cast<int8_t>(roundedScaled(f, -1.0f, 127.0f)));
  case CL_SNORM_INT16:
    return put(out, static_cast<int16_t>(roundedScaled(f, -1.0f, 32767.0f)));
  case CL_SIGNED_INT8:
    return put(out, saturate<int8_t>(i));
  case CL_SIGNED_INT16:
    return put(out, saturate<int16_t>(i));
  case CL_SIGNED_INT32:
    return put(out, i);
  case CL_UNSIGNED_INT8:
    return put(out, static_cast<uint8_t>(std::min<uint32_t>(u, 0xff)));
  case CL_UNSIGNED_INT16:
    return put(out, static_cast<uint16_t>(std::min<uint32_t>(u, 0xffff)));
  case CL_UNSIGNED_INT32:
    return put(out, u);
  case CL_HALF_FLOAT:
    return put(out, floatToHalf(f));
  case CL_FLOAT:
    return put(out, f);
  default:
    return;
  }
}

} // namespace

unsigned channelCount(cl_channel_order order) {
  switch (order) {
  case CL_R:
  case CL_A:
  case CL_Rx:
  case CL_INTENSITY:
  case CL_LUMINANCE:
  case CL_DEPTH:
    return 1;
  case CL_RG:
  case CL_RA:
  case CL_RGx:
    return 2;
  case CL_RGB:
  case CL_sRGB:
    return 3;
  case CL_RGBA:
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
  case CL_RGBx:
  case CL_sRGBA:
  case CL_sBGRA:
  case CL_sRGBx:
    return 4;
  default:
    return 0;
  }
}

size_t imageElementSize(const cl_image_format &format) {
  if (!tableHas(format))
    return 0;
  switch (format.image_channel_data_type) {
  case CL_UNORM_SHORT_565:
  case CL_UNORM_SHORT_555:
    return 2;
  case CL_UNORM_INT_101010:
    return 4;
  default:
    return channelCount(format.image_channel_order) *
           channelTypeSize(format.image_channel_data_type);
  }
}

bool isSupportedImageFormat(const cl_image_format &format,
                            cl_mem_object_type type, cl_mem_flags flags) {
  if (!tableHas(format))
    return false;
  cl_channel_order order = format.image_channel_order;
  // Depth images are 2-D (cl_khr_depth_images).
  if (order == CL_DEPTH && type != CL_MEM_OBJECT_IMAGE2D &&
      type != CL_MEM_OBJECT_IMAGE2D_ARRAY)
    return false;
  // Kernels read sRGB images converting to linear and write them converting
  // back (cl_khr_srgb_image_writes; builtins/images.cl), with any access.
  (void)flags;
  return true;
}

std::vector<cl_image_format> supportedImageFormats(cl_mem_object_type type,
                                                   cl_mem_flags flags) {
  std::vector<cl_image_format> formats;
  for (const OrderTypes &entry : kFormatTable)
    for (size_t i = 0; i < entry.count; ++i) {
      cl_image_format format = {entry.order, entry.types[i]};
      if (isSupportedImageFormat(format, type, flags))
        formats.push_back(format);
    }
  return formats;
}

bool areCompatibleViews(const cl_image_format &a, const cl_image_format &b) {
  if (a.image_channel_data_type != b.image_channel_data_type)
    return false;
  if (a.image_channel_order == b.image_channel_order)
    return true;
  auto linear = [](cl_channel_order order) {
    switch (order) {
    case CL_sRGBA:
      return cl_channel_order(CL_RGBA);
    case CL_sBGRA:
      return cl_channel_order(CL_BGRA);
    case CL_sRGB:
      return cl_channel_order(CL_RGB);
    case CL_sRGBx:
      return cl_channel_order(CL_RGBx);
    case CL_DEPTH:
      return cl_channel_order(CL_R);
    default:
      return order;
    }
  };
  return linear(a.image_channel_order) == linear(b.image_channel_order);
}

void encodeFillColor(const cl_image_format &format, const void *color,
                     unsigned char *texel) {
  cl_channel_order order = format.image_channel_order;
  cl_channel_type type = format.image_channel_data_type;
  const float *f = static_cast<const float *>(color);
  if (type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 ||
      type == CL_UNORM_INT_101010) {
    auto unorm = [&](unsigned i, float scale) {
      return static_cast<uint32_t>(roundedScaled(f[i], 0.0f, scale));
    };
    uint32_t packed;
    if (type == CL_UNORM_SHORT_565)
      packed = unorm(0, 31) << 11 | unorm(1, 63) << 5 | unorm(2, 31);
    else if (type == CL_UNORM_SHORT_555)
      packed = unorm(0, 31) << 10 | unorm(1, 31) << 5 | unorm(2, 31);
    else
      packed = unorm(0, 1023) << 20 | unorm(1, 1023) << 10 | unorm(2, 1023);
    if (type == CL_UNORM_INT_101010)
      std::memcpy(texel, &packed, 4);
    else
      put(texel, static_cast<uint16_t>(packed));
    return;
  }
  // The colour's components in the order the texel stores them.
  unsigned source[4] = {0, 1, 2, 3};
  switch (order) {
  case CL_A:
    source[0] = 3;
    break;
  case CL_RA:
    source[1] = 3;
    break;
  case CL_BGRA:
  case CL_sBGRA:
    source[0] = 2, source[2] = 0;
    break;
  case CL_ARGB:
    source[0] = 3, source[1] = 0, source[2] = 1, source[3] = 2;
    break;
  case CL_ABGR:
    source[0] = 3, source[1] = 2, source[2] = 1, source[3] = 0;
    break;
  default:
    break;
  }
  float srgb[4];
  if (isSrgb(order)) {
    for (unsigned c = 0; c < 4; ++c)
      srgb[c] = c < 3 ? linearToSrgb(f[c]) : f[c];
    color = srgb;
  }
  size_t size = channelTypeSize(type);
  unsigned channels = channelCount(order);
  for (unsigned c = 0; c < channels; ++c)
    encodeChannel(type, color, source[c], texel + c * size);
}

} // namespace weft
