// Commands as data: which commands conflict (must keep their order), and
// the queue running typed records.
#include "runtime/command.h"
#include "runtime/event.h"
#include "runtime/memory_commands.h"
#include "runtime/queue.h"
#include "runtime_fixture.h"

#include <cstring>
#include <vector>

using namespace weft;

namespace {

Command reading(Memory &memory, size_t offset = 0,
                size_t size = MemoryAccess::kToEnd) {
  Command command(CL_COMMAND_READ_BUFFER);
  command.reads(memory, offset, size);
  return command;
}

Command writing(Memory &memory, size_t offset = 0,
                size_t size = MemoryAccess::kToEnd) {
  Command command(CL_COMMAND_WRITE_BUFFER);
  command.writes(memory, offset, size);
  return command;
}

} // namespace

TEST_CASE_METHOD(RuntimeFixture, "reads never conflict with reads",
                 "[runtime][command]") {
  auto a = buffer(1024);
  CHECK_FALSE(reading(*a).conflictsWith(reading(*a)));
  CHECK_FALSE(reading(*a, 0, 16).conflictsWith(reading(*a, 8, 16)));
}

TEST_CASE_METHOD(RuntimeFixture, "a write conflicts with overlapping accesses",
                 "[runtime][command]") {
  auto a = buffer(1024);
  auto b = buffer(1024);
  // Write/read and write/write on the same bytes, in both directions.
  CHECK(writing(*a, 0, 64).conflictsWith(reading(*a, 32, 64)));
  CHECK(reading(*a, 32, 64).conflictsWith(writing(*a, 0, 64)));
  CHECK(writing(*a, 0, 64).conflictsWith(writing(*a, 63, 1)));
  // Adjacent ranges touch no common byte.
  CHECK_FALSE(writing(*a, 0, 64).conflictsWith(reading(*a, 64, 64)));
  CHECK_FALSE(writing(*a, 0, 64).conflictsWith(writing(*a, 64, 64)));
  // Other buffers never.
  CHECK_FALSE(writing(*a).conflictsWith(writing(*b)));
  // A whole-object access covers every byte.
  CHECK(writing(*a).conflictsWith(reading(*a, 1000, 24)));
}

TEST_CASE_METHOD(RuntimeFixture, "sub-buffers conflict through their parent",
                 "[runtime][command]") {
  auto parent = buffer(4096);
  auto low = subBuffer(*parent, 0, 2048);
  auto high = subBuffer(*parent, 2048, 2048);
  auto middle = subBuffer(*parent, 1024, 2048);
  // Disjoint sub-buffers of one parent do not conflict.
  CHECK_FALSE(writing(*low).conflictsWith(writing(*high)));
  // Overlapping ones do, also at offsets inside them: bytes 1024..1039 of
  // the parent in both.
  CHECK(writing(*low, 1024, 16).conflictsWith(reading(*middle, 0, 16)));
  CHECK_FALSE(writing(*low, 0, 1024).conflictsWith(reading(*middle, 0, 16)));
  // A sub-buffer and its parent.
  CHECK(writing(*high, 0, 1).conflictsWith(reading(*parent, 2048, 1)));
  CHECK_FALSE(writing(*high).conflictsWith(reading(*parent, 0, 2048)));
}

TEST_CASE_METHOD(RuntimeFixture, "barriers conflict with every command",
                 "[runtime][command]") {
  auto a = buffer(64);
  Command barrier(CL_COMMAND_BARRIER), marker(CL_COMMAND_MARKER);
  CHECK(barrier.conflictsWith(reading(*a)));
  CHECK(reading(*a).conflictsWith(barrier));
  CHECK(barrier.conflictsWith(marker));
  CHECK_FALSE(marker.conflictsWith(writing(*a)));
}

TEST_CASE_METHOD(RuntimeFixture, "buffer commands record what they touch",
                 "[runtime][command]") {
  auto a = buffer(1024);
  auto b = buffer(1024);
  char host[64] = {};

  Command copy = copyBufferCommand(*a, 0, *b, 512, 64);
  CHECK(copy.type() == CL_COMMAND_COPY_BUFFER);
  REQUIRE(copy.accesses().size() == 2);
  CHECK_FALSE(copy.accesses()[0].writes);
  CHECK(copy.accesses()[1].writes);
  CHECK(copy.accesses()[1].offset == 512);
  CHECK(copy.conflictsWith(readBufferCommand(*b, 520, 8, host)));
  CHECK_FALSE(copy.conflictsWith(readBufferCommand(*a, 0, 64, host)));
  CHECK(copy.conflictsWith(writeBufferCommand(*a, 60, 8, host)));

  // A rect command covers its rows' bounding range.
  const size_t origin[3] = {4, 2, 0}, region[3] = {8, 4, 1};
  Rect buffer_rect, host_rect;
  REQUIRE(makeRect(origin, region, 32, 0, a->size(), buffer_rect) ==
          CL_SUCCESS);
  const size_t zero[3] = {0, 0, 0};
  REQUIRE(makeRect(zero, region, 0, 0, SIZE_MAX, host_rect) == CL_SUCCESS);
  Command rect =
      writeBufferRectCommand(*a, buffer_rect, host_rect, {8, 4, 1}, host);
  CHECK(rect.conflictsWith(reading(*a, 2 * 32 + 4, 1)));
  CHECK(rect.conflictsWith(reading(*a, 5 * 32 + 11, 1)));
  CHECK_FALSE(rect.conflictsWith(reading(*a, 5 * 32 + 12, 100)));

  const unsigned char pattern[4] = {1, 2, 3, 4};
  Command fill = fillBufferCommand(*b, pattern, 4, 0, 256);
  CHECK(fill.conflictsWith(copy) == false);
  CHECK(fill.conflictsWith(readBufferCommand(*b, 255, 1, host)));

  void *mapped = nullptr;
  Command map_read = mapBufferCommand(*a, CL_MAP_READ, 0, 64, mapped);
  CHECK(mapped == a->data());
  CHECK_FALSE(map_read.conflictsWith(reading(*a)));
  CHECK(map_read.conflictsWith(writing(*a, 0, 1)));
  Command map_write = mapBufferCommand(*a, CL_MAP_WRITE, 0, 64, mapped);
  CHECK(map_write.conflictsWith(reading(*a, 0, 1)));
  CHECK(a->mapCount() == 2);
  CHECK(unmapCommand(*a).conflictsWith(reading(*a, 1000, 1)));

  Command migrate = migrateCommand({a.get(), b.get()}, 0);
  CHECK_FALSE(migrate.conflictsWith(reading(*b)));
  CHECK(migrate.conflictsWith(writing(*b)));
  CHECK(migrateCommand({a.get()}, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)
            .conflictsWith(reading(*a)));
}

TEST_CASE_METHOD(RuntimeFixture, "the queue runs commands in order",
                 "[runtime][command]") {
  Queue *raw = new Queue(*context, Device::instance(), 0, {});
  Ref<Queue> queue(raw, /*adopt=*/true);
  auto a = buffer(256);
  std::vector<unsigned char> in(256), out(256, 0);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<unsigned char>(i * 7);
  Ref<Event> written, filled, read;
  REQUIRE(queue->submit(writeBufferCommand(*a, 0, 256, in.data()), {}, false,
                        written) == CL_SUCCESS);
  const unsigned char pattern[2] = {0xab, 0xcd};
  REQUIRE(queue->submit(fillBufferCommand(*a, pattern, 2, 64, 32), {written},
                        false, filled) == CL_SUCCESS);
  REQUIRE(queue->submit(readBufferCommand(*a, 0, 256, out.data()), {}, true,
                        read) == CL_SUCCESS);
  CHECK(read->status() == CL_COMPLETE);
  CHECK(written->commandType() == CL_COMMAND_WRITE_BUFFER);
  CHECK(filled->commandType() == CL_COMMAND_FILL_BUFFER);
  for (size_t i = 0; i < out.size(); ++i) {
    unsigned char expected =
        i >= 64 && i < 96 ? pattern[i % 2] : static_cast<unsigned char>(i * 7);
    INFO("byte " << i);
    CHECK(out[i] == expected);
  }
  CHECK(queue->finish() == CL_SUCCESS);
}

TEST_CASE_METHOD(RuntimeFixture,
                 "finish returns once the commands submitted before it ran",
                 "[runtime][command]") {
  // Another thread may queue commands while one waits in clFinish; until
  // that thread flushes they are not the waiter's to run or wait for (the
  // waiter waited for an empty queue, forever). The first command queues
  // the second as such a thread would, without flushing.
  Queue *raw = new Queue(*context, Device::instance(), 0, {});
  Ref<Queue> queue(raw, /*adopt=*/true);
  Ref<Event> first, second;
  REQUIRE(queue->submit(Command(CL_COMMAND_MARKER,
                                [&] {
                                  queue->submit(Command(CL_COMMAND_MARKER), {},
                                                false, second);
                                  return CL_SUCCESS;
                                }),
                        {}, false, first) == CL_SUCCESS);
  CHECK(queue->finish() == CL_SUCCESS);
  CHECK(first->status() == CL_COMPLETE);
  REQUIRE(second);
  CHECK(second->status() == CL_QUEUED);
  // Its own finish runs it.
  CHECK(queue->finish() == CL_SUCCESS);
  CHECK(second->status() == CL_COMPLETE);
}
