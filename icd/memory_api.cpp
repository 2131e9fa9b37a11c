// Buffer entry points: creation with every flag, sub-buffers, queries and
// the read/write/copy/fill/map commands.
#include "icd/command_target.h"
#include "icd/info_query.h"
#include "icd/memory_flags.h"
#include "icd/validation.h"
#include "runtime/device.h"
#include "runtime/memory.h"
#include "runtime/memory_commands.h"
#include "runtime/queue.h"
#include "runtime/svm.h"

#include <cstdint>
#include <optional>

using namespace weft;
using icd::CommandTarget;
using icd::submit;
using weft::icd::setError;
using namespace weft::icd::memory_flags;

namespace {

cl_mem createBuffer(cl_context context_handle,
                    std::vector<cl_mem_properties> properties,
                    cl_mem_flags flags, size_t size, void *host_ptr,
                    cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    setError(errcode_ret, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (cl_int err = validateMemoryFlags(flags, host_ptr)) {
    setError(errcode_ret, err);
    return nullptr;
  }
  if (size == 0 || size > context->device().properties().max_mem_alloc_size) {
    setError(errcode_ret, CL_INVALID_BUFFER_SIZE);
    return nullptr;
  }
  // A buffer over SVM memory may not reach past its allocation.
  if (flags & CL_MEM_USE_HOST_PTR) {
    std::optional<SvmAllocation> svm = context->svm().find(host_ptr);
    if (svm && !svm->contains(host_ptr, size)) {
      setError(errcode_ret, CL_INVALID_BUFFER_SIZE);
      return nullptr;
    }
  }
  if (!(flags & kAccessFlags))
    flags |= CL_MEM_READ_WRITE;
  Memory *memory = Memory::createBuffer(*context, flags, size, host_ptr,
                                        std::move(properties));
  setError(errcode_ret, memory ? CL_SUCCESS : CL_MEM_OBJECT_ALLOCATION_FAILURE);
  return memory;
}

// Validates the queue, memory objects and wait list every buffer command
// takes.
cl_int prepareCommand(cl_command_queue queue_handle, cl_uint num_events,
                      const cl_event *events, CommandTarget &out,
                      std::initializer_list<cl_mem> buffers) {
  out.queue = Queue::fromHandle(queue_handle);
  if (!out.queue)
    return CL_INVALID_COMMAND_QUEUE;
  // Images have commands of their own (icd/image_api.cpp).
  if (cl_int err = icd::checkMemoryOperands(*out.queue, buffers,
                                            icd::MemoryOperand::Buffer))
    return err;
  return icd::collectWaitList(out.queue->context(), num_events, events,
                              out.wait_list);
}

bool outOfBounds(const Memory &memory, size_t offset, size_t size) {
  return offset > memory.size() || size > memory.size() - offset;
}

} // namespace

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context,
                                               cl_mem_flags flags, size_t size,
                                               void *host_ptr,
                                               cl_int *errcode_ret) {
  return createBuffer(context, {}, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    size_t size, void *host_ptr, cl_int *errcode_ret) {
  std::vector<cl_mem_properties> list;
  if (properties) {
    // The core spec defines no buffer property; cl_ext_buffer_device_address
    // defines one, a cl_bool, given at most once.
    for (size_t i = 0; properties[i] != 0; i += 2) {
      bool repeated = i != 0 && list.front() == properties[i];
      if (properties[i] != kDevicePrivateAddressProperty || repeated ||
          (properties[i + 1] != CL_TRUE && properties[i + 1] != CL_FALSE)) {
        setError(errcode_ret, CL_INVALID_PROPERTY);
        return nullptr;
      }
      list.push_back(properties[i]);
      list.push_back(properties[i + 1]);
    }
    list.push_back(0);
  }
  return createBuffer(context, std::move(list), flags, size, host_ptr,
                      errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(
    cl_mem handle, cl_mem_flags flags, cl_buffer_create_type create_type,
    const void *create_info, cl_int *errcode_ret) {
  Memory *parent = Memory::fromHandle(handle);
  if (!parent || parent->parent() || parent->isPipe() || parent->isImage()) {
    setError(errcode_ret, CL_INVALID_MEM_OBJECT);
    return nullptr;
  }
  if (flags & ~(kAccessFlags | kHostAccessFlags) ||
      !atMostOne(flags, kAccessFlags) || !atMostOne(flags, kHostAccessFlags)) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  cl_mem_flags parent_flags = parent->flags();
  // A sub-buffer may not grant what its parent denies.
  if (((parent_flags & CL_MEM_WRITE_ONLY) &&
       (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((parent_flags & CL_MEM_READ_ONLY) &&
       (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((parent_flags & CL_MEM_HOST_WRITE_ONLY) &&
       (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((parent_flags & CL_MEM_HOST_READ_ONLY) &&
       (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((parent_flags & CL_MEM_HOST_NO_ACCESS) &&
       (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  if (create_type != CL_BUFFER_CREATE_TYPE_REGION || !create_info) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  const auto *region = static_cast<const cl_buffer_region *>(create_info);
  if (region->size == 0) {
    setError(errcode_ret, CL_INVALID_BUFFER_SIZE);
    return nullptr;
  }
  if (outOfBounds(*parent, region->origin, region->size)) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  size_t align =
      parent->context().device().properties().mem_base_addr_align_bits / 8;
  if (region->origin % align) {
    setError(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    return nullptr;
  }
  if (!(flags & kAccessFlags))
    flags |= parent_flags & kAccessFlags;
  if (!(flags & kHostAccessFlags))
    flags |= parent_flags & kHostAccessFlags;
  flags |= parent_flags & kHostPointerFlags;
  Memory *memory =
      Memory::createSubBuffer(*parent, flags, region->origin, region->size);
  setError(errcode_ret, memory ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return memory;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem handle) {
  Memory *memory = Memory::fromHandle(handle);
  if (!memory)
    return CL_INVALID_MEM_OBJECT;
  memory->retainApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem handle) {
  Memory *memory = Memory::fromHandle(handle);
  if (!memory)
    return CL_INVALID_MEM_OBJECT;
  memory->releaseApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem handle, void(CL_CALLBACK *pfn_notify)(cl_mem, void *),
    void *user_data) {
  Memory *memory = Memory::fromHandle(handle);
  if (!memory)
    return CL_INVALID_MEM_OBJECT;
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  memory->addDestructorCallback(pfn_notify, user_data);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(
    cl_mem handle, cl_mem_info param_name, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret) {
  Memory *memory = Memory::fromHandle(handle);
  if (!memory)
    return CL_INVALID_MEM_OBJECT;
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  switch (param_name) {
  case CL_MEM_TYPE:
    return out.value(memory->type());
  case CL_MEM_FLAGS:
    return out.value(memory->flags());
  case CL_MEM_SIZE:
    return out.value(memory->size());
  case CL_MEM_HOST_PTR:
    return out.value(memory->flags() & CL_MEM_USE_HOST_PTR
                         ? memory->hostPointer()
                         : nullptr);
  case CL_MEM_MAP_COUNT:
    return out.value(memory->mapCount());
  case CL_MEM_REFERENCE_COUNT:
    return out.value(memory->apiReferenceCount());
  case CL_MEM_CONTEXT:
    return out.value(static_cast<cl_context>(&memory->context()));
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    return out.value(static_cast<cl_mem>(memory->parent()));
  case CL_MEM_OFFSET:
    return out.value(memory->offset());
  case CL_MEM_USES_SVM_POINTER:
    return out.value(cl_bool(memory->usesSvmPointer() ? CL_TRUE : CL_FALSE));
  case CL_MEM_PROPERTIES:
    return out.array(memory->properties());
  // cl_ext_buffer_device_address: the same address for every device of the
  // context (they all run on this CPU's memory).
  case kDeviceAddressQuery: {
    if (!memory->hasDeviceAddress())
      return CL_INVALID_OPERATION;
    std::vector<cl_ulong> addresses(
        memory->context().devices().size(),
        static_cast<cl_ulong>(reinterpret_cast<uintptr_t>(memory->data())));
    return out.array(addresses);
  }
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_read, size_t offset,
    size_t size, void *ptr, cl_uint num_events, const cl_event *events,
    cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareCommand(queue, num_events, events, target, {buffer}))
    return err;
  Memory &memory = *Memory::fromHandle(buffer);
  if (!ptr || outOfBounds(memory, offset, size) || size == 0)
    return CL_INVALID_VALUE;
  if (!hostMayRead(memory))
    return CL_INVALID_OPERATION;
  return submit(
      target, readBufferCommand(memory, offset, size, ptr, copyHelpers(target)),
      blocking_read, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_write,
    size_t offset, size_t size, const void *ptr, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareCommand(queue, num_events, events, target, {buffer}))
    return err;
  Memory &memory = *Memory::fromHandle(buffer);
  if (!ptr || outOfBounds(memory, offset, size) || size == 0)
    return CL_INVALID_VALUE;
  if (!hostMayWrite(memory))
    return CL_INVALID_OPERATION;
  return submit(
      target,
      writeBufferCommand(memory, offset, size, ptr, copyHelpers(target)),
      blocking_write, event);
}

cl_int icd::copyBuffer(CommandTarget &target, cl_mem src_buffer,
                       cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                       size_t size, cl_event *event) {
  Memory &src = *Memory::fromHandle(src_buffer);
  Memory &dst = *Memory::fromHandle(dst_buffer);
  if (size == 0 || outOfBounds(src, src_offset, size) ||
      outOfBounds(dst, dst_offset, size))
    return CL_INVALID_VALUE;
  // Also sub-buffers of one buffer: compare the bytes themselves.
  const char *s = src.data() + src_offset;
  const char *d = dst.data() + dst_offset;
  if (s < d + size && d < s + size)
    return CL_MEM_COPY_OVERLAP;
  return submit(target,
                copyBufferCommand(src, src_offset, dst, dst_offset, size,
                                  copyHelpers(target)),
                false, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(
    cl_command_queue queue, cl_mem src_buffer, cl_mem dst_buffer,
    size_t src_offset, size_t dst_offset, size_t size, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareCommand(queue, num_events, events, target,
                                  {src_buffer, dst_buffer}))
    return err;
  return icd::copyBuffer(target, src_buffer, dst_buffer, src_offset, dst_offset,
                         size, event);
}

cl_int icd::fillBuffer(CommandTarget &target, cl_mem buffer,
                       const void *pattern, size_t pattern_size, size_t offset,
                       size_t size, cl_event *event) {
  Memory &memory = *Memory::fromHandle(buffer);
  bool power_of_two = pattern_size && !(pattern_size & (pattern_size - 1));
  if (!pattern || !power_of_two || pattern_size > 128 ||
      offset % pattern_size || size % pattern_size ||
      outOfBounds(memory, offset, size))
    return CL_INVALID_VALUE;
  return submit(target,
                fillBufferCommand(memory, pattern, pattern_size, offset, size,
                                  copyHelpers(target)),
                false, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(
    cl_command_queue queue, cl_mem buffer, const void *pattern,
    size_t pattern_size, size_t offset, size_t size, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareCommand(queue, num_events, events, target, {buffer}))
    return err;
  return icd::fillBuffer(target, buffer, pattern, pattern_size, offset, size,
                         event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_read,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
    cl_uint num_events, const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareCommand(queue, num_events, events, target, {buffer}))
    return err;
  Memory &memory = *Memory::fromHandle(buffer);
  Rect buffer_rect, host_rect;
  if (!ptr ||
      makeRect(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch,
               memory.size(), buffer_rect) ||
      makeRect(host_origin, region, host_row_pitch, host_slice_pitch, SIZE_MAX,
               host_rect))
    return CL_INVALID_VALUE;
  if (!hostMayRead(memory))
    return CL_INVALID_OPERATION;
  Region r = {region[0], region[1], region[2]};
  return submit(target,
                readBufferRectCommand(memory, buffer_rect, host_rect, r, ptr,
                                      copyHelpers(target)),
                blocking_read, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_write,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
    cl_uint num_events, const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareCommand(queue, num_events, events, target, {buffer}))
    return err;
  Memory &memory = *Memory::fromHandle(buffer);
  Rect buffer_rect, host_rect;
  if (!ptr ||
      makeRect(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch,
               memory.size(), buffer_rect) ||
      makeRect(host_origin, region, host_row_pitch, host_slice_pitch, SIZE_MAX,
               host_rect))
    return CL_INVALID_VALUE;
  if (!hostMayWrite(memory))
    return CL_INVALID_OPERATION;
  Region r = {region[0], region[1], region[2]};
  return submit(target,
                writeBufferRectCommand(memory, buffer_rect, host_rect, r, ptr,
                                       copyHelpers(target)),
                blocking_write, event);
}

cl_int icd::copyBufferRect(CommandTarget &target, cl_mem src_buffer,
                           cl_mem dst_buffer, const size_t *src_origin,
                           const size_t *dst_origin, const size_t *region,
                           size_t src_row_pitch, size_t src_slice_pitch,
                           size_t dst_row_pitch, size_t dst_slice_pitch,
                           cl_event *event) {
  Memory &src = *Memory::fromHandle(src_buffer);
  Memory &dst = *Memory::fromHandle(dst_buffer);
  Rect src_rect, dst_rect;
  if (makeRect(src_origin, region, src_row_pitch, src_slice_pitch, src.size(),
               src_rect) ||
      makeRect(dst_origin, region, dst_row_pitch, dst_slice_pitch, dst.size(),
               dst_rect))
    return CL_INVALID_VALUE;
  if (&src == &dst) {
    if (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch)
      return CL_INVALID_VALUE;
    if (rectsOverlap(src_rect, dst_rect, {region[0], region[1], region[2]}))
      return CL_MEM_COPY_OVERLAP;
  }
  Region r = {region[0], region[1], region[2]};
  return submit(target,
                copyBufferRectCommand(src, src_rect, dst, dst_rect, r,
                                      copyHelpers(target)),
                false, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue queue, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events, const cl_event *events,
    cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareCommand(queue, num_events, events, target,
                                  {src_buffer, dst_buffer}))
    return err;
  return icd::copyBufferRect(target, src_buffer, dst_buffer, src_origin,
                             dst_origin, region, src_row_pitch, src_slice_pitch,
                             dst_row_pitch, dst_slice_pitch, event);
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_map,
    cl_map_flags map_flags, size_t offset, size_t size, cl_uint num_events,
    const cl_event *events, cl_event *event, cl_int *errcode_ret) {
  CommandTarget target;
  if (cl_int err =
          prepareCommand(queue, num_events, events, target, {buffer})) {
    setError(errcode_ret, err);
    return nullptr;
  }
  Memory &memory = *Memory::fromHandle(buffer);
  cl_int flags_error = validateMapFlags(map_flags, memory);
  if (size == 0 || outOfBounds(memory, offset, size) ||
      flags_error == CL_INVALID_VALUE) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  if (flags_error) {
    setError(errcode_ret, flags_error);
    return nullptr;
  }
  void *mapped = nullptr;
  Command command = mapBufferCommand(memory, map_flags, offset, size, mapped);
  cl_int err = submit(target, std::move(command), blocking_map, event);
  setError(errcode_ret, err);
  return err == CL_SUCCESS ? mapped : nullptr;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(
    cl_command_queue queue, cl_mem memobj, void *mapped_ptr, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareCommand(queue, num_events, events, target, {}))
    return err;
  // Buffers and images alike.
  Memory *object = Memory::fromHandle(memobj);
  if (!object || object->isPipe())
    return CL_INVALID_MEM_OBJECT;
  if (&object->context() != &target.queue->context())
    return CL_INVALID_CONTEXT;
  Memory &memory = *object;
  char *p = static_cast<char *>(mapped_ptr);
  if (!p || p < memory.data() || p > memory.data() + memory.size() ||
      memory.mapCount() == 0)
    return CL_INVALID_VALUE;
  return submit(target, unmapCommand(memory), false, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(
    cl_command_queue queue, cl_uint num_mem_objects, const cl_mem *mem_objects,
    cl_mem_migration_flags flags, cl_uint num_events, const cl_event *events,
    cl_event *event) {
  CommandTarget target;
  if (cl_int err = prepareCommand(queue, num_events, events, target, {}))
    return err;
  if (num_mem_objects == 0 || !mem_objects ||
      (flags &
       ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                               CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
    return CL_INVALID_VALUE;
  std::vector<Memory *> objects;
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    Memory *memory = Memory::fromHandle(mem_objects[i]);
    if (!memory)
      return CL_INVALID_MEM_OBJECT;
    if (&memory->context() != &target.queue->context())
      return CL_INVALID_CONTEXT;
    objects.push_back(memory);
  }
  return submit(target, migrateCommand(objects, flags), false, event);
}
