// A replayed command buffer, from the cl_khr_command_buffer specification
// (0.9.8): commands are recorded once, with the kernel arguments they had
// when recorded, and each replay runs them again over the memory objects'
// contents at that time; sync points order commands inside the buffer; a
// replay is one command of its queue (CL_COMMAND_COMMAND_BUFFER_KHR) that
// waits for its wait list. Twenty replays, with the input rewritten between
// them, must each give what running the same commands one by one gives.
#include "api_fixture.h"

#include "command_buffer_khr.h"

#include <numeric>

namespace {

const char *kStepSource = R"(
kernel void step(global uint *acc, global const int *in, uint k) {
  size_t i = get_global_id(0);
  acc[i] = acc[i] * k + in[i]; // wraps around, as the host's reference
}
)";

struct ReplayFixture : WeftFixture, command_buffer_khr::Functions {
  ReplayFixture() : command_buffer_khr::Functions(platform) {
    REQUIRE(complete());
  }
};

} // namespace

TEST_CASE_METHOD(ReplayFixture,
                 "a replayed command buffer runs its recorded commands again",
                 "[command-buffer]") {
  constexpr size_t kN = 1024;
  constexpr int kReplays = 20;
  cl_kernel step = kernel(kStepSource, "step");
  std::vector<cl_uint> acc(kN, 1);
  std::vector<cl_int> in(kN);
  std::iota(in.begin(), in.end(), 0);
  cl_mem m_acc = buffer(kN * 4, acc.data()), m_in = buffer(kN * 4, in.data()),
         snapshot = buffer(kN * 4);
  clSetKernelArg(step, 0, sizeof m_acc, &m_acc);
  clSetKernelArg(step, 1, sizeof m_in, &m_in);

  // acc = acc * 3 + in; snapshot = acc; acc = acc * 5 + in; acc[0..16) = 9.
  cl_int err;
  cl_command_buffer_khr cb = create(1, &queue, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_sync_point_khr first, copied, second;
  cl_uint k = 3;
  clSetKernelArg(step, 2, sizeof k, &k);
  REQUIRE(ndrange(cb, nullptr, nullptr, step, 1, nullptr, &kN, nullptr, 0,
                  nullptr, &first, nullptr) == CL_SUCCESS);
  REQUIRE(copy(cb, nullptr, nullptr, m_acc, snapshot, 0, 0, kN * 4, 1, &first,
               &copied, nullptr) == CL_SUCCESS);
  k = 5;
  clSetKernelArg(step, 2, sizeof k, &k);
  REQUIRE(ndrange(cb, nullptr, nullptr, step, 1, nullptr, &kN, nullptr, 1,
                  &copied, &second, nullptr) == CL_SUCCESS);
  cl_int nine = 9;
  REQUIRE(fill(cb, nullptr, nullptr, m_acc, &nine, sizeof nine, 0, 16 * 4, 1,
               &second, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(finalize(cb) == CL_SUCCESS);
  // The kernel's arguments now differ from those recorded: replays must
  // not see this.
  k = 1000;
  clSetKernelArg(step, 2, sizeof k, &k);

  std::vector<cl_uint> want_snapshot(kN);
  for (int replay = 0; replay < kReplays; ++replay) {
    INFO("replay " << replay);
    // A new input each time: a replay reads memory when it runs.
    for (size_t i = 0; i < kN; ++i)
      in[i] = static_cast<cl_int>((i * 7 + replay * 13) % 101) - 50;
    REQUIRE(clEnqueueWriteBuffer(queue, m_in, CL_FALSE, 0, kN * 4, in.data(), 0,
                                 nullptr, nullptr) == CL_SUCCESS);
    // Every other replay waits for a user event, and must not start
    // before it completes.
    cl_event gate = nullptr, done = nullptr;
    if (replay % 2) {
      gate = clCreateUserEvent(context, &err);
      REQUIRE(err == CL_SUCCESS);
    }
    REQUIRE(enqueue(0, nullptr, cb, gate ? 1 : 0, gate ? &gate : nullptr,
                    &done) == CL_SUCCESS);
    if (gate) {
      clFlush(queue);
      cl_int status = 0;
      clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                     &status, nullptr);
      CHECK(status > CL_RUNNING);
      REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
      clReleaseEvent(gate);
    }
    REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
    cl_command_type type = 0;
    clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
    CHECK(type == CL_COMMAND_COMMAND_BUFFER_KHR);
    clReleaseEvent(done);

    for (size_t i = 0; i < kN; ++i) {
      acc[i] = acc[i] * 3 + static_cast<cl_uint>(in[i]);
      want_snapshot[i] = acc[i];
      acc[i] = acc[i] * 5 + static_cast<cl_uint>(in[i]);
      if (i < 16)
        acc[i] = 9;
    }
    std::vector<cl_uint> got_acc(kN), got_snapshot(kN);
    REQUIRE(clEnqueueReadBuffer(queue, m_acc, CL_TRUE, 0, kN * 4,
                                got_acc.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(queue, snapshot, CL_TRUE, 0, kN * 4,
                                got_snapshot.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    REQUIRE(got_snapshot == want_snapshot);
    REQUIRE(got_acc == acc);
  }
  cl_uint references = 0;
  REQUIRE(info(cb, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof references,
               &references, nullptr) == CL_SUCCESS);
  CHECK(references == 1);
  REQUIRE(release(cb) == CL_SUCCESS);
  for (cl_mem m : {m_acc, m_in, snapshot})
    clReleaseMemObject(m);
  clReleaseKernel(step);
}
