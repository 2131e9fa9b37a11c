#include "runtime/svm_commands.h"

#include <CL/cl_ext.h>

#include "device/bulk_memory.h"
#include "runtime/context.h"
#include "runtime/memory_commands.h"
#include "runtime/queue.h"
#include "runtime/svm.h"

#include <array>
#include <cstring>

namespace weft {

Command svmFreeCommand(Queue &queue, std::vector<void *> pointers,
                       SvmFreeCallback callback, void *user_data) {
  // The queue outlives its commands (each event holds it); the context is
  // held for the frees, which may drop its last reference.
  Ref<Context> context(&queue.context());
  Queue *target = &queue;
  // Freed memory may not be touched by anything queued after: the free
  // orders like a write of every allocation it frees.
  std::vector<size_t> extents;
  for (void *pointer : pointers) {
    std::optional<SvmAllocation> allocation = context->svm().find(pointer);
    extents.push_back(allocation ? allocation->size : MemoryAccess::kToEnd);
  }
  Command command(CL_COMMAND_SVM_FREE,
                  [context, target, pointers, callback, user_data] {
                    if (callback) {
                      // The callback gets its own copy: it may write to the
                      // array.
                      std::vector<void *> list = pointers;
                      callback(target, static_cast<cl_uint>(list.size()),
                               list.data(), user_data);
                      return CL_SUCCESS;
                    }
                    for (void *pointer : pointers)
                      if (pointer)
                        svmFree(*context, pointer);
                    return CL_SUCCESS;
                  });
  for (size_t i = 0; i < pointers.size(); ++i)
    if (pointers[i])
      command.writesHost(pointers[i], extents[i]);
  return command;
}

Command svmMemcpyCommand(void *dst, const void *src, size_t size,
                         cl_command_type type, ThreadPool *helpers) {
  Command command(type, [dst, src, size, helpers] {
    copyBytes(dst, src, size, helpers);
    return CL_SUCCESS;
  });
  command.readsHost(src, size);
  command.writesHost(dst, size);
  return command;
}

Command svmFillCommand(void *dst, const void *pattern, size_t pattern_size,
                       size_t size, cl_command_type type, ThreadPool *helpers) {
  std::array<unsigned char, 128> copy{};
  std::memcpy(copy.data(), pattern, pattern_size);
  Command command(type, [dst, copy, pattern_size, size, helpers] {
    fillBytes(dst, size, copy.data(), pattern_size, helpers);
    return CL_SUCCESS;
  });
  command.writesHost(dst, size);
  return command;
}

Command svmMapCommand(void *pointer, size_t size, cl_map_flags flags) {
  Command command(CL_COMMAND_SVM_MAP);
  // As for buffers: the host may write the region until the unmap.
  if (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    command.writesHost(pointer, size);
  else
    command.readsHost(pointer, size);
  return command;
}

Command svmUnmapCommand(void *pointer, size_t size) {
  Command command(CL_COMMAND_SVM_UNMAP);
  command.writesHost(pointer, size);
  return command;
}

Command svmMigrateCommand(const std::vector<SvmRange> &ranges,
                          cl_mem_migration_flags flags, cl_command_type type) {
  Command command(type);
  for (const SvmRange &range : ranges) {
    if (flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)
      command.writesHost(range.pointer, range.size);
    else
      command.readsHost(range.pointer, range.size);
  }
  return command;
}

Command usmAdviseCommand(const void *pointer, size_t size) {
  Command command(CL_COMMAND_MEMADVISE_INTEL);
  command.readsHost(pointer, size);
  return command;
}

} // namespace weft
