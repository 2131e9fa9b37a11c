// Dependency graphs on out-of-order queues, from the OpenCL 3.0 API spec's
// section on command queues (5.1, "out-of-order execution"): a command
// starts only after every event of its wait list has completed, and nothing
// else orders it. Each node of a graph is a kernel that takes a ticket from
// a shared clock when it starts and when it ends, and computes its value
// from its predecessors' values, so a node run too early shows in both its
// tickets and its value. Diamonds, long chains and a fan-in of 64, with
// copies and fills among the kernels.
#include "api_fixture.h"

#include <numeric>

namespace {

// Node `id` adds 1 to the sum of the values of nodes `a` and `b` (-1:
// none). `spin` rounds of a generator (kept, so not optimized away) widen
// the window in which a wrongly ordered successor would start.
const char *kNodeSource = R"(
kernel void node(global long *values, global int *start, global int *end,
                 global int *clock, global uint *mixes, int id, int a, int b,
                 int spin) {
  start[id] = atomic_inc(clock);
  uint mix = id;
  for (int i = 0; i < spin; ++i)
    mix = mix * 1664525u + 1013904223u;
  mixes[id] = mix;
  values[id] = 1 + (a >= 0 ? values[a] : 0) + (b >= 0 ? values[b] : 0);
  end[id] = atomic_inc(clock);
}
)";

struct GraphFixture : WeftFixture {
  static constexpr int kMaxNodes = 512;
  static constexpr int kSpin = 200000;
  cl_command_queue ooo = nullptr;
  cl_kernel node = nullptr;
  cl_mem values = nullptr, starts = nullptr, ends = nullptr, clock = nullptr,
         mixes = nullptr;

  GraphFixture() {
    cl_int err;
    ooo = clCreateCommandQueue(context, device,
                               CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    REQUIRE(err == CL_SUCCESS);
    node = kernel(kNodeSource, "node");
    std::vector<cl_long> zeros(kMaxNodes, 0);
    values = buffer(kMaxNodes * sizeof(cl_long), zeros.data());
    starts = buffer(kMaxNodes * sizeof(cl_int), zeros.data());
    ends = buffer(kMaxNodes * sizeof(cl_int), zeros.data());
    clock = buffer(sizeof(cl_int), zeros.data());
    mixes = buffer(kMaxNodes * sizeof(cl_uint));
    clSetKernelArg(node, 0, sizeof values, &values);
    clSetKernelArg(node, 1, sizeof starts, &starts);
    clSetKernelArg(node, 2, sizeof ends, &ends);
    clSetKernelArg(node, 3, sizeof clock, &clock);
    clSetKernelArg(node, 4, sizeof mixes, &mixes);
  }
  ~GraphFixture() {
    for (cl_mem m : {values, starts, ends, clock, mixes})
      clReleaseMemObject(m);
    clReleaseKernel(node);
    clReleaseCommandQueue(ooo);
  }

  // Queues node `id` after `wait`; returns its event.
  cl_event enqueueNode(int id, int a, int b, std::vector<cl_event> wait,
                       int spin = kSpin) {
    clSetKernelArg(node, 5, sizeof id, &id);
    clSetKernelArg(node, 6, sizeof a, &a);
    clSetKernelArg(node, 7, sizeof b, &b);
    clSetKernelArg(node, 8, sizeof spin, &spin);
    size_t one = 1;
    cl_event done = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(ooo, node, 1, nullptr, &one, &one,
                                   static_cast<cl_uint>(wait.size()),
                                   wait.empty() ? nullptr : wait.data(),
                                   &done) == CL_SUCCESS);
    return done;
  }

  template <typename T> std::vector<T> read(cl_mem m) {
    std::vector<T> out(kMaxNodes);
    REQUIRE(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, out.size() * sizeof(T),
                                out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    return out;
  }

  struct Tickets {
    std::vector<cl_long> value;
    std::vector<cl_int> start, end;
  };
  Tickets finish() {
    REQUIRE(clFinish(ooo) == CL_SUCCESS);
    return {read<cl_long>(values), read<cl_int>(starts), read<cl_int>(ends)};
  }
};

void releaseAll(std::vector<cl_event> &events) {
  for (cl_event e : events)
    clReleaseEvent(e);
  events.clear();
}

} // namespace

TEST_CASE_METHOD(GraphFixture, "a diamond runs its join after both arms",
                 "[queue-graph]") {
  // Ten diamonds side by side, each top -> {left, right} -> bottom, the
  // arms as independent as the tops: 40 nodes queued in one go.
  constexpr int kDiamonds = 10;
  std::vector<cl_event> events;
  for (int d = 0; d < kDiamonds; ++d) {
    int top = 4 * d, left = top + 1, right = top + 2, bottom = top + 3;
    cl_event t = enqueueNode(top, -1, -1, {});
    cl_event l = enqueueNode(left, top, -1, {t});
    cl_event r = enqueueNode(right, top, -1, {t});
    cl_event b = enqueueNode(bottom, left, right, {l, r});
    events.insert(events.end(), {t, l, r, b});
  }
  Tickets got = finish();
  for (int d = 0; d < kDiamonds; ++d) {
    int top = 4 * d, left = top + 1, right = top + 2, bottom = top + 3;
    CHECK(got.value[top] == 1);
    CHECK(got.value[left] == 2);
    CHECK(got.value[right] == 2);
    CHECK(got.value[bottom] == 5);
    CHECK(got.start[left] > got.end[top]);
    CHECK(got.start[right] > got.end[top]);
    CHECK(got.start[bottom] > got.end[left]);
    CHECK(got.start[bottom] > got.end[right]);
  }
  for (cl_event e : events) {
    cl_int status = 1;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                   nullptr);
    CHECK(status == CL_COMPLETE);
  }
  releaseAll(events);
}

TEST_CASE_METHOD(GraphFixture, "a chain runs strictly in order",
                 "[queue-graph]") {
  // Two interleaved chains of 150: each link waits for the one before it
  // in its own chain only, so the chains may overlap but never reorder.
  constexpr int kLength = 150;
  cl_event last[2] = {nullptr, nullptr};
  for (int i = 0; i < kLength; ++i) {
    for (int c = 0; c < 2; ++c) {
      int id = 2 * i + c;
      std::vector<cl_event> wait;
      if (last[c])
        wait.push_back(last[c]);
      cl_event e = enqueueNode(id, i ? id - 2 : -1, -1, wait, kSpin / 20);
      if (last[c])
        clReleaseEvent(last[c]);
      last[c] = e;
    }
  }
  Tickets got = finish();
  for (int c = 0; c < 2; ++c) {
    CHECK(got.value[2 * (kLength - 1) + c] == kLength);
    for (int i = 1; i < kLength; ++i)
      CHECK(got.start[2 * i + c] > got.end[2 * (i - 1) + c]);
    clReleaseEvent(last[c]);
  }
}

TEST_CASE_METHOD(GraphFixture,
                 "a fan-in of 64 waits for every one of its 64 inputs",
                 "[queue-graph]") {
  // 64 nodes held back by one user event, a copy and a fill among their
  // successors, then one join that waits for all 64 and both transfers.
  cl_int err;
  cl_event gate = clCreateUserEvent(context, &err);
  REQUIRE(err == CL_SUCCESS);
  constexpr int kInputs = 64;
  std::vector<cl_event> inputs;
  for (int i = 0; i < kInputs; ++i)
    inputs.push_back(enqueueNode(i, -1, -1, {gate}, kSpin / 4));
  // The transfers read and write other buffers, after the inputs.
  std::vector<cl_long> source(kInputs), copied(kInputs, 0);
  std::iota(source.begin(), source.end(), 100);
  cl_mem from = buffer(kInputs * sizeof(cl_long), source.data());
  cl_mem to = buffer(kInputs * sizeof(cl_long), copied.data());
  cl_event copy, fill;
  REQUIRE(clEnqueueCopyBuffer(ooo, values, from, 0, 0,
                              kInputs * sizeof(cl_long), kInputs, inputs.data(),
                              &copy) == CL_SUCCESS);
  cl_long pattern = 7;
  REQUIRE(clEnqueueFillBuffer(ooo, to, &pattern, sizeof pattern, 0,
                              kInputs * sizeof(cl_long), 1, &copy,
                              &fill) == CL_SUCCESS);

  // Nothing runs while the gate is closed.
  clFlush(ooo);
  for (cl_event e : inputs) {
    cl_int status = 0;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                   nullptr);
    CHECK(status > CL_RUNNING);
  }
  // The join sums inputs 0 and 1 but must wait for all 64.
  std::vector<cl_event> join_wait = inputs;
  join_wait.push_back(fill);
  cl_event join = enqueueNode(kInputs, 0, 1, join_wait, 0);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);

  Tickets got = finish();
  CHECK(got.value[kInputs] == 3);
  for (int i = 0; i < kInputs; ++i) {
    CHECK(got.value[i] == 1);
    CHECK(got.start[kInputs] > got.end[i]);
  }
  // The copy read the inputs' values, then the fill replaced them.
  std::vector<cl_long> after_copy(kInputs), after_fill(kInputs);
  REQUIRE(clEnqueueReadBuffer(queue, from, CL_TRUE, 0,
                              kInputs * sizeof(cl_long), after_copy.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(queue, to, CL_TRUE, 0, kInputs * sizeof(cl_long),
                              after_fill.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  CHECK(after_copy == std::vector<cl_long>(kInputs, 1));
  CHECK(after_fill == std::vector<cl_long>(kInputs, 7));
  releaseAll(inputs);
  for (cl_event e : {gate, copy, fill, join})
    clReleaseEvent(e);
  clReleaseMemObject(from);
  clReleaseMemObject(to);
}

TEST_CASE_METHOD(GraphFixture,
                 "a failed input fails its successors, not its neighbours",
                 "[queue-graph]") {
  // A user event set to an error: the commands that wait for it, and
  // those that wait for them, end with
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST; the other arm of the
  // diamond runs.
  cl_int err;
  cl_event poisoned = clCreateUserEvent(context, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_event top = enqueueNode(0, -1, -1, {});
  cl_event bad = enqueueNode(1, 0, -1, {top, poisoned});
  cl_event good = enqueueNode(2, 0, -1, {top});
  cl_event bottom = enqueueNode(3, 1, 2, {bad, good});
  REQUIRE(clSetUserEventStatus(poisoned, -42) == CL_SUCCESS);
  clWaitForEvents(1, &good);
  Tickets got = finish();
  auto status = [](cl_event e) {
    cl_int s = 0;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr);
    return s;
  };
  CHECK(status(top) == CL_COMPLETE);
  CHECK(status(good) == CL_COMPLETE);
  CHECK(status(bad) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(status(bottom) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(got.value[2] == 2);
  CHECK(got.value[1] == 0); // never ran
  CHECK(got.value[3] == 0);
  for (cl_event e : {poisoned, top, bad, good, bottom})
    clReleaseEvent(e);
}
