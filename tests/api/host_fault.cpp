// An application whose own host code faults after Weft has run kernels:
// the process must die by the signal (or reach the application's handler)
// at once, whatever Weft ran before. Weft's fault handlers once formed a
// cycle (the fiber path's SIGSEGV handler and the kernel trap's each
// passing a fault on to the other) and such a process spun at 100% CPU
// forever. tests/api/check_host_fault.sh runs each scenario and checks how
// it ended:
//   host_fault fibers       kernels with barriers on fibers, another build
//   host_fault large-stack  a kernel with a 256 KiB private array
//   host_fault contained    a contained kernel fault first
//   host_fault chaining     an application handler installed after Weft's,
//                           which passes faults on to the one it found,
//                           then another build and launch
//   host_fault exiting      an application handler that exits with 42
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace {

cl_context context;
cl_command_queue queue;
cl_device_id device;

void require(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "host_fault: %s failed\n", what);
    std::exit(3);
  }
}

// Builds `source` and runs its kernel `k(global int *out)` over 64 work-items
// in groups of 16; returns the launch's status.
cl_int run(const char *source) {
  cl_int err;
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  require(err == CL_SUCCESS, "clCreateProgramWithSource");
  require(clBuildProgram(program, 1, &device, "", nullptr, nullptr) ==
              CL_SUCCESS,
          "clBuildProgram");
  cl_kernel kernel = clCreateKernel(program, "k", &err);
  require(err == CL_SUCCESS, "clCreateKernel");
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, 64 * sizeof(cl_int),
                              nullptr, &err);
  require(err == CL_SUCCESS, "clCreateBuffer");
  clSetKernelArg(kernel, 0, sizeof out, &out);
  size_t global = 64, local = 16;
  cl_event done = nullptr;
  err = clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0,
                               nullptr, &done);
  if (err == CL_SUCCESS) {
    clWaitForEvents(1, &done);
    cl_int status = CL_COMPLETE;
    clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                   &status, nullptr);
    err = status < 0 ? status : CL_SUCCESS;
    clReleaseEvent(done);
  }
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  return err;
}

const char *kBarrier = R"(
kernel void k(global int *out) {
  local int shared[16];
  shared[get_local_id(0)] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = shared[15 - get_local_id(0)];
})";

const char *kLargeStack = R"(
kernel void k(global int *out) {
  volatile int big[65536];
  for (int i = 0; i < 65536; i += 1024)
    big[i] = i + (int)get_global_id(0);
  out[get_global_id(0)] = big[(get_global_id(0) * 1024) % 65536];
})";

const char *kNull = R"(
kernel void k(global int *out) {
  global int *nowhere = (global int *)0;
  nowhere[get_global_id(0)] = 1;
  out[0] = 2;
})";

const char *kPlain = R"(
kernel void k(global int *out) { out[get_global_id(0)] = 7; })";

struct sigaction found_before_ours;

void chainingHandler(int signal, siginfo_t *info, void *ucontext) {
  static const char kSaw[] = "host_fault: the application's handler saw it\n";
  write(2, kSaw, sizeof kSaw - 1);
  // As crash reporters do: hand it to whatever was installed before.
  if (found_before_ours.sa_flags & SA_SIGINFO) {
    found_before_ours.sa_sigaction(signal, info, ucontext);
  } else {
    struct sigaction default_action = {};
    default_action.sa_handler = SIG_DFL;
    sigaction(signal, &default_action, nullptr);
  }
}

void exitingHandler(int) { _exit(42); }

void installApplicationHandler(bool chaining) {
  struct sigaction action = {};
  sigemptyset(&action.sa_mask);
  if (chaining) {
    action.sa_sigaction = chainingHandler;
    action.sa_flags = SA_SIGINFO;
  } else {
    action.sa_handler = exitingHandler;
  }
  sigaction(SIGSEGV, &action, &found_before_ours);
}

} // namespace

int main(int argc, char **argv) {
  std::string scenario = argc > 1 ? argv[1] : "";
  cl_platform_id platform;
  require(clGetPlatformIDs(1, &platform, nullptr) == CL_SUCCESS,
          "clGetPlatformIDs");
  require(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr) ==
              CL_SUCCESS,
          "clGetDeviceIDs");
  cl_int err;
  context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  require(err == CL_SUCCESS, "clCreateContext");
  queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  require(err == CL_SUCCESS, "clCreateCommandQueueWithProperties");

  if (scenario == "fibers") {
    require(run(kBarrier) == CL_SUCCESS, "the barrier kernel");
    require(run(kPlain) == CL_SUCCESS, "another program");
  } else if (scenario == "large-stack") {
    require(run(kLargeStack) == CL_SUCCESS, "the large-stack kernel");
    require(run(kPlain) == CL_SUCCESS, "another program");
  } else if (scenario == "contained") {
    require(run(kBarrier) == CL_SUCCESS, "the barrier kernel");
    require(run(kNull) != CL_SUCCESS, "the contained fault");
  } else if (scenario == "chaining" || scenario == "exiting") {
    require(run(kBarrier) == CL_SUCCESS, "the barrier kernel");
    require(run(kLargeStack) == CL_SUCCESS, "the large-stack kernel");
    installApplicationHandler(scenario == "chaining");
    // Loading a program puts Weft's handlers in front again.
    require(run(kBarrier) == CL_SUCCESS, "a kernel after the handler");
  } else {
    std::fprintf(stderr, "host_fault: unknown scenario '%s'\n",
                 scenario.c_str());
    return 2;
  }
  std::fprintf(stderr, "host_fault: faulting in host code\n");
  // A page nothing may touch: a real SIGSEGV, which no sanitizer reports
  // first (a store through null is undefined behaviour UBSan stops at).
  void *guard = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
  require(guard != MAP_FAILED, "mmap");
  *static_cast<volatile int *>(guard) = 1;
  return 0; // not reached
}
