// The image builtins: read_image{f,i,ui,h} with and without a sampler,
// write_image{f,i,ui,h}, and the get_image_* queries, for every image type.
//
// An image argument is the address of its WeftImage (device/image_abi.h);
// a sampler is its CLK_* bits. Everything here is inlined into the kernel,
// so a sampler known at build time (a `constant sampler_t`, or one declared
// in the kernel) folds into straight-line code for its addressing and
// filter, and texels are plain loads the work-item loop can widen.
//
// The addressing and filtering rules are those of the OpenCL C spec
// ("Image addressing and filtering"); the conversions those of its
// "Conversion rules" for normalized, integer, half and sRGB channels.
#include "builtin_macros.h"
#include "device/image_abi.h"

typedef const global struct WeftImage *weft_image;

#define WEFT_IMAGE(image)                                                      \
  __builtin_astype((image), const global struct WeftImage *)
#define WEFT_SAMPLER(sampler)                                                  \
  ((int)(ulong)__builtin_astype((sampler), constant void *))
// The whole argument: the bits and a sampler object's level-of-detail range.
#define WEFT_SAMPLER_WORD(sampler)                                             \
  ((ulong)__builtin_astype((sampler), constant void *))

// Texels need no alignment (an image over host memory may start anywhere).
typedef ushort __attribute__((aligned(1))) weft_unaligned_ushort;
typedef uint __attribute__((aligned(1))) weft_unaligned_uint;

// --- Texel addresses and raw channels. -------------------------------------

// The texel at column x, row y and slice or layer z.
static inline global uchar *weft_texel(weft_image image, int x, int y, int z) {
  return image->data + (size_t)x * (size_t)image->element_size +
         (size_t)y * image->row_pitch + (size_t)z * image->slice_pitch;
}

static inline int weft_channel_bytes(int type) {
  switch (type) {
  case CLK_UNORM_INT8:
  case CLK_SNORM_INT8:
  case CLK_SIGNED_INT8:
  case CLK_UNSIGNED_INT8:
    return 1;
  case CLK_UNORM_INT16:
  case CLK_SNORM_INT16:
  case CLK_SIGNED_INT16:
  case CLK_UNSIGNED_INT16:
  case CLK_HALF_FLOAT:
    return 2;
  default:
    return 4;
  }
}

static inline uint weft_load_channel(const global uchar *at, int bytes) {
  if (bytes == 1)
    return *at;
  if (bytes == 2)
    return *(const global weft_unaligned_ushort *)at;
  return *(const global weft_unaligned_uint *)at;
}

static inline void weft_store_channel(global uchar *at, int bytes, uint bits) {
  if (bytes == 1)
    *at = (uchar)bits;
  else if (bytes == 2)
    *(global weft_unaligned_ushort *)at = (ushort)bits;
  else
    *(global weft_unaligned_uint *)at = bits;
}

// The stored channels of a texel, in memory order, each zero-extended
// (packed types: the whole texel in .x).
static inline uint4 weft_load_raw(weft_image image, const global uchar *at) {
  int type = image->channel_type;
  if (type == CLK_UNORM_SHORT_565 || type == CLK_UNORM_SHORT_555)
    return (uint4)(weft_load_channel(at, 2), 0, 0, 0);
  if (type == CLK_UNORM_INT_101010)
    return (uint4)(weft_load_channel(at, 4), 0, 0, 0);
  int bytes = weft_channel_bytes(type);
  int count = image->channel_count;
  uint4 raw = 0;
  raw.x = weft_load_channel(at, bytes);
  if (count > 1)
    raw.y = weft_load_channel(at + bytes, bytes);
  if (count > 2)
    raw.z = weft_load_channel(at + 2 * bytes, bytes);
  if (count > 3)
    raw.w = weft_load_channel(at + 3 * bytes, bytes);
  return raw;
}

static inline void weft_store_raw(weft_image image, global uchar *at,
                                  uint4 raw) {
  int type = image->channel_type;
  if (type == CLK_UNORM_SHORT_565 || type == CLK_UNORM_SHORT_555) {
    weft_store_channel(at, 2, raw.x);
    return;
  }
  if (type == CLK_UNORM_INT_101010) {
    weft_store_channel(at, 4, raw.x);
    return;
  }
  int bytes = weft_channel_bytes(type);
  int count = image->channel_count;
  weft_store_channel(at, bytes, raw.x);
  if (count > 1)
    weft_store_channel(at + bytes, bytes, raw.y);
  if (count > 2)
    weft_store_channel(at + 2 * bytes, bytes, raw.z);
  if (count > 3)
    weft_store_channel(at + 3 * bytes, bytes, raw.w);
}

// --- Channel order. --------------------------------------------------------

// From memory order to (r, g, b, a), missing channels 0 and alpha ONE.
#define WEFT_DEFINE_SWIZZLE(T)                                                 \
  static inline T##4 weft_swizzle_##T(int order, T##4 c, T ONE) {              \
    switch (order) {                                                           \
    case CLK_R:                                                                \
    case CLK_Rx:                                                               \
    case CLK_DEPTH:                                                            \
      return (T##4)(c.x, 0, 0, ONE);                                           \
    case CLK_A:                                                                \
      return (T##4)(0, 0, 0, c.x);                                             \
    case CLK_RG:                                                               \
    case CLK_RGx:                                                              \
      return (T##4)(c.x, c.y, 0, ONE);                                         \
    case CLK_RA:                                                               \
      return (T##4)(c.x, 0, 0, c.y);                                           \
    case CLK_RGB:                                                              \
    case CLK_RGBx:                                                             \
    case CLK_sRGB:                                                             \
    case CLK_sRGBx:                                                            \
      return (T##4)(c.x, c.y, c.z, ONE);                                       \
    case CLK_BGRA:                                                             \
    case CLK_sBGRA:                                                            \
      return c.zyxw;                                                           \
    case CLK_ARGB:                                                             \
      return c.yzwx;                                                           \
    case CLK_ABGR:                                                             \
      return c.wzyx;                                                           \
    case CLK_INTENSITY:                                                        \
      return c.xxxx;                                                           \
    case CLK_LUMINANCE:                                                        \
      return (T##4)(c.x, c.x, c.x, ONE);                                       \
    default:                                                                   \
      return c;                                                                \
    }                                                                          \
  }                                                                            \
  /* From (r, g, b, a) to memory order. */                                     \
  static inline T##4 weft_unswizzle_##T(int order, T##4 c) {                   \
    switch (order) {                                                           \
    case CLK_A:                                                                \
      return c.wwww;                                                           \
    case CLK_RA:                                                               \
      return c.xwzw;                                                           \
    case CLK_BGRA:                                                             \
    case CLK_sBGRA:                                                            \
      return c.zyxw;                                                           \
    case CLK_ARGB:                                                             \
      return c.wxyz;                                                           \
    case CLK_ABGR:                                                             \
      return c.wzyx;                                                           \
    default:                                                                   \
      return c;                                                                \
    }                                                                          \
  }
WEFT_DEFINE_SWIZZLE(float)
WEFT_DEFINE_SWIZZLE(int)
WEFT_DEFINE_SWIZZLE(uint)

// --- Conversions of channel values. ----------------------------------------

static inline float weft_srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : pow((c + 0.055f) / 1.055f, 2.4f);
}

static inline float weft_linear_to_srgb(float c) {
  if (isnan(c))
    return 0.0f;
  c = clamp(c, 0.0f, 1.0f);
  return c < 0.0031308f ? 12.92f * c : 1.055f * pow(c, 1.0f / 2.4f) - 0.055f;
}

static inline int weft_is_srgb(int order) {
  return order == CLK_sRGB || order == CLK_sRGBA || order == CLK_sBGRA ||
         order == CLK_sRGBx;
}

// Sign-extends the low `bits` bits of each channel.
static inline int4 weft_sign_extend(uint4 raw, int bits) {
  int shift = 32 - bits;
  return as_int4(raw << shift) >> shift;
}

// Stored channels -> float, still in memory order (packed types: r, g, b).
// Normalized values multiply by the reciprocal instead of dividing: within
// 1.25 ulp of the quotient for every 8- and 16-bit value, with 0 and the
// largest value exact (the spec allows 1.5 ulp), and a multiply instead of
// a division per channel.
static inline float4 weft_raw_to_float(int type, uint4 raw) {
  switch (type) {
  case CLK_UNORM_INT8:
    return convert_float4(raw) * (1.0f / 255.0f);
  case CLK_UNORM_INT16:
    return convert_float4(raw) * (1.0f / 65535.0f);
  case CLK_SNORM_INT8:
    return fmax(convert_float4(weft_sign_extend(raw, 8)) * (1.0f / 127.0f),
                -1.0f);
  case CLK_SNORM_INT16:
    return fmax(convert_float4(weft_sign_extend(raw, 16)) * (1.0f / 32767.0f),
                -1.0f);
  case CLK_HALF_FLOAT:
    return convert_float4(as_half4(convert_ushort4(raw)));
  case CLK_FLOAT:
    return as_float4(raw);
  case CLK_UNORM_SHORT_565:
    return (float4)((float)((raw.x >> 11) & 31) / 31.0f,
                    (float)((raw.x >> 5) & 63) / 63.0f,
                    (float)(raw.x & 31) / 31.0f, 0.0f);
  case CLK_UNORM_SHORT_555:
    return (float4)((float)((raw.x >> 10) & 31) / 31.0f,
                    (float)((raw.x >> 5) & 31) / 31.0f,
                    (float)(raw.x & 31) / 31.0f, 0.0f);
  case CLK_UNORM_INT_101010:
    return (float4)((float)((raw.x >> 20) & 1023) / 1023.0f,
                    (float)((raw.x >> 10) & 1023) / 1023.0f,
                    (float)(raw.x & 1023) / 1023.0f, 0.0f);
  case CLK_SIGNED_INT8:
    return convert_float4(weft_sign_extend(raw, 8));
  case CLK_SIGNED_INT16:
    return convert_float4(weft_sign_extend(raw, 16));
  case CLK_SIGNED_INT32:
    return convert_float4(as_int4(raw));
  default: // unsigned integers
    return convert_float4(raw);
  }
}

// float (r, g, b, a) in memory order -> stored channels.
static inline uint4 weft_float_to_raw(int type, float4 c) {
  switch (type) {
  case CLK_UNORM_INT8:
    return convert_uint4(convert_uchar4_sat_rte(c * 255.0f));
  case CLK_UNORM_INT16:
    return convert_uint4(convert_ushort4_sat_rte(c * 65535.0f));
  case CLK_SNORM_INT8:
    return convert_uint4(as_uchar4(convert_char4_sat_rte(c * 127.0f)));
  case CLK_SNORM_INT16:
    return convert_uint4(as_ushort4(convert_short4_sat_rte(c * 32767.0f)));
  case CLK_HALF_FLOAT:
    return convert_uint4(as_ushort4(convert_half4_rte(c)));
  case CLK_FLOAT:
    return as_uint4(c);
  case CLK_UNORM_SHORT_565: {
    uint4 v =
        min(convert_uint4_sat_rte(c * (float4)(31.0f, 63.0f, 31.0f, 0.0f)),
            (uint4)(31, 63, 31, 0));
    return (uint4)(v.x << 11 | v.y << 5 | v.z, 0, 0, 0);
  }
  case CLK_UNORM_SHORT_555: {
    uint4 v = min(convert_uint4_sat_rte(c * 31.0f), 31u);
    return (uint4)(v.x << 10 | v.y << 5 | v.z, 0, 0, 0);
  }
  case CLK_UNORM_INT_101010: {
    uint4 v = min(convert_uint4_sat_rte(c * 1023.0f), 1023u);
    return (uint4)(v.x << 20 | v.y << 10 | v.z, 0, 0, 0);
  }
  default:
    return 0;
  }
}

static inline uint4 weft_int_to_raw(int type, int4 c) {
  switch (type) {
  case CLK_SIGNED_INT8:
    return convert_uint4(as_uchar4(convert_char4_sat(c)));
  case CLK_SIGNED_INT16:
    return convert_uint4(as_ushort4(convert_short4_sat(c)));
  default:
    return as_uint4(c);
  }
}

static inline uint4 weft_uint_to_raw(int type, uint4 c) {
  switch (type) {
  case CLK_UNSIGNED_INT8:
    return convert_uint4(convert_uchar4_sat(c));
  case CLK_UNSIGNED_INT16:
    return convert_uint4(convert_ushort4_sat(c));
  default:
    return c;
  }
}

// --- One texel, with the border outside the image. --------------------------

// The border colour: (0, 0, 0, 1) for orders without alpha, else 0. The
// padded orders (Rx, RGx, RGBx, sRGBx) count as without alpha, as the CTS
// requires (the spec's lists put them with the transparent ones).
static inline int weft_border_alpha(int order) {
  switch (order) {
  case CLK_R:
  case CLK_Rx:
  case CLK_RG:
  case CLK_RGx:
  case CLK_RGB:
  case CLK_RGBx:
  case CLK_sRGB:
  case CLK_sRGBx:
  case CLK_LUMINANCE:
    return 1;
  default:
    return 0;
  }
}

static inline int weft_inside(weft_image image, int4 at) {
  // Unsigned compares (a negative index is huge) joined without branches:
  // every field is read on every path, so the loads leave the work-item
  // loop, and the check is three compares.
  uint4 index = as_uint4(at);
  return (index.x < (uint)image->width) & (index.y < (uint)image->height) &
         (index.z < (uint)(image->depth * image->array_size));
}

static inline float4 weft_texel_float(weft_image image, int4 at, int check) {
  int order = image->channel_order;
  if (check && !weft_inside(image, at))
    return (float4)(0.0f, 0.0f, 0.0f, weft_border_alpha(order) ? 1.0f : 0.0f);
  uint4 raw = weft_load_raw(image, weft_texel(image, at.x, at.y, at.z));
  float4 c = weft_swizzle_float(
      order, weft_raw_to_float(image->channel_type, raw), 1.0f);
  if (weft_is_srgb(order))
    c = (float4)(weft_srgb_to_linear(c.x), weft_srgb_to_linear(c.y),
                 weft_srgb_to_linear(c.z), c.w);
  return c;
}

static inline int4 weft_texel_int(weft_image image, int4 at, int check) {
  int order = image->channel_order;
  if (check && !weft_inside(image, at))
    return (int4)(0, 0, 0, weft_border_alpha(order));
  uint4 raw = weft_load_raw(image, weft_texel(image, at.x, at.y, at.z));
  int type = image->channel_type;
  int4 c = type == CLK_SIGNED_INT8    ? weft_sign_extend(raw, 8)
           : type == CLK_SIGNED_INT16 ? weft_sign_extend(raw, 16)
                                      : as_int4(raw);
  return weft_swizzle_int(order, c, 1);
}

static inline uint4 weft_texel_uint(weft_image image, int4 at, int check) {
  int order = image->channel_order;
  if (check && !weft_inside(image, at))
    return (uint4)(0, 0, 0, weft_border_alpha(order));
  uint4 raw = weft_load_raw(image, weft_texel(image, at.x, at.y, at.z));
  return weft_swizzle_uint(order, raw, 1u);
}

// Linear filtering of normalized 8- and 16-bit channels blends the stored
// values and scales the blend once (the conversion is a scale, so this is
// the same up to rounding): the largest stored value, or 0 where the
// conversion is no scale (other types, sRGB).
static inline float weft_normalized_range(weft_image image) {
  if (weft_is_srgb(image->channel_order))
    return 0.0f;
  switch (image->channel_type) {
  case CLK_UNORM_INT8:
    return 255.0f;
  case CLK_UNORM_INT16:
    return 65535.0f;
  case CLK_SNORM_INT8:
    return 127.0f;
  case CLK_SNORM_INT16:
    return 32767.0f;
  default:
    return 0.0f;
  }
}

// A texel as linear filtering blends it: its float value, or with `range`
// its stored values unscaled (the most negative raised by one, as the
// conversion clamps it to -1), missing channels 0 and alpha `range`.
static inline float4 weft_texel_to_blend(weft_image image, int4 at, int check,
                                         float range) {
  if (range == 0.0f)
    return weft_texel_float(image, at, check);
  int order = image->channel_order;
  if (check && !weft_inside(image, at))
    return (float4)(0.0f, 0.0f, 0.0f, weft_border_alpha(order) ? range : 0.0f);
  uint4 raw = weft_load_raw(image, weft_texel(image, at.x, at.y, at.z));
  int type = image->channel_type;
  float4 stored =
      type == CLK_SNORM_INT8
          ? fmax(convert_float4(weft_sign_extend(raw, 8)), -127.0f)
      : type == CLK_SNORM_INT16
          ? fmax(convert_float4(weft_sign_extend(raw, 16)), -32767.0f)
          : convert_float4(raw);
  return weft_swizzle_float(order, stored, range);
}

// --- Addressing. -------------------------------------------------------------

// Whether float coordinates addressed by `sampler` can land outside the
// image: clamp and none leave the outside to the border colour, while
// clamp-to-edge, and repeat and mirrored repeat on normalized coordinates,
// always land inside (no bounds check then).
static inline int weft_float_coords_may_leave(int sampler) {
  int addressing = sampler & WEFT_SAMPLER_ADDRESS_MASK;
  if (addressing == WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE)
    return 0;
  if ((sampler & WEFT_SAMPLER_NORMALIZED_COORDS) &&
      (addressing == WEFT_SAMPLER_ADDRESS_REPEAT ||
       addressing == WEFT_SAMPLER_ADDRESS_MIRRORED_REPEAT))
    return 0;
  return 1;
}

// The same for integer coordinates, which only clamp-to-edge addresses.
static inline int weft_integer_coords_may_leave(int sampler) {
  return (sampler & WEFT_SAMPLER_ADDRESS_MASK) !=
         WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE;
}

// floor(x) as an int, for any float: clamped to +-2^30 first (a NaN lands
// on -2^30), which every image dimension fits in with room for +-1, so the
// conversion is one instruction and a texel index never overflows.
static inline int weft_floor_to_int(float x) {
  return (int)fmin(fmax(floor(x), -0x1p30f), 0x1p30f);
}

// Where an axis of `size` texels puts coordinate `s` for nearest filtering:
// the texel index, or one outside [0, size) for the border.
static inline int weft_nearest_index(float s, int size, int sampler) {
  int addressing = sampler & WEFT_SAMPLER_ADDRESS_MASK;
  int normalized = sampler & WEFT_SAMPLER_NORMALIZED_COORDS;
  float fsize = (float)size;
  if (normalized && addressing == WEFT_SAMPLER_ADDRESS_REPEAT) {
    int i = weft_floor_to_int((s - floor(s)) * fsize);
    return i > size - 1 ? i - size : i;
  }
  if (normalized && addressing == WEFT_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    float mirrored = fabs(s - 2.0f * rint(0.5f * s));
    return min(weft_floor_to_int(mirrored * fsize), size - 1);
  }
  int i = weft_floor_to_int(normalized ? s * fsize : s);
  if (addressing == WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE)
    return clamp(i, 0, size - 1);
  return i; // clamp, none: outside means the border
}

// The two texels linear filtering blends along an axis and the weight of
// the second.
static inline int2 weft_linear_indices(float s, int size, int sampler,
                                       float *weight) {
  int addressing = sampler & WEFT_SAMPLER_ADDRESS_MASK;
  int normalized = sampler & WEFT_SAMPLER_NORMALIZED_COORDS;
  float fsize = (float)size;
  float u;
  if (normalized && addressing == WEFT_SAMPLER_ADDRESS_REPEAT)
    u = (s - floor(s)) * fsize;
  else if (normalized && addressing == WEFT_SAMPLER_ADDRESS_MIRRORED_REPEAT)
    u = fabs(s - 2.0f * rint(0.5f * s)) * fsize;
  else
    u = normalized ? s * fsize : s;
  float below = floor(u - 0.5f);
  *weight = (u - 0.5f) - below;
  int i0 = weft_floor_to_int(below);
  int i1 = i0 + 1;
  if (normalized && addressing == WEFT_SAMPLER_ADDRESS_REPEAT) {
    if (i0 < 0)
      i0 += size;
    if (i1 > size - 1)
      i1 -= size;
  } else if ((normalized &&
              addressing == WEFT_SAMPLER_ADDRESS_MIRRORED_REPEAT) ||
             addressing == WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE) {
    i0 = clamp(i0, 0, size - 1);
    i1 = clamp(i1, 0, size - 1);
  }
  return (int2)(i0, i1);
}

// The layer an array coordinate names.
static inline int weft_layer(float s, int layers) {
  return clamp(convert_int_sat_rte(s), 0, layers - 1);
}

// --- Sampling. ---------------------------------------------------------------
// `coord` is (x, y, z) with unused axes 0; `dims` the axes the image has
// (1, 2 or 3); `layer` the array layer (0 when not an array), which lives
// in the z index of a texel.

static inline float4 weft_sample_float(weft_image image, int sampler,
                                       float4 coord, int dims, int layer) {
  int height = image->height, depth = image->depth;
  int check = weft_float_coords_may_leave(sampler);
  if ((sampler & WEFT_SAMPLER_FILTER_LINEAR) == 0) {
    int4 at =
        (int4)(weft_nearest_index(coord.x, image->width, sampler), 0, layer, 0);
    if (dims > 1)
      at.y = weft_nearest_index(coord.y, height, sampler);
    if (dims > 2)
      at.z = weft_nearest_index(coord.z, depth, sampler);
    return weft_texel_float(image, at, check);
  }
  float a, b = 0.0f, c = 0.0f;
  float range = weft_normalized_range(image);
  float unscale = range == 0.0f ? 1.0f : 1.0f / range;
  int2 x = weft_linear_indices(coord.x, image->width, sampler, &a);
  if (dims == 1) {
    return ((1.0f - a) * weft_texel_to_blend(image, (int4)(x.s0, 0, layer, 0),
                                             check, range) +
            a * weft_texel_to_blend(image, (int4)(x.s1, 0, layer, 0), check,
                                    range)) *
           unscale;
  }
  int2 y = weft_linear_indices(coord.y, height, sampler, &b);
  if (dims == 2) {
    float4 t00 =
        weft_texel_to_blend(image, (int4)(x.s0, y.s0, layer, 0), check, range);
    float4 t10 =
        weft_texel_to_blend(image, (int4)(x.s1, y.s0, layer, 0), check, range);
    float4 t01 =
        weft_texel_to_blend(image, (int4)(x.s0, y.s1, layer, 0), check, range);
    float4 t11 =
        weft_texel_to_blend(image, (int4)(x.s1, y.s1, layer, 0), check, range);
    return ((1.0f - a) * (1.0f - b) * t00 + a * (1.0f - b) * t10 +
            (1.0f - a) * b * t01 + a * b * t11) *
           unscale;
  }
  int2 z = weft_linear_indices(coord.z, depth, sampler, &c);
  float4 sum = 0.0f;
  for (int k = 0; k < 2; ++k) {
    float wz = k ? c : 1.0f - c;
    int zk = k ? z.s1 : z.s0;
    float4 t00 =
        weft_texel_to_blend(image, (int4)(x.s0, y.s0, zk, 0), check, range);
    float4 t10 =
        weft_texel_to_blend(image, (int4)(x.s1, y.s0, zk, 0), check, range);
    float4 t01 =
        weft_texel_to_blend(image, (int4)(x.s0, y.s1, zk, 0), check, range);
    float4 t11 =
        weft_texel_to_blend(image, (int4)(x.s1, y.s1, zk, 0), check, range);
    sum += wz * ((1.0f - a) * (1.0f - b) * t00 + a * (1.0f - b) * t10 +
                 (1.0f - a) * b * t01 + a * b * t11);
  }
  return sum * unscale;
}

// Integer reads take the nearest texel whatever the filter (linear is
// undefined for them).
static inline int4 weft_nearest_at(weft_image image, int sampler, float4 coord,
                                   int dims, int layer) {
  int4 at =
      (int4)(weft_nearest_index(coord.x, image->width, sampler), 0, layer, 0);
  if (dims > 1)
    at.y = weft_nearest_index(coord.y, image->height, sampler);
  if (dims > 2)
    at.z = weft_nearest_index(coord.z, image->depth, sampler);
  return at;
}

// Integer coordinates with a sampler: unnormalized, nearest; clamp to edge
// clamps, every other mode leaves the outside to the border.
static inline int weft_integer_index(int i, int size, int sampler) {
  if ((sampler & WEFT_SAMPLER_ADDRESS_MASK) ==
      WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE)
    return clamp(i, 0, size - 1);
  return i;
}

static inline int4 weft_integer_at(weft_image image, int sampler, int4 coord,
                                   int dims, int layer) {
  int4 at =
      (int4)(weft_integer_index(coord.x, image->width, sampler), 0, layer, 0);
  if (dims > 1)
    at.y = weft_integer_index(coord.y, image->height, sampler);
  if (dims > 2)
    at.z = weft_integer_index(coord.z, image->depth, sampler);
  return at;
}

// --- Writes. -----------------------------------------------------------------
// A write outside the image is dropped (the spec leaves it undefined).

static inline void weft_write_raw(weft_image image, int4 at, uint4 raw) {
  if (weft_inside(image, at))
    weft_store_raw(image, weft_texel(image, at.x, at.y, at.z), raw);
}

static inline void weft_write_float(weft_image image, int4 at, float4 color) {
  int order = image->channel_order;
  if (weft_is_srgb(order))
    color = (float4)(weft_linear_to_srgb(color.x), weft_linear_to_srgb(color.y),
                     weft_linear_to_srgb(color.z), color.w);
  weft_write_raw(image, at,
                 weft_float_to_raw(image->channel_type,
                                   weft_unswizzle_float(order, color)));
}

static inline void weft_write_int(weft_image image, int4 at, int4 color) {
  weft_write_raw(
      image, at,
      weft_int_to_raw(image->channel_type,
                      weft_unswizzle_int(image->channel_order, color)));
}

static inline void weft_write_uint(weft_image image, int4 at, uint4 color) {
  weft_write_raw(
      image, at,
      weft_uint_to_raw(image->channel_type,
                       weft_unswizzle_uint(image->channel_order, color)));
}

// --- Mipmaps (cl_khr_mipmap_image, cl_khr_mipmap_image_writes). ------------
// A level is a plain image (device/image_abi.h), so it is read and written
// with the code above; these pick the level, or the two levels to blend.

// The description of level `level` (clamped to the levels there are).
static inline weft_image weft_level(weft_image image, int level) {
  if (image->num_mip_levels <= 1)
    return image;
  return image->mip_levels + clamp(level, 0, image->num_mip_levels - 1);
}

// The level of detail a read uses: `lod` clamped to the sampler's range
// and to the last level (the OpenCL C spec's rule for explicit lods; the
// API spec's for computed ones). NaN reads level 0.
static inline float weft_clamped_lod(weft_image image, ulong word, float lod) {
  float lod_min = 0.0f, lod_max = MAXFLOAT;
  ulong range = word & ~(ulong)WEFT_SAMPLER_BITS;
  if (range != 0) {
    const global struct WeftLodRange *r =
        (const global struct WeftLodRange *)range;
    lod_min = r->min;
    lod_max = r->max;
  }
  float last = (float)(image->num_mip_levels - 1);
  float lambda = fmin(fmax(lod, lod_min), fmin(lod_max, last));
  return lambda > 0.0f ? lambda : 0.0f;
}

// The nearest level to a clamped level of detail (a half rounds down, as
// in Vulkan's and OpenGL's level selection).
static inline weft_image weft_nearest_level(weft_image image, float lambda) {
  return weft_level(image, (int)ceil(lambda + 0.5f) - 1);
}

// A float read at level of detail `lod`: the nearest level, or with a
// linear mip filter the two levels around it blended by its fraction.
static inline float4 weft_sample_float_lod(weft_image image, ulong word,
                                           float4 coord, int dims, int layer,
                                           float lod) {
  int sampler = (int)(word & WEFT_SAMPLER_BITS);
  float lambda = weft_clamped_lod(image, word, lod);
  if ((sampler & WEFT_SAMPLER_MIP_FILTER_LINEAR) == 0)
    return weft_sample_float(weft_nearest_level(image, lambda), sampler, coord,
                             dims, layer);
  int lower = (int)lambda;
  float weight = lambda - (float)lower;
  float4 near =
      weft_sample_float(weft_level(image, lower), sampler, coord, dims, layer);
  if (weight == 0.0f)
    return near;
  float4 far = weft_sample_float(weft_level(image, lower + 1), sampler, coord,
                                 dims, layer);
  return near + (far - near) * weight;
}

// Integer reads have no filtering: the nearest level, nearest texel.
static inline weft_image weft_integer_read_level(weft_image image, ulong word,
                                                 float lod) {
  return weft_nearest_level(image, weft_clamped_lod(image, word, lod));
}

// The level of detail gradients give: log2 of the larger of the two
// derivatives' lengths in texels of level 0 (the scale factor of the
// OpenCL C and OpenGL specs). Mipmapped reads take normalized coordinates.
OVERLOADABLE static inline float weft_gradient_lod(weft_image image, float dx,
                                                   float dy) {
  float width = (float)image->width;
  return log2(fmax(fabs(dx * width), fabs(dy * width)));
}
OVERLOADABLE static inline float weft_gradient_lod(weft_image image, float2 dx,
                                                   float2 dy) {
  float2 size = (float2)((float)image->width, (float)image->height);
  return log2(fmax(length(dx * size), length(dy * size)));
}
OVERLOADABLE static inline float weft_gradient_lod(weft_image image, float4 dx,
                                                   float4 dy) {
  float3 size =
      (float3)((float)image->width, (float)image->height, (float)image->depth);
  return log2(fmax(length(dx.xyz * size), length(dy.xyz * size)));
}

// --- The builtins, per image type. ---------------------------------------
// Each image type states how its coordinate maps to (x, y, z), the layer,
// and the axes it has. COORD_F(c) / COORD_I(c) give the float4 / int4
// (x, y, z, 0); LAYER_F / LAYER_I the layer (0 without one).

#define IMAGE1D_DIMS 1
#define IMAGE1D_COORD_F(c) ((float4)((c), 0.0f, 0.0f, 0.0f))
#define IMAGE1D_COORD_I(c) ((int4)((c), 0, 0, 0))
#define IMAGE1D_LAYER_F(image, c) 0
#define IMAGE1D_LAYER_I(image, c) 0

#define IMAGE1D_ARRAY_DIMS 1
#define IMAGE1D_ARRAY_COORD_F(c) ((float4)((c).x, 0.0f, 0.0f, 0.0f))
#define IMAGE1D_ARRAY_COORD_I(c) ((int4)((c).x, 0, 0, 0))
#define IMAGE1D_ARRAY_LAYER_F(image, c) weft_layer((c).y, (image)->array_size)
#define IMAGE1D_ARRAY_LAYER_I(image, c) clamp((c).y, 0, (image)->array_size - 1)

#define IMAGE2D_DIMS 2
#define IMAGE2D_COORD_F(c) ((float4)((c).x, (c).y, 0.0f, 0.0f))
#define IMAGE2D_COORD_I(c) ((int4)((c).x, (c).y, 0, 0))
#define IMAGE2D_LAYER_F(image, c) 0
#define IMAGE2D_LAYER_I(image, c) 0

#define IMAGE2D_ARRAY_DIMS 2
#define IMAGE2D_ARRAY_COORD_F(c) ((float4)((c).x, (c).y, 0.0f, 0.0f))
#define IMAGE2D_ARRAY_COORD_I(c) ((int4)((c).x, (c).y, 0, 0))
#define IMAGE2D_ARRAY_LAYER_F(image, c) weft_layer((c).z, (image)->array_size)
#define IMAGE2D_ARRAY_LAYER_I(image, c) clamp((c).z, 0, (image)->array_size - 1)

#define IMAGE3D_DIMS 3
#define IMAGE3D_COORD_F(c) ((float4)((c).x, (c).y, (c).z, 0.0f))
#define IMAGE3D_COORD_I(c) ((int4)((c).x, (c).y, (c).z, 0))
#define IMAGE3D_LAYER_F(image, c) 0
#define IMAGE3D_LAYER_I(image, c) 0

// Samplerless reads and writes address texels directly; the layer of an
// array is clamped like a sampled one, outside x/y/z reads the border.
#define WEFT_AT_I(KIND, image, c)                                              \
  (KIND##_COORD_I(c) + (int4)(0, 0, KIND##_LAYER_I(image, c), 0))

// read_imagef/i/ui (and h) of an image type that holds colours.
#define WEFT_COLOUR_READS(ACCESS, IMAGE_T, KIND, FCOORD, ICOORD)               \
  OVERLOADABLE float4 read_imagef(ACCESS IMAGE_T image, sampler_t sampler,     \
                                  FCOORD coord) {                              \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_sample_float(d, WEFT_SAMPLER(sampler), KIND##_COORD_F(coord),  \
                             KIND##_DIMS, KIND##_LAYER_F(d, coord));           \
  }                                                                            \
  OVERLOADABLE float4 read_imagef(ACCESS IMAGE_T image, sampler_t sampler,     \
                                  ICOORD coord) {                              \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_texel_float(                                                   \
        d,                                                                     \
        weft_integer_at(d, WEFT_SAMPLER(sampler), KIND##_COORD_I(coord),       \
                        KIND##_DIMS, KIND##_LAYER_I(d, coord)),                \
        weft_integer_coords_may_leave(WEFT_SAMPLER(sampler)));                 \
  }                                                                            \
  OVERLOADABLE int4 read_imagei(ACCESS IMAGE_T image, sampler_t sampler,       \
                                FCOORD coord) {                                \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_texel_int(d,                                                   \
                          weft_nearest_at(d, WEFT_SAMPLER(sampler),            \
                                          KIND##_COORD_F(coord), KIND##_DIMS,  \
                                          KIND##_LAYER_F(d, coord)),           \
                          weft_float_coords_may_leave(WEFT_SAMPLER(sampler))); \
  }                                                                            \
  OVERLOADABLE int4 read_imagei(ACCESS IMAGE_T image, sampler_t sampler,       \
                                ICOORD coord) {                                \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_texel_int(                                                     \
        d,                                                                     \
        weft_integer_at(d, WEFT_SAMPLER(sampler), KIND##_COORD_I(coord),       \
                        KIND##_DIMS, KIND##_LAYER_I(d, coord)),                \
        weft_integer_coords_may_leave(WEFT_SAMPLER(sampler)));                 \
  }                                                                            \
  OVERLOADABLE uint4 read_imageui(ACCESS IMAGE_T image, sampler_t sampler,     \
                                  FCOORD coord) {                              \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_texel_uint(                                                    \
        d,                                                                     \
        weft_nearest_at(d, WEFT_SAMPLER(sampler), KIND##_COORD_F(coord),       \
                        KIND##_DIMS, KIND##_LAYER_F(d, coord)),                \
        weft_float_coords_may_leave(WEFT_SAMPLER(sampler)));                   \
  }                                                                            \
  OVERLOADABLE uint4 read_imageui(ACCESS IMAGE_T image, sampler_t sampler,     \
                                  ICOORD coord) {                              \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_texel_uint(                                                    \
        d,                                                                     \
        weft_integer_at(d, WEFT_SAMPLER(sampler), KIND##_COORD_I(coord),       \
                        KIND##_DIMS, KIND##_LAYER_I(d, coord)),                \
        weft_integer_coords_may_leave(WEFT_SAMPLER(sampler)));                 \
  }                                                                            \
  OVERLOADABLE half4 read_imageh(ACCESS IMAGE_T image, sampler_t sampler,      \
                                 FCOORD coord) {                               \
    return convert_half4(read_imagef(image, sampler, coord));                  \
  }                                                                            \
  OVERLOADABLE half4 read_imageh(ACCESS IMAGE_T image, sampler_t sampler,      \
                                 ICOORD coord) {                               \
    return convert_half4(read_imagef(image, sampler, coord));                  \
  }

#define WEFT_SAMPLERLESS_READS(ACCESS, IMAGE_T, KIND, ICOORD)                  \
  OVERLOADABLE float4 read_imagef(ACCESS IMAGE_T image, ICOORD coord) {        \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_texel_float(d, WEFT_AT_I(KIND, d, coord), 1);                  \
  }                                                                            \
  OVERLOADABLE int4 read_imagei(ACCESS IMAGE_T image, ICOORD coord) {          \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_texel_int(d, WEFT_AT_I(KIND, d, coord), 1);                    \
  }                                                                            \
  OVERLOADABLE uint4 read_imageui(ACCESS IMAGE_T image, ICOORD coord) {        \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_texel_uint(d, WEFT_AT_I(KIND, d, coord), 1);                   \
  }                                                                            \
  OVERLOADABLE half4 read_imageh(ACCESS IMAGE_T image, ICOORD coord) {         \
    return convert_half4(read_imagef(image, coord));                           \
  }

#define WEFT_COLOUR_WRITES(ACCESS, IMAGE_T, KIND, ICOORD)                      \
  OVERLOADABLE void write_imagef(ACCESS IMAGE_T image, ICOORD coord,           \
                                 float4 color) {                               \
    weft_image d = WEFT_IMAGE(image);                                          \
    weft_write_float(d, WEFT_AT_I(KIND, d, coord), color);                     \
  }                                                                            \
  OVERLOADABLE void write_imagei(ACCESS IMAGE_T image, ICOORD coord,           \
                                 int4 color) {                                 \
    weft_image d = WEFT_IMAGE(image);                                          \
    weft_write_int(d, WEFT_AT_I(KIND, d, coord), color);                       \
  }                                                                            \
  OVERLOADABLE void write_imageui(ACCESS IMAGE_T image, ICOORD coord,          \
                                  uint4 color) {                               \
    weft_image d = WEFT_IMAGE(image);                                          \
    weft_write_uint(d, WEFT_AT_I(KIND, d, coord), color);                      \
  }                                                                            \
  OVERLOADABLE void write_imageh(ACCESS IMAGE_T image, ICOORD coord,           \
                                 half4 color) {                                \
    write_imagef(image, coord, convert_float4(color));                         \
  }

// Depth images hold one float channel (cl_khr_depth_images).
#define WEFT_DEPTH_READS(ACCESS, IMAGE_T, KIND, FCOORD, ICOORD)                \
  OVERLOADABLE float read_imagef(ACCESS IMAGE_T image, sampler_t sampler,      \
                                 FCOORD coord) {                               \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_sample_float(d, WEFT_SAMPLER(sampler), KIND##_COORD_F(coord),  \
                             KIND##_DIMS, KIND##_LAYER_F(d, coord))            \
        .x;                                                                    \
  }                                                                            \
  OVERLOADABLE float read_imagef(ACCESS IMAGE_T image, sampler_t sampler,      \
                                 ICOORD coord) {                               \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_texel_float(                                                   \
               d,                                                              \
               weft_integer_at(d, WEFT_SAMPLER(sampler),                       \
                               KIND##_COORD_I(coord), KIND##_DIMS,             \
                               KIND##_LAYER_I(d, coord)),                      \
               weft_integer_coords_may_leave(WEFT_SAMPLER(sampler)))           \
        .x;                                                                    \
  }                                                                            \
  OVERLOADABLE float read_imagef(ACCESS IMAGE_T image, ICOORD coord) {         \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_texel_float(d, WEFT_AT_I(KIND, d, coord), 1).x;                \
  }

#define WEFT_DEPTH_WRITES(ACCESS, IMAGE_T, KIND, ICOORD)                       \
  OVERLOADABLE void write_imagef(ACCESS IMAGE_T image, ICOORD coord,           \
                                 float depth) {                                \
    weft_image d = WEFT_IMAGE(image);                                          \
    weft_write_float(d, WEFT_AT_I(KIND, d, coord),                             \
                     (float4)(depth, 0.0f, 0.0f, 0.0f));                       \
  }

// Reads at a level of detail, explicit or from gradients (GRAD_T: the
// gradients' type), of an image type that holds colours.
#define WEFT_MIP_READ_BODIES(ACCESS, IMAGE_T, KIND, FCOORD, LOD_ARGS, LOD)     \
  OVERLOADABLE float4 read_imagef(ACCESS IMAGE_T image, sampler_t sampler,     \
                                  FCOORD coord, LOD_ARGS) {                    \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_sample_float_lod(d, WEFT_SAMPLER_WORD(sampler),                \
                                 KIND##_COORD_F(coord), KIND##_DIMS,           \
                                 KIND##_LAYER_F(d, coord), LOD);               \
  }                                                                            \
  OVERLOADABLE int4 read_imagei(ACCESS IMAGE_T image, sampler_t sampler,       \
                                FCOORD coord, LOD_ARGS) {                      \
    weft_image d = WEFT_IMAGE(image);                                          \
    weft_image level =                                                         \
        weft_integer_read_level(d, WEFT_SAMPLER_WORD(sampler), LOD);           \
    return weft_texel_int(level,                                               \
                          weft_nearest_at(level, WEFT_SAMPLER(sampler),        \
                                          KIND##_COORD_F(coord), KIND##_DIMS,  \
                                          KIND##_LAYER_F(d, coord)),           \
                          weft_float_coords_may_leave(WEFT_SAMPLER(sampler))); \
  }                                                                            \
  OVERLOADABLE uint4 read_imageui(ACCESS IMAGE_T image, sampler_t sampler,     \
                                  FCOORD coord, LOD_ARGS) {                    \
    weft_image d = WEFT_IMAGE(image);                                          \
    weft_image level =                                                         \
        weft_integer_read_level(d, WEFT_SAMPLER_WORD(sampler), LOD);           \
    return weft_texel_uint(                                                    \
        level,                                                                 \
        weft_nearest_at(level, WEFT_SAMPLER(sampler), KIND##_COORD_F(coord),   \
                        KIND##_DIMS, KIND##_LAYER_F(d, coord)),                \
        weft_float_coords_may_leave(WEFT_SAMPLER(sampler)));                   \
  }
#define WEFT_MIP_READS(ACCESS, IMAGE_T, KIND, FCOORD, GRAD_T)                  \
  WEFT_MIP_READ_BODIES(ACCESS, IMAGE_T, KIND, FCOORD, float lod, lod)          \
  WEFT_MIP_READ_BODIES(ACCESS, IMAGE_T, KIND, FCOORD,                          \
                       GRAD_T gradient_x WEFT_COMMA GRAD_T gradient_y,         \
                       weft_gradient_lod(d, gradient_x, gradient_y))
#define WEFT_COMMA ,

#define WEFT_MIP_DEPTH_READS(ACCESS, IMAGE_T, KIND, FCOORD, GRAD_T)            \
  OVERLOADABLE float read_imagef(ACCESS IMAGE_T image, sampler_t sampler,      \
                                 FCOORD coord, float lod) {                    \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_sample_float_lod(d, WEFT_SAMPLER_WORD(sampler),                \
                                 KIND##_COORD_F(coord), KIND##_DIMS,           \
                                 KIND##_LAYER_F(d, coord), lod)                \
        .x;                                                                    \
  }                                                                            \
  OVERLOADABLE float read_imagef(ACCESS IMAGE_T image, sampler_t sampler,      \
                                 FCOORD coord, GRAD_T gradient_x,              \
                                 GRAD_T gradient_y) {                          \
    weft_image d = WEFT_IMAGE(image);                                          \
    return weft_sample_float_lod(d, WEFT_SAMPLER_WORD(sampler),                \
                                 KIND##_COORD_F(coord), KIND##_DIMS,           \
                                 KIND##_LAYER_F(d, coord),                     \
                                 weft_gradient_lod(d, gradient_x, gradient_y)) \
        .x;                                                                    \
  }

// Writes to level `lod`; one to a level the image lacks is dropped.
#define WEFT_MIP_WRITES(ACCESS, IMAGE_T, KIND, ICOORD)                         \
  OVERLOADABLE void write_imagef(ACCESS IMAGE_T image, ICOORD coord, int lod,  \
                                 float4 color) {                               \
    weft_image d = WEFT_IMAGE(image);                                          \
    if ((uint)lod < (uint)d->num_mip_levels)                                   \
      weft_write_float(weft_level(d, lod), WEFT_AT_I(KIND, d, coord), color);  \
  }                                                                            \
  OVERLOADABLE void write_imagei(ACCESS IMAGE_T image, ICOORD coord, int lod,  \
                                 int4 color) {                                 \
    weft_image d = WEFT_IMAGE(image);                                          \
    if ((uint)lod < (uint)d->num_mip_levels)                                   \
      weft_write_int(weft_level(d, lod), WEFT_AT_I(KIND, d, coord), color);    \
  }                                                                            \
  OVERLOADABLE void write_imageui(ACCESS IMAGE_T image, ICOORD coord, int lod, \
                                  uint4 color) {                               \
    weft_image d = WEFT_IMAGE(image);                                          \
    if ((uint)lod < (uint)d->num_mip_levels)                                   \
      weft_write_uint(weft_level(d, lod), WEFT_AT_I(KIND, d, coord), color);   \
  }
#define WEFT_MIP_DEPTH_WRITES(ACCESS, IMAGE_T, KIND, ICOORD)                   \
  OVERLOADABLE void write_imagef(ACCESS IMAGE_T image, ICOORD coord, int lod,  \
                                 float depth) {                                \
    weft_image d = WEFT_IMAGE(image);                                          \
    if ((uint)lod < (uint)d->num_mip_levels)                                   \
      weft_write_float(weft_level(d, lod), WEFT_AT_I(KIND, d, coord),          \
                       (float4)(depth, 0.0f, 0.0f, 0.0f));                     \
  }

// The queries every image type answers, and those of types with height,
// depth or layers.
#define WEFT_QUERIES(ACCESS, IMAGE_T)                                          \
  OVERLOADABLE int get_image_width(ACCESS IMAGE_T image) {                     \
    return WEFT_IMAGE(image)->width;                                           \
  }                                                                            \
  OVERLOADABLE int get_image_channel_data_type(ACCESS IMAGE_T image) {         \
    return WEFT_IMAGE(image)->channel_type;                                    \
  }                                                                            \
  OVERLOADABLE int get_image_channel_order(ACCESS IMAGE_T image) {             \
    return WEFT_IMAGE(image)->channel_order;                                   \
  }
#define WEFT_HEIGHT_QUERIES(ACCESS, IMAGE_T)                                   \
  OVERLOADABLE int get_image_height(ACCESS IMAGE_T image) {                    \
    return WEFT_IMAGE(image)->height;                                          \
  }                                                                            \
  OVERLOADABLE int2 get_image_dim(ACCESS IMAGE_T image) {                      \
    weft_image d = WEFT_IMAGE(image);                                          \
    return (int2)(d->width, d->height);                                        \
  }
#define WEFT_ARRAY_QUERIES(ACCESS, IMAGE_T)                                    \
  OVERLOADABLE size_t get_image_array_size(ACCESS IMAGE_T image) {             \
    return (size_t)WEFT_IMAGE(image)->array_size;                              \
  }
#define WEFT_MIP_QUERIES(ACCESS, IMAGE_T)                                      \
  OVERLOADABLE int get_image_num_mip_levels(ACCESS IMAGE_T image) {            \
    return WEFT_IMAGE(image)->num_mip_levels;                                  \
  }

// Everything for one access qualifier. Writes also go to read-write
// images; reads to read-only and read-write ones.
#define WEFT_READABLE(ACCESS)                                                  \
  WEFT_COLOUR_READS(ACCESS, image1d_t, IMAGE1D, float, int)                    \
  WEFT_SAMPLERLESS_READS(ACCESS, image1d_t, IMAGE1D, int)                      \
  WEFT_SAMPLERLESS_READS(ACCESS, image1d_buffer_t, IMAGE1D, int)               \
  WEFT_COLOUR_READS(ACCESS, image1d_array_t, IMAGE1D_ARRAY, float2, int2)      \
  WEFT_SAMPLERLESS_READS(ACCESS, image1d_array_t, IMAGE1D_ARRAY, int2)         \
  WEFT_COLOUR_READS(ACCESS, image2d_t, IMAGE2D, float2, int2)                  \
  WEFT_SAMPLERLESS_READS(ACCESS, image2d_t, IMAGE2D, int2)                     \
  WEFT_COLOUR_READS(ACCESS, image2d_array_t, IMAGE2D_ARRAY, float4, int4)      \
  WEFT_SAMPLERLESS_READS(ACCESS, image2d_array_t, IMAGE2D_ARRAY, int4)         \
  WEFT_COLOUR_READS(ACCESS, image3d_t, IMAGE3D, float4, int4)                  \
  WEFT_SAMPLERLESS_READS(ACCESS, image3d_t, IMAGE3D, int4)                     \
  WEFT_DEPTH_READS(ACCESS, image2d_depth_t, IMAGE2D, float2, int2)             \
  WEFT_DEPTH_READS(ACCESS, image2d_array_depth_t, IMAGE2D_ARRAY, float4, int4) \
  WEFT_MIP_READS(ACCESS, image1d_t, IMAGE1D, float, float)                     \
  WEFT_MIP_READS(ACCESS, image1d_array_t, IMAGE1D_ARRAY, float2, float)        \
  WEFT_MIP_READS(ACCESS, image2d_t, IMAGE2D, float2, float2)                   \
  WEFT_MIP_READS(ACCESS, image2d_array_t, IMAGE2D_ARRAY, float4, float2)       \
  WEFT_MIP_READS(ACCESS, image3d_t, IMAGE3D, float4, float4)                   \
  WEFT_MIP_DEPTH_READS(ACCESS, image2d_depth_t, IMAGE2D, float2, float2)       \
  WEFT_MIP_DEPTH_READS(ACCESS, image2d_array_depth_t, IMAGE2D_ARRAY, float4,   \
                       float2)

#define WEFT_WRITABLE(ACCESS)                                                  \
  WEFT_COLOUR_WRITES(ACCESS, image1d_t, IMAGE1D, int)                          \
  WEFT_COLOUR_WRITES(ACCESS, image1d_buffer_t, IMAGE1D, int)                   \
  WEFT_COLOUR_WRITES(ACCESS, image1d_array_t, IMAGE1D_ARRAY, int2)             \
  WEFT_COLOUR_WRITES(ACCESS, image2d_t, IMAGE2D, int2)                         \
  WEFT_COLOUR_WRITES(ACCESS, image2d_array_t, IMAGE2D_ARRAY, int4)             \
  WEFT_COLOUR_WRITES(ACCESS, image3d_t, IMAGE3D, int4)                         \
  WEFT_DEPTH_WRITES(ACCESS, image2d_depth_t, IMAGE2D, int2)                    \
  WEFT_DEPTH_WRITES(ACCESS, image2d_array_depth_t, IMAGE2D_ARRAY, int4)        \
  WEFT_MIP_WRITES(ACCESS, image1d_t, IMAGE1D, int)                             \
  WEFT_MIP_WRITES(ACCESS, image1d_array_t, IMAGE1D_ARRAY, int2)                \
  WEFT_MIP_WRITES(ACCESS, image2d_t, IMAGE2D, int2)                            \
  WEFT_MIP_WRITES(ACCESS, image2d_array_t, IMAGE2D_ARRAY, int4)                \
  WEFT_MIP_WRITES(ACCESS, image3d_t, IMAGE3D, int4)                            \
  WEFT_MIP_DEPTH_WRITES(ACCESS, image2d_depth_t, IMAGE2D, int2)                \
  WEFT_MIP_DEPTH_WRITES(ACCESS, image2d_array_depth_t, IMAGE2D_ARRAY, int4)

#define WEFT_ALL_QUERIES(ACCESS)                                               \
  WEFT_QUERIES(ACCESS, image1d_t)                                              \
  WEFT_QUERIES(ACCESS, image1d_buffer_t)                                       \
  WEFT_QUERIES(ACCESS, image1d_array_t)                                        \
  WEFT_QUERIES(ACCESS, image2d_t)                                              \
  WEFT_QUERIES(ACCESS, image2d_array_t)                                        \
  WEFT_QUERIES(ACCESS, image3d_t)                                              \
  WEFT_QUERIES(ACCESS, image2d_depth_t)                                        \
  WEFT_QUERIES(ACCESS, image2d_array_depth_t)                                  \
  WEFT_HEIGHT_QUERIES(ACCESS, image2d_t)                                       \
  WEFT_HEIGHT_QUERIES(ACCESS, image2d_array_t)                                 \
  WEFT_HEIGHT_QUERIES(ACCESS, image2d_depth_t)                                 \
  WEFT_HEIGHT_QUERIES(ACCESS, image2d_array_depth_t)                           \
  WEFT_ARRAY_QUERIES(ACCESS, image1d_array_t)                                  \
  WEFT_ARRAY_QUERIES(ACCESS, image2d_array_t)                                  \
  WEFT_ARRAY_QUERIES(ACCESS, image2d_array_depth_t)                            \
  WEFT_MIP_QUERIES(ACCESS, image1d_t)                                          \
  WEFT_MIP_QUERIES(ACCESS, image1d_array_t)                                    \
  WEFT_MIP_QUERIES(ACCESS, image2d_t)                                          \
  WEFT_MIP_QUERIES(ACCESS, image2d_array_t)                                    \
  WEFT_MIP_QUERIES(ACCESS, image3d_t)                                          \
  WEFT_MIP_QUERIES(ACCESS, image2d_depth_t)                                    \
  WEFT_MIP_QUERIES(ACCESS, image2d_array_depth_t)                              \
  OVERLOADABLE int get_image_height(ACCESS image3d_t image) {                  \
    return WEFT_IMAGE(image)->height;                                          \
  }                                                                            \
  OVERLOADABLE int get_image_depth(ACCESS image3d_t image) {                   \
    return WEFT_IMAGE(image)->depth;                                           \
  }                                                                            \
  OVERLOADABLE int4 get_image_dim(ACCESS image3d_t image) {                    \
    weft_image d = WEFT_IMAGE(image);                                          \
    return (int4)(d->width, d->height, d->depth, 0);                           \
  }

WEFT_READABLE(read_only)
WEFT_READABLE(read_write)
WEFT_WRITABLE(write_only)
WEFT_WRITABLE(read_write)
WEFT_ALL_QUERIES(read_only)
WEFT_ALL_QUERIES(write_only)
WEFT_ALL_QUERIES(read_write)

// Clang lowers each use of a sampler initializer (a `constant sampler_t` at
// program scope, a sampler_t declared in a kernel) to a call of this
// function with the CLK_* bits: the sampler is those bits.
constant void *__translate_sampler_initializer(int bits) {
  return (constant void *)(size_t)bits;
}

// --- cl_intel_subgroups: block reads and writes of 2-D images. --------------
// Raw bytes, no conversion: value k of each work-item is the element (a
// uint, or with the _char, _short and _long extensions a uchar, ushort or
// ulong) at byte x + element size * local id of row y + k. Reads outside
// the rows clamp to the edge in element steps (bytes past a row shorter
// than an element read 0); writes that do not fit the row are dropped.

static inline ulong weft_block_read_at(weft_image image, int x, int y,
                                       int bytes) {
  int row_bytes = image->width * image->element_size;
  y = clamp(y, 0, image->height - 1);
  x = clamp(x, 0, max(row_bytes - bytes, 0));
  const global uchar *row = image->data + (size_t)y * image->row_pitch;
  ulong value = 0;
  for (int i = 0; i < bytes; ++i)
    if (x + i < row_bytes)
      value |= (ulong)row[x + i] << (8 * i);
  return value;
}

static inline void weft_block_write_at(weft_image image, int x, int y,
                                       int bytes, ulong value) {
  int row_bytes = image->width * image->element_size;
  if (y < 0 || y >= image->height || x < 0 || x > row_bytes - bytes)
    return;
  global uchar *at = image->data + (size_t)y * image->row_pitch + x;
  for (int i = 0; i < bytes; ++i)
    at[i] = (uchar)(value >> (8 * i));
}

#define WEFT_IMAGE_BLOCK_IO(ACCESS_R, ACCESS_W, SUFFIX, E, T, N)               \
  OVERLOADABLE T intel_sub_group_block_read##SUFFIX(ACCESS_R image2d_t image,  \
                                                    int2 byte_coord) {         \
    weft_image d = WEFT_IMAGE(image);                                          \
    int x = byte_coord.x + (int)sizeof(E) * (int)get_sub_group_local_id();     \
    E values[N];                                                               \
    for (int k = 0; k < N; ++k)                                                \
      values[k] =                                                              \
          (E)weft_block_read_at(d, x, byte_coord.y + k, (int)sizeof(E));       \
    return WEFT_BLOCK_LOAD##N(values);                                         \
  }                                                                            \
  OVERLOADABLE void intel_sub_group_block_write##SUFFIX(                       \
      ACCESS_W image2d_t image, int2 byte_coord, T data) {                     \
    weft_image d = WEFT_IMAGE(image);                                          \
    int x = byte_coord.x + (int)sizeof(E) * (int)get_sub_group_local_id();     \
    E values[N];                                                               \
    WEFT_BLOCK_STORE##N(data, values);                                         \
    for (int k = 0; k < N; ++k)                                                \
      weft_block_write_at(d, x, byte_coord.y + k, (int)sizeof(E),              \
                          (ulong)values[k]);                                   \
  }
#define WEFT_IMAGE_BLOCK_IO_BOTH(SUFFIX, E, T, N)                              \
  WEFT_IMAGE_BLOCK_IO(read_only, write_only, SUFFIX, E, T, N)                  \
  WEFT_IMAGE_BLOCK_IO(read_write, read_write, SUFFIX, E, T, N)
WEFT_INTEL_BLOCK_IO_TYPES(WEFT_IMAGE_BLOCK_IO_BOTH)
