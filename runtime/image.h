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

// Checks an origin and region of an image command against `image`
// (CL_INVALID_VALUE for a null pointer, an empty region, a region beyond the
// image, or a non-zero unused coordinate).
cl_int checkImageRegion(const Memory &image, const size_t *origin,
                        const size_t *region);

} // namespace weft
