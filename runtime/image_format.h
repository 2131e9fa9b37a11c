// The image formats Weft supports: which channel orders pair with which
// channel types, the size of a texel, and the host-side encoding of a fill
// colour (clEnqueueFillImage). The kernels' side of the same rules is in
// builtins/images.cl.
#pragma once
#include <CL/cl.h>

#include <cstddef>
#include <vector>

namespace weft {

// Channels a texel stores for `order` (CL_RGBx stores four, the last
// ignored); 0 for an order Weft does not know.
unsigned channelCount(cl_channel_order order);

// Bytes of one texel of `format`; 0 unless Weft supports the pair of order
// and type for some image type.
size_t imageElementSize(const cl_image_format &format);

// Whether an image of `type` created with `flags` may have `format`
// (clGetSupportedImageFormats lists exactly these).
bool isSupportedImageFormat(const cl_image_format &format,
                            cl_mem_object_type type, cl_mem_flags flags);
std::vector<cl_image_format> supportedImageFormats(cl_mem_object_type type,
                                                   cl_mem_flags flags);

// Formats two images may share storage with (an image created from another
// image): the same type and texel size, the channel orders views of one
// another (an sRGB order and its linear twin, CL_DEPTH and CL_R, ...).
bool areCompatibleViews(const cl_image_format &a, const cl_image_format &b);

// The texel clEnqueueFillImage writes: `color` is a float[4] (or one float
// for CL_DEPTH), int[4] or unsigned[4] by the format's type, converted with
// the rules write_image{f,i,ui} follow. `texel` receives element-size bytes.
void encodeFillColor(const cl_image_format &format, const void *color,
                     unsigned char *texel);

} // namespace weft
