// Diagnostics for people tuning kernels: with WEFT_DEBUG=1 in the
// environment Weft tells on stderr how each program was obtained (compiled,
// cache, binary) and which execution path each kernel takes. Off, it costs a
// load of one flag.
#pragma once

namespace weft {

bool debugLogEnabled();

// printf-style; prefixes "weft: " and ends the line.
void debugLog(const char *format, ...) __attribute__((format(printf, 1, 2)));

} // namespace weft
