// A kernel: one compiled kernel of a program and the argument values the
// application set, kept in the argument block layout the compiler chose.
#pragma once
#include "compiler/interface/compiler_interface.h"
#include "runtime/block_pool.h"
#include "runtime/command.h"
#include "runtime/object.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace weft {

struct MemoryCheckObjects;

class Memory;
class Program;
class Queue;
class Event;
class ProgramExecutable;
struct NDRangeLaunch;

// The driver's local size when the application passes none: the kernel's
// reqd_work_group_size if it has one (`required`, zeros if not), else uniform
// groups (divisors of the global size) of up to `max_group_size`
// work-items, widest in x so the work-item loop vectorizes.
void chooseLocalSize(cl_uint work_dim, const size_t *global,
                     const uint64_t required[3], size_t max_group_size,
                     size_t *local);

// The most work-items per group the driver chooses for a kernel without
// barriers, whose groups may be of any size: each group costs its entry's
// set-up (the work-item loop's checks, the context), so groups grow with
// the launch, up to 4096, while every compute unit still gets at least 8 of
// them; never below the 256 of kernels with barriers.
size_t barrierFreeGroupLimit(size_t work_items, size_t compute_units);

// How many of the application's `groups` groups of `local` work-items a
// kernel that cannot tell its groups apart runs as one: the largest power of
// two that divides `groups` and keeps the merged group within `limit`
// (barrierFreeGroupLimit) and, once a launch has measured a work-item's
// time (`item_picoseconds`, 0 while unknown), within
// kMergedGroupNanoseconds.
// Merging saves the dispatch of short groups; long ones gain nothing from
// it and would leave too few groups to balance over the cores.
inline constexpr uint64_t kMergedGroupNanoseconds = 20000;
size_t mergedGroupFactor(size_t local, size_t groups, size_t limit,
                         uint64_t item_picoseconds);

class Kernel : public Object<_cl_kernel, ObjectKind::Kernel> {
public:
  // Kernel number `index` of a built program's executable.
  Kernel(Program &program, std::shared_ptr<const ProgramExecutable> executable,
         size_t index);
  ~Kernel() override;
  static Kernel *fromHandle(cl_kernel handle) {
    return checkedCast<Kernel>(handle);
  }

  // clCloneKernel: same code, a copy of the current argument values.
  Kernel *clone() const;

  Program &program() const { return *program_; }
  const compiler::KernelDescription &description() const {
    return description_;
  }
  // Returns CL_SUCCESS or the spec's error for a bad index, size or value.
  cl_int setArgument(cl_uint index, size_t size, const void *value);
  // clSetKernelArgSVMPointer: a __global or __constant pointer argument
  // takes `pointer` as is (any host pointer: the device offers fine-grained
  // system SVM; null too). CL_INVALID_ARG_INDEX past the last argument,
  // CL_INVALID_ARG_VALUE for an argument that is not such a pointer.
  cl_int setSvmArgument(cl_uint index, const void *pointer);
  // clSetKernelExecInfo: the SVM pointers the kernel may reach other than
  // through its arguments, and whether it may use any host pointer. The
  // memory is the host's own either way; they make launches order as
  // touching all host memory (Command::writesAnyHostMemory).
  void setExecSvmPointers(std::vector<void *> pointers);
  void setExecFineGrainSystem(bool enabled);
  // cl_intel_unified_shared_memory: the USM pointers the kernel may reach
  // through memory, and whether it may reach any allocation of a kind
  // (CL_KERNEL_EXEC_INFO_INDIRECT_*_ACCESS_INTEL, one bit per kind). Either
  // makes its launches order against all host memory, as SVM pointers do.
  void setExecUsmPointers(std::vector<void *> pointers);
  // cl_ext_buffer_device_address: the device addresses the kernel reaches
  // through memory (CL_KERNEL_EXEC_INFO_DEVICE_PTRS_EXT); the same effect.
  void setExecDevicePointers(std::vector<void *> pointers);
  // Whether argument `index` is a pointer to __global memory (what
  // clSetKernelArgDevicePointerEXT may set).
  bool isGlobalPointerArgument(cl_uint index) const;
  void setExecIndirectUsmAccess(unsigned kind_bit, bool enabled);
  bool allArgumentsSet() const;
  // Bytes of local memory a launch needs: static variables plus arguments.
  uint64_t localMemorySize() const;
  // Makes the kernel's native code ready: a program's kernels may be
  // compiled on first use (runtime/program_executable.h). CL_SUCCESS, or
  // CL_OUT_OF_RESOURCES with the reason added to the program's build log.
  cl_int prepareCode() const;
  // CL_KERNEL_PRIVATE_MEM_SIZE, known from the code.
  cl_int privateMemorySize(uint64_t &bytes) const;
  // CL_KERNEL_WORK_GROUP_SIZE: the device's limit, lowered for kernels whose
  // work-item fibers need large stacks (the device's limit when the code
  // cannot be prepared: launches then fail).
  size_t maxWorkGroupSize(size_t device_limit) const;
  // Sub-groups (builtins/subgroups.cl): each row of a group along dimension
  // 0 is cut into runs of description().sub_group_size work-items, the last
  // run shorter when the row is. For a group of `local` (`dims` sizes):
  // how many sub-groups it has, and how large the largest is.
  size_t subGroupCount(const size_t *local, size_t dims) const;
  size_t maxSubGroupSize(const size_t *local, size_t dims) const;

  // chooseLocalSize for this kernel on a device of `compute_units`: groups
  // of up to 256 work-items for kernels with barriers (fewer when its fibers
  // need large stacks), up to barrierFreeGroupLimit for the others.
  void chooseLocalSize(cl_uint work_dim, const size_t *global, size_t *local,
                       size_t compute_units) const;

  // Queues a launch with a snapshot of the current arguments; the command
  // records the buffers and pipes the arguments name (as written, but for
  // __constant buffers). Fails with CL_INVALID_KERNEL_ARGS when a buffer
  // argument was released since.
  cl_int enqueue(Queue &queue, cl_uint work_dim, const size_t *offset,
                 const size_t *global, const size_t *local,
                 std::vector<Ref<Event>> wait_list, Ref<Event> &command);
  // The launch command enqueue queues, for `queue`'s device, into `out`
  // (a command buffer records it; it may run more than once).
  cl_int makeLaunch(Queue &queue, cl_uint work_dim, const size_t *offset,
                    const size_t *global, const size_t *local,
                    std::optional<Command> &out);

private:
  // Command::own's release of a launch's block (kernel.cpp's QueuedLaunch).
  static void releaseQueuedLaunch(void *storage);

  // The variant the compiler made for the format every image argument has
  // (all the same), or null. Called with mutex_ held.
  const compiler::KernelDescription::ImageVariant *imageVariant() const;
  // The variant the compiler made for strides of 1 when the arguments it
  // assumes are all 1, or null. Called with mutex_ held.
  const compiler::KernelDescription::UnitStrideVariant *
  unitStrideVariant() const;

  // The memory checking mode's objects for a launch with `arguments` (its
  // argument block, __local offsets laid out). Called with mutex_ held.
  std::unique_ptr<MemoryCheckObjects>
  memoryCheckObjects(const unsigned char *arguments) const;

  // Whether no buffer an async copy reads overlaps one the kernel writes, so
  // the read-through entry (compiler/passes/kernels/async_copy_read_through.h)
  // may run. Called with mutex_ held.
  bool copiedBuffersUnwritten() const;
  // Whether the launch's work-groups are within the sizes the read-through
  // entry was proven right for.
  bool readThroughCovers(const NDRangeLaunch &launch) const;

  Ref<Program> program_;
  // Owns the description and the code.
  std::shared_ptr<const ProgramExecutable> executable_;
  const size_t index_; // in the executable's kernels
  const compiler::KernelDescription &description_;
  // Built with -cl-denorms-are-zero: its launches flush denormals.
  const bool flush_denormals_;

  // One work-group's time at the last launch (device/ndrange.h); atomic,
  // launches on several queues update it. `group_items_` is the size of the
  // groups of the launch it was measured on (as merged): a heuristic's
  // input, so two launches racing to update them only blur the estimate.
  std::atomic<uint64_t> group_nanoseconds_{0};
  std::atomic<uint64_t> group_items_{0};

  mutable std::mutex mutex_;
  std::vector<unsigned char> block_;  // guarded by mutex_
  std::vector<bool> set_;             // guarded by mutex_
  std::vector<uint64_t> local_sizes_; // __local argument sizes, by mutex_
  // Buffer arguments. The spec does not let clSetKernelArg retain them.
  std::vector<ShellRef<Memory>> buffers_; // by mutex_
  // Pointer arguments set by clSetKernelArgSVMPointer (non-null ones).
  std::vector<bool> svm_arguments_;          // by mutex_
  std::vector<void *> exec_svm_pointers_;    // by mutex_
  bool exec_fine_grain_system_ = false;      // by mutex_
  std::vector<void *> exec_usm_pointers_;    // by mutex_
  std::vector<void *> exec_device_pointers_; // by mutex_
  unsigned exec_indirect_usm_ = 0;           // by mutex_: kind bits

  // The blocks of its queued launches (kernel.cpp's QueuedLaunch).
  BlockPool launch_blocks_;
};

} // namespace weft
