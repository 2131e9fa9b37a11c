// Shared virtual memory entry points: clSVMAlloc/clSVMFree and the SVM
// commands. Each validates its arguments, then hands a checked call to
// runtime/svm.h (the context's allocations) or runtime/svm_commands.h.
#include "icd/command_target.h"
#include "icd/validation.h"
#include "runtime/device.h"
#include "runtime/queue.h"
#include "runtime/svm.h"
#include "runtime/svm_commands.h"

#include <cstdint>

using namespace weft;
using icd::CommandTarget;
using icd::isPowerOfTwo;
using icd::submit;
using icd::wrapsAround;

namespace {

constexpr cl_svm_mem_flags kAccessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_svm_mem_flags kSvmFlags =
    kAccessFlags | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;

bool validSvmFlags(cl_svm_mem_flags flags) {
  cl_svm_mem_flags access = flags & kAccessFlags;
  if ((flags & ~kSvmFlags) || (access & (access - 1)))
    return false;
  // Atomics across host and device are a property of fine-grained memory.
  return !(flags & CL_MEM_SVM_ATOMICS) ||
         (flags & CL_MEM_SVM_FINE_GRAIN_BUFFER);
}

} // namespace

CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context handle,
                                          cl_svm_mem_flags flags, size_t size,
                                          cl_uint alignment) {
  // The spec names no error codes: every failure returns null.
  Context *context = Context::fromHandle(handle);
  if (!context || !validSvmFlags(flags))
    return nullptr;
  if (size == 0 || size > context->device().properties().max_mem_alloc_size)
    return nullptr;
  if (alignment == 0)
    alignment = kDefaultSvmAlignment;
  if (!isPowerOfTwo(alignment) || alignment > kMaxSvmAlignment)
    return nullptr;
  if (!(flags & kAccessFlags))
    flags |= CL_MEM_READ_WRITE;
  return svmAllocate(*context, flags, size, alignment);
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context handle, void *pointer) {
  // No status to return: a bad context or a pointer clSVMAlloc did not
  // return is ignored rather than freed.
  Context *context = Context::fromHandle(handle);
  if (context && pointer)
    svmFree(*context, pointer);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(
    cl_command_queue queue, cl_uint num_svm_pointers, void *svm_pointers[],
    void(CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint, void *[],
                                     void *),
    void *user_data, cl_uint num_events, const cl_event *events,
    cl_event *event) {
  CommandTarget target;
  if (cl_int err =
          icd::prepareHostPointerCommand(queue, num_events, events, target))
    return err;
  // OpenCL 3.0: an empty list is allowed (the command frees nothing), a
  // count without a list or a list without a count is not.
  if ((num_svm_pointers == 0) != (svm_pointers == nullptr))
    return CL_INVALID_VALUE;
  std::vector<void *> pointers(svm_pointers, svm_pointers + num_svm_pointers);
  return submit(target,
                svmFreeCommand(*target.queue, std::move(pointers),
                               pfn_free_func, user_data),
                false, event);
}

cl_int icd::svmMemcpy(CommandTarget &target, bool blocking, void *dst_ptr,
                      const void *src_ptr, size_t size, cl_event *event,
                      cl_command_type type) {
  if (!dst_ptr || !src_ptr || wrapsAround(dst_ptr, size) ||
      wrapsAround(src_ptr, size))
    return CL_INVALID_VALUE;
  auto dst = reinterpret_cast<uintptr_t>(dst_ptr);
  auto src = reinterpret_cast<uintptr_t>(src_ptr);
  if (size && dst < src + size && src < dst + size)
    return CL_MEM_COPY_OVERLAP;
  return submit(
      target,
      svmMemcpyCommand(dst_ptr, src_ptr, size, type, copyHelpers(target)),
      blocking, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemcpy(cl_command_queue queue, cl_bool blocking_copy, void *dst_ptr,
                   const void *src_ptr, size_t size, cl_uint num_events,
                   const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err =
          icd::prepareHostPointerCommand(queue, num_events, events, target))
    return err;
  return icd::svmMemcpy(target, blocking_copy, dst_ptr, src_ptr, size, event);
}

cl_int icd::svmMemFill(CommandTarget &target, void *svm_ptr,
                       const void *pattern, size_t pattern_size, size_t size,
                       cl_event *event, cl_command_type type) {
  if (!svm_ptr || !pattern || !isPowerOfTwo(pattern_size) ||
      pattern_size > 128 ||
      reinterpret_cast<uintptr_t>(svm_ptr) % pattern_size ||
      size % pattern_size || wrapsAround(svm_ptr, size))
    return CL_INVALID_VALUE;
  return submit(target,
                svmFillCommand(svm_ptr, pattern, pattern_size, size, type,
                               copyHelpers(target)),
                false, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemFill(cl_command_queue queue, void *svm_ptr, const void *pattern,
                    size_t pattern_size, size_t size, cl_uint num_events,
                    const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err =
          icd::prepareHostPointerCommand(queue, num_events, events, target))
    return err;
  return icd::svmMemFill(target, svm_ptr, pattern, pattern_size, size, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMap(cl_command_queue queue, cl_bool blocking_map,
                cl_map_flags map_flags, void *svm_ptr, size_t size,
                cl_uint num_events, const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err =
          icd::prepareHostPointerCommand(queue, num_events, events, target))
    return err;
  constexpr cl_map_flags kKnown =
      CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if (!svm_ptr || size == 0 || wrapsAround(svm_ptr, size) ||
      (map_flags & ~kKnown) ||
      ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
       (map_flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return CL_INVALID_VALUE;
  return submit(target, svmMapCommand(svm_ptr, size, map_flags), blocking_map,
                event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue queue,
                                                  void *svm_ptr,
                                                  cl_uint num_events,
                                                  const cl_event *events,
                                                  cl_event *event) {
  CommandTarget target;
  if (cl_int err =
          icd::prepareHostPointerCommand(queue, num_events, events, target))
    return err;
  if (!svm_ptr)
    return CL_INVALID_VALUE;
  // The map's size is not passed again: the allocation's extent, if known.
  std::optional<SvmAllocation> allocation =
      target.queue->context().svm().find(svm_ptr);
  size_t extent =
      allocation
          ? allocation->size - (static_cast<char *>(svm_ptr) - allocation->base)
          : MemoryAccess::kToEnd;
  return submit(target, svmUnmapCommand(svm_ptr, extent), false, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(
    cl_command_queue queue, cl_uint num_svm_pointers, const void **svm_pointers,
    const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events,
    const cl_event *events, cl_event *event) {
  CommandTarget target;
  if (cl_int err =
          icd::prepareHostPointerCommand(queue, num_events, events, target))
    return err;
  if (num_svm_pointers == 0 || !svm_pointers ||
      (flags &
       ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                               CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
    return CL_INVALID_VALUE;
  SvmRegistry &registry = target.queue->context().svm();
  std::vector<SvmRange> ranges;
  ranges.reserve(num_svm_pointers);
  for (cl_uint i = 0; i < num_svm_pointers; ++i) {
    const void *pointer = svm_pointers[i];
    size_t size = sizes ? sizes[i] : 0;
    if (!pointer)
      return CL_INVALID_VALUE;
    // Each range must lie in one allocation of this context; size 0 names
    // the whole allocation holding the pointer.
    std::optional<SvmAllocation> allocation = registry.find(pointer, size);
    if (!allocation)
      return CL_INVALID_VALUE;
    if (size == 0) {
      pointer = allocation->base;
      size = allocation->size;
    }
    ranges.push_back({pointer, size});
  }
  return submit(target, svmMigrateCommand(ranges, flags), false, event);
}
