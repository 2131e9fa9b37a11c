#include "device/kernel_faults.h"

#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace weft {
namespace {

thread_local FaultTrap *active_trap = nullptr;

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
struct sigaction previous_actions[sizeof(kFaultSignals) / sizeof(int)];

uintptr_t interruptedPc(void *ucontext) {
#if defined(__x86_64__)
  return static_cast<uintptr_t>(
      static_cast<ucontext_t *>(ucontext)->uc_mcontext.gregs[REG_RIP]);
#else
  (void)ucontext;
  return 0;
#endif
}

std::atomic<FaultHook> segv_hook{nullptr};

// The default action for `signal`: the fault, raised again when the
// handler returns, ends the process.
void restoreDefaultAction(int signal) {
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  sigaction(signal, &default_action, nullptr);
}

// Hands a fault to the handler that was installed before Weft's.
void passSignalOn(const struct sigaction &previous, int signal, siginfo_t *info,
                  void *ucontext) {
  if (previous.sa_flags & SA_SIGINFO) {
    previous.sa_sigaction(signal, info, ucontext);
  } else if (previous.sa_handler == SIG_DFL) {
    restoreDefaultAction(signal);
  } else if (previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal);
  }
}

// The fault this thread is passing on now: when the same one (signal,
// address and instruction) comes back, the handlers form a cycle.
struct PassedFault {
  int signal = 0;
  void *address = nullptr;
  uintptr_t pc = 0;
};
thread_local PassedFault passing;

void passOn(int signal, siginfo_t *info, void *ucontext) {
  uintptr_t pc = interruptedPc(ucontext);
  if (passing.signal == signal && passing.address == info->si_addr &&
      passing.pc == pc) {
    // Back from a handler that passed it on to what it found (ours).
    restoreDefaultAction(signal);
    return;
  }
  size_t index = 0;
  while (kFaultSignals[index] != signal)
    ++index;
  PassedFault outer = passing;
  passing = {signal, info->si_addr, pc};
  passSignalOn(previous_actions[index], signal, info, ucontext);
  passing = outer;
}

void onFault(int signal, siginfo_t *info, void *ucontext) {
  if (signal == SIGSEGV)
    if (FaultHook hook = segv_hook.load(std::memory_order_acquire))
      hook(signal, info); // returns unless the fault was its own
  FaultTrap *trap = active_trap;
  if (trap && trap->in_kernel) {
    trap->in_kernel = 0;
    trap->signal = signal;
    trap->address = info->si_addr;
    siglongjmp(trap->jump, 1);
  }
  passOn(signal, info, ucontext);
}

void onWatchdog(int, siginfo_t *, void *ucontext) {
  FaultTrap *trap = active_trap;
  uintptr_t pc = interruptedPc(ucontext);
  // Only from the kernel's own code: anywhere else (malloc, a lock) the
  // jump could leave state half changed. The watchdog signals again.
  if (trap && trap->in_kernel && pc >= trap->code_begin &&
      pc < trap->code_end) {
    trap->in_kernel = 0;
    trap->signal = 0;
    trap->address = reinterpret_cast<void *>(pc);
    siglongjmp(trap->jump, 1);
  }
}

// Installs the handlers, in front of whatever handles the signals now.
void install() {
  static std::mutex installing;
  std::lock_guard<std::mutex> lock(installing);
  struct sigaction current = {};
  if (sigaction(SIGSEGV, nullptr, &current) == 0 &&
      (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == onFault)
    return; // still ours (checked again by another launch meanwhile)
  for (size_t i = 0; i < sizeof(kFaultSignals) / sizeof(int); ++i) {
    struct sigaction action = {};
    action.sa_sigaction = onFault;
    // SA_NODEFER: a jump out of the handler leaves the mask as it was, so
    // sigsetjmp need not save it (a system call per group otherwise).
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    struct sigaction previous = {};
    sigaction(kFaultSignals[i], &action, &previous);
    if (!((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction == onFault))
      previous_actions[i] = previous;
  }
}

// The watchdog: one thread, started with the first watched launch.
struct Watch {
  std::chrono::steady_clock::time_point due;
  TimeoutCallback callback;
  void *state;
};
struct Watchdog {
  std::mutex mutex;
  std::condition_variable changed;
  std::map<uint64_t, Watch> watches; // guarded by mutex
  uint64_t next_ticket = 1;          // guarded by mutex
  bool started = false;              // guarded by mutex

  void run() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      if (watches.empty()) {
        changed.wait(lock);
        continue;
      }
      auto now = std::chrono::steady_clock::now();
      auto soonest = now + std::chrono::hours(1);
      for (auto &[ticket, watch] : watches) {
        if (watch.due <= now) {
          // Under the lock: endWatch waits, so `state` stays valid.
          watch.callback(watch.state);
          watch.due = now + std::chrono::milliseconds(50);
        }
        soonest = std::min(soonest, watch.due);
      }
      changed.wait_until(lock, soonest);
    }
  }
};

// Never destroyed (launches may run during exit).
Watchdog &watchdog() {
  static Watchdog *dog = new Watchdog();
  return *dog;
}

} // namespace

void setSegvHook(FaultHook hook) {
  segv_hook.store(hook, std::memory_order_release);
}

bool ensureSignalStack() {
  thread_local bool has_signal_stack = false;
  if (has_signal_stack)
    return true;
  stack_t current = {};
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) {
    has_signal_stack = true; // the application gave this thread one
    return true;
  }
  constexpr size_t kSignalStackSize = 64 * 1024;
  void *memory = mmap(nullptr, kSignalStackSize, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED)
    return false;
  stack_t stack = {};
  stack.ss_sp = memory;
  stack.ss_size = kSignalStackSize;
  if (sigaltstack(&stack, nullptr) != 0) {
    munmap(memory, kSignalStackSize);
    return false;
  }
  has_signal_stack = true;
  return true;
}

void installFaultHandlersOnce() {
  static std::once_flag installed;
  std::call_once(installed, ensureFaultHandlers);
}

void ensureFaultHandlers() {
  // An application (or a test framework) may have put its own handlers in
  // front of Weft's since the last program was loaded.
  struct sigaction current = {};
  if (sigaction(SIGSEGV, nullptr, &current) != 0 ||
      !(current.sa_flags & SA_SIGINFO) || current.sa_sigaction != onFault)
    install();
}

void armFaultTrap(FaultTrap &trap) { active_trap = &trap; }
void disarmFaultTrap() { active_trap = nullptr; }

int watchdogSignal() {
  static const int signal = [] {
    // A real-time signal of the upper half, away from those libraries take
    // first; delivered to one thread with pthread_kill.
    int chosen = SIGRTMAX - 3;
    struct sigaction action = {};
    action.sa_sigaction = onWatchdog;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(chosen, &action, nullptr);
    return chosen;
  }();
  return signal;
}

uint64_t watchLaunch(double seconds, TimeoutCallback on_timeout, void *state) {
  Watchdog &dog = watchdog();
  std::lock_guard<std::mutex> lock(dog.mutex);
  if (!dog.started) {
    dog.started = true;
    std::thread([&dog] { dog.run(); }).detach();
  }
  uint64_t ticket = dog.next_ticket++;
  auto due = std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                 std::chrono::duration<double>(seconds));
  dog.watches[ticket] = Watch{due, on_timeout, state};
  dog.changed.notify_all();
  return ticket;
}

void endWatch(uint64_t ticket) {
  Watchdog &dog = watchdog();
  std::lock_guard<std::mutex> lock(dog.mutex);
  dog.watches.erase(ticket);
}

} // namespace weft
