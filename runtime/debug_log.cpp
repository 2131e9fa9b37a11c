#include "runtime/debug_log.h"

#include "runtime/settings.h"

#include <cstdarg>
#include <cstdio>

namespace weft {

bool debugLogEnabled() {
  static const bool enabled = settings().debug;
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
