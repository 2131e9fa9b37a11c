#include "runtime/usm.h"

#include "runtime/context.h"
#include "runtime/queue.h"

namespace weft {

void *usmAllocate(Context &context, const UsmRequest &request) {
  SvmAllocation made;
  made.size = request.size;
  made.flags =
      CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  made.kind = request.kind;
  made.device = request.device;
  made.usm_alloc_flags = request.flags;
  size_t alignment = request.alignment ? request.alignment : kMaxUsmAlignment;
  void *memory = context.svm().allocate(made, alignment);
  if (memory)
    context.retain();
  return memory;
}

bool usmFree(Context &context, void *pointer) {
  // The allocation's reference to the context goes last (see svmFree).
  if (!context.svm().free(pointer, /*usm=*/true))
    return false;
  context.release();
  return true;
}

bool usmBlockingFree(Context &context, void *pointer) {
  std::optional<SvmAllocation> allocation = context.svm().find(pointer);
  if (!allocation || allocation->base != pointer ||
      usmTypeOf(*allocation) == CL_MEM_TYPE_UNKNOWN_INTEL)
    return false;
  for (Ref<Queue> &queue : context.liveQueues())
    queue->finish();
  return usmFree(context, pointer);
}

cl_unified_shared_memory_type_intel usmTypeOf(const SvmAllocation &allocation) {
  switch (allocation.kind) {
  case AllocationKind::UsmHost:
    return CL_MEM_TYPE_HOST_INTEL;
  case AllocationKind::UsmDevice:
    return CL_MEM_TYPE_DEVICE_INTEL;
  case AllocationKind::UsmShared:
    return CL_MEM_TYPE_SHARED_INTEL;
  case AllocationKind::Svm:
  case AllocationKind::BufferDeviceAddress:
    break;
  }
  return CL_MEM_TYPE_UNKNOWN_INTEL;
}

} // namespace weft
