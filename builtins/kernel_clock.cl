// cl_khr_kernel_clock: every scope reads the CPU's cycle counter
// (llvm.readcyclecounter: rdtsc on x86-64, whose invariant time-stamp
// counter the kernel keeps in step across cores; the system counter on
// AArch64), so one reading is comparable with any other of the device, and
// a work-item's readings never decrease. The call has side effects to
// LLVM, so two readings are never merged into one.
#include "builtin_macros.h"

static ulong weft_clock(void) { return __builtin_readcyclecounter(); }
static uint2 weft_clock_hilo(void) {
  ulong now = weft_clock();
  return (uint2)((uint)now, (uint)(now >> 32));
}

OVERLOADABLE ulong clock_read_device(void) { return weft_clock(); }
OVERLOADABLE ulong clock_read_work_group(void) { return weft_clock(); }
OVERLOADABLE ulong clock_read_sub_group(void) { return weft_clock(); }
OVERLOADABLE uint2 clock_read_hilo_device(void) { return weft_clock_hilo(); }
OVERLOADABLE uint2 clock_read_hilo_work_group(void) {
  return weft_clock_hilo();
}
OVERLOADABLE uint2 clock_read_hilo_sub_group(void) {
  return weft_clock_hilo();
}
