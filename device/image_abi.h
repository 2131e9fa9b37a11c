// What a kernel receives for an image argument: the address of one
// WeftImage, which the runtime fills when the image is created
// (runtime/image.cpp) and the image builtins read (builtins/images.cl). A
// sampler argument is no pointer at all: its CLK_* bits (the same encoding
// Clang gives a `constant sampler_t` initializer) travel as the pointer's
// value, so a sampler known at build time folds into the sampling code.
//
// Included from C++, C and OpenCL C.
#pragma once

#if defined(__OPENCL_C_VERSION__)
#define WEFT_IMAGE_DATA global uchar *
#define WEFT_IMAGE_LEVELS const global struct WeftImage *
typedef ulong weft_image_u64;
typedef int weft_image_i32;
#else
#include <stdint.h>
#define WEFT_IMAGE_DATA unsigned char *
#define WEFT_IMAGE_LEVELS const struct WeftImage *
typedef uint64_t weft_image_u64;
typedef int32_t weft_image_i32;
#endif

#ifdef __cplusplus
namespace weft {
#endif

// Texels lie row after row, `row_pitch` bytes apart, and slices (the depth
// of a 3-D image, the layers of an array) `slice_pitch` bytes apart; a texel
// is `element_size` bytes with its channels in the order the channel order
// names. No texel needs any alignment: the builtins load bytes.
//
// A mipmapped image (cl_khr_mipmap_image) also points at one description a
// level, level 0 first: each is a plain image (one level, no list) over its
// level's texels, so reading or writing a level is the same code as for any
// image. The description of the image itself is its level 0.
struct WeftImage {
  WEFT_IMAGE_DATA data;
  weft_image_u64 row_pitch;
  weft_image_u64 slice_pitch;
  weft_image_i32 width;
  weft_image_i32 height;     // 1 for 1-D images and 1-D arrays
  weft_image_i32 depth;      // 1 unless 3-D
  weft_image_i32 array_size; // layers of an array; 1 otherwise
  weft_image_i32 channel_order;
  weft_image_i32 channel_type;
  weft_image_i32 element_size;
  weft_image_i32 channel_count;  // channels stored per texel
  weft_image_i32 num_mip_levels; // 1 unless mipmapped
  weft_image_i32 reserved;
  WEFT_IMAGE_LEVELS mip_levels; // num_mip_levels of them, or null
};

// Sampler bits: Clang's encoding of CLK_* (opencl-c-base.h), which is also
// what kernel arguments of type sampler_t carry.
#define WEFT_SAMPLER_NORMALIZED_COORDS 0x1
#define WEFT_SAMPLER_ADDRESS_MASK 0xe
#define WEFT_SAMPLER_ADDRESS_NONE 0x0
#define WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE 0x2
#define WEFT_SAMPLER_ADDRESS_CLAMP 0x4
#define WEFT_SAMPLER_ADDRESS_REPEAT 0x6
#define WEFT_SAMPLER_ADDRESS_MIRRORED_REPEAT 0x8
#define WEFT_SAMPLER_FILTER_NEAREST 0x10
#define WEFT_SAMPLER_FILTER_LINEAR 0x20
// cl_khr_mipmap_image: a sampler object's mip filter, and the range its
// level of detail is clamped to. Only sampler objects have these (the spec
// gives samplers declared in a program the defaults): a non-default range
// travels as the address of an interned WeftLodRange in the bits above
// WEFT_SAMPLER_BITS (runtime/sampler.cpp), which live as long as the
// process, so a launch never outlives the range it reads.
#define WEFT_SAMPLER_MIP_FILTER_LINEAR 0x40
#define WEFT_SAMPLER_BITS 0xff
#define WEFT_LOD_RANGE_ALIGNMENT 256

struct WeftLodRange {
  float min;
  float max;
};

#ifdef __cplusplus
} // namespace weft
#endif
