// Containment of a faulting kernel. A CPU driver runs kernels inside the
// application's process, so a kernel that writes through NULL would
// otherwise take the application down. While a thread runs a work-group it
// holds a FaultTrap: a SIGSEGV, SIGBUS, SIGFPE or SIGILL raised by the
// kernel jumps back to the trap, the launch is abandoned, and the runtime
// fails its event and marks the context lost (runtime/context.h). Faults
// outside kernel code go to whatever handler was installed before Weft's.
//
// The optional watchdog (WEFT_KERNEL_TIMEOUT) ends a launch that runs past
// its time: the threads running it get a signal, and one interrupted inside
// the kernel's own code jumps back to its trap; one elsewhere (in libm, in
// Weft's device code) is signalled again until it is back in the kernel or
// has finished its group.
//
// What this does not contain: a kernel can still write to any host memory
// it can reach before it faults (a wild pointer into the application's
// heap is not a fault at all), and an abandoned launch leaves its buffers
// half written. The context is lost because nothing it holds can be
// trusted after that.
#pragma once
#include <csetjmp>
#include <csignal>
#include <cstdint>

namespace weft {

struct FaultTrap {
  sigjmp_buf jump;
  // Set around the calls into kernel code; the handlers jump only then.
  volatile sig_atomic_t in_kernel = 0;
  // The kernel's own code, where a watchdog signal may interrupt it safely.
  uintptr_t code_begin = 0, code_end = 0;
  // What happened, for the report.
  volatile int signal = 0; // 0 after a watchdog timeout
  void *volatile address = nullptr;
};

// Weft has one handler per fault signal, and one record of what was
// installed before it: a fault it does not handle goes there once. A
// handler installed after Weft's that passes faults on to what it found
// (Weft's) sends the same fault back; Weft then ends the round with the
// default action instead of passing it on again, so a process whose host
// code faults dies by the signal, never spins between handlers.
//
// A part of Weft that recovers from faults of its own (the fiber path's
// stack overflows) registers a hook, which the handler asks first: it
// jumps away when the fault is its own, else returns.
using FaultHook = void (*)(int signal, siginfo_t *info);
void setSegvHook(FaultHook hook);

// Puts Weft's handlers in front (again, if the application installed its
// own since; faults outside kernels still reach those). A system call:
// called when a program's kernels are loaded, not per launch, where it
// would triple the cost of a small launch.
void ensureFaultHandlers();
// Installs them if no launch or load has yet (cheap after the first call).
void installFaultHandlersOnce();
// Gives the calling thread an alternate signal stack (once per thread), so
// that a stack overflow can be handled too. False if it cannot have one.
bool ensureSignalStack();

// Makes `trap` the calling thread's trap until disarm (after a sigsetjmp on
// trap.jump by the caller, in a frame that stays live while it is armed).
void armFaultTrap(FaultTrap &trap);
void disarmFaultTrap();

// The signal the watchdog sends; installs its handler on first use.
int watchdogSignal();

// Calls on_timeout (on the watchdog's thread) once `seconds` have passed,
// and again every 50 ms after, until the returned ticket is ended.
using TimeoutCallback = void (*)(void *state);
uint64_t watchLaunch(double seconds, TimeoutCallback on_timeout, void *state);
void endWatch(uint64_t ticket);

} // namespace weft
