#include "runtime/image_commands.h"

#include "device/bulk_memory.h"
#include "runtime/checked_math.h"
#include "runtime/image.h"
#include "runtime/memory.h"

#include <cstring>

namespace weft {
namespace {

// Bytes between texels one step apart along y (rows, or the layers of a
// 1-D array) and along z (slices or layers), in a level of `image`.
size_t yStride(const Memory &image, const WeftImage &level) {
  if (image.type() == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    return level.slice_pitch;
  return level.row_pitch;
}

size_t extentOf(const Rect &rect, const Region &region) {
  return rect.offset + (region[2] - 1) * rect.slice_pitch +
         (region[1] - 1) * rect.row_pitch + region[0];
}

} // namespace

Rect imageRect(const Memory &image, const size_t *origin,
               const size_t *region) {
  // The level's texels, at their place in the image's storage; the
  // coordinate naming the level is no offset within it.
  const cl_uint level_index = originLevel(image, origin);
  const WeftImage &level = image.imageLevel(level_index);
  size_t at[3] = {origin[0], origin[1], origin[2]};
  if (const int c = mipLevelCoordinate(image.type());
      image.imageLevelCount() > 1 && c < 3)
    at[c] = 0;
  Rect rect;
  rect.row_pitch = yStride(image, level);
  rect.slice_pitch = level.slice_pitch;
  rect.offset = size_t(level.data - image.kernelImage().data) +
                at[0] * image.imageElementSize() + at[1] * rect.row_pitch +
                at[2] * rect.slice_pitch;
  rect.extent = extentOf(rect, imageRegionBytes(image, region));
  return rect;
}

Region imageRegionBytes(const Memory &image, const size_t *region) {
  return {region[0] * image.imageElementSize(), region[1], region[2]};
}

cl_int makeHostImageRect(const Memory &image, const size_t *region,
                         size_t row_pitch, size_t slice_pitch, Rect &out) {
  const size_t row_bytes = region[0] * image.imageElementSize();
  if (row_pitch == 0)
    row_pitch = row_bytes;
  if (row_pitch < row_bytes)
    return CL_INVALID_VALUE;
  out = Rect();
  // Only arrays and 3-D images have slices to step over (the spec's
  // CL_INVALID_VALUE for a slice pitch of a 1-D or 2-D image).
  const cl_mem_object_type type = image.type();
  if (slice_pitch != 0 &&
      (type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
       type == CL_MEM_OBJECT_IMAGE2D))
    return CL_INVALID_VALUE;
  if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    // The layers are the rows of the region; slice_pitch steps over them.
    if (slice_pitch == 0)
      slice_pitch = row_pitch;
    if (slice_pitch < row_pitch)
      return CL_INVALID_VALUE;
    out.row_pitch = slice_pitch;
    out.slice_pitch = slice_pitch * region[1];
  } else {
    CheckedSize rows = CheckedSize(row_pitch) * region[1];
    if (!rows.valid())
      return CL_INVALID_VALUE;
    if (slice_pitch == 0)
      slice_pitch = rows.value();
    if (slice_pitch < rows.value())
      return CL_INVALID_VALUE;
    out.row_pitch = row_pitch;
    out.slice_pitch = slice_pitch;
  }
  Region bytes = {row_bytes, region[1], region[2]};
  CheckedSize extent = CheckedSize(region[2] - 1) * out.slice_pitch +
                       CheckedSize(region[1] - 1) * out.row_pitch + row_bytes;
  if (!extent.valid())
    return CL_INVALID_VALUE;
  out.extent = extentOf(out, bytes);
  return CL_SUCCESS;
}

cl_int makePackedBufferRect(const Memory &image, const Memory &buffer,
                            size_t offset, const size_t *region, Rect &out) {
  const size_t row_bytes = region[0] * image.imageElementSize();
  CheckedSize size = CheckedSize(row_bytes) * region[1] * region[2];
  CheckedSize end = CheckedSize(offset) + size.value();
  if (!size.valid() || !end.fitsIn(buffer.size()))
    return CL_INVALID_VALUE;
  out.offset = offset;
  out.row_pitch = row_bytes;
  out.slice_pitch = row_bytes * region[1];
  out.extent = end.value();
  return CL_SUCCESS;
}

Command fillImageCommand(Memory &image, std::vector<unsigned char> texel,
                         const Rect &image_rect, const Region &region) {
  Ref<Memory> target(&image);
  Command command(CL_COMMAND_FILL_IMAGE, [target, texel, image_rect, region] {
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y)
        fillBytes(target->data() + image_rect.offset +
                      z * image_rect.slice_pitch + y * image_rect.row_pitch,
                  region[0], texel.data(), texel.size());
    return CL_SUCCESS;
  });
  command.writes(image, image_rect.offset,
                 image_rect.extent - image_rect.offset);
  return command;
}

Command mapImageCommand(Memory &image, cl_map_flags flags,
                        const Rect &image_rect, void *&mapped) {
  image.addMapping();
  mapped = image.data() + image_rect.offset;
  Command command(CL_COMMAND_MAP_IMAGE);
  if (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    command.writes(image);
  else
    command.reads(image);
  return command;
}

} // namespace weft
