// printf's two halves on the host: the reservation of records
// (builtins/printf_buffer.c, built here for the host as kernels run it)
// from many threads at once, and the formatting of records
// (device/printf_output.cpp), including buffers whose records do not add up,
// which must end the walk without reading outside the buffer.
#include "device/printf_output.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

extern "C" void *__weft_printf_reserve(weft::PrintfBuffer *buffer,
                                       uint64_t bytes);

namespace {

using weft::PrintfArgument;
using weft::PrintfBuffer;
using weft::PrintfRecordHeader;

// Appends a record of `format` and `arguments` (each as its bytes) to
// `records` as the compiled kernel would.
void appendRecord(std::vector<char> &records, const char *format,
                  const std::vector<std::vector<unsigned char>> &arguments) {
  uint64_t bytes = sizeof(PrintfRecordHeader);
  for (const auto &a : arguments)
    bytes += 8 + (a.size() + 7) / 8 * 8;
  size_t at = records.size();
  records.resize(at + bytes, 0);
  PrintfRecordHeader header{static_cast<uint32_t>(bytes),
                            static_cast<uint32_t>(arguments.size()), format};
  std::memcpy(records.data() + at, &header, sizeof header);
  size_t offset = at + sizeof header;
  for (const auto &a : arguments) {
    uint64_t size = a.size();
    std::memcpy(records.data() + offset, &size, 8);
    std::memcpy(records.data() + offset + 8, a.data(), a.size());
    offset += 8 + (a.size() + 7) / 8 * 8;
  }
}

template <typename T> std::vector<unsigned char> bytesOf(T value) {
  std::vector<unsigned char> bytes(sizeof value);
  std::memcpy(bytes.data(), &value, sizeof value);
  return bytes;
}

std::string format(const char *format,
                   const std::vector<std::vector<unsigned char>> &arguments) {
  std::vector<PrintfArgument> views;
  for (const auto &a : arguments)
    views.push_back({a.data(), a.size()});
  return weft::formatPrintfRecord(format, views.data(), views.size());
}

} // namespace

TEST_CASE("printf records are formatted as OpenCL C defines the conversions",
          "[printf]") {
  CHECK(format("%d|%5.1f|%s", {bytesOf<int32_t>(-7), bytesOf(2.25),
                               bytesOf<const char *>("text")}) ==
        "-7|  2.2|text");
  // hh and h convert the promoted int back to char and short.
  CHECK(format("%hhd %hhu %hd", {bytesOf<int32_t>(0x1ff), bytesOf<int32_t>(-1),
                                 bytesOf<int32_t>(0x18000)}) ==
        "-1 255 -32768");
  // A float2 passed as the double of its bytes; a half4 as four halves.
  float pair[2] = {1.5f, -2.0f};
  std::vector<unsigned char> float2(8);
  std::memcpy(float2.data(), pair, 8);
  uint16_t halves[4] = {0x3c00, 0xc000, 0x7c00, 0x0001}; // 1, -2, inf, 2^-24
  std::vector<unsigned char> half4(8);
  std::memcpy(half4.data(), halves, 8);
  CHECK(format("%v2hlf;%v4hg", {float2, half4}) ==
        "1.500000,-2.000000;1,-2,inf,5.96046e-08");
  // A 3-element vector occupies 4 elements; the fourth is not printed.
  int32_t three[4] = {1, 2, 3, 99};
  std::vector<unsigned char> int3(16);
  std::memcpy(int3.data(), three, 16);
  CHECK(format("%v3hld", {int3}) == "1,2,3");
  // '*' takes the width and precision from int arguments; a negative width
  // means '-'.
  CHECK(format("[%*.*f][%*d]", {bytesOf<int32_t>(8), bytesOf<int32_t>(2),
                                bytesOf(3.14159), bytesOf<int32_t>(-4),
                                bytesOf<int32_t>(5)}) == "[    3.14][5   ]");
  // Too few arguments (the compiler refuses such calls) print nothing for
  // the conversion, and never read past the last argument.
  CHECK(format("a%db%dc", {bytesOf<int32_t>(1)}) == "a1bc");
  // A vector argument smaller than its conversion prints nothing either.
  CHECK(format("<%v4hlf>", {float2}) == "<>");
}

TEST_CASE("a printf buffer whose records do not add up ends the walk there",
          "[printf]") {
  std::vector<char> records;
  appendRecord(records, "first %d\n", {bytesOf<int32_t>(1)});
  size_t good = records.size();
  appendRecord(records, "second %d\n", {bytesOf<int32_t>(2)});
  PrintfBuffer buffer{};
  buffer.records = records.data();
  buffer.capacity = records.size();
  buffer.used = records.size();
  CHECK(weft::formatPrintfRecords(buffer).text == "first 1\nsecond 2\n");

  SECTION("a record longer than the buffer") {
    uint32_t huge = 1u << 30;
    std::memcpy(records.data() + good, &huge, 4);
    CHECK(weft::formatPrintfRecords(buffer).text == "first 1\n");
  }
  SECTION("an argument longer than its record") {
    uint64_t huge = uint64_t(1) << 40;
    std::memcpy(records.data() + good + sizeof(PrintfRecordHeader), &huge, 8);
    CHECK(weft::formatPrintfRecords(buffer).text == "first 1\n");
  }
  SECTION("a record reserved but never written (a faulting work-item)") {
    std::memset(records.data() + good, 0, records.size() - good);
    CHECK(weft::formatPrintfRecords(buffer).text == "first 1\n");
  }
  SECTION("more reserved than the capacity") {
    buffer.used = buffer.capacity + 1000;
    buffer.dropped = 3;
    weft::PrintfOutput output = weft::formatPrintfRecords(buffer);
    CHECK(output.text == "first 1\nsecond 2\n");
    CHECK(output.dropped == 3);
  }
}

TEST_CASE("threads reserving printf records at once get disjoint room until "
          "the buffer is full, then none",
          "[printf]") {
  weft::PrintfBufferStorage storage(64 * 1024);
  REQUIRE(storage.valid());
  PrintfBuffer *buffer = storage.buffer();
  constexpr int kThreads = 8, kPerThread = 1000;
  std::vector<std::vector<char *>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i)
        got[t].push_back(
            static_cast<char *>(__weft_printf_reserve(buffer, 16)));
    });
  for (std::thread &t : threads)
    t.join();
  std::vector<char *> all;
  size_t nulls = 0;
  for (auto &list : got)
    for (char *p : list) {
      if (p)
        all.push_back(p);
      else
        ++nulls;
    }
  CHECK(all.size() == 64 * 1024 / 16);
  CHECK(nulls == kThreads * kPerThread - all.size());
  CHECK(buffer->dropped == nulls);
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i)
    CHECK(all[i] == buffer->records + 16 * i);
}
