// Image entry points: creation (clCreateImage and the 1.x forms), the
// supported formats, queries, and the read/write/copy/fill/map commands.
// The rules of image descriptions live in runtime/image.cpp.
#include "icd/command_target.h"
#include "icd/info_query.h"
#include "icd/memory_flags.h"
#include "icd/validation.h"
#include "runtime/device.h"
#include "runtime/image.h"
#include "runtime/image_commands.h"
#include "runtime/image_format.h"
#include "runtime/memory.h"
#include "runtime/queue.h"

#include <cstdint>
#include <vector>

using namespace weft;
using namespace weft::icd::memory_flags;
using icd::CommandTarget;
using icd::submit;
using weft::icd::setError;

namespace {

// CL_INVALID_IMAGE_FORMAT_DESCRIPTOR for a pair the spec does not define,
// CL_IMAGE_FORMAT_NOT_SUPPORTED for one it does that Weft lacks (or lacks
// for this image type and these flags).
cl_int checkFormat(const cl_image_format *format, cl_mem_object_type type,
                   cl_mem_flags flags) {
  if (!format)
    return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  if (imageElementSize(*format) == 0) {
    bool defined_elsewhere =
        format->image_channel_order == CL_DEPTH_STENCIL ||
        format->image_channel_data_type == CL_UNORM_INT24 ||
        format->image_channel_data_type == CL_UNORM_INT_101010_2;
    return defined_elsewhere ? CL_IMAGE_FORMAT_NOT_SUPPORTED
                             : CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  }
  if (!isSupportedImageFormat(*format, type, flags))
    return CL_IMAGE_FORMAT_NOT_SUPPORTED;
  return CL_SUCCESS;
}

// The flags of an image over `storage` (a buffer or image): it may not ask
// for host memory of its own nor grant what the storage denies, and takes
// from the storage what it leaves unsaid.
cl_int inheritFlags(const Memory &storage, cl_mem_flags &flags) {
  cl_mem_flags from = storage.flags();
  if (flags & kHostPointerFlags)
    return CL_INVALID_VALUE;
  if (((from & CL_MEM_WRITE_ONLY) &&
       (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((from & CL_MEM_READ_ONLY) &&
       (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((from & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((from & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((from & CL_MEM_HOST_NO_ACCESS) &&
       (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    return CL_INVALID_VALUE;
  if (!(flags & kAccessFlags))
    flags |= from & kAccessFlags;
  if (!(flags & kHostAccessFlags))
    flags |= from & kHostAccessFlags;
  flags |= from & kHostPointerFlags;
  return CL_SUCCESS;
}

cl_mem createImage(cl_context context_handle,
                   std::vector<cl_mem_properties> properties,
                   cl_mem_flags flags, const cl_image_format *format,
                   const cl_image_desc *desc, void *host_ptr,
                   cl_int *errcode_ret) {
  auto fail = [&](cl_int code) -> cl_mem {
    setError(errcode_ret, code);
    return nullptr;
  };
  Context *context = Context::fromHandle(context_handle);
  if (!context)
    return fail(CL_INVALID_CONTEXT);
  if (cl_int err = validateMemoryFlags(flags, host_ptr))
    return fail(err);
  if (!desc || !isImageType(desc->image_type))
    return fail(CL_INVALID_IMAGE_DESCRIPTOR);
  Memory *storage = nullptr;
  if (desc->mem_object) {
    storage = Memory::fromHandle(desc->mem_object);
    if (!storage || storage->isPipe() || &storage->context() != context)
      return fail(CL_INVALID_IMAGE_DESCRIPTOR);
    if (host_ptr)
      return fail(CL_INVALID_VALUE);
    if (cl_int err = inheritFlags(*storage, flags))
      return fail(err);
  }
  if (!(flags & kAccessFlags))
    flags |= CL_MEM_READ_WRITE;
  if (cl_int err = checkFormat(format, desc->image_type, flags))
    return fail(err);
  cl_image_desc resolved;
  if (cl_int err =
          resolveImageDesc(context->device(), *format, *desc, flags,
                           storage ? nullptr : host_ptr, storage, resolved))
    return fail(err);
  ImageHostMemory host;
  if (host_ptr) {
    size_t element = imageElementSize(*format);
    host = {host_ptr, hostRowPitch(*desc, element),
            hostSlicePitch(*desc, element)};
  }
  Memory *image = Memory::createImage(*context, flags, *format, resolved, host,
                                      storage, std::move(properties));
  setError(errcode_ret, image ? CL_SUCCESS : CL_MEM_OBJECT_ALLOCATION_FAILURE);
  return image;
}

cl_int prepareImageCommand(cl_command_queue queue_handle, cl_uint num_events,
                           const cl_event *events, CommandTarget &out,
                           std::initializer_list<cl_mem> images,
                           std::initializer_list<cl_mem> buffers = {}) {
  out.queue = Queue::fromHandle(queue_handle);
  if (!out.queue)
    return CL_INVALID_COMMAND_QUEUE;
  if (cl_int err = icd::checkMemoryOperands(*out.queue, images,
                                            icd::MemoryOperand::Image))
    return err;
  if (cl_int err = icd::checkMemoryOperands(*out.queue, buffers,
                                            icd::MemoryOperand::Buffer))
    return err;
  return icd::collectWaitList(out.queue->context(), num_events, events,
                              out.wait_list);
}

bool sameFormat(const cl_image_format &a, const cl_image_format &b) {
  return a.image_channel_order == b.image_channel_order &&
         a.image_channel_data_type == b.image_channel_data_type;
}

// The bytes between slices or layers of a level that clGetImageInfo (level
// 0) and clEnqueueMapImage report: 0 for images without them.
size_t reportedSlicePitch(const Memory &image, cl_uint level = 0) {
  switch (image.type()) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    return image.imageLevel(level).slice_pitch;
  default:
    return 0;
  }
}

// clEnqueueCopyImageToBuffer and clEnqueueCopyBufferToImage: the image
// region and the buffer's packed bytes from `offset`, one way or the other.
} // namespace

cl_int icd::copyImageAndBuffer(CommandTarget &target, cl_mem image_handle,
                               cl_mem buffer_handle, const size_t *origin,
                               const size_t *region, size_t offset,
                               bool to_buffer, cl_event *event) {
  Memory &image = *Memory::fromHandle(image_handle);
  Memory &buffer = *Memory::fromHandle(buffer_handle);
  if (cl_int err = checkImageRegion(image, origin, region))
    return err;
  Rect buffer_rect;
  if (makePackedBufferRect(image, buffer, offset, region, buffer_rect))
    return CL_INVALID_VALUE;
  Rect image_rect = imageRect(image, origin, region);
  Region bytes = imageRegionBytes(image, region);
  Command command =
      to_buffer ? copyBufferRectCommand(image, image_rect, buffer, buffer_rect,
                                        bytes, copyHelpers(target),
                                        CL_COMMAND_COPY_IMAGE_TO_BUFFER)
                : copyBufferRectCommand(buffer, buffer_rect, image, image_rect,
                                        bytes, copyHelpers(target),
                                        CL_COMMAND_COPY_BUFFER_TO_IMAGE);
  return submit(target, std::move(command), false, event);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(
    cl_context context, cl_mem_flags flags, const cl_image_format *format,
    const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret) {
  return createImage(context, {}, flags, format, desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    const cl_image_format *format, const cl_image_desc *desc, void *host_ptr,
    cl_int *errcode_ret) {
  std::vector<cl_mem_properties> list;
  if (properties) {
    // No image property is defined by the core spec.
    if (properties[0] != 0) {
      setError(errcode_ret, CL_INVALID_PROPERTY);
      return nullptr;
    }
    list.push_back(0);
  }
  return createImage(context, std::move(list), flags, format, desc, host_ptr,
                     errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage2D(cl_context context, cl_mem_flags flags,
                const cl_image_format *format, size_t width, size_t height,
                size_t row_pitch, void *host_ptr, cl_int *errcode_ret) {
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = width;
  desc.image_height = height;
  desc.image_row_pitch = row_pitch;
  return createImage(context, {}, flags, format, &desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(
    cl_context context, cl_mem_flags flags, const cl_image_format *format,
    size_t width, size_t height, size_t depth, size_t row_pitch,
    size_t slice_pitch, void *host_ptr, cl_int *errcode_ret) {
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE3D;
  desc.image_width = width;
  desc.image_height = height;
  desc.image_depth = depth;
  desc.image_row_pitch = row_pitch;
  desc.image_slice_pitch = slice_pitch;
  // The 1.x function required a real 3-D image.
  if (depth == 1) {
    setError(errcode_ret, CL_INVALID_IMAGE_SIZE);
    return nullptr;
  }
  return createImage(context, {}, flags, format, &desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(
    cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
    cl_uint num_entries, cl_image_format *image_formats,
    cl_uint *num_image_formats) {
  if (!Context::fromHandle(context))
    return CL_INVALID_CONTEXT;
  if ((flags & ~(kAccessFlags | kHostAccessFlags | kHostPointerFlags |
                 CL_MEM_KERNEL_READ_AND_WRITE)) ||
      !isImageType(image_type) || (num_entries == 0 && image_formats))
    return CL_INVALID_VALUE;
  std::vector<cl_image_format> formats =
      supportedImageFormats(image_type, flags);
  if (image_formats)
    for (cl_uint i = 0; i < num_entries && i < formats.size(); ++i)
      image_formats[i] = formats[i];
  if (num_image_formats)
    *num_image_formats = static_cast<cl_uint>(formats.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem handle,
                                               cl_image_info param_name,
                                               size_t param_value_size,
                                               void *param_value,
                                               size_t *param_value_size_ret) {
  Memory *image = Memory::fromHandle(handle);
  if (!image || !image->isImage())
    return CL_INVALID_MEM_OBJECT;
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  const cl_image_desc &desc = image->imageDesc();
  const cl_mem_object_type type = image->type();
  const bool has_height = type == CL_MEM_OBJECT_IMAGE2D ||
                          type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                          type == CL_MEM_OBJECT_IMAGE3D;
  const bool is_array = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                        type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  switch (param_name) {
  case CL_IMAGE_FORMAT:
    return out.value(image->imageFormat());
  case CL_IMAGE_ELEMENT_SIZE:
    return out.value(image->imageElementSize());
  case CL_IMAGE_ROW_PITCH:
    return out.value<size_t>(desc.image_row_pitch);
  case CL_IMAGE_SLICE_PITCH:
    return out.value(reportedSlicePitch(*image));
  case CL_IMAGE_WIDTH:
    return out.value<size_t>(desc.image_width);
  case CL_IMAGE_HEIGHT:
    return out.value<size_t>(has_height ? desc.image_height : 0);
  case CL_IMAGE_DEPTH:
    return out.value<size_t>(type == CL_MEM_OBJECT_IMAGE3D ? desc.image_depth
                                                           : 0);
  case CL_IMAGE_ARRAY_SIZE:
    return out.value<size_t>(is_array ? desc.image_array_size : 0);
  case CL_IMAGE_BUFFER: {
    Memory *storage = image->parent();
    return out.value(static_cast<cl_mem>(
        storage && !storage->isImage() ? storage : nullptr));
  }
  case CL_IMAGE_NUM_MIP_LEVELS:
    return out.value<cl_uint>(desc.num_mip_levels);
  case CL_IMAGE_NUM_SAMPLES:
    return out.value<cl_uint>(0);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(
    cl_command_queue queue, cl_mem image_handle, cl_bool blocking_read,
    const size_t *origin, const size_t *region, size_t row_pitch,
    size_t slice_pitch, void *ptr, cl_uint num_events, const cl_event *events,
    cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareImageCommand(queue, num_events, events, target,
                                       {image_handle}))
    return err;
  Memory &image = *Memory::fromHandle(image_handle);
  if (!ptr)
    return CL_INVALID_VALUE;
  if (cl_int err = checkImageRegion(image, origin, region))
    return err;
  Rect host_rect;
  if (makeHostImageRect(image, region, row_pitch, slice_pitch, host_rect))
    return CL_INVALID_VALUE;
  if (!hostMayRead(image))
    return CL_INVALID_OPERATION;
  return submit(
      target,
      readBufferRectCommand(image, imageRect(image, origin, region), host_rect,
                            imageRegionBytes(image, region), ptr,
                            copyHelpers(target), CL_COMMAND_READ_IMAGE),
      blocking_read, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(
    cl_command_queue queue, cl_mem image_handle, cl_bool blocking_write,
    const size_t *origin, const size_t *region, size_t input_row_pitch,
    size_t input_slice_pitch, const void *ptr, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareImageCommand(queue, num_events, events, target,
                                       {image_handle}))
    return err;
  Memory &image = *Memory::fromHandle(image_handle);
  if (!ptr)
    return CL_INVALID_VALUE;
  if (cl_int err = checkImageRegion(image, origin, region))
    return err;
  Rect host_rect;
  if (makeHostImageRect(image, region, input_row_pitch, input_slice_pitch,
                        host_rect))
    return CL_INVALID_VALUE;
  if (!hostMayWrite(image))
    return CL_INVALID_OPERATION;
  return submit(
      target,
      writeBufferRectCommand(image, imageRect(image, origin, region), host_rect,
                             imageRegionBytes(image, region), ptr,
                             copyHelpers(target), CL_COMMAND_WRITE_IMAGE),
      blocking_write, event);
}

cl_int icd::copyImage(CommandTarget &target, cl_mem src_handle,
                      cl_mem dst_handle, const size_t *src_origin,
                      const size_t *dst_origin, const size_t *region,
                      cl_event *event) {
  Memory &src = *Memory::fromHandle(src_handle);
  Memory &dst = *Memory::fromHandle(dst_handle);
  if (!sameFormat(src.imageFormat(), dst.imageFormat()))
    return CL_IMAGE_FORMAT_MISMATCH;
  if (cl_int err = checkImageRegion(src, src_origin, region))
    return err;
  if (cl_int err = checkImageRegion(dst, dst_origin, region))
    return err;
  if (&src == &dst) {
    // Different mip levels never overlap.
    bool overlap = originLevel(src, src_origin) == originLevel(dst, dst_origin);
    for (int d = 0; d < 3; ++d)
      if (src_origin[d] + region[d] <= dst_origin[d] ||
          dst_origin[d] + region[d] <= src_origin[d])
        overlap = false;
    if (overlap)
      return CL_MEM_COPY_OVERLAP;
  }
  return submit(target,
                copyBufferRectCommand(src, imageRect(src, src_origin, region),
                                      dst, imageRect(dst, dst_origin, region),
                                      imageRegionBytes(src, region),
                                      copyHelpers(target),
                                      CL_COMMAND_COPY_IMAGE),
                false, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(
    cl_command_queue queue, cl_mem src_handle, cl_mem dst_handle,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    cl_uint num_events, const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareImageCommand(queue, num_events, events, target,
                                       {src_handle, dst_handle}))
    return err;
  return icd::copyImage(target, src_handle, dst_handle, src_origin, dst_origin,
                        region, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue queue, cl_mem src_image, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_events, const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareImageCommand(queue, num_events, events, target,
                                       {src_image}, {dst_buffer}))
    return err;
  return icd::copyImageAndBuffer(target, src_image, dst_buffer, src_origin,
                                 region, dst_offset, /*to_buffer=*/true, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue queue, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_events, const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareImageCommand(queue, num_events, events, target,
                                       {dst_image}, {src_buffer}))
    return err;
  return icd::copyImageAndBuffer(target, dst_image, src_buffer, dst_origin,
                                 region, src_offset, /*to_buffer=*/false,
                                 event);
}

cl_int icd::fillImage(CommandTarget &target, cl_mem image_handle,
                      const void *fill_color, const size_t *origin,
                      const size_t *region, cl_event *event) {
  Memory &image = *Memory::fromHandle(image_handle);
  if (!fill_color)
    return CL_INVALID_VALUE;
  if (cl_int err = checkImageRegion(image, origin, region))
    return err;
  std::vector<unsigned char> texel(image.imageElementSize());
  encodeFillColor(image.imageFormat(), fill_color, texel.data());
  return submit(target,
                fillImageCommand(image, std::move(texel),
                                 imageRect(image, origin, region),
                                 imageRegionBytes(image, region)),
                false, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(
    cl_command_queue queue, cl_mem image_handle, const void *fill_color,
    const size_t *origin, const size_t *region, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareImageCommand(queue, num_events, events, target,
                                       {image_handle}))
    return err;
  return icd::fillImage(target, image_handle, fill_color, origin, region,
                        event);
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(
    cl_command_queue queue, cl_mem image_handle, cl_bool blocking_map,
    cl_map_flags map_flags, const size_t *origin, const size_t *region,
    size_t *image_row_pitch, size_t *image_slice_pitch, cl_uint num_events,
    const cl_event *events, cl_event *event, cl_int *errcode_ret) {
  CommandTarget target;
  if (cl_int err = prepareImageCommand(queue, num_events, events, target,
                                       {image_handle})) {
    setError(errcode_ret, err);
    return nullptr;
  }
  Memory &image = *Memory::fromHandle(image_handle);
  if (cl_int err = checkImageRegion(image, origin, region)) {
    setError(errcode_ret, err);
    return nullptr;
  }
  // The pitches of the level the origin names.
  const cl_uint level = originLevel(image, origin);
  size_t slice_pitch = reportedSlicePitch(image, level);
  cl_int flags_error = validateMapFlags(map_flags, image);
  if (!image_row_pitch || (slice_pitch && !image_slice_pitch) ||
      flags_error == CL_INVALID_VALUE) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  if (flags_error) {
    setError(errcode_ret, flags_error);
    return nullptr;
  }
  void *mapped = nullptr;
  Command command = mapImageCommand(image, map_flags,
                                    imageRect(image, origin, region), mapped);
  cl_int err = submit(target, std::move(command), blocking_map, event);
  setError(errcode_ret, err);
  if (err != CL_SUCCESS)
    return nullptr;
  *image_row_pitch = image.imageLevel(level).row_pitch;
  if (image_slice_pitch)
    *image_slice_pitch = slice_pitch;
  return mapped;
}
