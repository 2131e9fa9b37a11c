// Diagnostics for people tuning kernels: with WEFT_DEBUG=1 in the
// environment Weft tells on stderr how each program was obtained (compiled,
// cache, binary) and which execution path each kernel takes. Off, it costs a
// load of one flag.
#pragma once
#include <string>

namespace weft {

bool debugLogEnabled();

// printf-style; prefixes "weft: " and ends the line.
void debugLog(const char *format, ...) __attribute__((format(printf, 1, 2)));

// The compiler's remarks in a build log ("remark: " lines: a loop over
// work-items LLVM left scalar), each as a line of its own: the plan printed
// when a program loads was decided before the optimizer ran.
void debugLogRemarks(const std::string &build_log);

} // namespace weft
