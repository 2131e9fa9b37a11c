// Buffer entry points: creation with every flag, sub-buffers, queries and
// the read/write/copy/fill/map commands.
#include "icd/info_query.h"
#include "icd/validation.h"
#include "runtime/device.h"
#include "runtime/memory.h"
#include "runtime/queue.h"

#include <array>
#include <cstring>
#include <functional>
#include <new>

using namespace weft;
using weft::icd::setError;

namespace {

constexpr cl_mem_flags kAccessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kHostPointerFlags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

bool atMostOne(cl_mem_flags flags, cl_mem_flags group) {
  cl_mem_flags set = flags & group;
  return (set & (set - 1)) == 0;
}

cl_int validateBufferFlags(cl_mem_flags flags, void *host_ptr) {
  if (flags & ~(kAccessFlags | kHostAccessFlags | kHostPointerFlags |
                CL_MEM_KERNEL_READ_AND_WRITE))
    return CL_INVALID_VALUE;
  if (!atMostOne(flags, kAccessFlags) || !atMostOne(flags, kHostAccessFlags))
    return CL_INVALID_VALUE;
  if ((flags & CL_MEM_USE_HOST_PTR) &&
      (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return CL_INVALID_VALUE;
  bool wants_pointer = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wants_pointer != (host_ptr != nullptr))
    return CL_INVALID_HOST_PTR;
  return CL_SUCCESS;
}

cl_mem createBuffer(cl_context context_handle,
                    std::vector<cl_mem_properties> properties,
                    cl_mem_flags flags, size_t size, void *host_ptr,
                    cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    setError(errcode_ret, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (cl_int err = validateBufferFlags(flags, host_ptr)) {
    setError(errcode_ret, err);
    return nullptr;
  }
  if (size == 0 || size > context->device().properties().max_mem_alloc_size) {
    setError(errcode_ret, CL_INVALID_BUFFER_SIZE);
    return nullptr;
  }
  if (!(flags & kAccessFlags))
    flags |= CL_MEM_READ_WRITE;
  Memory *memory = Memory::createBuffer(*context, flags, size, host_ptr,
                                        std::move(properties));
  setError(errcode_ret, memory ? CL_SUCCESS : CL_MEM_OBJECT_ALLOCATION_FAILURE);
  return memory;
}

// Validates the queue, buffer and wait list shared by every buffer command.
struct BufferCommand {
  Queue *queue = nullptr;
  std::vector<Ref<Event>> wait_list;
};

cl_int prepareCommand(cl_command_queue queue_handle, cl_uint num_events,
                      const cl_event *events, BufferCommand &out,
                      std::initializer_list<cl_mem> buffers) {
  out.queue = Queue::fromHandle(queue_handle);
  if (!out.queue)
    return CL_INVALID_COMMAND_QUEUE;
  for (cl_mem handle : buffers) {
    Memory *memory = Memory::fromHandle(handle);
    // Pipes hold packets only kernels may touch: no buffer command applies.
    if (!memory || memory->isPipe())
      return CL_INVALID_MEM_OBJECT;
    if (&memory->context() != &out.queue->context())
      return CL_INVALID_CONTEXT;
  }
  return icd::collectWaitList(out.queue->context(), num_events, events,
                              out.wait_list);
}

bool outOfBounds(const Memory &memory, size_t offset, size_t size) {
  return offset > memory.size() || size > memory.size() - offset;
}

// Queues `work` and, for a blocking call, waits for it.
cl_int submit(BufferCommand &command, cl_command_type type, bool blocking,
              cl_event *event_out, std::function<cl_int()> work) {
  Ref<Event> event = command.queue->enqueue(type, std::move(command.wait_list),
                                            std::move(work));
  icd::returnEvent(event, event_out);
  if (blocking && event->wait() < 0)
    return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return CL_SUCCESS;
}

// Rectangle geometry of clEnqueue*BufferRect, after defaulting pitches.
struct Rect {
  size_t origin[3];
  size_t row_pitch;
  size_t slice_pitch;
  size_t offset() const {
    return origin[0] + origin[1] * row_pitch + origin[2] * slice_pitch;
  }
  size_t extent(const size_t region[3]) const {
    return offset() + (region[2] - 1) * slice_pitch +
           (region[1] - 1) * row_pitch + region[0];
  }
};

cl_int makeRect(const size_t *origin, const size_t *region, size_t row_pitch,
                size_t slice_pitch, Rect &out) {
  if (!origin || !region || region[0] == 0 || region[1] == 0 || region[2] == 0)
    return CL_INVALID_VALUE;
  if (row_pitch == 0)
    row_pitch = region[0];
  if (slice_pitch == 0)
    slice_pitch = region[1] * row_pitch;
  if (row_pitch < region[0] || slice_pitch < region[1] * row_pitch ||
      slice_pitch % row_pitch != 0)
    return CL_INVALID_VALUE;
  out = {{origin[0], origin[1], origin[2]}, row_pitch, slice_pitch};
  return CL_SUCCESS;
}

void copyRect(char *dst, const Rect &dst_rect, const char *src,
              const Rect &src_rect, const size_t region[3]) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      std::memmove(dst + dst_rect.offset() + z * dst_rect.slice_pitch +
                       y * dst_rect.row_pitch,
                   src + src_rect.offset() + z * src_rect.slice_pitch +
                       y * src_rect.row_pitch,
                   region[0]);
}

bool hostMayRead(const Memory &m) {
  return !(m.flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
}
bool hostMayWrite(const Memory &m) {
  return !(m.flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
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
    // No buffer property is defined by the core spec.
    if (properties[0] != 0) {
      setError(errcode_ret, CL_INVALID_PROPERTY);
      return nullptr;
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
  if (!parent || parent->parent() || parent->isPipe()) {
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
    return out.value(cl_bool{CL_FALSE});
  case CL_MEM_PROPERTIES:
    return out.array(memory->properties());
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_read, size_t offset,
    size_t size, void *ptr, cl_uint num_events, const cl_event *events,
    cl_event *event) {
  BufferCommand command;
  if (cl_int err = prepareCommand(queue, num_events, events, command, {buffer}))
    return err;
  Ref<Memory> memory(Memory::fromHandle(buffer));
  if (!ptr || outOfBounds(*memory, offset, size) || size == 0)
    return CL_INVALID_VALUE;
  if (!hostMayRead(*memory))
    return CL_INVALID_OPERATION;
  return submit(command, CL_COMMAND_READ_BUFFER, blocking_read, event,
                [memory, offset, size, ptr] {
                  std::memcpy(ptr, memory->data() + offset, size);
                  return CL_SUCCESS;
                });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_write,
    size_t offset, size_t size, const void *ptr, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  BufferCommand command;
  if (cl_int err = prepareCommand(queue, num_events, events, command, {buffer}))
    return err;
  Ref<Memory> memory(Memory::fromHandle(buffer));
  if (!ptr || outOfBounds(*memory, offset, size) || size == 0)
    return CL_INVALID_VALUE;
  if (!hostMayWrite(*memory))
    return CL_INVALID_OPERATION;
  return submit(command, CL_COMMAND_WRITE_BUFFER, blocking_write, event,
                [memory, offset, size, ptr] {
                  std::memcpy(memory->data() + offset, ptr, size);
                  return CL_SUCCESS;
                });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(
    cl_command_queue queue, cl_mem src_buffer, cl_mem dst_buffer,
    size_t src_offset, size_t dst_offset, size_t size, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  BufferCommand command;
  if (cl_int err = prepareCommand(queue, num_events, events, command,
                                  {src_buffer, dst_buffer}))
    return err;
  Ref<Memory> src(Memory::fromHandle(src_buffer));
  Ref<Memory> dst(Memory::fromHandle(dst_buffer));
  if (size == 0 || outOfBounds(*src, src_offset, size) ||
      outOfBounds(*dst, dst_offset, size))
    return CL_INVALID_VALUE;
  const char *s = src->data() + src_offset;
  const char *d = dst->data() + dst_offset;
  if (s < d + size && d < s + size)
    return CL_MEM_COPY_OVERLAP;
  return submit(command, CL_COMMAND_COPY_BUFFER, false, event,
                [src, dst, src_offset, dst_offset, size] {
                  std::memcpy(dst->data() + dst_offset,
                              src->data() + src_offset, size);
                  return CL_SUCCESS;
                });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(
    cl_command_queue queue, cl_mem buffer, const void *pattern,
    size_t pattern_size, size_t offset, size_t size, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  BufferCommand command;
  if (cl_int err = prepareCommand(queue, num_events, events, command, {buffer}))
    return err;
  Ref<Memory> memory(Memory::fromHandle(buffer));
  bool power_of_two = pattern_size && !(pattern_size & (pattern_size - 1));
  if (!pattern || !power_of_two || pattern_size > 128 ||
      offset % pattern_size || size % pattern_size ||
      outOfBounds(*memory, offset, size))
    return CL_INVALID_VALUE;
  std::vector<unsigned char> bytes(static_cast<const unsigned char *>(pattern),
                                   static_cast<const unsigned char *>(pattern) +
                                       pattern_size);
  return submit(command, CL_COMMAND_FILL_BUFFER, false, event,
                [memory, bytes, offset, size] {
                  char *d = memory->data() + offset;
                  for (size_t i = 0; i < size; i += bytes.size())
                    std::memcpy(d + i, bytes.data(), bytes.size());
                  return CL_SUCCESS;
                });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_read,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
    cl_uint num_events, const cl_event *events, cl_event *event) {
  BufferCommand command;
  if (cl_int err = prepareCommand(queue, num_events, events, command, {buffer}))
    return err;
  Ref<Memory> memory(Memory::fromHandle(buffer));
  Rect buffer_rect, host_rect;
  if (!ptr ||
      makeRect(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch,
               buffer_rect) ||
      makeRect(host_origin, region, host_row_pitch, host_slice_pitch,
               host_rect) ||
      buffer_rect.extent(region) > memory->size())
    return CL_INVALID_VALUE;
  if (!hostMayRead(*memory))
    return CL_INVALID_OPERATION;
  std::array<size_t, 3> r = {region[0], region[1], region[2]};
  return submit(command, CL_COMMAND_READ_BUFFER_RECT, blocking_read, event,
                [memory, buffer_rect, host_rect, r, ptr] {
                  copyRect(static_cast<char *>(ptr), host_rect, memory->data(),
                           buffer_rect, r.data());
                  return CL_SUCCESS;
                });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_write,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
    cl_uint num_events, const cl_event *events, cl_event *event) {
  BufferCommand command;
  if (cl_int err = prepareCommand(queue, num_events, events, command, {buffer}))
    return err;
  Ref<Memory> memory(Memory::fromHandle(buffer));
  Rect buffer_rect, host_rect;
  if (!ptr ||
      makeRect(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch,
               buffer_rect) ||
      makeRect(host_origin, region, host_row_pitch, host_slice_pitch,
               host_rect) ||
      buffer_rect.extent(region) > memory->size())
    return CL_INVALID_VALUE;
  if (!hostMayWrite(*memory))
    return CL_INVALID_OPERATION;
  std::array<size_t, 3> r = {region[0], region[1], region[2]};
  return submit(command, CL_COMMAND_WRITE_BUFFER_RECT, blocking_write, event,
                [memory, buffer_rect, host_rect, r, ptr] {
                  copyRect(memory->data(), buffer_rect,
                           static_cast<const char *>(ptr), host_rect, r.data());
                  return CL_SUCCESS;
                });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue queue, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events, const cl_event *events,
    cl_event *event) {
  BufferCommand command;
  if (cl_int err = prepareCommand(queue, num_events, events, command,
                                  {src_buffer, dst_buffer}))
    return err;
  Ref<Memory> src(Memory::fromHandle(src_buffer));
  Ref<Memory> dst(Memory::fromHandle(dst_buffer));
  Rect src_rect, dst_rect;
  if (makeRect(src_origin, region, src_row_pitch, src_slice_pitch, src_rect) ||
      makeRect(dst_origin, region, dst_row_pitch, dst_slice_pitch, dst_rect) ||
      src_rect.extent(region) > src->size() ||
      dst_rect.extent(region) > dst->size())
    return CL_INVALID_VALUE;
  if (src.get() == dst.get()) {
    if (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch)
      return CL_INVALID_VALUE;
    size_t a = src_rect.offset(), b = dst_rect.offset();
    if (a < dst_rect.extent(region) && b < src_rect.extent(region))
      return CL_MEM_COPY_OVERLAP;
  }
  std::array<size_t, 3> r = {region[0], region[1], region[2]};
  return submit(command, CL_COMMAND_COPY_BUFFER_RECT, false, event,
                [src, dst, src_rect, dst_rect, r] {
                  copyRect(dst->data(), dst_rect, src->data(), src_rect,
                           r.data());
                  return CL_SUCCESS;
                });
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_map,
    cl_map_flags map_flags, size_t offset, size_t size, cl_uint num_events,
    const cl_event *events, cl_event *event, cl_int *errcode_ret) {
  BufferCommand command;
  if (cl_int err =
          prepareCommand(queue, num_events, events, command, {buffer})) {
    setError(errcode_ret, err);
    return nullptr;
  }
  Ref<Memory> memory(Memory::fromHandle(buffer));
  constexpr cl_map_flags kKnown =
      CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if (size == 0 || outOfBounds(*memory, offset, size) ||
      (map_flags & ~kKnown) ||
      ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
       (map_flags & (CL_MAP_READ | CL_MAP_WRITE)))) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  if (((map_flags & CL_MAP_READ) && !hostMayRead(*memory)) ||
      ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
       !hostMayWrite(*memory))) {
    setError(errcode_ret, CL_INVALID_OPERATION);
    return nullptr;
  }
  // The device works in host memory: the mapping is the storage itself
  // (for CL_MEM_USE_HOST_PTR, the application's own pointer).
  memory->addMapping();
  void *mapped = memory->data() + offset;
  cl_int err = submit(command, CL_COMMAND_MAP_BUFFER, blocking_map, event,
                      [] { return CL_SUCCESS; });
  setError(errcode_ret, err);
  return err == CL_SUCCESS ? mapped : nullptr;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(
    cl_command_queue queue, cl_mem memobj, void *mapped_ptr, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  BufferCommand command;
  if (cl_int err = prepareCommand(queue, num_events, events, command, {memobj}))
    return err;
  Ref<Memory> memory(Memory::fromHandle(memobj));
  char *p = static_cast<char *>(mapped_ptr);
  if (!p || p < memory->data() || p > memory->data() + memory->size() ||
      memory->mapCount() == 0)
    return CL_INVALID_VALUE;
  return submit(command, CL_COMMAND_UNMAP_MEM_OBJECT, false, event, [memory] {
    memory->removeMapping();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(
    cl_command_queue queue, cl_uint num_mem_objects, const cl_mem *mem_objects,
    cl_mem_migration_flags flags, cl_uint num_events, const cl_event *events,
    cl_event *event) {
  BufferCommand command;
  if (cl_int err = prepareCommand(queue, num_events, events, command, {}))
    return err;
  if (num_mem_objects == 0 || !mem_objects ||
      (flags &
       ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                               CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    Memory *memory = Memory::fromHandle(mem_objects[i]);
    if (!memory)
      return CL_INVALID_MEM_OBJECT;
    if (&memory->context() != &command.queue->context())
      return CL_INVALID_CONTEXT;
  }
  // Host and device share memory: nothing moves.
  return submit(command, CL_COMMAND_MIGRATE_MEM_OBJECTS, false, event,
                [] { return CL_SUCCESS; });
}
