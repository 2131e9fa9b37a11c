// Unified shared memory (cl_intel_unified_shared_memory 1.1), from the
// extension's specification: every allocation kind and its info queries
// from the base, the middle and past the end, the allocators' and frees'
// errors, kernels reaching USM through arguments and through memory
// (indirect access), fill, memset, memcpy, migrate and advise in order on
// in-order and out-of-order queues, a blocking free waiting for the
// commands before it, USM beside SVM and buffers, and a command buffer
// replaying a launch on USM.
#include "api_fixture.h"
#include "command_buffer_khr.h"

#include <CL/cl_ext.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

struct UsmFunctions {
  clHostMemAllocINTEL_fn host_alloc = nullptr;
  clDeviceMemAllocINTEL_fn device_alloc = nullptr;
  clSharedMemAllocINTEL_fn shared_alloc = nullptr;
  clMemFreeINTEL_fn free = nullptr;
  clMemBlockingFreeINTEL_fn blocking_free = nullptr;
  clGetMemAllocInfoINTEL_fn info = nullptr;
  clSetKernelArgMemPointerINTEL_fn set_arg = nullptr;
  clEnqueueMemFillINTEL_fn fill = nullptr;
  clEnqueueMemsetINTEL_fn memset = nullptr;
  clEnqueueMemcpyINTEL_fn memcpy = nullptr;
  clEnqueueMigrateMemINTEL_fn migrate = nullptr;
  clEnqueueMemAdviseINTEL_fn advise = nullptr;

  explicit UsmFunctions(cl_platform_id platform) {
    auto get = [platform](auto &slot, const char *name) {
      slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
          clGetExtensionFunctionAddressForPlatform(platform, name));
      REQUIRE(slot != nullptr);
    };
    get(host_alloc, "clHostMemAllocINTEL");
    get(device_alloc, "clDeviceMemAllocINTEL");
    get(shared_alloc, "clSharedMemAllocINTEL");
    get(free, "clMemFreeINTEL");
    get(blocking_free, "clMemBlockingFreeINTEL");
    get(info, "clGetMemAllocInfoINTEL");
    get(set_arg, "clSetKernelArgMemPointerINTEL");
    get(fill, "clEnqueueMemFillINTEL");
    get(memset, "clEnqueueMemsetINTEL");
    get(memcpy, "clEnqueueMemcpyINTEL");
    get(migrate, "clEnqueueMigrateMemINTEL");
    get(advise, "clEnqueueMemAdviseINTEL");
  }
};

struct UsmFixture : WeftFixture {
  UsmFunctions usm{platform};

  template <typename T> T info(const void *pointer, cl_mem_info_intel name) {
    T value{};
    size_t size = 0;
    REQUIRE(usm.info(context, pointer, name, sizeof value, &value, &size) ==
            CL_SUCCESS);
    CHECK(size == sizeof value);
    return value;
  }
};

const char *kKernels = R"CLC(
kernel void scale(global int *data, int by) {
  size_t i = get_global_id(0);
  data[i] = data[i] * by + (int)i;
}
// Reaches a second allocation through a pointer stored in the first.
typedef struct { global int *values; int count; } Table;
kernel void sum_through(global const Table *table, global long *out) {
  long sum = 0;
  for (int i = 0; i < table->count; ++i)
    sum += table->values[i];
  out[get_global_id(0)] = sum + (long)get_global_id(0);
}
kernel void slow_fill(global int *data, int rounds) {
  size_t i = get_global_id(0);
  int v = (int)i;
  for (int r = 0; r < rounds; ++r)
    v = v * 1103515245 + 12345;
  data[i] = v;
}
kernel void add_one(global int *data) { data[get_global_id(0)] += 1; }
)CLC";

int slowFillValue(int i, int rounds) {
  uint32_t v = uint32_t(i);
  for (int r = 0; r < rounds; ++r)
    v = v * 1103515245u + 12345u;
  return int(v);
}

} // namespace

TEST_CASE_METHOD(UsmFixture,
                 "USM: every allocation kind, its info from anywhere inside",
                 "[usm]") {
  cl_device_unified_shared_memory_capabilities_intel caps = 0;
  for (cl_device_info query :
       {CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL}) {
    REQUIRE(clGetDeviceInfo(device, query, sizeof caps, &caps, nullptr) ==
            CL_SUCCESS);
    CHECK(caps == (CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL |
                   CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
                   CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
                   CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL));
  }

  cl_int err = CL_INVALID_VALUE;
  const cl_mem_properties_intel write_combined[] = {
      CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_WRITE_COMBINED_INTEL, 0};
  void *host = usm.host_alloc(context, nullptr, 1000, 0, &err);
  REQUIRE(err == CL_SUCCESS);
  void *dev =
      usm.device_alloc(context, device, write_combined, 4096, 128, &err);
  REQUIRE(err == CL_SUCCESS);
  void *shared = usm.shared_alloc(context, device, nullptr, 24, 64, &err);
  REQUIRE(err == CL_SUCCESS);
  void *shared_anywhere =
      usm.shared_alloc(context, nullptr, nullptr, 8, 0, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(reinterpret_cast<uintptr_t>(dev) % 128 == 0);
  CHECK(reinterpret_cast<uintptr_t>(shared) % 64 == 0);
  // The default alignment is the largest type's (long16: 128 bytes).
  CHECK(reinterpret_cast<uintptr_t>(host) % 128 == 0);

  struct Expected {
    void *base;
    size_t size;
    cl_unified_shared_memory_type_intel type;
    cl_device_id device;
    cl_mem_alloc_flags_intel flags;
  };
  const Expected expected[] = {
      {host, 1000, CL_MEM_TYPE_HOST_INTEL, nullptr, 0},
      {dev, 4096, CL_MEM_TYPE_DEVICE_INTEL, device,
       CL_MEM_ALLOC_WRITE_COMBINED_INTEL},
      {shared, 24, CL_MEM_TYPE_SHARED_INTEL, device, 0},
      {shared_anywhere, 8, CL_MEM_TYPE_SHARED_INTEL, nullptr, 0}};
  for (const Expected &e : expected) {
    for (size_t offset : {size_t(0), e.size / 2, e.size - 1}) {
      const char *inside = static_cast<const char *>(e.base) + offset;
      INFO("allocation of " << e.size << " bytes, offset " << offset);
      CHECK(info<cl_unified_shared_memory_type_intel>(
                inside, CL_MEM_ALLOC_TYPE_INTEL) == e.type);
      CHECK(info<void *>(inside, CL_MEM_ALLOC_BASE_PTR_INTEL) == e.base);
      CHECK(info<size_t>(inside, CL_MEM_ALLOC_SIZE_INTEL) == e.size);
      CHECK(info<cl_device_id>(inside, CL_MEM_ALLOC_DEVICE_INTEL) == e.device);
      CHECK(info<cl_mem_alloc_flags_intel>(inside, CL_MEM_ALLOC_FLAGS_INTEL) ==
            e.flags);
    }
  }
  // Past the end, on the stack, null: no allocation.
  int on_stack = 0;
  for (const void *foreign :
       {static_cast<const void *>(static_cast<char *>(host) + 1000),
        static_cast<const void *>(&on_stack),
        static_cast<const void *>(nullptr)}) {
    CHECK(info<cl_unified_shared_memory_type_intel>(
              foreign, CL_MEM_ALLOC_TYPE_INTEL) == CL_MEM_TYPE_UNKNOWN_INTEL);
    CHECK(info<void *>(foreign, CL_MEM_ALLOC_BASE_PTR_INTEL) == nullptr);
    CHECK(info<size_t>(foreign, CL_MEM_ALLOC_SIZE_INTEL) == 0);
    CHECK(info<cl_device_id>(foreign, CL_MEM_ALLOC_DEVICE_INTEL) == nullptr);
  }
  CHECK(usm.info(context, host, 0x1234, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  size_t too_small = 0;
  CHECK(usm.info(context, host, CL_MEM_ALLOC_TYPE_INTEL, 1, &too_small,
                 nullptr) == CL_INVALID_VALUE);

  // An SVM allocation is not a USM one: unknown, and not clMemFreeINTEL's
  // to free; nor is a USM allocation clSVMFree's.
  void *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, 256, 0);
  REQUIRE(svm);
  CHECK(info<cl_unified_shared_memory_type_intel>(
            static_cast<char *>(svm) + 100, CL_MEM_ALLOC_TYPE_INTEL) ==
        CL_MEM_TYPE_UNKNOWN_INTEL);
  CHECK(info<size_t>(svm, CL_MEM_ALLOC_SIZE_INTEL) == 0);
  CHECK(usm.free(context, svm) == CL_INVALID_VALUE);
  clSVMFree(context, host);
  CHECK(info<size_t>(host, CL_MEM_ALLOC_SIZE_INTEL) == 1000);
  clSVMFree(context, svm);

  // The host writes and reads every kind directly.
  std::memset(dev, 0x5a, 4096);
  CHECK(static_cast<unsigned char *>(dev)[4095] == 0x5a);
  for (void *p : {host, dev, shared, shared_anywhere})
    CHECK(usm.free(context, p) == CL_SUCCESS);
  // Freed: unknown again, and not freed twice.
  CHECK(info<cl_unified_shared_memory_type_intel>(
            host, CL_MEM_ALLOC_TYPE_INTEL) == CL_MEM_TYPE_UNKNOWN_INTEL);
  CHECK(usm.free(context, host) == CL_INVALID_VALUE);
}

TEST_CASE_METHOD(UsmFixture, "USM: the allocators' and frees' errors",
                 "[usm]") {
  cl_int err = CL_SUCCESS;
  cl_ulong max_alloc = 0;
  clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                  &max_alloc, nullptr);
  CHECK(usm.host_alloc(nullptr, nullptr, 64, 0, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(usm.host_alloc(context, nullptr, 0, 0, &err) == nullptr);
  CHECK(err == CL_INVALID_BUFFER_SIZE);
  CHECK(usm.shared_alloc(context, device, nullptr, size_t(max_alloc) + 1, 0,
                         &err) == nullptr);
  CHECK(err == CL_INVALID_BUFFER_SIZE);
  CHECK(usm.host_alloc(context, nullptr, 64, 3, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  // At most the largest type's alignment (long16: 128 bytes).
  CHECK(usm.host_alloc(context, nullptr, 64, 256, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(usm.device_alloc(context, nullptr, nullptr, 64, 0, &err) == nullptr);
  CHECK(err == CL_INVALID_DEVICE);
  CHECK(usm.device_alloc(context, reinterpret_cast<cl_device_id>(context),
                         nullptr, 64, 0, &err) == nullptr);
  CHECK(err == CL_INVALID_DEVICE);
  const cl_mem_properties_intel unknown[] = {0x1234, 0, 0};
  const cl_mem_properties_intel twice[] = {CL_MEM_ALLOC_FLAGS_INTEL, 0,
                                           CL_MEM_ALLOC_FLAGS_INTEL, 0, 0};
  const cl_mem_properties_intel bad_flags[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                               1 << 10, 0};
  const cl_mem_properties_intel both_places[] = {
      CL_MEM_ALLOC_FLAGS_INTEL,
      CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |
          CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL,
      0};
  for (const cl_mem_properties_intel *props :
       {unknown, twice, bad_flags, both_places}) {
    CHECK(usm.shared_alloc(context, device, props, 64, 0, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);
  }
  // An initial placement is for shared memory only.
  const cl_mem_properties_intel on_device[] = {
      CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL, 0};
  CHECK(usm.device_alloc(context, device, on_device, 64, 0, &err) == nullptr);
  CHECK(err == CL_INVALID_PROPERTY);
  CHECK(usm.host_alloc(context, on_device, 64, 0, &err) == nullptr);
  CHECK(err == CL_INVALID_PROPERTY);
  void *placed = usm.shared_alloc(context, device, on_device, 64, 0, &err);
  CHECK(err == CL_SUCCESS);
  CHECK(usm.free(context, placed) == CL_SUCCESS);
  // A device outside the context.
  cl_uint units = 0;
  clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
                  nullptr);
  if (units >= 2) {
    const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                    1, 0};
    std::vector<cl_device_id> parts(units);
    cl_uint made = 0;
    REQUIRE(clCreateSubDevices(device, equally, units, parts.data(), &made) ==
            CL_SUCCESS);
    CHECK(usm.device_alloc(context, parts[0], nullptr, 64, 0, &err) == nullptr);
    CHECK(err == CL_INVALID_DEVICE);
    for (cl_uint i = 0; i < made; ++i)
      clReleaseDevice(parts[i]);
  }

  // Frees: null is nothing; the middle of an allocation, a foreign pointer
  // or a freed one are refused (and nothing is freed).
  CHECK(usm.free(context, nullptr) == CL_SUCCESS);
  CHECK(usm.blocking_free(context, nullptr) == CL_SUCCESS);
  CHECK(usm.free(nullptr, nullptr) == CL_INVALID_CONTEXT);
  char *p = static_cast<char *>(usm.host_alloc(context, nullptr, 64, 0, &err));
  REQUIRE(p);
  int on_stack = 0;
  CHECK(usm.free(context, p + 8) == CL_INVALID_VALUE);
  CHECK(usm.free(context, &on_stack) == CL_INVALID_VALUE);
  CHECK(usm.blocking_free(context, p + 8) == CL_INVALID_VALUE);
  p[63] = 1; // still allocated
  CHECK(usm.blocking_free(context, p) == CL_SUCCESS);
  CHECK(usm.free(context, p) == CL_INVALID_VALUE);
}

TEST_CASE_METHOD(UsmFixture,
                 "USM: kernels through arguments and through memory, "
                 "commands in order",
                 "[usm]") {
  cl_int err = CL_SUCCESS;
  const size_t n = 1024;
  int *dev = static_cast<int *>(
      usm.device_alloc(context, device, nullptr, n * sizeof(int), 0, &err));
  int *host = static_cast<int *>(
      usm.host_alloc(context, nullptr, n * sizeof(int), 0, &err));
  REQUIRE(dev);
  REQUIRE(host);

  // Fill with a 4-byte pattern, scale in a kernel through an interior
  // pointer, copy back: all on one in-order queue, no waits between.
  const cl_int seven = 7;
  REQUIRE(usm.fill(queue, dev, &seven, sizeof seven, n * sizeof(int), 0,
                   nullptr, nullptr) == CL_SUCCESS);
  cl_kernel scale = kernel(kKernels, "scale");
  REQUIRE(usm.set_arg(scale, 0, dev + 16) == CL_SUCCESS);
  cl_int by = 3;
  clSetKernelArg(scale, 1, sizeof by, &by);
  size_t items = n - 16;
  REQUIRE(clEnqueueNDRangeKernel(queue, scale, 1, nullptr, &items, nullptr, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(usm.migrate(queue, dev, n * sizeof(int), CL_MIGRATE_MEM_OBJECT_HOST,
                      0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(usm.advise(queue, dev, n * sizeof(int), 0, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  // No advice is defined yet (0x4208-0x420F are reserved).
  CHECK(usm.advise(queue, dev, 64, 0x4208, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  cl_event copied = nullptr;
  REQUIRE(usm.memcpy(queue, CL_TRUE, host, dev, n * sizeof(int), 0, nullptr,
                     &copied) == CL_SUCCESS);
  cl_command_type type = 0;
  clGetEventInfo(copied, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  CHECK(type == CL_COMMAND_MEMCPY_INTEL);
  clReleaseEvent(copied);
  for (size_t i = 0; i < n; ++i) {
    int want = i < 16 ? 7 : 7 * 3 + int(i - 16);
    if (host[i] != want) {
      INFO("element " << i);
      CHECK(host[i] == want);
      break;
    }
  }

  // memset (one byte), fills of 1, 2, 16 and 128 bytes.
  REQUIRE(usm.memset(queue, host, 0xab, 64, 0, nullptr, nullptr) == CL_SUCCESS);
  clFinish(queue);
  CHECK(static_cast<unsigned char *>(static_cast<void *>(host))[63] == 0xab);
  for (size_t pattern_size : {1, 2, 16, 128}) {
    std::vector<unsigned char> pattern(pattern_size);
    std::iota(pattern.begin(), pattern.end(), 1);
    REQUIRE(usm.fill(queue, dev, pattern.data(), pattern_size, 1024, 0, nullptr,
                     nullptr) == CL_SUCCESS);
    REQUIRE(usm.memcpy(queue, CL_TRUE, host, dev, 1024, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    const unsigned char *bytes = reinterpret_cast<unsigned char *>(host);
    bool same = true;
    for (size_t b = 0; b < 1024; ++b)
      same = same && bytes[b] == pattern[b % pattern_size];
    INFO("pattern of " << pattern_size);
    CHECK(same);
  }
  // The commands' own errors.
  CHECK(usm.fill(queue, dev, &seven, 3, 12, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(usm.fill(queue, dev, &seven, 4, 10, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(usm.fill(queue, nullptr, &seven, 4, 16, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(usm.memcpy(queue, CL_TRUE, dev + 1, dev, 16, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  CHECK(usm.memcpy(queue, CL_TRUE, nullptr, dev, 16, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(usm.migrate(queue, dev, 16, 1 << 5, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(usm.memcpy(nullptr, CL_TRUE, host, dev, 16, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  cl_event null_event = nullptr;
  CHECK(usm.memcpy(queue, CL_TRUE, host, dev, 16, 1, &null_event, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);

  // Indirect access: a shared table pointing at a device allocation.
  struct Table {
    cl_int *values;
    cl_int count;
  };
  auto *table = static_cast<Table *>(
      usm.shared_alloc(context, device, nullptr, sizeof(Table), 0, &err));
  REQUIRE(table);
  for (size_t i = 0; i < 100; ++i)
    host[i] = cl_int(i * i);
  REQUIRE(usm.memcpy(queue, CL_TRUE, dev, host, 100 * sizeof(int), 0, nullptr,
                     nullptr) == CL_SUCCESS);
  table->values = dev;
  table->count = 100;
  auto *sums = static_cast<cl_long *>(
      usm.host_alloc(context, nullptr, 8 * sizeof(cl_long), 0, &err));
  cl_kernel through = kernel(kKernels, "sum_through");
  REQUIRE(usm.set_arg(through, 0, table) == CL_SUCCESS);
  REQUIRE(usm.set_arg(through, 1, sums) == CL_SUCCESS);
  cl_bool yes = CL_TRUE;
  REQUIRE(clSetKernelExecInfo(through,
                              CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                              sizeof yes, &yes) == CL_SUCCESS);
  void *reached[] = {dev};
  REQUIRE(clSetKernelExecInfo(through, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL,
                              sizeof reached, reached) == CL_SUCCESS);
  CHECK(clSetKernelExecInfo(through,
                            CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, 1,
                            &yes) == CL_INVALID_VALUE);
  CHECK(clSetKernelExecInfo(through, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 3,
                            reached) == CL_INVALID_VALUE);
  size_t eight = 8;
  REQUIRE(clEnqueueNDRangeKernel(queue, through, 1, nullptr, &eight, nullptr, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  clFinish(queue);
  long long expected_sum = 0;
  for (int i = 0; i < 100; ++i)
    expected_sum += i * i;
  for (int i = 0; i < 8; ++i)
    CHECK(sums[i] == expected_sum + i);

  clReleaseKernel(scale);
  clReleaseKernel(through);
  for (void *p : {static_cast<void *>(dev), static_cast<void *>(host),
                  static_cast<void *>(table), static_cast<void *>(sums)})
    CHECK(usm.free(context, p) == CL_SUCCESS);
}

TEST_CASE_METHOD(UsmFixture,
                 "USM: out-of-order queues, blocking frees, SVM and buffers "
                 "beside USM, command buffers",
                 "[usm]") {
  cl_int err = CL_SUCCESS;
  const size_t n = 1 << 16;
  const cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES,
                                     CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue out_of_order =
      clCreateCommandQueueWithProperties(context, device, ooo, &err);
  REQUIRE(err == CL_SUCCESS);
  int *shared = static_cast<int *>(
      usm.shared_alloc(context, device, nullptr, n * sizeof(int), 0, &err));
  int *host = static_cast<int *>(
      usm.host_alloc(context, nullptr, n * sizeof(int), 0, &err));
  REQUIRE(shared);
  REQUIRE(host);

  // A chain by events: fill, a kernel, a copy.
  const cl_int zero = 0;
  cl_event filled, ran, copied;
  REQUIRE(usm.fill(out_of_order, shared, &zero, 4, n * 4, 0, nullptr,
                   &filled) == CL_SUCCESS);
  cl_kernel add = kernel(kKernels, "add_one");
  usm.set_arg(add, 0, shared);
  size_t items = n;
  REQUIRE(clEnqueueNDRangeKernel(out_of_order, add, 1, nullptr, &items, nullptr,
                                 1, &filled, &ran) == CL_SUCCESS);
  REQUIRE(usm.memcpy(out_of_order, CL_FALSE, host, shared, n * 4, 1, &ran,
                     &copied) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &copied) == CL_SUCCESS);
  bool all_one = true;
  for (size_t i = 0; i < n; ++i)
    all_one = all_one && host[i] == 1;
  CHECK(all_one);
  for (cl_event e : {filled, ran, copied})
    clReleaseEvent(e);

  // A blocking free waits for the launch queued (not flushed) before it.
  const int rounds = 2000;
  cl_kernel slow = kernel(kKernels, "slow_fill");
  int *target = static_cast<int *>(
      usm.device_alloc(context, device, nullptr, n * sizeof(int), 0, &err));
  REQUIRE(target);
  usm.set_arg(slow, 0, target);
  clSetKernelArg(slow, 1, sizeof rounds, &rounds);
  cl_event slow_done;
  REQUIRE(clEnqueueNDRangeKernel(out_of_order, slow, 1, nullptr, &items,
                                 nullptr, 0, nullptr,
                                 &slow_done) == CL_SUCCESS);
  // Its result, copied out before the free (same queue, after it).
  REQUIRE(usm.memcpy(out_of_order, CL_FALSE, host, target, n * 4, 1, &slow_done,
                     nullptr) == CL_SUCCESS);
  REQUIRE(usm.blocking_free(context, target) == CL_SUCCESS);
  cl_int status = CL_QUEUED;
  clGetEventInfo(slow_done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                 &status, nullptr);
  CHECK(status == CL_COMPLETE);
  clReleaseEvent(slow_done);
  clFinish(out_of_order);
  CHECK(host[12345] == slowFillValue(12345, rounds));

  // USM beside SVM and a buffer: copies between them, one kernel over each.
  int *svm = static_cast<int *>(
      clSVMAlloc(context, CL_MEM_READ_WRITE, n * sizeof(int), 0));
  REQUIRE(svm);
  for (size_t i = 0; i < n; ++i)
    shared[i] = int(i);
  REQUIRE(usm.memcpy(queue, CL_TRUE, svm, shared, n * 4, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueSVMMemcpy(queue, CL_TRUE, host, svm, n * 4, 0, nullptr,
                             nullptr) == CL_SUCCESS);
  CHECK(host[n - 1] == int(n - 1));
  cl_mem buffer_over_usm = clCreateBuffer(context, CL_MEM_USE_HOST_PTR,
                                          n * sizeof(int), shared, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(add, 0, sizeof(cl_mem), &buffer_over_usm) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(queue, add, 1, nullptr, &items, nullptr, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(add, 0, svm) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(queue, add, 1, nullptr, &items, nullptr, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  clFinish(queue);
  CHECK(shared[77] == 78);
  CHECK(svm[77] == 78);
  clReleaseMemObject(buffer_over_usm);
  clSVMFree(context, svm);

  // A command buffer replays a launch on a USM pointer.
  command_buffer_khr::Functions cb(platform);
  REQUIRE(cb.complete());
  cl_command_buffer_khr buffer = cb.create(1, &queue, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  usm.set_arg(add, 0, shared);
  REQUIRE(cb.ndrange(buffer, nullptr, nullptr, add, 1, nullptr, &items, nullptr,
                     0, nullptr, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(cb.finalize(buffer) == CL_SUCCESS);
  for (int replay = 0; replay < 3; ++replay)
    REQUIRE(cb.enqueue(0, nullptr, buffer, 0, nullptr, nullptr) == CL_SUCCESS);
  clFinish(queue);
  CHECK(shared[77] == 81);
  CHECK(shared[n - 1] == int(n - 1) + 4);
  cb.release(buffer);

  clReleaseKernel(add);
  clReleaseKernel(slow);
  CHECK(usm.free(context, shared) == CL_SUCCESS);
  CHECK(usm.free(context, host) == CL_SUCCESS);
  clReleaseCommandQueue(out_of_order);
}
