// The pipe storage engine (builtins/pipe_engine.c) called directly, as the
// compiled kernels call it: FIFO order, full and empty pipes, reservations
// published and freed in reservation order, and many threads at once.
#include "device/pipe_abi.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <thread>
#include <vector>

extern "C" {
int __read_pipe_2(void *pipe, void *data, unsigned size, unsigned align);
int __write_pipe_2(void *pipe, const void *data, unsigned size, unsigned align);
void *__reserve_read_pipe(void *pipe, unsigned num_packets, unsigned size,
                          unsigned align);
void *__reserve_write_pipe(void *pipe, unsigned num_packets, unsigned size,
                           unsigned align);
int __read_pipe_4(void *pipe, void *reserve_id, unsigned index, void *data,
                  unsigned size, unsigned align);
int __write_pipe_4(void *pipe, void *reserve_id, unsigned index,
                   const void *data, unsigned size, unsigned align);
void __commit_read_pipe(void *pipe, void *reserve_id, unsigned size,
                        unsigned align);
void __commit_write_pipe(void *pipe, void *reserve_id, unsigned size,
                         unsigned align);
unsigned __get_pipe_num_packets_ro(void *pipe, unsigned size, unsigned align);
unsigned __get_pipe_num_packets_wo(void *pipe, unsigned size, unsigned align);
unsigned __get_pipe_max_packets_ro(void *pipe, unsigned size, unsigned align);
unsigned __get_pipe_max_packets_wo(void *pipe, unsigned size, unsigned align);
}

namespace {

// Packets through the pipe in each threaded test: far more than it holds.
constexpr uint64_t kStressPackets = 1000000;

// A pipe allocated the way the runtime allocates one.
class TestPipe {
public:
  TestPipe(uint32_t packet_size, uint32_t max_packets) {
    uint64_t bytes = weft::weft_pipe_allocation_size(packet_size, max_packets);
    bytes = (bytes + WEFT_PIPE_ALIGNMENT - 1) / WEFT_PIPE_ALIGNMENT *
            WEFT_PIPE_ALIGNMENT;
    memory_ = std::aligned_alloc(WEFT_PIPE_ALIGNMENT, bytes);
    // Garbage everywhere, so the test sees what init leaves uninitialized.
    std::memset(memory_, 0xa5, bytes);
    weft::weft_pipe_init(memory_, packet_size, max_packets);
  }
  ~TestPipe() { std::free(memory_); }
  TestPipe(const TestPipe &) = delete;
  TestPipe &operator=(const TestPipe &) = delete;
  void *get() const { return memory_; }

private:
  void *memory_;
};

template <typename T> int writePacket(void *pipe, const T &value) {
  return __write_pipe_2(pipe, &value, sizeof(T), alignof(T));
}
template <typename T> int readPacket(void *pipe, T &value) {
  return __read_pipe_2(pipe, &value, sizeof(T), alignof(T));
}
template <typename T> void *reserveWrite(void *pipe, unsigned count) {
  return __reserve_write_pipe(pipe, count, sizeof(T), alignof(T));
}
template <typename T> void *reserveRead(void *pipe, unsigned count) {
  return __reserve_read_pipe(pipe, count, sizeof(T), alignof(T));
}
template <typename T>
int writeAt(void *pipe, void *id, unsigned index, const T &value) {
  return __write_pipe_4(pipe, id, index, &value, sizeof(T), alignof(T));
}
template <typename T>
int readAt(void *pipe, void *id, unsigned index, T &value) {
  return __read_pipe_4(pipe, id, index, &value, sizeof(T), alignof(T));
}
template <typename T> void commitWrite(void *pipe, void *id) {
  __commit_write_pipe(pipe, id, sizeof(T), alignof(T));
}
template <typename T> void commitRead(void *pipe, void *id) {
  __commit_read_pipe(pipe, id, sizeof(T), alignof(T));
}
template <typename T> unsigned readable(void *pipe) {
  unsigned ro = __get_pipe_num_packets_ro(pipe, sizeof(T), alignof(T));
  unsigned wo = __get_pipe_num_packets_wo(pipe, sizeof(T), alignof(T));
  CHECK(ro == wo);
  return ro;
}

// Fills a write reservation with first, first + 1, ...
void *reserveAndFill(void *pipe, unsigned count, uint32_t first) {
  void *id = reserveWrite<uint32_t>(pipe, count);
  REQUIRE(id != nullptr);
  for (unsigned i = 0; i < count; ++i)
    REQUIRE(writeAt(pipe, id, i, first + i) == 0);
  return id;
}

// Reads until the pipe is empty (or it yields more than any pipe here holds).
std::vector<uint32_t> drain(void *pipe) {
  std::vector<uint32_t> values;
  uint32_t value;
  while (values.size() <= 1000 && readPacket(pipe, value) == 0)
    values.push_back(value);
  return values;
}

std::vector<uint32_t> sequence(uint32_t first, uint32_t count) {
  std::vector<uint32_t> values(count);
  for (uint32_t i = 0; i < count; ++i)
    values[i] = first + i;
  return values;
}

} // namespace

TEST_CASE("pipe: 2-arg forms are FIFO, fail when full or empty",
          "[device][pipe]") {
  TestPipe pipe(sizeof(uint32_t), 8);
  void *p = pipe.get();
  CHECK(__get_pipe_max_packets_ro(p, 4, 4) == 8);
  CHECK(__get_pipe_max_packets_wo(p, 4, 4) == 8);
  uint32_t value = 0;
  CHECK(readPacket(p, value) == -1);
  // Many trips round the ring, so positions wrap.
  uint32_t next_write = 0, next_read = 0;
  for (int round = 0; round < 50; ++round) {
    for (int i = 0; i <= 8 && writePacket(p, next_write) == 0; ++i)
      ++next_write;
    CHECK(next_write - next_read == 8);
    CHECK(readable<uint32_t>(p) == 8);
    CHECK(writePacket(p, next_write) == -1);
    for (int i = 0; i < 3 + round % 5; ++i) {
      REQUIRE(readPacket(p, value) == 0);
      CHECK(value == next_read++);
    }
    CHECK(readable<uint32_t>(p) == next_write - next_read);
  }
  for (uint32_t rest : drain(p))
    CHECK(rest == next_read++);
  CHECK(next_read == next_write);
  CHECK(readable<uint32_t>(p) == 0);
  CHECK(readPacket(p, value) == -1);
}

TEST_CASE("pipe: impossible reservations and bad ids fail", "[device][pipe]") {
  TestPipe pipe(sizeof(uint32_t), 4);
  void *p = pipe.get();
  CHECK(reserveWrite<uint32_t>(p, 0) == nullptr);
  CHECK(reserveWrite<uint32_t>(p, 5) == nullptr);
  CHECK(reserveWrite<uint32_t>(p, 0xffffffffu) == nullptr);
  CHECK(reserveRead<uint32_t>(p, 0) == nullptr);
  CHECK(reserveRead<uint32_t>(p, 1) == nullptr); // empty
  CHECK(reserveRead<uint32_t>(p, 5) == nullptr);
  // A packet type larger than the pipe's packets is refused, not overrun.
  uint64_t wide = 1;
  CHECK(writePacket(p, wide) == -1);
  CHECK(reserveWrite<uint64_t>(p, 1) == nullptr);

  void *all = reserveAndFill(p, 4, 100);
  CHECK(all != nullptr);
  CHECK(reserveWrite<uint32_t>(p, 1) == nullptr); // full while reserved
  uint32_t value = 7;
  CHECK(writeAt(p, all, 4, value) == -1); // index out of range
  CHECK(writeAt(p, nullptr, 0, value) == -1);
  CHECK(readAt(p, all, 0, value) == -1); // a write id used for reading
  CHECK(value == 7);
  commitWrite<uint32_t>(p, nullptr); // ignored
  CHECK(readable<uint32_t>(p) == 0);
  commitWrite<uint32_t>(p, all);
  CHECK(readable<uint32_t>(p) == 4);

  CHECK(reserveRead<uint32_t>(p, 5) == nullptr);
  void *three = reserveRead<uint32_t>(p, 3);
  REQUIRE(three != nullptr);
  CHECK(reserveRead<uint32_t>(p, 2) == nullptr); // only one left
  CHECK(readAt(p, three, 3, value) == -1);
  CHECK(readAt(p, nullptr, 0, value) == -1);
  CHECK(writeAt(p, three, 0, value) == -1); // a read id used for writing
  for (unsigned i = 0; i < 3; ++i) {
    CHECK(readAt(p, three, i, value) == 0);
    CHECK(value == 100 + i);
  }
  // Reading a reserved packet again is allowed.
  CHECK(readAt(p, three, 1, value) == 0);
  CHECK(value == 101);
  commitRead<uint32_t>(p, three);
  CHECK(drain(p) == std::vector<uint32_t>{103});
}

TEST_CASE("pipe: write reservations publish in reservation order",
          "[device][pipe]") {
  TestPipe pipe(sizeof(uint32_t), 16);
  void *p = pipe.get();
  void *a = reserveAndFill(p, 3, 0);
  void *b = reserveAndFill(p, 2, 3);
  CHECK(a != b);
  commitWrite<uint32_t>(p, b);
  CHECK(readable<uint32_t>(p) == 0);
  CHECK(reserveRead<uint32_t>(p, 1) == nullptr);
  uint32_t value;
  CHECK(readPacket(p, value) == -1);
  commitWrite<uint32_t>(p, a);
  CHECK(readable<uint32_t>(p) == 5);
  CHECK(drain(p) == sequence(0, 5));

  // Three open at once, committed last, first, middle: the middle commit
  // publishes itself and the last one.
  void *c = reserveAndFill(p, 2, 10);
  void *d = reserveAndFill(p, 1, 12);
  CHECK(writePacket(p, uint32_t(13)) == 0); // a 2-arg write after d
  void *e = reserveAndFill(p, 4, 14);
  commitWrite<uint32_t>(p, e);
  CHECK(readable<uint32_t>(p) == 0);
  commitWrite<uint32_t>(p, c);
  CHECK(readable<uint32_t>(p) == 2);
  commitWrite<uint32_t>(p, d);
  CHECK(readable<uint32_t>(p) == 8);
  CHECK(drain(p) == sequence(10, 8));
}

TEST_CASE("pipe: read reservations free space in reservation order",
          "[device][pipe]") {
  TestPipe pipe(sizeof(uint32_t), 4);
  void *p = pipe.get();
  // Start off position 0 so the reservations wrap round the ring.
  commitWrite<uint32_t>(p, reserveAndFill(p, 3, 0));
  CHECK(drain(p) == sequence(0, 3));
  commitWrite<uint32_t>(p, reserveAndFill(p, 4, 10));
  void *a = reserveRead<uint32_t>(p, 2);
  void *b = reserveRead<uint32_t>(p, 2);
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(readable<uint32_t>(p) == 0);
  uint32_t value;
  for (unsigned i = 0; i < 2; ++i) {
    CHECK(readAt(p, b, i, value) == 0);
    CHECK(value == 12 + i);
    CHECK(readAt(p, a, i, value) == 0);
    CHECK(value == 10 + i);
  }
  commitRead<uint32_t>(p, b);
  CHECK(writePacket(p, uint32_t(99)) == -1); // b's space is not free yet
  CHECK(reserveWrite<uint32_t>(p, 1) == nullptr);
  commitRead<uint32_t>(p, a);
  for (uint32_t i = 0; i < 4; ++i)
    CHECK(writePacket(p, 20 + i) == 0);
  CHECK(writePacket(p, uint32_t(24)) == -1);
  CHECK(drain(p) == sequence(20, 4));
}

namespace {
template <size_t N> struct Bytes { unsigned char b[N]; };

template <size_t N> Bytes<N> pattern(uint32_t seed) {
  Bytes<N> value;
  for (size_t i = 0; i < N; ++i)
    value.b[i] = static_cast<unsigned char>(seed * 131 + i * 7 + 1);
  return value;
}

template <size_t N> bool samePattern(const Bytes<N> &value, uint32_t seed) {
  Bytes<N> expected = pattern<N>(seed);
  return std::memcmp(value.b, expected.b, N) == 0;
}

// Odd packet sizes through both forms and round a ring of odd capacity.
template <size_t N> void checkPacketSize() {
  TestPipe pipe(N, 5);
  void *p = pipe.get();
  uint32_t written = 0, read = 0;
  for (int round = 0; round < 20; ++round) {
    Bytes<N> value = pattern<N>(written);
    REQUIRE(writePacket(p, value) == 0);
    ++written;
    void *id = reserveWrite<Bytes<N>>(p, 3);
    REQUIRE(id != nullptr);
    for (unsigned i = 3; i-- > 0;)
      REQUIRE(writeAt(p, id, i, pattern<N>(written + i)) == 0);
    written += 3;
    commitWrite<Bytes<N>>(p, id);
    CHECK(readable<Bytes<N>>(p) == written - read);

    REQUIRE(readPacket(p, value) == 0);
    CHECK(samePattern(value, read++));
    id = reserveRead<Bytes<N>>(p, 2);
    REQUIRE(id != nullptr);
    for (unsigned i = 0; i < 2; ++i) {
      REQUIRE(readAt(p, id, i, value) == 0);
      CHECK(samePattern(value, read + i));
    }
    read += 2;
    commitRead<Bytes<N>>(p, id);
    REQUIRE(readPacket(p, value) == 0);
    CHECK(samePattern(value, read++));
  }
  CHECK(readable<Bytes<N>>(p) == 0);
}
} // namespace

TEST_CASE("pipe: packets of odd sizes", "[device][pipe]") {
  checkPacketSize<12>();
  checkPacketSize<3>();
  checkPacketSize<1>();
  checkPacketSize<1024>();
}

// A random single-threaded interleaving of everything (as fibers of one
// work-group would produce) against a model of the pipe.
TEST_CASE("pipe: random operations match a model", "[device][pipe]") {
  const uint64_t capacity = 7;
  TestPipe pipe(sizeof(uint64_t), capacity);
  void *p = pipe.get();
  struct Open {
    uint64_t start, count;
    void *id;
  };
  // Positions as in pipe_abi.h; each packet holds its own position.
  uint64_t reserved_writes = 0, published = 0, reserved_reads = 0, released = 0;
  std::vector<Open> writes, reads;
  std::map<uint64_t, uint64_t> committed_writes, committed_reads; // start->end
  auto advance = [](uint64_t &counter, std::map<uint64_t, uint64_t> &done) {
    for (auto it = done.find(counter); it != done.end();
         it = done.find(counter)) {
      counter = it->second;
      done.erase(it);
    }
  };
  std::mt19937 random(1234);
  int successes = 0;
  for (int step = 0; step < 200000; ++step) {
    unsigned count = random() % (capacity + 2);
    uint64_t value;
    switch (random() % 6) {
    case 0: { // reserve for writing, fill in a random order
      bool fits = count >= 1 && reserved_writes + count <= released + capacity;
      void *id = reserveWrite<uint64_t>(p, count);
      REQUIRE((id != nullptr) == fits);
      if (!id)
        break;
      std::vector<unsigned> order(count);
      for (unsigned i = 0; i < count; ++i)
        order[i] = i;
      std::shuffle(order.begin(), order.end(), random);
      for (unsigned i : order)
        REQUIRE(writeAt(p, id, i, reserved_writes + i) == 0);
      writes.push_back({reserved_writes, count, id});
      reserved_writes += count;
      ++successes;
      break;
    }
    case 1: { // commit a random open write reservation
      if (writes.empty())
        break;
      size_t which = random() % writes.size();
      commitWrite<uint64_t>(p, writes[which].id);
      committed_writes[writes[which].start] =
          writes[which].start + writes[which].count;
      writes.erase(writes.begin() + which);
      advance(published, committed_writes);
      break;
    }
    case 2: { // 2-arg write
      bool fits = reserved_writes + 1 <= released + capacity;
      REQUIRE((writePacket(p, reserved_writes) == 0) == fits);
      if (!fits)
        break;
      committed_writes[reserved_writes] = reserved_writes + 1;
      ++reserved_writes;
      advance(published, committed_writes);
      break;
    }
    case 3: { // reserve for reading, read in a random order
      bool fits = count >= 1 && reserved_reads + count <= published;
      void *id = reserveRead<uint64_t>(p, count);
      REQUIRE((id != nullptr) == fits);
      if (!id)
        break;
      for (unsigned k = 0; k < count; ++k) {
        unsigned i = random() % count;
        REQUIRE(readAt(p, id, i, value) == 0);
        REQUIRE(value == reserved_reads + i);
      }
      reads.push_back({reserved_reads, count, id});
      reserved_reads += count;
      ++successes;
      break;
    }
    case 4: { // commit a random open read reservation
      if (reads.empty())
        break;
      size_t which = random() % reads.size();
      commitRead<uint64_t>(p, reads[which].id);
      committed_reads[reads[which].start] =
          reads[which].start + reads[which].count;
      reads.erase(reads.begin() + which);
      advance(released, committed_reads);
      break;
    }
    case 5: { // 2-arg read
      bool fits = reserved_reads + 1 <= published;
      REQUIRE((readPacket(p, value) == 0) == fits);
      if (!fits)
        break;
      REQUIRE(value == reserved_reads);
      committed_reads[reserved_reads] = reserved_reads + 1;
      ++reserved_reads;
      advance(released, committed_reads);
      break;
    }
    }
    REQUIRE(readable<uint64_t>(p) == published - reserved_reads);
  }
  // The walk must have gone round the ring many times, both ways.
  CHECK(successes > 10000);
  CHECK(released > 100 * capacity);
}

namespace {
struct Tagged {
  uint64_t id;
  uint64_t check; // catches a packet torn between two writers
};

uint64_t checkOf(uint64_t id) { return id * 0x9e3779b97f4a7c15ull ^ 0x5555; }

Tagged tagged(uint64_t id) { return {id, checkOf(id)}; }

// The threads retry what fails until it works; a broken engine must make the
// test fail, not hang it.
class Patience {
public:
  Patience()
      : deadline_(std::chrono::steady_clock::now() + std::chrono::seconds(60)) {
  }
  // After a failed attempt: false once the time is up.
  bool retry() const {
    std::this_thread::yield();
    return std::chrono::steady_clock::now() < deadline_;
  }

private:
  std::chrono::steady_clock::time_point deadline_;
};

// Writes packets first, first + 1, ... below `end` with every form of write,
// sometimes holding two reservations and committing the later one first.
// Never waits for the pipe: a failed attempt just yields and tries again.
void produce(void *p, uint64_t first, uint64_t end, unsigned seed,
             bool use_reservations, std::atomic<int> &errors) {
  std::mt19937 random(seed);
  Patience patience;
  uint64_t next = first;
  while (next < end) {
    unsigned choice = use_reservations ? random() % 4 : 0;
    if (choice <= 1) {
      if (writePacket(p, tagged(next)) == 0)
        ++next;
      else if (!patience.retry())
        break;
      continue;
    }
    unsigned wanted = 1 + random() % 8;
    unsigned a_count = unsigned(std::min<uint64_t>(wanted, end - next));
    void *a = reserveWrite<Tagged>(p, a_count);
    if (!a) {
      if (!patience.retry())
        break;
      continue;
    }
    uint64_t a_first = next;
    next += a_count;
    void *b = nullptr;
    unsigned b_count = unsigned(std::min<uint64_t>(wanted, end - next));
    uint64_t b_first = next;
    if (choice == 3 && b_count > 0) {
      b = reserveWrite<Tagged>(p, b_count);
      if (b) {
        next += b_count;
        for (unsigned i = 0; i < b_count; ++i)
          errors += writeAt(p, b, i, tagged(b_first + i)) != 0;
        commitWrite<Tagged>(p, b); // before a: not readable until a is
      }
    }
    for (unsigned i = a_count; i-- > 0;)
      errors += writeAt(p, a, i, tagged(a_first + i)) != 0;
    commitWrite<Tagged>(p, a);
  }
}

// Reads until `consumed` reaches `total`, with every form of read; passes
// each packet to `see`.
template <typename See>
void consume(void *p, uint64_t total, unsigned seed, bool use_reservations,
             std::atomic<uint64_t> &consumed, std::atomic<int> &errors,
             See see) {
  std::mt19937 random(seed);
  Patience patience;
  Tagged packet;
  auto take = [&](const Tagged &t) {
    if (t.check != checkOf(t.id) || t.id >= total)
      ++errors;
    else
      see(t.id);
    ++consumed;
  };
  while (consumed.load() < total) {
    unsigned choice = use_reservations ? random() % 3 : 0;
    if (choice == 0) {
      if (readPacket(p, packet) == 0)
        take(packet);
      else if (!patience.retry())
        break;
      continue;
    }
    unsigned a_count = 1 + random() % 8;
    void *a = reserveRead<Tagged>(p, a_count);
    if (!a) {
      if (!patience.retry())
        break;
      continue;
    }
    std::vector<Tagged> packets(a_count);
    for (unsigned i = 0; i < a_count; ++i)
      errors += readAt(p, a, i, packets[i]) != 0;
    unsigned b_count = 1 + random() % 4;
    void *b = choice == 2 ? reserveRead<Tagged>(p, b_count) : nullptr;
    if (b) {
      packets.resize(a_count + b_count);
      for (unsigned i = 0; i < b_count; ++i)
        errors += readAt(p, b, i, packets[a_count + i]) != 0;
      commitRead<Tagged>(p, b); // its space is freed only with a's
    }
    commitRead<Tagged>(p, a);
    for (const Tagged &t : packets)
      take(t);
  }
}
} // namespace

TEST_CASE("pipe: many producers and consumers pass every packet once",
          "[device][pipe]") {
  const uint64_t total = kStressPackets;
  const unsigned producers = 4, consumers = 4;
  TestPipe pipe(sizeof(Tagged), 61);
  void *p = pipe.get();
  std::vector<std::atomic<uint32_t>> seen(total);
  std::atomic<uint64_t> consumed{0};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < producers; ++i)
    threads.emplace_back([&, i] {
      produce(p, total * i / producers, total * (i + 1) / producers, i + 1,
              /*use_reservations=*/true, errors);
    });
  for (unsigned i = 0; i < consumers; ++i)
    threads.emplace_back([&, i] {
      consume(p, total, 100 + i, /*use_reservations=*/true, consumed, errors,
              [&](uint64_t id) { seen[id].fetch_add(1); });
    });
  for (std::thread &t : threads)
    t.join();
  CHECK(errors.load() == 0);
  CHECK(consumed.load() == total);
  uint64_t wrong = 0;
  for (auto &count : seen)
    wrong += count.load() != 1;
  CHECK(wrong == 0);
  CHECK(readable<Tagged>(p) == 0);
  Tagged packet;
  CHECK(readPacket(p, packet) == -1);
}

TEST_CASE("pipe: one producer and one consumer keep FIFO order",
          "[device][pipe]") {
  const uint64_t total = kStressPackets;
  TestPipe pipe(sizeof(Tagged), 16);
  void *p = pipe.get();
  std::atomic<uint64_t> consumed{0};
  std::atomic<int> errors{0};
  uint64_t expected = 0, out_of_order = 0;
  std::thread producer(
      [&] { produce(p, 0, total, 7, /*use_reservations=*/false, errors); });
  consume(p, total, 8, /*use_reservations=*/false, consumed, errors,
          [&](uint64_t id) { out_of_order += id != expected++; });
  producer.join();
  CHECK(errors.load() == 0);
  CHECK(expected == total);
  CHECK(out_of_order == 0);
}

// With one reader the pipe's order is the read order, so each producer's
// packets arrive in the order it reserved them, whatever the form.
TEST_CASE("pipe: one consumer sees each producer's packets in order",
          "[device][pipe]") {
  const uint64_t total = kStressPackets / 2;
  const unsigned producers = 4;
  TestPipe pipe(sizeof(Tagged), 32);
  void *p = pipe.get();
  std::atomic<uint64_t> consumed{0};
  std::atomic<int> errors{0};
  std::vector<uint64_t> expected(producers);
  for (unsigned i = 0; i < producers; ++i)
    expected[i] = total * i / producers;
  uint64_t out_of_order = 0;
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < producers; ++i)
    threads.emplace_back([&, i] {
      produce(p, total * i / producers, total * (i + 1) / producers, 40 + i,
              /*use_reservations=*/true, errors);
    });
  consume(p, total, 50, /*use_reservations=*/true, consumed, errors,
          [&](uint64_t id) {
            unsigned producer = 0;
            while (id >= total * (producer + 1) / producers)
              ++producer;
            out_of_order += id != expected[producer]++;
          });
  for (std::thread &t : threads)
    t.join();
  CHECK(errors.load() == 0);
  CHECK(out_of_order == 0);
  for (unsigned i = 0; i < producers; ++i)
    CHECK(expected[i] == total * (i + 1) / producers);
}
