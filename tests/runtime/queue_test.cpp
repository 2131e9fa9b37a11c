// Out-of-order queues at the runtime layer, where the sanitizers watch them
// (scripts/sanitize.sh runs the runtime tests under TSan): threads queue
// host-side commands with random wait lists, markers and barriers into two
// shared queues, flush at random, and finish.
#include "runtime/event.h"
#include "runtime/queue.h"
#include "runtime_fixture.h"

#include <atomic>
#include <mutex>
#include <random>
#include <thread>

using weft::Command;
using weft::Event;
using weft::Queue;
using weft::Ref;

TEST_CASE("out-of-order queues run random dependency graphs exactly once",
          "[runtime][queue]") {
  RuntimeFixture fixture;
  weft::Device &device = weft::Device::instance();
  Ref<Queue> queues[2] = {
      Ref<Queue>(new Queue(*fixture.context, device,
                           CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, {}),
                 /*adopt=*/true),
      Ref<Queue>(new Queue(*fixture.context, device,
                           CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, {}),
                 /*adopt=*/true)};
  constexpr int kThreads = 4, kPerThread = 300;
  constexpr int kCommands = kThreads * kPerThread;
  std::vector<std::atomic<int>> runs(kCommands);
  std::vector<std::atomic<int>> ticket(kCommands);
  std::atomic<int> clock{0};
  std::atomic<int> submit_failures{0};
  // Ids whose events later commands may wait for, with their events and
  // the ids each waited for (markers and barriers pass theirs on).
  std::mutex mutex;
  std::vector<int> published;
  std::vector<Ref<Event>> events(kCommands);
  std::vector<std::vector<int>> deps(kCommands);
  std::vector<bool> is_work(kCommands, false);

  auto worker = [&](int t) {
    std::mt19937 rng(77 + t);
    for (int i = 0; i < kPerThread; ++i) {
      int id = t * kPerThread + i;
      std::vector<Ref<Event>> wait;
      std::vector<int> mine;
      {
        std::lock_guard<std::mutex> lock(mutex);
        int n = published.empty() ? 0 : static_cast<int>(rng() % 4);
        for (int d = 0; d < n; ++d) {
          int dep = published[rng() % published.size()];
          mine.push_back(dep);
          wait.push_back(events[dep]);
        }
      }
      unsigned kind = rng() % 10;
      cl_command_type type = kind == 0   ? CL_COMMAND_MARKER
                             : kind == 1 ? CL_COMMAND_BARRIER
                                         : CL_COMMAND_USER;
      Command command(type);
      if (type == CL_COMMAND_USER)
        command = Command(type, [&, id] {
          runs[id]++;
          ticket[id] = clock++;
          return CL_SUCCESS;
        });
      Ref<Event> event;
      Queue &q = *queues[rng() % 2];
      // Catch's assertions are for the main thread only.
      if (q.submit(std::move(command), std::move(wait), false, event) !=
          CL_SUCCESS)
        ++submit_failures;
      if (rng() % 8 == 0)
        q.flush();
      std::lock_guard<std::mutex> lock(mutex);
      events[id] = event;
      deps[id] = mine;
      is_work[id] = type == CL_COMMAND_USER;
      published.push_back(id);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(worker, t);
  for (std::thread &th : threads)
    th.join();
  REQUIRE(submit_failures == 0);
  for (Ref<Queue> &q : queues)
    REQUIRE(q->finish() == CL_SUCCESS);

  // The work a command must follow: its own dependencies and, through
  // markers and barriers, theirs.
  std::function<void(int, std::vector<int> &)> before =
      [&](int id, std::vector<int> &out) {
        for (int dep : deps[id])
          if (is_work[dep])
            out.push_back(dep);
          else
            before(dep, out);
      };
  int wrong_runs = 0, wrong_order = 0, incomplete = 0;
  for (int id = 0; id < kCommands; ++id) {
    incomplete += events[id]->status() != CL_COMPLETE;
    if (!is_work[id]) {
      wrong_runs += runs[id] != 0;
      continue;
    }
    wrong_runs += runs[id] != 1;
    std::vector<int> earlier;
    before(id, earlier);
    for (int dep : earlier)
      wrong_order += ticket[dep] >= ticket[id];
  }
  CHECK(incomplete == 0);
  CHECK(wrong_runs == 0);
  CHECK(wrong_order == 0);
}

TEST_CASE("a barrier orders what follows it; a failed command only orders",
          "[runtime][queue]") {
  RuntimeFixture fixture;
  weft::Device &device = weft::Device::instance();
  Ref<Queue> q(new Queue(*fixture.context, device,
                         CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, {}),
               /*adopt=*/true);
  std::atomic<int> order{0};
  int first = -1, after = -1;
  Ref<Event> failing, barrier, later;
  REQUIRE(q->submit(Command(CL_COMMAND_USER,
                            [&] {
                              first = order++;
                              return CL_OUT_OF_RESOURCES;
                            }),
                    {}, false, failing) == CL_SUCCESS);
  REQUIRE(q->submit(Command(CL_COMMAND_BARRIER), {}, false, barrier) ==
          CL_SUCCESS);
  REQUIRE(q->submit(Command(CL_COMMAND_USER,
                            [&] {
                              after = order++;
                              return CL_SUCCESS;
                            }),
                    {}, false, later) == CL_SUCCESS);
  REQUIRE(q->finish() == CL_SUCCESS);
  CHECK(failing->status() == CL_OUT_OF_RESOURCES);
  CHECK(barrier->status() == CL_COMPLETE);
  CHECK(later->status() == CL_COMPLETE);
  CHECK(first == 0);
  CHECK(after == 1);
}
