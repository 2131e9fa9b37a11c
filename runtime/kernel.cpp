#include "runtime/kernel.h"

#include "device/fiber_group.h"
#include "device/kernel_library.h"
#include "device/ndrange.h"
#include "device/printf_output.h"
#include "runtime/block_pool.h"
#include "runtime/context.h"
#include "runtime/debug_log.h"
#include "runtime/device.h"
#include "runtime/event.h"
#include "runtime/memory.h"
#include "runtime/program.h"
#include "runtime/queue.h"
#include "runtime/sampler.h"
#include "runtime/settings.h"
#include "runtime/svm.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>

namespace weft {
namespace {

using compiler::ArgumentKind;

// Every __local argument starts at this alignment: enough for any OpenCL type.
constexpr uint64_t kLocalArgumentAlignment = 128;
// Stack beyond a kernel's measured frame, for the calls it makes into the C
// library (libm) and the entry point's own frame.
constexpr uint64_t kStackReserve = 32 * 1024;
// Fiber stacks a work-group may map (address space; only touched pages cost
// memory).
constexpr uint64_t kFiberStackBudgetPerGroup = uint64_t(2) << 30;
// Each fiber stack is two mappings (stack and guard) that its thread keeps
// for reuse; bigger groups on every thread would approach the kernel's limit
// on mappings per process (vm.max_map_count, 65530 by default), after which
// even malloc fails.
constexpr uint64_t kMaxFibersPerGroup = 4096;

// The memory object type an image argument declared as `type_name` takes
// (depth images are 2-D images of channel order CL_DEPTH).
cl_mem_object_type imageTypeOfArgument(const std::string &type_name) {
  if (type_name.rfind("image1d_buffer", 0) == 0)
    return CL_MEM_OBJECT_IMAGE1D_BUFFER;
  if (type_name.rfind("image1d_array", 0) == 0)
    return CL_MEM_OBJECT_IMAGE1D_ARRAY;
  if (type_name.rfind("image1d", 0) == 0)
    return CL_MEM_OBJECT_IMAGE1D;
  if (type_name.rfind("image2d_array", 0) == 0)
    return CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (type_name.rfind("image2d", 0) == 0)
    return CL_MEM_OBJECT_IMAGE2D;
  return CL_MEM_OBJECT_IMAGE3D;
}

constexpr uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// Runs a queued launch; the status its command's event ends with.
cl_int runLaunch(ThreadPool &pool, const NDRangeLaunch &launch,
                 Context &context) {
  LaunchResult result = runNDRange(pool, launch);
  switch (result.status) {
  case LaunchStatus::KernelFault:
  case LaunchStatus::TimedOut:
    // What a crash would have said, without the crash.
    std::fprintf(stderr, "weft: %s; its context is lost\n",
                 result.message.c_str());
    context.markLost(result.message);
    return CL_OUT_OF_RESOURCES;
  case LaunchStatus::Success:
    return CL_SUCCESS;
  case LaunchStatus::AsyncCopyMisuse:
  case LaunchStatus::MemoryViolation:
    // The checking mode's reports, which the application asked for, and
    // copies refused for reaching outside local memory: a bug the
    // application's author needs to hear of, as a crash would tell.
    std::fprintf(stderr, "weft: %s\n", result.message.c_str());
    return CL_INVALID_OPERATION;
  case LaunchStatus::StackOverflow:
    debugLog("%s", result.message.c_str());
    break;
  case LaunchStatus::OutOfResources:
    break;
  }
  return CL_OUT_OF_RESOURCES;
}

// Runs a queued launch of a kernel that calls printf: its records go to a
// buffer of the launch's own, and their text to the application before the
// command completes (also what a faulting launch printed up to the fault).
cl_int runPrintingLaunch(ThreadPool &pool, NDRangeLaunch launch,
                         Context &context) {
  // Records are bigger than the text they print (a header, the format's
  // address, each argument's size and bytes padded to 8): the buffer gets
  // this many record bytes per byte the application asked for, so about
  // that much text fits, as cl_arm_printf's users (and the CTS) expect. A
  // call that finds no room still returns -1. The storage is mapped, so only
  // what printf writes costs memory.
  constexpr uint64_t kRecordBytesPerTextByte = 8;
  PrintfBufferStorage storage(context.printfBufferSize() *
                              kRecordBytesPerTextByte);
  if (!storage.valid())
    return CL_OUT_OF_RESOURCES;
  launch.printf_buffer = storage.buffer();
  cl_int status = runLaunch(pool, launch, context);
  PrintfOutput output = formatPrintfRecords(*storage.buffer());
  context.deliverPrintfOutput(output.text, output.dropped, launch.kernel_name);
  return status;
}

// A queued launch: what it runs, and its own copy of the arguments (so the
// application may change them; its command holds the memory objects they
// point at) at kQueuedArgumentsOffset, in one block of the kernel's pool
// (Kernel::launch_blocks_).
struct QueuedLaunch {
  Ref<Kernel> kernel;
  ThreadPool *pool;
  Context *context;
  bool prints;
  NDRangeLaunch launch;
  // The memory checking mode's view of the launch (WEFT_CHECK_MEMORY).
  std::unique_ptr<MemoryCheckObjects> memory_objects;

  cl_int run() const {
    return prints ? runPrintingLaunch(*pool, launch, *context)
                  : runLaunch(*pool, launch, *context);
  }
  unsigned char *arguments();
};
constexpr size_t kQueuedArgumentsOffset =
    alignUp(sizeof(QueuedLaunch), BlockPool::kAlignment);

unsigned char *QueuedLaunch::arguments() {
  return reinterpret_cast<unsigned char *>(this) + kQueuedArgumentsOffset;
}

size_t largestDivisorAtMost(size_t n, size_t limit) {
  for (size_t d = std::min(n, limit); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

} // namespace

void chooseLocalSize(cl_uint work_dim, const size_t *global,
                     const uint64_t required[3], size_t max_group_size,
                     size_t *local) {
  if (required[0]) {
    for (cl_uint d = 0; d < work_dim; ++d)
      local[d] = required[d];
    return;
  }
  size_t budget = max_group_size;
  for (cl_uint d = 0; d < work_dim; ++d) {
    local[d] = largestDivisorAtMost(global[d], budget);
    budget = std::max<size_t>(1, budget / local[d]);
  }
}

Kernel::Kernel(Program &program,
               std::shared_ptr<const ProgramExecutable> executable,
               size_t index)
    : program_(&program), executable_(std::move(executable)), index_(index),
      description_(executable_->kernels()[index]),
      flush_denormals_(program.builtWithOption("-cl-denorms-are-zero")),
      block_(description_.argument_block_size),
      set_(description_.arguments.size(), false),
      local_sizes_(description_.arguments.size(), 0),
      buffers_(description_.arguments.size()),
      svm_arguments_(description_.arguments.size(), false),
      launch_blocks_(kQueuedArgumentsOffset +
                     description_.argument_block_size) {
  program.kernelCreated();
}

Kernel::~Kernel() { program_->kernelReleased(); }

Kernel *Kernel::clone() const {
  auto *copy = new (std::nothrow) Kernel(*program_, executable_, index_);
  if (!copy)
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  copy->block_ = block_;
  copy->set_ = set_;
  copy->local_sizes_ = local_sizes_;
  copy->buffers_ = buffers_;
  copy->svm_arguments_ = svm_arguments_;
  copy->exec_svm_pointers_ = exec_svm_pointers_;
  copy->exec_usm_pointers_ = exec_usm_pointers_;
  copy->exec_device_pointers_ = exec_device_pointers_;
  copy->exec_indirect_usm_ = exec_indirect_usm_;
  copy->exec_fine_grain_system_ = exec_fine_grain_system_;
  return copy;
}

cl_int Kernel::setArgument(cl_uint index, size_t size, const void *value) {
  if (index >= description_.arguments.size())
    return CL_INVALID_ARG_INDEX;
  const compiler::KernelArgument &arg = description_.arguments[index];
  std::lock_guard<std::mutex> lock(mutex_);
  switch (arg.kind) {
  case ArgumentKind::LocalBuffer:
    if (value)
      return CL_INVALID_ARG_VALUE;
    if (size == 0)
      return CL_INVALID_ARG_SIZE;
    local_sizes_[index] = size;
    break;
  case ArgumentKind::Pipe: {
    if (size != sizeof(cl_mem))
      return CL_INVALID_ARG_SIZE;
    cl_mem handle = value ? *static_cast<const cl_mem *>(value) : nullptr;
    Memory *pipe = handle ? Memory::fromHandle(handle) : nullptr;
    if (!pipe || !pipe->isPipe())
      return CL_INVALID_ARG_VALUE;
    buffers_[index] = ShellRef<Memory>(pipe);
    void *address = pipe->data();
    std::memcpy(block_.data() + arg.offset, &address, sizeof(address));
    break;
  }
  case ArgumentKind::Buffer: {
    if (size != sizeof(cl_mem))
      return CL_INVALID_ARG_SIZE;
    cl_mem handle = value ? *static_cast<const cl_mem *>(value) : nullptr;
    void *address = nullptr;
    svm_arguments_[index] = false;
    if (handle) {
      Memory *memory = Memory::fromHandle(handle);
      if (!memory)
        return CL_INVALID_MEM_OBJECT;
      // A pipe is a memory object, but not one a pointer argument takes;
      // an image is only reached through image builtins.
      if (memory->isPipe())
        return CL_INVALID_ARG_VALUE;
      if (memory->isImage())
        return CL_INVALID_MEM_OBJECT;
      buffers_[index] = ShellRef<Memory>(memory);
      address = memory->data();
    } else {
      buffers_[index] = ShellRef<Memory>();
    }
    std::memcpy(block_.data() + arg.offset, &address, sizeof(address));
    break;
  }
  case ArgumentKind::Image: {
    if (size != sizeof(cl_mem) || !value)
      return size != sizeof(cl_mem) ? CL_INVALID_ARG_SIZE
                                    : CL_INVALID_ARG_VALUE;
    Memory *image = Memory::fromHandle(*static_cast<const cl_mem *>(value));
    if (!image || !image->isImage() ||
        image->type() != imageTypeOfArgument(arg.type_name))
      return CL_INVALID_MEM_OBJECT;
    if ((arg.access == compiler::AccessQualifier::ReadOnly &&
         (image->flags() & CL_MEM_WRITE_ONLY)) ||
        (arg.access == compiler::AccessQualifier::WriteOnly &&
         (image->flags() & CL_MEM_READ_ONLY)))
      return CL_INVALID_ARG_VALUE;
    buffers_[index] = ShellRef<Memory>(image);
    const void *address = &image->kernelImage();
    std::memcpy(block_.data() + arg.offset, &address, sizeof(address));
    break;
  }
  case ArgumentKind::Sampler: {
    if (size != sizeof(cl_sampler))
      return CL_INVALID_ARG_SIZE;
    Sampler *sampler =
        value ? Sampler::fromHandle(*static_cast<const cl_sampler *>(value))
              : nullptr;
    if (!sampler)
      return CL_INVALID_SAMPLER;
    uint64_t bits = sampler->kernelBits();
    std::memcpy(block_.data() + arg.offset, &bits, sizeof(bits));
    break;
  }
  case ArgumentKind::Value:
    if (size != arg.size)
      return CL_INVALID_ARG_SIZE;
    if (!value)
      return CL_INVALID_ARG_VALUE;
    std::memcpy(block_.data() + arg.offset, value, size);
    break;
  default:
    return CL_INVALID_ARG_VALUE;
  }
  set_[index] = true;
  return CL_SUCCESS;
}

cl_int Kernel::setSvmArgument(cl_uint index, const void *pointer) {
  if (index >= description_.arguments.size())
    return CL_INVALID_ARG_INDEX;
  const compiler::KernelArgument &arg = description_.arguments[index];
  if (arg.kind != ArgumentKind::Buffer ||
      (arg.address_space != compiler::AddressSpace::Global &&
       arg.address_space != compiler::AddressSpace::Constant))
    return CL_INVALID_ARG_VALUE;
  std::lock_guard<std::mutex> lock(mutex_);
  buffers_[index] = ShellRef<Memory>();
  svm_arguments_[index] = pointer != nullptr;
  std::memcpy(block_.data() + arg.offset, &pointer, sizeof(pointer));
  set_[index] = true;
  return CL_SUCCESS;
}

void Kernel::setExecSvmPointers(std::vector<void *> pointers) {
  std::lock_guard<std::mutex> lock(mutex_);
  exec_svm_pointers_ = std::move(pointers);
}

void Kernel::setExecFineGrainSystem(bool enabled) {
  std::lock_guard<std::mutex> lock(mutex_);
  exec_fine_grain_system_ = enabled;
}

void Kernel::setExecUsmPointers(std::vector<void *> pointers) {
  std::lock_guard<std::mutex> lock(mutex_);
  exec_usm_pointers_ = std::move(pointers);
}

void Kernel::setExecDevicePointers(std::vector<void *> pointers) {
  std::lock_guard<std::mutex> lock(mutex_);
  exec_device_pointers_ = std::move(pointers);
}

bool Kernel::isGlobalPointerArgument(cl_uint index) const {
  if (index >= description_.arguments.size())
    return false;
  const compiler::KernelArgument &arg = description_.arguments[index];
  return arg.kind == ArgumentKind::Buffer &&
         arg.address_space == compiler::AddressSpace::Global;
}

void Kernel::setExecIndirectUsmAccess(unsigned kind_bit, bool enabled) {
  std::lock_guard<std::mutex> lock(mutex_);
  exec_indirect_usm_ =
      enabled ? exec_indirect_usm_ | kind_bit : exec_indirect_usm_ & ~kind_bit;
}

bool Kernel::allArgumentsSet() const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (bool s : set_)
    if (!s)
      return false;
  return true;
}

uint64_t Kernel::localMemorySize() const {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t total = description_.static_local_memory;
  for (uint64_t size : local_sizes_)
    if (size)
      total = alignUp(total, kLocalArgumentAlignment) + size;
  return total;
}

bool Kernel::copiedBuffersUnwritten() const {
  auto bytes = [this](uint32_t index) -> std::pair<const char *, size_t> {
    Ref<Memory> memory = buffers_[index].lock();
    if (!memory)
      return {nullptr, 0};
    return {memory->data(), memory->size()};
  };
  for (uint32_t source : description_.read_through_sources) {
    auto [from, from_size] = bytes(source);
    for (uint32_t written : description_.written_buffers) {
      auto [to, to_size] = bytes(written);
      // Sub-buffers of one buffer, or one buffer passed twice, may overlap.
      if (from && to && from < to + to_size && to < from + from_size)
        return false;
    }
  }
  return true;
}

bool Kernel::readThroughCovers(const NDRangeLaunch &launch) const {
  uint64_t limit = description_.read_through_max_local_size;
  for (uint64_t size : launch.local_size)
    if (limit && size > limit)
      return false;
  return true;
}

const compiler::KernelDescription::ImageVariant *Kernel::imageVariant() const {
  if (description_.image_variants.empty())
    return nullptr;
  uint32_t order = 0, type = 0;
  for (size_t i = 0; i < description_.arguments.size(); ++i) {
    if (description_.arguments[i].kind != ArgumentKind::Image)
      continue;
    Ref<Memory> image = buffers_[i].lock();
    if (!image)
      return nullptr;
    const cl_image_format &format = image->imageFormat();
    if (order && (format.image_channel_order != order ||
                  format.image_channel_data_type != type))
      return nullptr;
    order = format.image_channel_order;
    type = format.image_channel_data_type;
  }
  for (const auto &variant : description_.image_variants)
    if (variant.channel_order == order && variant.channel_type == type)
      return &variant;
  return nullptr;
}

const compiler::KernelDescription::UnitStrideVariant *
Kernel::unitStrideVariant() const {
  for (const auto &variant : description_.unit_stride_variants) {
    bool all_one = true;
    for (uint32_t index : variant.arguments) {
      const compiler::KernelArgument &argument = description_.arguments[index];
      // Integers of 1 to 8 bytes, little-endian in the block.
      uint64_t value = 0;
      std::memcpy(&value, block_.data() + argument.offset,
                  std::min<size_t>(argument.size, sizeof value));
      all_one = all_one && value == 1;
    }
    if (all_one)
      return &variant;
  }
  return nullptr;
}

cl_int Kernel::prepareCode() const {
  std::string log;
  cl_int status = executable_->prepareKernel(index_, log);
  if (status != CL_SUCCESS)
    program_->appendToBuildLog(log);
  return status;
}

cl_int Kernel::privateMemorySize(uint64_t &bytes) const {
  if (cl_int err = prepareCode())
    return err;
  bytes = description_.private_memory;
  return CL_SUCCESS;
}

size_t Kernel::maxWorkGroupSize(size_t device_limit) const {
  if (!description_.plan.reachesBarrier())
    return device_limit;
  // A kernel split at its barriers keeps what lives across them in
  // per-work-item storage of the group: any group the device allows fits.
  // Fibers need a stack each, and the mappings those take bound the group
  // (kMaxFibersPerGroup); that limit holds whenever this kernel's groups
  // would run on fibers: it was not split, WEFT_BARRIERS=fibers, or the
  // async copy checking mode.
  const LaunchSettings &launch = settings().launchSettings();
  bool on_fibers = description_.plan.path != compiler::ExecutionPath::Regions ||
                   launch.barriers == BarrierPath::Fibers ||
                   launch.check_async_copies;
  if (!on_fibers || prepareCode() != CL_SUCCESS)
    return device_limit;
  uint64_t stack =
      fiberStackSizeFor(description_.private_memory + kStackReserve);
  uint64_t fitting =
      std::min(kMaxFibersPerGroup, kFiberStackBudgetPerGroup / stack);
  return static_cast<size_t>(
      std::max<uint64_t>(1, std::min<uint64_t>(device_limit, fitting)));
}

size_t barrierFreeGroupLimit(size_t work_items, size_t compute_units) {
  constexpr size_t kSmallest = 256, kLargest = 4096, kGroupsPerUnit = 8;
  size_t limit =
      work_items / (kGroupsPerUnit * std::max<size_t>(1, compute_units));
  return std::clamp(limit, kSmallest, kLargest);
}

size_t mergedGroupFactor(size_t local, size_t groups, size_t limit,
                         uint64_t item_picoseconds) {
  // Doubling a few times, as befits the enqueue path.
  size_t factor = 1;
  while (groups % (factor * 2) == 0 && local * factor * 2 <= limit &&
         (item_picoseconds == 0 || item_picoseconds * local * factor * 2 <=
                                       kMergedGroupNanoseconds * 1000))
    factor *= 2;
  return factor;
}

size_t Kernel::subGroupCount(const size_t *local, size_t dims) const {
  size_t width = description_.sub_group_size;
  size_t count = dims > 0 ? (local[0] + width - 1) / width : 1;
  for (size_t d = 1; d < dims; ++d)
    count *= local[d];
  return count;
}

size_t Kernel::maxSubGroupSize(const size_t *local, size_t dims) const {
  size_t width = description_.sub_group_size;
  return dims > 0 ? std::min(width, local[0]) : std::min<size_t>(width, 1);
}

void Kernel::chooseLocalSize(cl_uint work_dim, const size_t *global,
                             size_t *local, size_t compute_units) const {
  // A required number of sub-groups is a group of that many full
  // sub-groups along dimension 0.
  if (uint64_t count = description_.required_sub_groups) {
    local[0] = static_cast<size_t>(count * description_.sub_group_size);
    for (cl_uint d = 1; d < work_dim; ++d)
      local[d] = 1;
    return;
  }
  size_t limit = 256;
  if (!description_.plan.reachesBarrier()) {
    size_t items = 1;
    for (cl_uint d = 0; d < work_dim; ++d)
      items *= global[d];
    limit = barrierFreeGroupLimit(items, compute_units);
  }
  weft::chooseLocalSize(work_dim, global, description_.reqd_work_group_size,
                        maxWorkGroupSize(limit), local);
}

cl_int Kernel::enqueue(Queue &queue, cl_uint work_dim, const size_t *offset,
                       const size_t *global, const size_t *local,
                       std::vector<Ref<Event>> wait_list, Ref<Event> &command) {
  std::optional<Command> launch;
  if (cl_int err = makeLaunch(queue, work_dim, offset, global, local, launch))
    return err;
  return queue.submit(std::move(*launch), std::move(wait_list),
                      /*blocking=*/false, command);
}

cl_int Kernel::makeLaunch(Queue &queue, cl_uint work_dim, const size_t *offset,
                          const size_t *global, const size_t *local,
                          std::optional<Command> &out) {
  if (cl_int err = prepareCode())
    return err;
  void *storage = launch_blocks_.take();
  if (!storage)
    return CL_OUT_OF_HOST_MEMORY;
  auto *queued = new (storage)
      QueuedLaunch{Ref<Kernel>(this), &queue.device().pool(), &queue.context(),
                   description_.uses_printf, NDRangeLaunch{}};
  Command launch_command(CL_COMMAND_NDRANGE_KERNEL,
                         [queued] { return queued->run(); });
  launch_command.own(queued, &Kernel::releaseQueuedLaunch);
  NDRangeLaunch &launch = queued->launch;
  launch.kernel_name = description_.name.c_str();
  launch.group_nanoseconds = &group_nanoseconds_;
  launch.group_entry = description_.entry;
  launch.work_item_entry = description_.work_item_entry;
  launch.reaches_barrier = description_.plan.reachesBarrier();
  launch.split_at_barriers =
      description_.plan.path == compiler::ExecutionPath::Regions;
  launch.work_dim = work_dim;
  launch.work_item_stack = description_.private_memory + kStackReserve;
  launch.sub_group_size = description_.sub_group_size;
  launch.group_stack = description_.group_entry_frame + kStackReserve;
  launch.settings = settings().launchSettings();
  launch.flush_denormals = flush_denormals_;
  launch.code_begin = executable_->libraryOf(index_).codeBegin();
  launch.code_end = executable_->libraryOf(index_).codeEnd();
  for (cl_uint d = 0; d < work_dim; ++d) {
    launch.global_offset[d] = offset ? offset[d] : 0;
    launch.global_size[d] = global[d];
    launch.local_size[d] = local[d];
  }
  // A kernel that cannot tell its groups apart runs in the groups Weft
  // would choose when they are larger: groups of 256 saxpy work-items cost
  // their dispatch a quarter of the launch on one Zen 3 core (bench/
  // RESULTS.md, session 16). Only along one dimension, where a group is a
  // run of consecutive ids either way: 2-D groups are often the
  // application's cache blocking (naive sgemm's 16x16 tiles ran at 68
  // GFLOP/s as rows of 768x4 on the 16-core Xeon, against 158).
  // A reqd_work_group_size only bounds what the application may ask.
  if (work_dim == 1 && !description_.sees_work_groups &&
      !description_.plan.reachesBarrier() && global[0] % local[0] == 0) {
    uint64_t measured_items = group_items_.load(std::memory_order_relaxed);
    uint64_t item_picoseconds =
        measured_items ? group_nanoseconds_.load(std::memory_order_relaxed) *
                             1000 / measured_items
                       : 0;
    size_t factor = mergedGroupFactor(
        local[0], global[0] / local[0],
        barrierFreeGroupLimit(global[0],
                              queue.device().properties().compute_units),
        item_picoseconds);
    if (factor > 1) {
      launch.groups_merged = true;
      launch.local_size[0] = local[0] * factor;
    }
  }
  {
    // Written only when it changes: a stream of launches of one size
    // leaves the kernel's cache line alone.
    uint64_t items = 1;
    for (cl_uint d = 0; d < work_dim; ++d)
      items *= launch.local_size[d];
    if (group_items_.load(std::memory_order_relaxed) != items)
      group_items_.store(items, std::memory_order_relaxed);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    unsigned char *arguments = queued->arguments();
    std::memcpy(arguments, block_.data(), block_.size());
    // Lay out the __local arguments after the static __local variables.
    uint64_t local_offset = description_.static_local_memory;
    for (size_t i = 0; i < description_.arguments.size(); ++i) {
      if (description_.arguments[i].kind != ArgumentKind::LocalBuffer)
        continue;
      local_offset = alignUp(local_offset, kLocalArgumentAlignment);
      std::memcpy(arguments + description_.arguments[i].offset, &local_offset,
                  sizeof(local_offset));
      local_offset += local_sizes_[i];
    }
    launch.local_memory_size = local_offset;
    // The command holds the buffers and pipes the arguments point at.
    // Whether a kernel writes a __global buffer is not known: as written.
    // Through SVM pointers a kernel reaches memory no argument names: the
    // allocations linked from the one it was given, any host memory with
    // fine-grained system SVM.
    bool uses_svm = exec_fine_grain_system_ || !exec_svm_pointers_.empty() ||
                    !exec_usm_pointers_.empty() || exec_indirect_usm_ != 0 ||
                    !exec_device_pointers_.empty();
    size_t accesses = 0;
    for (size_t i = 0; i < buffers_.size(); ++i) {
      uses_svm = uses_svm || svm_arguments_[i];
      accesses += buffers_[i] ? 1 : 0;
    }
    launch_command.reserveAccesses(accesses + (uses_svm ? 1 : 0));
    for (size_t i = 0; i < buffers_.size(); ++i) {
      if (!buffers_[i])
        continue;
      Ref<Memory> live = buffers_[i].lock();
      if (!live)
        return CL_INVALID_KERNEL_ARGS;
      if (description_.arguments[i].address_space ==
          compiler::AddressSpace::Constant)
        launch_command.reads(std::move(live));
      else
        launch_command.writes(std::move(live));
    }
    if (uses_svm)
      launch_command.writesAnyHostMemory();
    // What memory SVM pointers reach is not known, so neither is whether a
    // copied buffer is written through one: no read-through then.
    // Images all of one format the compiler made a variant for run it.
    if (const auto *variant = imageVariant()) {
      launch.group_entry = variant->entry;
      launch.work_item_entry = variant->work_item_entry;
    }
    // Strides the compiler made a variant for, all 1, run it.
    if (const auto *variant = unitStrideVariant()) {
      launch.group_entry = variant->entry;
      launch.work_item_entry = variant->work_item_entry;
    }
    // The memory checking mode checks copies in the copy engine.
    if (description_.read_through_entry && !uses_svm &&
        !settings().check_memory && copiedBuffersUnwritten() &&
        readThroughCovers(launch))
      launch.group_entry = description_.read_through_entry;
    if (settings().check_memory) {
      queued->memory_objects = memoryCheckObjects(queued->arguments());
      launch.memory_objects = queued->memory_objects.get();
    }
  }
  launch.arguments = queued->arguments();
  out.emplace(std::move(launch_command));
  return CL_SUCCESS;
}

std::unique_ptr<MemoryCheckObjects>
Kernel::memoryCheckObjects(const unsigned char *arguments) const {
  auto objects = std::make_unique<MemoryCheckObjects>();
  size_t count = description_.arguments.size();
  objects->arguments.assign(count, MemoryRange{0, 0});
  objects->argument_names.resize(count);
  SvmRegistry &svm = program_->context().svm();
  const std::vector<SvmAllocation> freed = svm.recentlyFreed();
  for (size_t i = 0; i < count; ++i) {
    const compiler::KernelArgument &argument = description_.arguments[i];
    objects->argument_names[i] = argument.name;
    if (argument.kind == ArgumentKind::LocalBuffer) {
      objects->arguments[i] = {0, local_sizes_[i]};
      continue;
    }
    if (argument.kind == ArgumentKind::Sampler) {
      // A sampler's level-of-detail range, when it has one
      // (device/image_abi.h).
      uint64_t bits = 0;
      std::memcpy(&bits, arguments + argument.offset, sizeof bits);
      if (uint64_t range = bits & ~uint64_t(WEFT_SAMPLER_BITS))
        objects->reachable.push_back({range, sizeof(WeftLodRange)});
      continue;
    }
    if (argument.kind == ArgumentKind::Image) {
      // Kernels read the image's description through the argument (its
      // size, inlined queries) and its texels at addresses taken from it.
      Ref<Memory> image = buffers_[i].lock();
      if (!image)
        continue;
      const WeftImage &description = image->kernelImage();
      objects->arguments[i] = {0, sizeof(WeftImage)};
      uint64_t plane = std::max<uint64_t>(
          {description.slice_pitch,
           description.row_pitch * uint64_t(std::max(description.height, 1)),
           uint64_t(description.width) * uint64_t(description.element_size)});
      uint64_t planes = uint64_t(std::max(description.depth, 1)) *
                        uint64_t(std::max(description.array_size, 1));
      if (description.num_mip_levels > 1) {
        // Every level's texels, and the levels' descriptions kernels read.
        objects->reachable.push_back(
            {reinterpret_cast<uint64_t>(description.data), image->size()});
        objects->reachable.push_back(
            {reinterpret_cast<uint64_t>(description.mip_levels),
             sizeof(WeftImage) * uint64_t(description.num_mip_levels)});
        continue;
      }
      objects->reachable.push_back(
          {reinterpret_cast<uint64_t>(description.data), plane * planes});
      continue;
    }
    if (argument.kind != ArgumentKind::Buffer)
      continue;
    if (Ref<Memory> buffer = buffers_[i].lock()) {
      objects->arguments[i] = {0, buffer->size()};
      objects->reachable.push_back(
          {reinterpret_cast<uint64_t>(buffer->data()), buffer->size()});
      continue;
    }
    if (!svm_arguments_[i])
      continue; // a null buffer: no object
    void *pointer = nullptr;
    std::memcpy(&pointer, arguments + argument.offset, sizeof pointer);
    auto address = reinterpret_cast<uint64_t>(pointer);
    if (std::optional<SvmAllocation> allocation = svm.find(pointer)) {
      auto base = reinterpret_cast<uint64_t>(allocation->base);
      objects->arguments[i] = {address - base, allocation->size};
    } else {
      // Fine-grained system SVM lets any host pointer in; its extent is the
      // application's to know. A stale one keeps no object.
      bool stale = false;
      for (const SvmAllocation &allocation : freed)
        stale |= allocation.contains(pointer);
      if (!stale) {
        objects->arguments[i] = {address, UINT64_MAX};
        objects->any_host_memory = true;
      }
    }
  }
  for (const SvmAllocation &allocation : svm.live())
    objects->reachable.push_back(
        {reinterpret_cast<uint64_t>(allocation.base), allocation.size});
  for (const SvmAllocation &allocation : freed)
    objects->freed.push_back(
        {reinterpret_cast<uint64_t>(allocation.base), allocation.size});
  const KernelLibrary &library = executable_->libraryOf(index_);
  if (library.imageEnd() > library.imageBegin())
    objects->reachable.push_back(
        {library.imageBegin(), library.imageEnd() - library.imageBegin()});
  objects->any_host_memory |= exec_fine_grain_system_;
  objects->finish();
  return objects;
}

void Kernel::releaseQueuedLaunch(void *storage) {
  auto *queued = static_cast<QueuedLaunch *>(storage);
  // The launch's reference may be the kernel's last: the block goes back
  // before the kernel (and its storage) may go.
  Ref<Kernel> kernel = std::move(queued->kernel);
  queued->~QueuedLaunch();
  kernel->launch_blocks_.give(storage);
}

} // namespace weft
