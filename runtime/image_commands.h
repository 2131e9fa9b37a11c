// The image commands (read, write, copy, copies to and from buffers, fill,
// map) as Command records. An image region is a rect of bytes over the
// image's storage (runtime/memory_commands.h's Rect): rows `row_pitch`
// apart, and layers or slices `slice_pitch` apart, so the buffer commands'
// row-by-row copy serves images too.
#pragma once
#include "runtime/memory_commands.h"

#include <vector>

namespace weft {

// The bytes of `region` texels at `origin` of `image` (both checked by
// checkImageRegion), and the region in bytes, rows and slices. Reads,
// writes and copies of image regions are the buffer rect commands with the
// image commands' types.
Rect imageRect(const Memory &image, const size_t *origin, const size_t *region);
Region imageRegionBytes(const Memory &image, const size_t *region);

// The layout of host memory an image region is read into or written from:
// rows `row_pitch` apart (0: tight) and, for arrays and 3-D images, slices
// or layers `slice_pitch` apart (0: tight). CL_INVALID_VALUE for pitches
// smaller than the region's rows or slices.
cl_int makeHostImageRect(const Memory &image, const size_t *region,
                         size_t row_pitch, size_t slice_pitch, Rect &out);

// The layout of a buffer holding an image region tightly from `offset`
// (clEnqueueCopyImageToBuffer, CopyBufferToImage); CL_INVALID_VALUE if it
// does not fit in the buffer.
cl_int makePackedBufferRect(const Memory &image, const Memory &buffer,
                            size_t offset, const size_t *region, Rect &out);

// Writes `texel` (one element, already encoded) over the region.
Command fillImageCommand(Memory &image, std::vector<unsigned char> texel,
                         const Rect &image_rect, const Region &region);
// Like mapBufferCommand: the mapping is the storage itself.
Command mapImageCommand(Memory &image, cl_map_flags flags,
                        const Rect &image_rect, void *&mapped);

} // namespace weft
