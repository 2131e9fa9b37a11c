// Image memory objects: the rules of cl_image_desc (sizes, pitches, images
// over buffers and over other images) and the geometry the image commands
// and kernels share. The object itself is a Memory (runtime/memory.h).
#pragma once
#include <CL/cl.h>

#include <array>
#include <cstddef>

namespace weft {

class Device;
class Memory;

// Whether `type` is one of the six image types.
bool isImageType(cl_mem_object_type type);

// Checks `desc` for an image of `format` (supported, element size known)
// created with `flags` and `host_ptr`, and writes into `resolved` the
// description the image will have: its own storage's pitches, or the
// host_ptr's (CL_MEM_USE_HOST_PTR) or buffer's. `storage` is
// desc.mem_object's object, already checked to be a live memory object of
// the context (or null). Returns CL_SUCCESS or the spec's error code.
cl_int resolveImageDesc(const Device &device, const cl_image_format &format,
                        const cl_image_desc &desc, cl_mem_flags flags,
                        void *host_ptr, const Memory *storage,
                        cl_image_desc &resolved);

// The pitches of host memory holding `desc`'s texels as the application
// laid them out (CL_MEM_COPY_HOST_PTR: desc's pitches, or tight ones).
size_t hostRowPitch(const cl_image_desc &desc, size_t element_size);
size_t hostSlicePitch(const cl_image_desc &desc, size_t element_size);

// Texels along x, y and z (rows and slices; layers count as slices) of an
// image of this description, and the dimensions an origin/region use.
std::array<size_t, 3> imageExtent(const cl_image_desc &desc);

// cl_khr_mipmap_image: the levels an image of `desc` has (num_mip_levels 0
// and 1 both mean one), and the most its width, height and depth allow
// (each level halves them, rounding down, to 1).
cl_uint mipLevelCount(const cl_image_desc &desc);
cl_uint maxMipLevels(const cl_image_desc &desc);

// Which coordinate of an image command's origin names the mip level of a
// mipmapped image of `type`: the one after the image's own (origin[1] of a
// 1-D image, origin[2] of a 1-D array or 2-D image, origin[3] of a 2-D
// array or 3-D image).
int mipLevelCoordinate(cl_mem_object_type type);
// The mip level `origin` names; 0 for an image without mipmaps.
cl_uint originLevel(const Memory &image, const size_t *origin);

// Checks an origin and region of an image command against `image`, at the
// level the origin names (CL_INVALID_VALUE for a null pointer, an empty
// region, a region beyond the level, or a non-zero unused coordinate;
// CL_INVALID_MIP_LEVEL for a level the image lacks).
cl_int checkImageRegion(const Memory &image, const size_t *origin,
                        const size_t *region);

} // namespace weft
