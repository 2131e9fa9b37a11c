// Turns the records a launch's printf calls left in its buffer
// (device/printf_abi.h) into the text they print, on the host, after the
// launch has ended.
#pragma once
#include "device/printf_abi.h"

#include <string>

namespace weft {

// A launch's printf buffer with `capacity` bytes of records, in fresh pages
// that read as zero until written: a record a faulting work-item left half
// written then ends the walk instead of sending it through a stray pointer.
// Only the pages the kernel writes cost memory.
class PrintfBufferStorage {
public:
  explicit PrintfBufferStorage(uint64_t capacity);
  ~PrintfBufferStorage();
  PrintfBufferStorage(const PrintfBufferStorage &) = delete;
  PrintfBufferStorage &operator=(const PrintfBufferStorage &) = delete;
  bool valid() const { return buffer_.records != nullptr; }
  PrintfBuffer *buffer() { return &buffer_; }

private:
  PrintfBuffer buffer_{};
  uint64_t mapped_ = 0;
};

struct PrintfOutput {
  std::string text;
  uint64_t dropped = 0; // printf calls whose record did not fit
};

// The text of every whole record in `buffer`, in the order they were
// reserved (each work-item's in the order of its calls). Never reads
// outside the buffer's records: a record that does not add up ends the
// walk.
PrintfOutput formatPrintfRecords(const PrintfBuffer &buffer);

// The text one record prints: `format` with `arguments`, each the bytes of
// one argument as the call passed it. Exposed for tests.
struct PrintfArgument {
  const unsigned char *bytes;
  uint64_t size;
};
std::string formatPrintfRecord(const char *format,
                               const PrintfArgument *arguments,
                               size_t argument_count);

} // namespace weft
