// Unit tests of runtime/: the object model and the command logic, linked
// against the static weft-runtime library without the ICD entry points.
#define CATCH_CONFIG_MAIN
// Weft handles SIGSEGV itself (stack overflow recovery, fiber_group.cpp).
#define CATCH_CONFIG_NO_POSIX_SIGNALS
#include "runtime/object.h"

#include <catch2/catch.hpp>

// Objects point at the ICD dispatch table (icd/dispatch.cpp); no test here
// goes through it.
const cl_icd_dispatch weft::kDispatchTable{};
