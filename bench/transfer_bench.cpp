// Moving bytes between the host and buffers on Weft and PoCL side by side:
// clEnqueueReadBuffer and WriteBuffer with the host array where `new` puts
// it (16 bytes into a page) and on a page, CopyBuffer, FillBuffer with a
// float and a float16 pattern, and the application's own memcpy from and to
// a mapped buffer (clpeak's transfer rows). Each row alternates the drivers
// round by round and checks the bytes moved; median GB/s.
#include "bench_common.h"

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>

namespace {

struct Driver {
  std::string label;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_mem buffer = nullptr, other = nullptr; // ALLOC_HOST_PTR, plain
};

bool openDriver(const char *platform_name, const char *label, size_t bytes,
                Driver &d) {
  cl_platform_id platform = platformNamed(platform_name);
  cl_device_id device = nullptr;
  if (!platform ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr))
    return false;
  cl_int err = CL_SUCCESS;
  d.label = label;
  d.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  if (!d.context)
    return false;
  d.queue =
      clCreateCommandQueueWithProperties(d.context, device, nullptr, &err);
  d.buffer =
      clCreateBuffer(d.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                     bytes, nullptr, &err);
  d.other = clCreateBuffer(d.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  return d.queue && d.buffer && d.other;
}

// Host arrays as applications have them: from `new` (glibc: 16 bytes into a
// page for large sizes) and page-aligned.
struct HostArrays {
  explicit HostArrays(size_t bytes)
      : bytes(bytes), from_new(new unsigned char[bytes]),
        on_page(static_cast<unsigned char *>(
                    std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096)),
                std::free) {
    for (size_t i = 0; i < bytes; ++i)
      from_new[i] = static_cast<unsigned char>(i * 7 + (i >> 12));
    std::memcpy(on_page.get(), from_new.get(), bytes);
  }
  size_t bytes;
  std::unique_ptr<unsigned char[]> from_new;
  std::unique_ptr<unsigned char, decltype(&std::free)> on_page;
};

// One way of moving `bytes`: returns its seconds, or a negative value when
// the bytes moved are wrong.
using Move = double (*)(Driver &, HostArrays &);

double timed(const std::function<void()> &work) {
  double start = nowSeconds();
  work();
  return nowSeconds() - start;
}

bool same(const void *a, const void *b, size_t bytes) {
  return std::memcmp(a, b, bytes) == 0;
}

double writeFromNew(Driver &d, HostArrays &h) {
  return timed([&] {
    clEnqueueWriteBuffer(d.queue, d.buffer, CL_TRUE, 0, h.bytes,
                         h.from_new.get(), 0, nullptr, nullptr);
  });
}

double readInto(Driver &d, HostArrays &h, unsigned char *target) {
  std::memset(target, 0, h.bytes);
  double t = timed([&] {
    clEnqueueReadBuffer(d.queue, d.buffer, CL_TRUE, 0, h.bytes, target, 0,
                        nullptr, nullptr);
  });
  return t;
}

double readIntoNew(Driver &d, HostArrays &h) {
  writeFromNew(d, h);
  std::vector<unsigned char> expected(h.from_new.get(),
                                      h.from_new.get() + h.bytes);
  double t = readInto(d, h, h.from_new.get());
  return same(h.from_new.get(), expected.data(), h.bytes) ? t : -1;
}

double readOntoPage(Driver &d, HostArrays &h) {
  writeFromNew(d, h);
  double t = readInto(d, h, h.on_page.get());
  return same(h.on_page.get(), h.from_new.get(), h.bytes) ? t : -1;
}

double copyBuffer(Driver &d, HostArrays &h) {
  writeFromNew(d, h);
  double t = timed([&] {
    clEnqueueCopyBuffer(d.queue, d.buffer, d.other, 0, 0, h.bytes, 0, nullptr,
                        nullptr);
    clFinish(d.queue);
  });
  clEnqueueReadBuffer(d.queue, d.other, CL_TRUE, 0, h.bytes, h.on_page.get(), 0,
                      nullptr, nullptr);
  return same(h.on_page.get(), h.from_new.get(), h.bytes) ? t : -1;
}

template <size_t kPatternBytes> double fill(Driver &d, HostArrays &h) {
  unsigned char pattern[kPatternBytes];
  for (size_t i = 0; i < kPatternBytes; ++i)
    pattern[i] = static_cast<unsigned char>(i * 13 + 1);
  double t = timed([&] {
    clEnqueueFillBuffer(d.queue, d.other, pattern, kPatternBytes, 0, h.bytes, 0,
                        nullptr, nullptr);
    clFinish(d.queue);
  });
  clEnqueueReadBuffer(d.queue, d.other, CL_TRUE, 0, h.bytes, h.on_page.get(), 0,
                      nullptr, nullptr);
  for (size_t i = 0; i < h.bytes; ++i)
    if (h.on_page.get()[i] != pattern[i % kPatternBytes])
      return -1;
  return t;
}

// The application's memcpy through a mapping: the address the driver gave
// its buffer decides how fast the C library copies.
double memcpyFromMapped(Driver &d, HostArrays &h) {
  writeFromNew(d, h);
  cl_int err = CL_SUCCESS;
  void *mapped = clEnqueueMapBuffer(d.queue, d.buffer, CL_TRUE, CL_MAP_READ, 0,
                                    h.bytes, 0, nullptr, nullptr, &err);
  if (!mapped)
    return -1;
  std::vector<unsigned char> expected(h.from_new.get(),
                                      h.from_new.get() + h.bytes);
  std::memset(h.from_new.get(), 0, h.bytes);
  double t = timed([&] { std::memcpy(h.from_new.get(), mapped, h.bytes); });
  clEnqueueUnmapMemObject(d.queue, d.buffer, mapped, 0, nullptr, nullptr);
  clFinish(d.queue);
  return same(h.from_new.get(), expected.data(), h.bytes) ? t : -1;
}

double memcpyToMapped(Driver &d, HostArrays &h) {
  cl_int err = CL_SUCCESS;
  void *mapped = clEnqueueMapBuffer(d.queue, d.buffer, CL_TRUE, CL_MAP_WRITE, 0,
                                    h.bytes, 0, nullptr, nullptr, &err);
  if (!mapped)
    return -1;
  double t = timed([&] { std::memcpy(mapped, h.from_new.get(), h.bytes); });
  clEnqueueUnmapMemObject(d.queue, d.buffer, mapped, 0, nullptr, nullptr);
  clEnqueueReadBuffer(d.queue, d.buffer, CL_TRUE, 0, h.bytes, h.on_page.get(),
                      0, nullptr, nullptr);
  return same(h.on_page.get(), h.from_new.get(), h.bytes) ? t : -1;
}

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 7;
  const size_t sizes[] = {size_t(256) << 10, size_t(8) << 20,
                          size_t(256) << 20};
  const struct {
    const char *name;
    Move move;
  } rows[] = {
      {"WriteBuffer from new[]", writeFromNew},
      {"ReadBuffer into new[]", readIntoNew},
      {"ReadBuffer onto a page", readOntoPage},
      {"CopyBuffer", copyBuffer},
      {"FillBuffer, 4-byte pattern", fill<4>},
      {"FillBuffer, 64-byte pattern", fill<64>},
      {"memcpy from a mapped buffer", memcpyFromMapped},
      {"memcpy to a mapped buffer", memcpyToMapped},
  };
  std::printf("Transfers: median GB/s of %d rounds, drivers alternating; "
              "host arrays from new[] (16 bytes into a page) or on a page\n",
              rounds);
  std::printf("%-30s %9s %9s %9s %7s\n", "row", "bytes", "Weft", "PoCL",
              "ratio");
  int status = 0;
  for (size_t bytes : sizes) {
    Driver drivers[2];
    bool open[2] = {
        openDriver("Weft", "Weft", bytes, drivers[0]),
        openDriver("Portable Computing Language", "PoCL", bytes, drivers[1])};
    if (!open[0]) {
      std::printf("Weft: not available\n");
      return 1;
    }
    HostArrays host(bytes);
    for (const auto &row : rows) {
      std::vector<double> seconds[2];
      bool wrong[2] = {false, false};
      for (int round = -1; round < rounds; ++round)
        for (int k = 0; k < 2; ++k) {
          if (!open[k])
            continue;
          double t = row.move(drivers[k], host);
          wrong[k] |= t < 0;
          if (round >= 0 && t > 0)
            seconds[k].push_back(t);
        }
      double rate[2] = {0, 0};
      for (int k = 0; k < 2; ++k)
        if (!seconds[k].empty())
          rate[k] = double(bytes) / median(seconds[k]) / 1e9;
      char size_text[16];
      std::snprintf(size_text, sizeof size_text, "%zu %s",
                    bytes >= (1 << 20) ? bytes >> 20 : bytes >> 10,
                    bytes >= (1 << 20) ? "MiB" : "KiB");
      std::printf("%-30s %9s %9.2f %9.2f %7.2f%s%s\n", row.name, size_text,
                  rate[0], rate[1], rate[1] > 0 ? rate[0] / rate[1] : 0.0,
                  wrong[0] ? "  WEFT WRONG" : "",
                  wrong[1] ? "  POCL WRONG" : "");
      if (wrong[0])
        status = 1;
    }
    for (Driver &d : drivers) {
      if (d.buffer)
        clReleaseMemObject(d.buffer);
      if (d.other)
        clReleaseMemObject(d.other);
      if (d.queue)
        clReleaseCommandQueue(d.queue);
      if (d.context)
        clReleaseContext(d.context);
    }
  }
  return status;
}
