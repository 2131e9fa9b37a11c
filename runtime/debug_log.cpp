#include "runtime/debug_log.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace weft {

bool debugLogEnabled() {
  static const bool enabled = [] {
    const char *value = std::getenv("WEFT_DEBUG");
    return value && *value && std::strcmp(value, "0") != 0;
  }();
  return enabled;
}

void debugLog(const char *format, ...) {
  if (!debugLogEnabled())
    return;
  char line[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof(line), format, args);
  va_end(args);
  std::fprintf(stderr, "weft: %s\n", line);
}

} // namespace weft
