// Out-of-order queues through the ICD loader: commands without dependencies
// run at the same time, markers and barriers order exactly what the spec
// says, and many threads queuing random dependency graphs into shared
// queues lose and duplicate nothing.
#include "api_fixture.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <thread>

namespace {

struct OutOfOrderFixture : WeftFixture {
  cl_command_queue ooo = nullptr;

  OutOfOrderFixture() {
    const cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err;
    ooo = clCreateCommandQueueWithProperties(context, device, props, &err);
    REQUIRE(err == CL_SUCCESS);
  }
  ~OutOfOrderFixture() { clReleaseCommandQueue(ooo); }

  cl_int status(cl_event e) {
    cl_int s = 1;
    REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s,
                           nullptr) == CL_SUCCESS);
    return s;
  }

  // Waits (briefly) for every command not held back to have run: the
  // queue's runner threads need a moment after clFlush.
  void settle() {
    clFlush(ooo);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }

  cl_ulong profile(cl_event e, cl_profiling_info which) {
    cl_ulong t = 0;
    REQUIRE(clGetEventProfilingInfo(e, which, sizeof t, &t, nullptr) ==
            CL_SUCCESS);
    return t;
  }
};

// Spins until flag[0] is set, for at most `limit` rounds; result[0] says
// whether it saw the flag. Run before the command that sets the flag, it
// finishes with 1 only if both run at the same time.
const char *kSpinSource = R"(
kernel void wait_for_flag(global atomic_int *flag, global int *result,
                          long limit) {
  int seen = 0;
  for (long i = 0; i < limit && !seen; ++i)
    seen = atomic_load_explicit(flag, memory_order_acquire,
                                memory_scope_all_svm_devices) != 0;
  result[0] = seen;
}
kernel void set_flag(global atomic_int *flag) {
  atomic_store_explicit(flag, 1, memory_order_release,
                        memory_scope_all_svm_devices);
}
)";

} // namespace

TEST_CASE_METHOD(OutOfOrderFixture,
                 "out-of-order queues are reported and created", "[api][ooo]") {
  cl_command_queue_properties props = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
                          sizeof props, &props, nullptr) == CL_SUCCESS);
  CHECK((props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(
      context, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_queue_properties got = 0;
  REQUIRE(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof got, &got,
                                nullptr) == CL_SUCCESS);
  CHECK(got == CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  clReleaseCommandQueue(q);
  // Device queues stay unsupported.
  const cl_queue_properties device_queue[] = {
      CL_QUEUE_PROPERTIES,
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0};
  CHECK(clCreateCommandQueueWithProperties(context, device, device_queue,
                                           &err) == nullptr);
  CHECK(err == CL_INVALID_QUEUE_PROPERTIES);
}

TEST_CASE_METHOD(OutOfOrderFixture,
                 "independent kernels of an out-of-order queue run together",
                 "[api][ooo]") {
  cl_kernel wait = kernel(kSpinSource, "wait_for_flag", "-cl-std=CL3.0");
  cl_kernel set = kernel(kSpinSource, "set_flag", "-cl-std=CL3.0");
  int zero[2] = {0, 0};
  cl_mem flag = buffer(sizeof(int), zero);
  cl_mem result = buffer(sizeof(int), zero);
  cl_long limit = 4000000000; // seconds, should the two not overlap
  clSetKernelArg(wait, 0, sizeof flag, &flag);
  clSetKernelArg(wait, 1, sizeof result, &result);
  clSetKernelArg(wait, 2, sizeof limit, &limit);
  clSetKernelArg(set, 0, sizeof flag, &flag);
  size_t one = 1;
  REQUIRE(clEnqueueNDRangeKernel(ooo, wait, 1, nullptr, &one, &one, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(ooo, set, 1, nullptr, &one, &one, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(ooo) == CL_SUCCESS);
  int seen = 0;
  REQUIRE(clEnqueueReadBuffer(queue, result, CL_TRUE, 0, sizeof seen, &seen, 0,
                              nullptr, nullptr) == CL_SUCCESS);
  CHECK(seen == 1);

  SECTION("and a copy runs beside a kernel") {
    REQUIRE(clEnqueueFillBuffer(ooo, flag, zero, sizeof(int), 0, sizeof(int), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(ooo) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(ooo, wait, 1, nullptr, &one, &one, 0,
                                   nullptr, nullptr) == CL_SUCCESS);
    int set_pattern = 7;
    REQUIRE(clEnqueueFillBuffer(ooo, flag, &set_pattern, sizeof(int), 0,
                                sizeof(int), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(ooo) == CL_SUCCESS);
    seen = 0;
    REQUIRE(clEnqueueReadBuffer(queue, result, CL_TRUE, 0, sizeof seen, &seen,
                                0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(seen == 1);
  }
  clReleaseMemObject(flag);
  clReleaseMemObject(result);
  clReleaseKernel(wait);
  clReleaseKernel(set);
}

TEST_CASE_METHOD(OutOfOrderFixture,
                 "markers and barriers of an out-of-order queue",
                 "[api][ooo]") {
  cl_int err;
  cl_event gate = clCreateUserEvent(context, &err);
  REQUIRE(err == CL_SUCCESS);
  int pattern = 1;
  cl_mem a = buffer(64), b = buffer(64);
  cl_event held, free_before, marker_all, marker_list, barrier, after;
  REQUIRE(clEnqueueFillBuffer(ooo, a, &pattern, sizeof pattern, 0, 64, 1, &gate,
                              &held) == CL_SUCCESS);
  REQUIRE(clEnqueueFillBuffer(ooo, b, &pattern, sizeof pattern, 0, 64, 0,
                              nullptr, &free_before) == CL_SUCCESS);
  // Without a wait list a marker waits for every earlier command; with
  // one, for that list only.
  REQUIRE(clEnqueueMarkerWithWaitList(ooo, 0, nullptr, &marker_all) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueMarkerWithWaitList(ooo, 1, &free_before, &marker_list) ==
          CL_SUCCESS);
  settle();
  CHECK(status(free_before) == CL_COMPLETE);
  CHECK(status(marker_list) == CL_COMPLETE);
  CHECK(status(held) > CL_COMPLETE);
  CHECK(status(marker_all) > CL_COMPLETE);

  // A barrier with a wait list waits for it alone, and holds back every
  // later command, which a marker does not.
  REQUIRE(clEnqueueBarrierWithWaitList(ooo, 1, &held, &barrier) == CL_SUCCESS);
  REQUIRE(clEnqueueFillBuffer(ooo, b, &pattern, sizeof pattern, 0, 64, 0,
                              nullptr, &after) == CL_SUCCESS);
  settle();
  CHECK(status(barrier) > CL_COMPLETE);
  CHECK(status(after) > CL_COMPLETE);

  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(ooo) == CL_SUCCESS);
  for (cl_event e : {held, marker_all, barrier, after})
    CHECK(status(e) == CL_COMPLETE);
  // Ordered by what they waited for.
  CHECK(profile(held, CL_PROFILING_COMMAND_END) <=
        profile(marker_all, CL_PROFILING_COMMAND_START));
  CHECK(profile(barrier, CL_PROFILING_COMMAND_END) <=
        profile(after, CL_PROFILING_COMMAND_START));
  for (cl_event e :
       {gate, held, free_before, marker_all, marker_list, barrier, after})
    clReleaseEvent(e);

  SECTION("a barrier without a wait list waits for all before it") {
    cl_event gate2 = clCreateUserEvent(context, &err);
    cl_event first, bar, later;
    REQUIRE(clEnqueueFillBuffer(ooo, a, &pattern, sizeof pattern, 0, 64, 1,
                                &gate2, &first) == CL_SUCCESS);
    REQUIRE(clEnqueueBarrierWithWaitList(ooo, 0, nullptr, &bar) == CL_SUCCESS);
    REQUIRE(clEnqueueFillBuffer(ooo, b, &pattern, sizeof pattern, 0, 64, 0,
                                nullptr, &later) == CL_SUCCESS);
    settle();
    CHECK(status(bar) > CL_COMPLETE);
    CHECK(status(later) > CL_COMPLETE);
    // A failed command completes the barrier (it only orders) but fails
    // the command that listed it.
    REQUIRE(clSetUserEventStatus(gate2, -1234) == CL_SUCCESS);
    REQUIRE(clFinish(ooo) == CL_SUCCESS);
    CHECK(status(first) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(status(bar) == CL_COMPLETE);
    CHECK(status(later) == CL_COMPLETE);
    for (cl_event e : {gate2, first, bar, later})
      clReleaseEvent(e);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

// Threads queue commands into two shared out-of-order queues, each waiting
// for random earlier commands of any thread and either queue, with markers
// and barriers among them. Every command counts its run and takes a ticket:
// each must run exactly once, after everything it waited for.
TEST_CASE_METHOD(OutOfOrderFixture,
                 "random dependency graphs from many threads", "[api][ooo]") {
  constexpr int kThreads = 4, kPerThread = 150;
  constexpr int kCommands = kThreads * kPerThread;
  const char *source = R"(
kernel void step(global int *runs, global int *ticket, global int *clock,
                 int id) {
  atomic_inc(&runs[id]);
  ticket[id] = atomic_inc(clock);
})";
  cl_int err;
  cl_command_queue second = clCreateCommandQueue(
      context, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_queue queues[2] = {ooo, second};
  std::vector<int> zeros(kCommands + 1, 0);
  cl_mem runs = buffer(kCommands * sizeof(int), zeros.data());
  cl_mem tickets = buffer(kCommands * sizeof(int), zeros.data());
  cl_mem clock = buffer(sizeof(int), zeros.data());
  cl_program program;
  std::string log;
  REQUIRE(build(source, program, log) == CL_SUCCESS);

  struct Node {
    cl_event event = nullptr;
    std::vector<int> deps; // ids of kernel commands waited for
    bool kernel = false;
  };
  std::vector<Node> nodes(kCommands);
  std::mutex nodes_mutex;
  std::vector<int> published; // ids whose events may be waited for
  std::atomic<int> failures{0};

  auto worker = [&](int t) {
    std::mt19937 rng(1234 + t);
    cl_int kerr;
    cl_kernel k = clCreateKernel(program, "step", &kerr);
    if (kerr != CL_SUCCESS) {
      ++failures;
      return;
    }
    clSetKernelArg(k, 0, sizeof runs, &runs);
    clSetKernelArg(k, 1, sizeof tickets, &tickets);
    clSetKernelArg(k, 2, sizeof clock, &clock);
    for (int i = 0; i < kPerThread; ++i) {
      int id = t * kPerThread + i;
      cl_command_queue q = queues[rng() % 2];
      std::vector<cl_event> wait;
      std::vector<int> deps;
      {
        std::lock_guard<std::mutex> lock(nodes_mutex);
        int n = published.empty() ? 0 : static_cast<int>(rng() % 4);
        for (int d = 0; d < n; ++d) {
          int dep = published[rng() % published.size()];
          if (std::find(deps.begin(), deps.end(), dep) != deps.end())
            continue;
          deps.push_back(dep);
          wait.push_back(nodes[dep].event);
          clRetainEvent(nodes[dep].event);
        }
      }
      cl_event e = nullptr;
      unsigned kind = rng() % 10;
      cl_int r;
      if (kind == 0) {
        r = clEnqueueMarkerWithWaitList(q, static_cast<cl_uint>(wait.size()),
                                        wait.empty() ? nullptr : wait.data(),
                                        &e);
      } else if (kind == 1) {
        r = clEnqueueBarrierWithWaitList(q, static_cast<cl_uint>(wait.size()),
                                         wait.empty() ? nullptr : wait.data(),
                                         &e);
      } else {
        cl_int arg = id;
        clSetKernelArg(k, 3, sizeof arg, &arg);
        size_t one = 1;
        r = clEnqueueNDRangeKernel(q, k, 1, nullptr, &one, &one,
                                   static_cast<cl_uint>(wait.size()),
                                   wait.empty() ? nullptr : wait.data(), &e);
      }
      for (cl_event w : wait)
        clReleaseEvent(w);
      if (r != CL_SUCCESS) {
        ++failures;
        continue;
      }
      if (rng() % 8 == 0)
        clFlush(q);
      std::lock_guard<std::mutex> lock(nodes_mutex);
      nodes[id].event = e;
      nodes[id].kernel = kind >= 2;
      // A marker or barrier passes on what it waited for, so that its
      // waiters are checked against those kernels.
      nodes[id].deps = deps;
      published.push_back(id);
    }
    clReleaseKernel(k);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(worker, t);
  for (std::thread &th : threads)
    th.join();
  REQUIRE(failures == 0);
  REQUIRE(clFinish(ooo) == CL_SUCCESS);
  REQUIRE(clFinish(second) == CL_SUCCESS);

  std::vector<int> run_count(kCommands), ticket(kCommands);
  REQUIRE(clEnqueueReadBuffer(queue, runs, CL_TRUE, 0, kCommands * sizeof(int),
                              run_count.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(queue, tickets, CL_TRUE, 0,
                              kCommands * sizeof(int), ticket.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  // The kernels a command must follow: its own dependencies, and through a
  // marker or barrier, theirs.
  std::function<void(int, std::vector<int> &)> kernels_before =
      [&](int id, std::vector<int> &out) {
        for (int dep : nodes[id].deps) {
          if (nodes[dep].kernel)
            out.push_back(dep);
          else
            kernels_before(dep, out);
        }
      };
  int order_errors = 0, count_errors = 0;
  for (int id = 0; id < kCommands; ++id) {
    CHECK(status(nodes[id].event) == CL_COMPLETE);
    if (!nodes[id].kernel) {
      CHECK(run_count[id] == 0);
      continue;
    }
    if (run_count[id] != 1)
      ++count_errors;
    std::vector<int> before;
    kernels_before(id, before);
    for (int dep : before)
      if (ticket[dep] >= ticket[id])
        ++order_errors;
  }
  CHECK(count_errors == 0);
  CHECK(order_errors == 0);
  for (Node &n : nodes)
    clReleaseEvent(n.event);
  clReleaseProgram(program);
  clReleaseMemObject(runs);
  clReleaseMemObject(tickets);
  clReleaseMemObject(clock);
  clReleaseCommandQueue(second);
}
