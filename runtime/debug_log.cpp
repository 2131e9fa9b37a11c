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

void debugLogRemarks(const std::string &build_log) {
  if (!debugLogEnabled())
    return;
  for (size_t from = 0, to; from < build_log.size(); from = to + 1) {
    to = build_log.find('\n', from);
    if (to == std::string::npos)
      to = build_log.size();
    if (build_log.compare(from, 8, "remark: ") == 0)
      debugLog("%s", build_log.substr(from, to - from).c_str());
  }
}

} // namespace weft
