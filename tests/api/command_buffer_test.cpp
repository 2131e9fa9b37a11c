// cl_khr_command_buffer through the ICD loader: recording, replaying many
// times, sync points, queue substitution, and the errors of misuse.
#include "api_fixture.h"

#include "command_buffer_khr.h"

namespace {

struct CommandBufferFixture : WeftFixture, command_buffer_khr::Functions {
  CommandBufferFixture() : command_buffer_khr::Functions(platform) {
    REQUIRE(complete());
  }
};

} // namespace

TEST_CASE_METHOD(CommandBufferFixture,
                 "a command buffer records once and replays many times",
                 "[api][command_buffer]") {
  cl_version version = 0;
  size_t size = 0;
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &size);
  std::vector<cl_name_version> extensions(size / sizeof(cl_name_version));
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size,
                  extensions.data(), nullptr);
  for (const cl_name_version &e : extensions)
    if (std::string(e.name) == "cl_khr_command_buffer")
      version = e.version;
  CHECK(version == CL_MAKE_VERSION(0, 9, 8));

  cl_int err;
  cl_command_buffer_khr cb = create(1, &queue, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  constexpr size_t n = 1024;
  cl_mem a = buffer(n * sizeof(cl_int)), b = buffer(n * sizeof(cl_int));
  cl_kernel k = kernel("kernel void inc(global int *x) {"
                       "  x[get_global_id(0)] += 1; }",
                       "inc");
  clSetKernelArg(k, 0, sizeof a, &a);
  // a = 5; a += 1 (twice, after the fill); b = a.
  cl_int five = 5;
  cl_uint filled = 0, first = 0, second = 0, copied = 0;
  REQUIRE(fill(cb, nullptr, nullptr, a, &five, sizeof five, 0,
               n * sizeof(cl_int), 0, nullptr, &filled, nullptr) == CL_SUCCESS);
  size_t global = n;
  REQUIRE(ndrange(cb, nullptr, nullptr, k, 1, nullptr, &global, nullptr, 1,
                  &filled, &first, nullptr) == CL_SUCCESS);
  REQUIRE(ndrange(cb, nullptr, nullptr, k, 1, nullptr, &global, nullptr, 1,
                  &first, &second, nullptr) == CL_SUCCESS);
  REQUIRE(copy(cb, nullptr, nullptr, a, b, 0, 0, n * sizeof(cl_int), 1, &second,
               &copied, nullptr) == CL_SUCCESS);
  CHECK(filled != 0);
  CHECK(first != filled);
  // The argument changes after recording: the recording keeps its own.
  cl_mem other = buffer(n * sizeof(cl_int));
  REQUIRE(clEnqueueFillBuffer(queue, other, &five, sizeof five, 0,
                              n * sizeof(cl_int), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof other, &other) == CL_SUCCESS);

  // Not executable before it is finalized.
  CHECK(enqueue(0, nullptr, cb, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
  cl_uint state = 99;
  REQUIRE(info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state,
               nullptr) == CL_SUCCESS);
  CHECK(state == CL_COMMAND_BUFFER_STATE_RECORDING_KHR);
  REQUIRE(finalize(cb) == CL_SUCCESS);
  CHECK(finalize(cb) == CL_INVALID_OPERATION);
  // No recording once finalized.
  CHECK(fill(cb, nullptr, nullptr, a, &five, sizeof five, 0, 4, 0, nullptr,
             nullptr, nullptr) == CL_INVALID_OPERATION);

  // Replays on the recorded queue and on an out-of-order stand-in.
  cl_command_queue ooo = clCreateCommandQueue(
      context, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  REQUIRE(err == CL_SUCCESS);
  for (int round = 0; round < 5; ++round) {
    cl_command_queue *on = round % 2 ? &ooo : nullptr;
    cl_event done;
    REQUIRE(enqueue(on ? 1 : 0, on, cb, 0, nullptr, &done) == CL_SUCCESS);
    cl_command_type type = 0;
    clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
    CHECK(type == CL_COMMAND_COMMAND_BUFFER_KHR);
    REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
    clReleaseEvent(done);
    std::vector<cl_int> out(n);
    clEnqueueReadBuffer(queue, b, CL_TRUE, 0, n * sizeof(cl_int), out.data(), 0,
                        nullptr, nullptr);
    size_t wrong = 0;
    for (cl_int v : out)
      wrong += v != 7;
    CHECK(wrong == 0);
  }
  std::vector<cl_int> untouched(n);
  clEnqueueReadBuffer(queue, other, CL_TRUE, 0, n * sizeof(cl_int),
                      untouched.data(), 0, nullptr, nullptr);
  CHECK(untouched == std::vector<cl_int>(n, 5));
  clReleaseCommandQueue(ooo);
  CHECK(release(cb) == CL_SUCCESS);
  clReleaseKernel(k);
  for (cl_mem m : {a, b, other})
    clReleaseMemObject(m);
}

TEST_CASE_METHOD(CommandBufferFixture, "command buffer misuse",
                 "[api][command_buffer]") {
  cl_int err;
  CHECK(create(0, &queue, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  cl_command_queue none = nullptr;
  CHECK(create(1, &none, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_COMMAND_QUEUE);
  const cl_properties simultaneous[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 1, 0};
  CHECK(create(1, &queue, simultaneous, &err) == nullptr);
  CHECK(err == CL_INVALID_PROPERTY);

  cl_command_buffer_khr cb = create(1, &queue, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem a = buffer(64);
  cl_int zero = 0;
  cl_uint bogus = 42;
  // A sync point that names no recorded command; a list without points.
  CHECK(fill(cb, nullptr, nullptr, a, &zero, 4, 0, 64, 1, &bogus, nullptr,
             nullptr) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(fill(cb, nullptr, nullptr, a, &zero, 4, 0, 64, 1, nullptr, nullptr,
             nullptr) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  // Commands go to the buffer's own queue.
  CHECK(fill(cb, queue, nullptr, a, &zero, 4, 0, 64, 0, nullptr, nullptr,
             nullptr) == CL_INVALID_COMMAND_QUEUE);
  // The queuing checks apply as when queuing.
  CHECK(fill(cb, nullptr, nullptr, a, &zero, 3, 0, 64, 0, nullptr, nullptr,
             nullptr) == CL_INVALID_VALUE);
  CHECK(copy(cb, nullptr, nullptr, a, a, 0, 8, 16, 0, nullptr, nullptr,
             nullptr) == CL_MEM_COPY_OVERLAP);
  CHECK(finalize(nullptr) == CL_INVALID_COMMAND_BUFFER_KHR);
  REQUIRE(finalize(cb) == CL_SUCCESS);
  // A queue of another context cannot stand in.
  cl_context other =
      clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue foreign = clCreateCommandQueue(other, device, 0, &err);
  CHECK(enqueue(1, &foreign, cb, 0, nullptr, nullptr) == CL_INVALID_CONTEXT);
  clReleaseCommandQueue(foreign);
  clReleaseContext(other);
  CHECK(release(cb) == CL_SUCCESS);
  clReleaseMemObject(a);
}
