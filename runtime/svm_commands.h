// The SVM commands (free, memcpy, fill, map, unmap, migrate) as Command
// records. Host memory is device memory, so a copy is memcpy, a fill writes
// the pattern in place, and map, unmap and migrate move nothing: they are
// ordering points that record the bytes they hand to the host or device.
// icd/svm_api.cpp validates, then builds the command here and queues it.
#pragma once
#include "runtime/command.h"

#include <cstddef>
#include <vector>

namespace weft {

class ThreadPool;

class Context;
class Queue;

using SvmFreeCallback = void(CL_CALLBACK *)(cl_command_queue, cl_uint, void *[],
                                            void *);

// Runs `callback` with the queue, the pointers and `user_data`, or, without
// a callback, frees each pointer as clSVMFree does. The pointer list is
// copied: the application's array may be gone when the command runs.
Command svmFreeCommand(Queue &queue, std::vector<void *> pointers,
                       SvmFreeCallback callback, void *user_data);
// `type`: the SVM command's, or USM's (CL_COMMAND_MEMCPY_INTEL,
// CL_COMMAND_MEMFILL_INTEL), which are the same commands.
// `helpers`: as for the buffer commands (runtime/memory_commands.h).
Command svmMemcpyCommand(void *dst, const void *src, size_t size,
                         cl_command_type type = CL_COMMAND_SVM_MEMCPY,
                         ThreadPool *helpers = nullptr);
// The pattern is copied (at most 128 bytes).
Command svmFillCommand(void *dst, const void *pattern, size_t pattern_size,
                       size_t size,
                       cl_command_type type = CL_COMMAND_SVM_MEMFILL,
                       ThreadPool *helpers = nullptr);
Command svmMapCommand(void *pointer, size_t size, cl_map_flags flags);
// `size`: the mapped allocation's extent from `pointer`, when known
// (MemoryAccess::kToEnd when not: the unmap then orders against all memory
// after it, which is only more cautious).
Command svmUnmapCommand(void *pointer, size_t size);
// One range per pointer, sizes already resolved (0 = whole allocation done
// by the caller).
struct SvmRange {
  const void *pointer;
  size_t size;
};
Command svmMigrateCommand(const std::vector<SvmRange> &ranges,
                          cl_mem_migration_flags flags,
                          cl_command_type type = CL_COMMAND_SVM_MIGRATE_MEM);
// clEnqueueMemAdviseINTEL: advice changes nothing where host memory is
// device memory; the command orders against the range like a read.
Command usmAdviseCommand(const void *pointer, size_t size);

} // namespace weft
