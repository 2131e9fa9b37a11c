// Shared virtual memory through the loader: clSVMAlloc's validation,
// clSVMFree, every clEnqueueSVM* command (results, error codes, command
// types, wait lists, user events, profiling, the free callback),
// clSetKernelArgSVMPointer and clSetKernelExecInfo, and buffers created over
// SVM memory.
#include "api_fixture.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <thread>

namespace {

struct SvmFixture : WeftFixture {
  void *alloc(size_t size, cl_svm_mem_flags flags = CL_MEM_READ_WRITE,
              cl_uint alignment = 0) {
    void *p = clSVMAlloc(context, flags, size, alignment);
    REQUIRE(p != nullptr);
    return p;
  }
  cl_command_type typeOf(cl_event event) {
    cl_command_type type = 0;
    REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type,
                           nullptr) == CL_SUCCESS);
    return type;
  }
  cl_int statusOf(cl_event event) {
    cl_int status = 0;
    REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                           sizeof(status), &status, nullptr) == CL_SUCCESS);
    return status;
  }
};

const char *kSvmKernels = R"CLC(
kernel void add_one(global int *data) { data[get_global_id(0)] += 1; }
kernel void scale(global int *data, int factor, local int *scratch,
                  constant int *bias) {
  size_t i = get_global_id(0);
  data[i] = data[i] * factor + bias[0];
}
)CLC";

} // namespace

TEST_CASE_METHOD(SvmFixture, "the device reports every SVM level",
                 "[api][svm]") {
  cl_device_svm_capabilities caps = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps),
                          &caps, nullptr) == CL_SUCCESS);
  CHECK(caps ==
        (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
         CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS));
}

TEST_CASE_METHOD(SvmFixture, "clSVMAlloc validates flags, size and alignment",
                 "[api][svm]") {
  // Every valid combination allocates usable memory.
  for (cl_svm_mem_flags flags :
       {cl_svm_mem_flags(0), cl_svm_mem_flags(CL_MEM_READ_WRITE),
        cl_svm_mem_flags(CL_MEM_READ_ONLY), cl_svm_mem_flags(CL_MEM_WRITE_ONLY),
        cl_svm_mem_flags(CL_MEM_SVM_FINE_GRAIN_BUFFER),
        cl_svm_mem_flags(CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER |
                         CL_MEM_SVM_ATOMICS)}) {
    INFO("flags " << flags);
    auto *p = static_cast<char *>(clSVMAlloc(context, flags, 1000, 0));
    REQUIRE(p != nullptr);
    std::memset(p, 7, 1000);
    // The default alignment: the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN.
    CHECK(reinterpret_cast<uintptr_t>(p) % 128 == 0);
    clSVMFree(context, p);
  }
  // Invalid: two access flags, atomics without fine grain, unknown bits.
  CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0) ==
        nullptr);
  CHECK(clSVMAlloc(context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0) ==
        nullptr);
  CHECK(clSVMAlloc(context, CL_MEM_SVM_ATOMICS, 64, 0) == nullptr);
  CHECK(clSVMAlloc(context, CL_MEM_USE_HOST_PTR, 64, 0) == nullptr);
  CHECK(clSVMAlloc(context, CL_MEM_HOST_READ_ONLY, 64, 0) == nullptr);
  // Size 0 or beyond CL_DEVICE_MAX_MEM_ALLOC_SIZE.
  cl_ulong max_alloc = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                          sizeof(max_alloc), &max_alloc,
                          nullptr) == CL_SUCCESS);
  CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE, 0, 0) == nullptr);
  CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE, max_alloc + 1, 0) == nullptr);
  CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE, SIZE_MAX, 0) == nullptr);
  // Alignments: powers of two up to 2 MiB are honoured.
  for (cl_uint alignment : {1u, 8u, 256u, 4096u, 2u << 20}) {
    void *p = alloc(100, CL_MEM_READ_WRITE, alignment);
    CHECK(reinterpret_cast<uintptr_t>(p) % alignment == 0);
    clSVMFree(context, p);
  }
  CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 3) == nullptr);
  CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 96) == nullptr);
  CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 4u << 20) == nullptr);
  // No context.
  CHECK(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0) == nullptr);
}

TEST_CASE_METHOD(SvmFixture, "clSVMFree ignores what clSVMAlloc did not make",
                 "[api][svm]") {
  clSVMFree(context, nullptr);
  int on_stack = 0;
  clSVMFree(context, &on_stack);
  void *heap = std::malloc(64);
  clSVMFree(context, heap);
  std::free(heap); // still the application's
  auto *p = static_cast<char *>(alloc(256));
  clSVMFree(context, p + 16); // not the start of the allocation: ignored
  clSVMFree(nullptr, p);      // no context: ignored
  p[255] = 1;                 // still allocated
  // Another context's allocation is not this one's to free.
  cl_int err;
  cl_context other =
      clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  clSVMFree(other, p);
  p[0] = 1;
  clReleaseContext(other);
  clSVMFree(context, p);
}

TEST_CASE_METHOD(SvmFixture,
                 "a context released with live allocations goes at the last "
                 "clSVMFree",
                 "[api][svm]") {
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  static std::atomic<int> destroyed;
  destroyed = 0;
  REQUIRE(clSetContextDestructorCallback(
              ctx, [](cl_context, void *) { ++destroyed; }, nullptr) ==
          CL_SUCCESS);
  auto *a = static_cast<int *>(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0));
  auto *b = static_cast<int *>(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0));
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(clReleaseContext(ctx) == CL_SUCCESS);
  // The allocations still work, and so does freeing them with the context
  // the application no longer holds.
  a[15] = b[15] = 3;
  CHECK(destroyed == 0);
  clSVMFree(ctx, a);
  CHECK(destroyed == 0);
  clSVMFree(ctx, b);
  CHECK(destroyed == 1);
  // The context is gone now: a stale handle is ignored.
  clSVMFree(ctx, b);
}

TEST_CASE_METHOD(SvmFixture, "clEnqueueSVMMemcpy copies and checks its input",
                 "[api][svm]") {
  constexpr size_t n = 1024;
  auto *src = static_cast<int *>(alloc(n * sizeof(int)));
  auto *dst = static_cast<int *>(
      alloc(n * sizeof(int), CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER));
  for (size_t i = 0; i < n; ++i)
    src[i] = int(i) * 3;
  cl_event done;
  REQUIRE(clEnqueueSVMMemcpy(queue, CL_TRUE, dst, src, n * sizeof(int), 0,
                             nullptr, &done) == CL_SUCCESS);
  CHECK(typeOf(done) == CL_COMMAND_SVM_MEMCPY);
  CHECK(statusOf(done) == CL_COMPLETE);
  for (size_t i = 0; i < n; ++i)
    REQUIRE(dst[i] == int(i) * 3);
  // Profiling works as for other commands.
  cl_ulong start = 0, end = 0;
  REQUIRE(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START,
                                  sizeof(start), &start,
                                  nullptr) == CL_SUCCESS);
  REQUIRE(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof(end),
                                  &end, nullptr) == CL_SUCCESS);
  CHECK(start <= end);
  clReleaseEvent(done);

  // Non-blocking, to plain host memory (fine-grained system SVM), behind a
  // user event.
  std::vector<int> host(n, -1);
  cl_int err;
  cl_event gate = clCreateUserEvent(context, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clEnqueueSVMMemcpy(queue, CL_FALSE, host.data() + 1, src + 1,
                             10 * sizeof(int), 1, &gate, &done) == CL_SUCCESS);
  clFlush(queue);
  CHECK(statusOf(done) != CL_COMPLETE);
  CHECK(host[1] == -1);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
  CHECK(host[0] == -1);
  CHECK(host[1] == 3);
  CHECK(host[10] == 30);
  CHECK(host[11] == -1);
  clReleaseEvent(done);
  clReleaseEvent(gate);

  // Errors.
  CHECK(clEnqueueSVMMemcpy(queue, CL_TRUE, nullptr, src, 4, 0, nullptr,
                           nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemcpy(queue, CL_TRUE, dst, nullptr, 4, 0, nullptr,
                           nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemcpy(queue, CL_TRUE, src + 1, src, 8, 0, nullptr,
                           nullptr) == CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueSVMMemcpy(queue, CL_TRUE, src, src + 1, 8, 0, nullptr,
                           nullptr) == CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueSVMMemcpy(queue, CL_TRUE, src, src, 4, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  // Adjacent ranges do not overlap.
  CHECK(clEnqueueSVMMemcpy(queue, CL_TRUE, src + 2, src, 8, 0, nullptr,
                           nullptr) == CL_SUCCESS);
  CHECK(clEnqueueSVMMemcpy(nullptr, CL_TRUE, dst, src, 4, 0, nullptr,
                           nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueSVMMemcpy(queue, CL_TRUE, dst, src, 4, 1, nullptr, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clEnqueueSVMMemcpy(queue, CL_TRUE, dst, src, 4, 0, &gate, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);
  clSVMFree(context, src);
  clSVMFree(context, dst);
}

TEST_CASE_METHOD(SvmFixture, "clEnqueueSVMMemFill repeats its pattern",
                 "[api][svm]") {
  constexpr size_t bytes = 4096;
  auto *p = static_cast<unsigned char *>(alloc(bytes));
  std::memset(p, 0, bytes);
  const uint32_t word = 0xA1B2C3D4;
  cl_event done;
  REQUIRE(clEnqueueSVMMemFill(queue, p + 64, &word, sizeof(word), 128, 0,
                              nullptr, &done) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
  CHECK(typeOf(done) == CL_COMMAND_SVM_MEMFILL);
  clReleaseEvent(done);
  CHECK(p[63] == 0);
  CHECK(p[64 + 128] == 0);
  for (size_t i = 64; i < 64 + 128; i += 4) {
    uint32_t v;
    std::memcpy(&v, p + i, 4);
    REQUIRE(v == word);
  }
  // A 128-byte pattern, the largest.
  unsigned char big[128];
  for (int i = 0; i < 128; ++i)
    big[i] = static_cast<unsigned char>(i);
  REQUIRE(clEnqueueSVMMemFill(queue, p, big, 128, 1024, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clFinish(queue) == CL_SUCCESS);
  CHECK(p[128 * 7 + 99] == 99);
  // Errors: null pointer or pattern, pattern sizes, misalignment, sizes.
  CHECK(clEnqueueSVMMemFill(queue, nullptr, &word, 4, 4, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(queue, p, nullptr, 4, 4, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  for (size_t pattern_size : {size_t(0), size_t(3), size_t(12), size_t(256)})
    CHECK(clEnqueueSVMMemFill(queue, p, big, pattern_size, 768, 0, nullptr,
                              nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(queue, p + 2, &word, 4, 4, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(queue, p, &word, 4, 6, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(nullptr, p, &word, 4, 4, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  clSVMFree(context, p);
}

TEST_CASE_METHOD(SvmFixture, "clEnqueueSVMMap and Unmap are ordering points",
                 "[api][svm]") {
  auto *p = static_cast<int *>(alloc(256 * sizeof(int)));
  cl_int err;
  cl_event gate = clCreateUserEvent(context, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_event mapped, unmapped;
  REQUIRE(clEnqueueSVMMap(queue, CL_FALSE, CL_MAP_WRITE, p, 256 * sizeof(int),
                          1, &gate, &mapped) == CL_SUCCESS);
  clFlush(queue);
  CHECK(statusOf(mapped) != CL_COMPLETE);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &mapped) == CL_SUCCESS);
  CHECK(typeOf(mapped) == CL_COMMAND_SVM_MAP);
  for (int i = 0; i < 256; ++i)
    p[i] = i;
  REQUIRE(clEnqueueSVMUnmap(queue, p, 0, nullptr, &unmapped) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &unmapped) == CL_SUCCESS);
  CHECK(typeOf(unmapped) == CL_COMMAND_SVM_UNMAP);
  clReleaseEvent(mapped);
  clReleaseEvent(unmapped);
  clReleaseEvent(gate);
  // A blocking map returns once the command before it has run.
  cl_kernel k = kernel(kSvmKernels, "add_one");
  REQUIRE(clSetKernelArgSVMPointer(k, 0, p) == CL_SUCCESS);
  size_t global = 256;
  REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, p, 256 * sizeof(int), 0,
                          nullptr, nullptr) == CL_SUCCESS);
  for (int i = 0; i < 256; ++i)
    REQUIRE(p[i] == i + 1);
  REQUIRE(clEnqueueSVMUnmap(queue, p, 0, nullptr, nullptr) == CL_SUCCESS);
  // Errors.
  CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, nullptr, 4, 0, nullptr,
                        nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, p, 0, 0, nullptr,
                        nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ | (1 << 7), p, 4, 0,
                        nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMap(queue, CL_TRUE,
                        CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, p, 4, 0,
                        nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMUnmap(queue, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMUnmap(nullptr, p, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  clReleaseKernel(k);
  clSVMFree(context, p);
}

TEST_CASE_METHOD(SvmFixture, "clEnqueueSVMMigrateMem validates its ranges",
                 "[api][svm]") {
  auto *a = static_cast<char *>(alloc(1024));
  auto *b = static_cast<char *>(alloc(64));
  const void *pointers[] = {a + 100, b};
  const size_t sizes[] = {200, 0}; // 0: b's whole allocation
  cl_event done;
  REQUIRE(clEnqueueSVMMigrateMem(queue, 2, pointers, sizes,
                                 CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr,
                                 &done) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
  CHECK(typeOf(done) == CL_COMMAND_SVM_MIGRATE_MEM);
  clReleaseEvent(done);
  // No sizes: every allocation whole; content-undefined is a valid flag.
  REQUIRE(clEnqueueSVMMigrateMem(queue, 2, pointers, nullptr,
                                 CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueSVMMigrateMem(queue, 0, pointers, nullptr, 0, 0, nullptr,
                               nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMigrateMem(queue, 2, nullptr, nullptr, 0, 0, nullptr,
                               nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMigrateMem(queue, 2, pointers, nullptr, 1 << 5, 0, nullptr,
                               nullptr) == CL_INVALID_VALUE);
  // A range past its allocation, or memory clSVMAlloc did not make.
  const size_t too_long[] = {1000, 0};
  CHECK(clEnqueueSVMMigrateMem(queue, 2, pointers, too_long, 0, 0, nullptr,
                               nullptr) == CL_INVALID_VALUE);
  int host = 0;
  const void *foreign[] = {&host};
  CHECK(clEnqueueSVMMigrateMem(queue, 1, foreign, nullptr, 0, 0, nullptr,
                               nullptr) == CL_INVALID_VALUE);
  const void *null_pointer[] = {nullptr};
  CHECK(clEnqueueSVMMigrateMem(queue, 1, null_pointer, nullptr, 0, 0, nullptr,
                               nullptr) == CL_INVALID_VALUE);
  REQUIRE(clFinish(queue) == CL_SUCCESS);
  clSVMFree(context, a);
  clSVMFree(context, b);
}

namespace {
struct FreeRecord {
  std::atomic<int> calls{0};
  cl_command_queue queue = nullptr;
  std::vector<void *> pointers;
};
void CL_CALLBACK recordFree(cl_command_queue queue, cl_uint count,
                            void *pointers[], void *user_data) {
  auto *record = static_cast<FreeRecord *>(user_data);
  record->queue = queue;
  record->pointers.assign(pointers, pointers + count);
  cl_context context;
  clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(context), &context,
                        nullptr);
  for (cl_uint i = 0; i < count; ++i)
    clSVMFree(context, pointers[i]);
  ++record->calls;
}
} // namespace

TEST_CASE_METHOD(SvmFixture, "clEnqueueSVMFree frees, or calls back",
                 "[api][svm]") {
  SECTION("with a callback") {
    void *list[] = {alloc(64), alloc(128), alloc(256)};
    void *expected[] = {list[0], list[1], list[2]};
    FreeRecord record;
    cl_event done;
    REQUIRE(clEnqueueSVMFree(queue, 3, list, recordFree, &record, 0, nullptr,
                             &done) == CL_SUCCESS);
    // The application's array may change once the call returns.
    list[0] = list[1] = list[2] = nullptr;
    REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
    CHECK(typeOf(done) == CL_COMMAND_SVM_FREE);
    clReleaseEvent(done);
    CHECK(record.calls == 1);
    CHECK(record.queue == queue);
    REQUIRE(record.pointers.size() == 3);
    for (int i = 0; i < 3; ++i)
      CHECK(record.pointers[i] == expected[i]);
  }
  SECTION("without a callback, after the commands before it") {
    auto *p = static_cast<int *>(alloc(64 * sizeof(int)));
    auto *q = static_cast<int *>(alloc(64 * sizeof(int)));
    std::vector<int> out(64, 0);
    for (int i = 0; i < 64; ++i)
      p[i] = i;
    cl_int err;
    cl_event gate = clCreateUserEvent(context, &err);
    REQUIRE(clEnqueueSVMMemcpy(queue, CL_FALSE, out.data(), p, 64 * sizeof(int),
                               1, &gate, nullptr) == CL_SUCCESS);
    void *list[] = {p, q, nullptr};
    cl_event done;
    REQUIRE(clEnqueueSVMFree(queue, 3, list, nullptr, nullptr, 0, nullptr,
                             &done) == CL_SUCCESS);
    clFlush(queue);
    CHECK(statusOf(done) != CL_COMPLETE);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
    CHECK(out[63] == 63);
    clReleaseEvent(done);
    clReleaseEvent(gate);
  }
  SECTION("an empty list frees nothing; a half-empty one is an error") {
    cl_event done;
    REQUIRE(clEnqueueSVMFree(queue, 0, nullptr, nullptr, nullptr, 0, nullptr,
                             &done) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
    clReleaseEvent(done);
    void *list[] = {nullptr};
    CHECK(clEnqueueSVMFree(queue, 0, list, nullptr, nullptr, 0, nullptr,
                           nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueSVMFree(queue, 1, nullptr, nullptr, nullptr, 0, nullptr,
                           nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueSVMFree(nullptr, 1, list, nullptr, nullptr, 0, nullptr,
                           nullptr) == CL_INVALID_COMMAND_QUEUE);
  }
}

TEST_CASE_METHOD(SvmFixture,
                 "SVM pointer arguments: middles of allocations, host memory, "
                 "null, and the errors",
                 "[api][svm]") {
  cl_kernel k = kernel(kSvmKernels, "scale");
  constexpr int n = 64;
  auto *data = static_cast<int *>(alloc((n + 16) * sizeof(int)));
  auto *bias = static_cast<int *>(alloc(16 * sizeof(int)));
  for (int i = 0; i < n + 16; ++i)
    data[i] = i;
  bias[5] = 1000;
  int factor = 2;
  // The middle of both allocations.
  REQUIRE(clSetKernelArgSVMPointer(k, 0, data + 16) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof(int), &factor) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, 64, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 3, bias + 5) == CL_SUCCESS);
  size_t global = n;
  REQUIRE(runAndWait(k, 1, &global, nullptr) == CL_SUCCESS);
  CHECK(data[15] == 15);
  for (int i = 0; i < n; ++i)
    REQUIRE(data[16 + i] == (16 + i) * 2 + 1000);

  // Plain malloc'd memory (fine-grained system SVM), also as __constant.
  auto *host = static_cast<int *>(std::malloc(n * sizeof(int)));
  int host_bias = -7;
  for (int i = 0; i < n; ++i)
    host[i] = i;
  REQUIRE(clSetKernelArgSVMPointer(k, 0, host) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 3, &host_bias) == CL_SUCCESS);
  REQUIRE(runAndWait(k, 1, &global, nullptr) == CL_SUCCESS);
  for (int i = 0; i < n; ++i)
    REQUIRE(host[i] == i * 2 - 7);

  // A clone keeps the SVM arguments.
  cl_int err;
  cl_kernel copy = clCloneKernel(k, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(runAndWait(copy, 1, &global, nullptr) == CL_SUCCESS);
  CHECK(host[3] == (3 * 2 - 7) * 2 - 7);
  clReleaseKernel(copy);

  // A buffer argument replaces an SVM one and back.
  cl_mem buf = buffer(n * sizeof(int));
  REQUIRE(clSetKernelArg(k, 0, sizeof(cl_mem), &buf) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 0, host) == CL_SUCCESS);
  clReleaseMemObject(buf);
  REQUIRE(runAndWait(k, 1, &global, nullptr) == CL_SUCCESS);

  // Null is a valid value (the kernel must not dereference it, so only set).
  CHECK(clSetKernelArgSVMPointer(k, 0, nullptr) == CL_SUCCESS);
  // Errors: no kernel, index past the end, arguments that are not __global
  // or __constant pointers.
  CHECK(clSetKernelArgSVMPointer(nullptr, 0, data) == CL_INVALID_KERNEL);
  CHECK(clSetKernelArgSVMPointer(k, 4, data) == CL_INVALID_ARG_INDEX);
  CHECK(clSetKernelArgSVMPointer(k, 1, data) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArgSVMPointer(k, 2, data) == CL_INVALID_ARG_VALUE);
  // Argument info is unaffected.
  cl_kernel_arg_address_qualifier qualifier = 0;
  REQUIRE(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                             sizeof(qualifier), &qualifier,
                             nullptr) == CL_SUCCESS);
  CHECK(qualifier == CL_KERNEL_ARG_ADDRESS_CONSTANT);
  clReleaseKernel(k);
  std::free(host);
  clSVMFree(context, data);
  clSVMFree(context, bias);
}

TEST_CASE_METHOD(SvmFixture, "clSetKernelExecInfo takes the SVM exec infos",
                 "[api][svm]") {
  cl_kernel k = kernel(kSvmKernels, "add_one");
  void *a = alloc(64), *b = alloc(64);
  void *list[] = {a, b};
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(list),
                            list) == CL_SUCCESS);
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, list) ==
        CL_SUCCESS);
  // Clearing the list: size 0, no array.
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr) ==
        CL_SUCCESS);
  cl_bool yes = CL_TRUE, no = CL_FALSE;
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                            sizeof(yes), &yes) == CL_SUCCESS);
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                            sizeof(no), &no) == CL_SUCCESS);
  // Errors: bad sizes, null values, unknown names, no kernel.
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, list) ==
        CL_INVALID_VALUE);
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(list),
                            nullptr) == CL_INVALID_VALUE);
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1,
                            &yes) == CL_INVALID_VALUE);
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                            sizeof(yes), nullptr) == CL_INVALID_VALUE);
  CHECK(clSetKernelExecInfo(k, 0x1234, sizeof(yes), &yes) == CL_INVALID_VALUE);
  CHECK(clSetKernelExecInfo(nullptr, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(list),
                            list) == CL_INVALID_KERNEL);
  clReleaseKernel(k);
  clSVMFree(context, a);
  clSVMFree(context, b);
}

TEST_CASE_METHOD(SvmFixture, "buffers over SVM memory use it in place",
                 "[api][svm]") {
  constexpr size_t n = 256;
  auto *svm = static_cast<int *>(alloc(n * sizeof(int)));
  for (size_t i = 0; i < n; ++i)
    svm[i] = int(i);
  cl_int err;
  // Over the middle of the allocation, up to its end.
  cl_mem buf = clCreateBuffer(context, CL_MEM_USE_HOST_PTR,
                              (n - 64) * sizeof(int), svm + 64, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_bool uses = CL_FALSE;
  size_t size_ret = 0;
  REQUIRE(clGetMemObjectInfo(buf, CL_MEM_USES_SVM_POINTER, sizeof(uses), &uses,
                             &size_ret) == CL_SUCCESS);
  CHECK(uses == CL_TRUE);
  CHECK(size_ret == sizeof(cl_bool));
  void *host_ptr = nullptr;
  REQUIRE(clGetMemObjectInfo(buf, CL_MEM_HOST_PTR, sizeof(host_ptr), &host_ptr,
                             nullptr) == CL_SUCCESS);
  CHECK(host_ptr == svm + 64);
  // A kernel writing the buffer writes the SVM memory: no copy.
  cl_kernel k = kernel(kSvmKernels, "add_one");
  REQUIRE(clSetKernelArg(k, 0, sizeof(cl_mem), &buf) == CL_SUCCESS);
  size_t global = n - 64;
  REQUIRE(runAndWait(k, 1, &global, nullptr) == CL_SUCCESS);
  CHECK(svm[63] == 63);
  CHECK(svm[64] == 65);
  CHECK(svm[n - 1] == int(n));
  // A sub-buffer reports it too.
  cl_buffer_region region = {128, 128};
  cl_mem sub =
      clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  REQUIRE(err == CL_SUCCESS);
  uses = CL_FALSE;
  REQUIRE(clGetMemObjectInfo(sub, CL_MEM_USES_SVM_POINTER, sizeof(uses), &uses,
                             nullptr) == CL_SUCCESS);
  CHECK(uses == CL_TRUE);
  clReleaseMemObject(sub);
  // Past the allocation's end.
  CHECK(clCreateBuffer(context, CL_MEM_USE_HOST_PTR, (n - 63) * sizeof(int),
                       svm + 64, &err) == nullptr);
  CHECK(err == CL_INVALID_BUFFER_SIZE);
  // Ordinary buffers, and USE_HOST_PTR over malloc'd memory, do not.
  std::vector<int> plain(n);
  cl_mem over_host = clCreateBuffer(context, CL_MEM_USE_HOST_PTR,
                                    n * sizeof(int), plain.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem ordinary = buffer(64);
  for (cl_mem m : {over_host, ordinary}) {
    uses = CL_TRUE;
    REQUIRE(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof(uses), &uses,
                               nullptr) == CL_SUCCESS);
    CHECK(uses == CL_FALSE);
    clReleaseMemObject(m);
  }
  clReleaseKernel(k);
  clReleaseMemObject(buf);
  clSVMFree(context, svm);
}

TEST_CASE_METHOD(SvmFixture, "clSVMAlloc and clSVMFree from many threads",
                 "[api][svm]") {
  // The context's registry is shared: allocations, frees, lookups (buffers
  // over SVM memory) and SVM commands from several threads at once.
  constexpr int kThreads = 4, kRounds = 300;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        size_t size = 64 + size_t(r % 7) * 1000 + size_t(t);
        auto *p = static_cast<unsigned char *>(
            clSVMAlloc(context, CL_MEM_READ_WRITE, size, 0));
        if (!p) {
          ++failures;
          continue;
        }
        p[size - 1] = static_cast<unsigned char>(t);
        cl_int err;
        cl_mem m = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, size - 16,
                                  p + 16, &err);
        cl_bool uses = CL_FALSE;
        if (err != CL_SUCCESS ||
            clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof(uses), &uses,
                               nullptr) != CL_SUCCESS ||
            uses != CL_TRUE)
          ++failures;
        if (m)
          clReleaseMemObject(m);
        const unsigned char zero = 0;
        if (clEnqueueSVMMemFill(queue, p, &zero, 1, 16, 0, nullptr, nullptr) !=
            CL_SUCCESS)
          ++failures;
        if (r % 2) {
          void *list[] = {p};
          if (clEnqueueSVMFree(queue, 1, list, nullptr, nullptr, 0, nullptr,
                               nullptr) != CL_SUCCESS)
            ++failures;
        } else {
          clFinish(queue);
          clSVMFree(context, p);
        }
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  REQUIRE(clFinish(queue) == CL_SUCCESS);
  CHECK(failures == 0);
}
