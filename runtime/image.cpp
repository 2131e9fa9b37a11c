#include "runtime/image.h"

#include "runtime/checked_math.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/device_features.h"
#include "runtime/image_format.h"
#include "runtime/memory.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace weft {
namespace {

bool isArray(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
         type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}
bool hasHeight(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
         type == CL_MEM_OBJECT_IMAGE3D;
}
// Whether the image is a stack of slices (3-D) or layers (arrays).
bool hasSlices(cl_mem_object_type type) {
  return isArray(type) || type == CL_MEM_OBJECT_IMAGE3D;
}

size_t maxWidth(cl_mem_object_type type) {
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    return kImageMaxBufferTexels;
  case CL_MEM_OBJECT_IMAGE3D:
    return kImage3dMaxSize;
  default:
    return kImage2dMaxSize;
  }
}

// The smallest pitches texels of `desc` fit in.
size_t tightRowPitch(const cl_image_desc &desc, size_t element_size) {
  return desc.image_width * element_size;
}
size_t tightSlicePitch(const cl_image_desc &desc, size_t row_pitch) {
  if (desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    return row_pitch;
  return row_pitch * (hasHeight(desc.image_type) ? desc.image_height : 1);
}
size_t sliceCount(const cl_image_desc &desc) {
  if (desc.image_type == CL_MEM_OBJECT_IMAGE3D)
    return desc.image_depth;
  return isArray(desc.image_type) ? desc.image_array_size : 1;
}

} // namespace

size_t hostRowPitch(const cl_image_desc &desc, size_t element_size) {
  return desc.image_row_pitch ? desc.image_row_pitch
                              : tightRowPitch(desc, element_size);
}
size_t hostSlicePitch(const cl_image_desc &desc, size_t element_size) {
  return desc.image_slice_pitch
             ? desc.image_slice_pitch
             : tightSlicePitch(desc, hostRowPitch(desc, element_size));
}

std::array<size_t, 3> imageExtent(const cl_image_desc &desc) {
  switch (desc.image_type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return {desc.image_width, desc.image_array_size, 1};
  case CL_MEM_OBJECT_IMAGE2D:
    return {desc.image_width, desc.image_height, 1};
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return {desc.image_width, desc.image_height, desc.image_array_size};
  case CL_MEM_OBJECT_IMAGE3D:
    return {desc.image_width, desc.image_height, desc.image_depth};
  default:
    return {desc.image_width, 1, 1};
  }
}

cl_int checkImageRegion(const Memory &image, const size_t *origin,
                        const size_t *region) {
  if (!origin || !region)
    return CL_INVALID_VALUE;
  std::array<size_t, 3> extent = imageExtent(image.imageDesc());
  for (int d = 0; d < 3; ++d) {
    // A dimension the image lacks has extent 1: origin 0, region 1.
    if (region[d] == 0 || origin[d] >= extent[d] ||
        region[d] > extent[d] - origin[d])
      return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

bool isImageType(cl_mem_object_type type) {
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    return true;
  default:
    return false;
  }
}

cl_int resolveImageDesc(const Device &device, const cl_image_format &format,
                        const cl_image_desc &desc, cl_mem_flags flags,
                        void *host_ptr, const Memory *storage,
                        cl_image_desc &resolved) {
  const cl_mem_object_type type = desc.image_type;
  if (!isImageType(type))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (desc.num_mip_levels != 0 || desc.num_samples != 0)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  const size_t element = imageElementSize(format);
  resolved = desc;
  if (!hasHeight(type))
    resolved.image_height = 1;
  if (type != CL_MEM_OBJECT_IMAGE3D)
    resolved.image_depth = 1;
  if (!isArray(type))
    resolved.image_array_size = 1;

  if (desc.image_width == 0 || desc.image_width > maxWidth(type))
    return CL_INVALID_IMAGE_SIZE;
  size_t max_height =
      type == CL_MEM_OBJECT_IMAGE3D ? kImage3dMaxSize : kImage2dMaxSize;
  if (hasHeight(type) &&
      (desc.image_height == 0 || desc.image_height > max_height))
    return CL_INVALID_IMAGE_SIZE;
  if (type == CL_MEM_OBJECT_IMAGE3D &&
      (desc.image_depth == 0 || desc.image_depth > kImage3dMaxSize))
    return CL_INVALID_IMAGE_SIZE;
  if (isArray(type) && (desc.image_array_size == 0 ||
                        desc.image_array_size > kImageMaxArraySize))
    return CL_INVALID_IMAGE_SIZE;

  // Only images over a buffer or another image, and images adopting or
  // copying host memory, may name a layout.
  bool over_storage = storage != nullptr;
  if (over_storage) {
    bool allowed =
        (type == CL_MEM_OBJECT_IMAGE1D_BUFFER && !storage->isImage()) ||
        (type == CL_MEM_OBJECT_IMAGE2D &&
         (!storage->isImage() || storage->type() == CL_MEM_OBJECT_IMAGE2D));
    if (!allowed)
      return CL_INVALID_IMAGE_DESCRIPTOR;
  } else if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    return CL_INVALID_IMAGE_DESCRIPTOR;
  }
  bool names_layout = over_storage || host_ptr != nullptr;
  if (!names_layout && (desc.image_row_pitch || desc.image_slice_pitch))
    return CL_INVALID_IMAGE_DESCRIPTOR;

  size_t row_pitch = hostRowPitch(desc, element);
  if (row_pitch < tightRowPitch(desc, element) || row_pitch % element)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (over_storage && row_pitch % (kImagePitchAlignmentPixels * element))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  size_t slice_pitch = 0;
  // The rows of one slice must fit in size_t, or a huge row pitch would
  // wrap the tight slice pitch round to a small one.
  CheckedSize slice_rows =
      CheckedSize(row_pitch) *
      (hasHeight(type) && type != CL_MEM_OBJECT_IMAGE1D_ARRAY
           ? resolved.image_height
           : 1);
  if (!slice_rows.valid())
    return CL_INVALID_IMAGE_SIZE;
  if (hasSlices(type)) {
    slice_pitch = hostSlicePitch(desc, element);
    if (slice_pitch < slice_rows.value() || slice_pitch % row_pitch)
      return CL_INVALID_IMAGE_DESCRIPTOR;
  } // other images ignore it
  CheckedSize bytes =
      CheckedSize(hasSlices(type) ? slice_pitch : row_pitch) *
      (hasSlices(type) ? sliceCount(resolved) : resolved.image_height);
  if (!bytes.valid() || bytes.value() > device.properties().max_mem_alloc_size)
    return CL_INVALID_IMAGE_SIZE;

  if (over_storage) {
    if (storage->isImage()) {
      // Another view of a 2-D image: the same texels and layout.
      const cl_image_desc &other = storage->imageDesc();
      if (!areCompatibleViews(format, storage->imageFormat()))
        return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
      if (desc.image_width != other.image_width ||
          desc.image_height != other.image_height ||
          (desc.image_row_pitch &&
           desc.image_row_pitch != other.image_row_pitch))
        return CL_INVALID_IMAGE_DESCRIPTOR;
      resolved.image_row_pitch = other.image_row_pitch;
      resolved.image_slice_pitch = 0;
      return CL_SUCCESS;
    }
    if (bytes.value() > storage->size())
      return CL_INVALID_IMAGE_SIZE;
    resolved.image_row_pitch = row_pitch;
    resolved.image_slice_pitch = 0;
    return CL_SUCCESS;
  }
  if (host_ptr && (flags & CL_MEM_USE_HOST_PTR)) {
    resolved.image_row_pitch = row_pitch;
    resolved.image_slice_pitch = slice_pitch;
    return CL_SUCCESS;
  }
  // Storage of its own, without padding.
  resolved.image_row_pitch = tightRowPitch(desc, element);
  resolved.image_slice_pitch =
      hasSlices(type) ? tightSlicePitch(resolved, resolved.image_row_pitch) : 0;
  return CL_SUCCESS;
}

Memory *Memory::createImage(Context &context, cl_mem_flags flags,
                            const cl_image_format &format,
                            const cl_image_desc &desc,
                            const ImageHostMemory &host, Memory *storage,
                            std::vector<cl_mem_properties> properties) {
  const size_t element = weft::imageElementSize(format);
  const bool slices = hasSlices(desc.image_type);
  // Kernels and commands step over layers and slices alike.
  const size_t layer_pitch = slices ? desc.image_slice_pitch
                                    : desc.image_row_pitch * desc.image_height;
  const size_t bytes = layer_pitch * sliceCount(desc);
  auto *memory = new (std::nothrow) Memory(context, flags, bytes);
  if (!memory)
    return nullptr;
  memory->type_ = desc.image_type;
  memory->properties_ = std::move(properties);
  memory->image_format_ = format;
  memory->image_desc_ = desc;
  if (storage) {
    memory->parent_ = Ref<Memory>(storage);
    memory->data_ = storage->data();
    memory->uses_svm_pointer_ = storage->usesSvmPointer();
    memory->image_desc_.mem_object = storage;
  } else if (flags & CL_MEM_USE_HOST_PTR) {
    memory->host_ptr_ = host.pointer;
    memory->data_ = static_cast<char *>(host.pointer);
    memory->uses_svm_pointer_ = context.svm().find(host.pointer).has_value();
  } else {
    size_t rounded = (bytes + 127) & ~size_t(127);
    memory->data_ = static_cast<char *>(std::aligned_alloc(128, rounded));
    if (!memory->data_) {
      delete memory;
      return nullptr;
    }
    memory->owns_data_ = true;
    if (flags & CL_MEM_COPY_HOST_PTR) {
      // From the application's layout into the tight one, row by row.
      memory->host_ptr_ = host.pointer;
      const size_t row_bytes = desc.image_width * element;
      for (size_t z = 0; z < sliceCount(desc); ++z)
        for (size_t y = 0; y < desc.image_height; ++y)
          std::memcpy(memory->data_ + z * layer_pitch +
                          y * desc.image_row_pitch,
                      static_cast<const char *>(host.pointer) +
                          z * host.slice_pitch + y * host.row_pitch,
                      row_bytes);
    }
  }
  WeftImage &kernel_image = memory->image_;
  kernel_image.data = reinterpret_cast<unsigned char *>(memory->data_);
  kernel_image.row_pitch = desc.image_row_pitch;
  kernel_image.slice_pitch = layer_pitch;
  kernel_image.width = static_cast<int32_t>(desc.image_width);
  kernel_image.height = static_cast<int32_t>(desc.image_height);
  kernel_image.depth = static_cast<int32_t>(desc.image_depth);
  kernel_image.array_size = static_cast<int32_t>(desc.image_array_size);
  kernel_image.channel_order = static_cast<int32_t>(format.image_channel_order);
  kernel_image.channel_type =
      static_cast<int32_t>(format.image_channel_data_type);
  kernel_image.element_size = static_cast<int32_t>(element);
  kernel_image.channel_count =
      static_cast<int32_t>(channelCount(format.image_channel_order));
  return memory;
}

} // namespace weft
