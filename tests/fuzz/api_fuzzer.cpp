// A fuzzer of Weft's API (issue 20): each input is a program of OpenCL calls
// that this file interprets byte by byte. It creates, uses, retains and
// releases (also twice) buffers, sub-buffers, pipes, programs, kernels,
// queues and events; reads, writes, copies, fills and maps with random
// ranges; builds OpenCL C generated from the input (kernels with barriers,
// collectives, atomics, async copies, printf, divisions, endless loops) or
// taken raw from it, with random build options; feeds back damaged program
// binaries; and launches kernels over random NDRanges. Every call must
// return, with a valid error code when the call is wrong; the process must
// not crash, hang or leak (libFuzzer's -timeout, LeakSanitizer).
//
// What the harness itself keeps valid, since no driver can check it: the
// host pointers it passes point to enough memory for what it asks (a
// driver cannot know a host allocation's size), handles are live, released
// (stale) or null, never wild, and the kernels it launches only index their
// buffers within bounds (a kernel's own stray writes to host memory are not
// contained, README "Bad input and faulting kernels"). Raw sources are built
// but never launched.
//
// Built as a libFuzzer target by scripts/fuzz.sh (clang, coverage of all of
// Weft's code), and with a plain main() in every build as
// `fuzz_corpus_replay`, which CTest runs over tests/fuzz/corpus.
#include <CL/cl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

class Input {
public:
  Input(const uint8_t *data, size_t size) : data_(data), size_(size) {}
  bool done() const { return at_ >= size_; }
  uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v = v << 8 | byte();
    return v;
  }
  // A size: mostly small, sometimes one of the values that overflow.
  size_t size(size_t small_limit) {
    uint8_t kind = byte();
    if (kind < 200)
      return small_limit ? u32() % small_limit : 0;
    static const size_t kEdges[] = {0,
                                    1,
                                    SIZE_MAX,
                                    SIZE_MAX - 4095,
                                    size_t(1) << 32,
                                    size_t(1) << 40,
                                    size_t(1) << 60,
                                    size_t(1) << 62,
                                    (size_t(1) << 31) - 1,
                                    4096};
    return kEdges[kind % (sizeof kEdges / sizeof kEdges[0])];
  }
  std::string text(size_t max) {
    size_t wanted = byte() % (max + 1);
    size_t n = std::min(wanted, size_ - std::min(at_, size_));
    std::string s(reinterpret_cast<const char *>(data_ + at_), n);
    at_ += n;
    return s;
  }

  template <typename T> T pick(const std::vector<T> &from) {
    return from.empty() ? T() : from[byte() % from.size()];
  }

private:
  const uint8_t *data_;
  size_t size_;
  size_t at_ = 0;
};

// Host memory every host pointer points into: large enough for any size
// the harness passes with it (sizes given with host pointers are capped).
constexpr size_t kHostBytes = size_t(1) << 20;
alignas(4096) unsigned char host_memory[kHostBytes];

// Buffers that generated kernels index (masked) are at least this large.
constexpr size_t kKernelBufferInts = 1024;

const char *kOptionTokens[] = {
    "-cl-std=CL1.2",
    "-cl-std=CL3.0",
    "-cl-std=CL2.0",
    "-cl-std=CL9.9",
    "-w",
    "-Werror",
    "-cl-fast-relaxed-math",
    "-cl-opt-disable",
    "-cl-mad-enable",
    "-D N=4",
    "-DX",
    "-I",
    "-I /nonexistent",
    "-cl-kernel-arg-info",
    "-cl-denorms-are-zero",
    "-cl-single-precision-constant",
    "-g",
    "-O0",
    "-cl-uniform-work-group-size",
    "-cl-no-signed-zeros",
    "--bogus",
    "-D",
    "-create-library",
    "-enable-link-options",
    "-x cl",
    "\"",
    "-cl-std=",
};

// Pieces of generated kernels. Every index into a buffer is masked to the
// buffer's guaranteed size; every loop is bounded, except the one endless
// loop that tests the watchdog.
const char *kStatements[] = {
    "a[I] = a[J] + (int)b[J];",
    "b[I] = b[J] * 0.5f + sqrt(fabs(b[I]));",
    "a[I] = a[J] / (a[I] | s);",
    "a[I] = a[J] % s;",
    "a[I] = INT_MIN / (s - 4);",
    "atomic_add(&a[I], 1);",
    "atom_add((__global long *)&a[I & 1022], 3L);",
    "atomic_fetch_add((volatile __global atomic_int *)&a[I], 2);",
    "barrier(CLK_LOCAL_MEM_FENCE);",
    "l[get_local_id(0) % 64] = a[I]; barrier(CLK_LOCAL_MEM_FENCE); a[J] = "
    "l[(get_local_id(0) + 1) % 64];",
    "a[I] = work_group_reduce_add(a[J]);",
    "b[I] = work_group_scan_inclusive_max(b[J]);",
    "a[I] = work_group_broadcast(a[J], 0);",
    "a[I] = work_group_all(a[J] > 0) + work_group_any(a[I] < 0);",
    "for (int k = 0; k < (s & 15); ++k) a[I] += k;",
    "if (get_global_id(0) == 0) printf(\"%d %f %s\\n\", a[0], b[0], \"x\");",
    "if (get_global_id(0) == 1) printf(\"%v4hd|%n|%s\\n\", (short4)(1), 5);",
    "{ event_t e = async_work_group_copy(l, a + 64 * (get_group_id(0) & 3), "
    "64, 0); wait_group_events(1, &e); a[I] = l[get_local_id(0) % 64]; }",
    "{ int i = I; a[i] = b[i] > 0 ? a[i] << (s & 31) : a[i] >> 3; }",
    "while (a[0] != 0x7fffffff) {}",
    "a[I] = (int)convert_float_sat(b[J]) + popcount(a[J]) + clz(s);",
    "b[I] = remquo(b[J], INFINITY, &a[I & 7]) + cbrt(b[I]);",
    "a[I] = sub_group_reduce_add(a[J]);",
    "a[I] = get_local_linear_id() + get_enqueued_local_size(0) + "
    "get_num_groups(1) + get_global_offset(2);",
};

// The generated kernel: one signature, statements picked by the input. I
// and J are indices within the buffers' guaranteed 1024 elements.
std::string generatedSource(Input &in) {
  std::string body;
  int statements = in.byte() % 8 + 1;
  for (int i = 0; i < statements; ++i)
    body += std::string("  ") +
            kStatements[in.byte() % (sizeof kStatements / sizeof(char *))] +
            "\n";
  return "#define I ((get_global_id(0) + 3) & 1023)\n"
         "#define J ((get_local_id(0) * 7 + (uint)s) & 1023)\n"
         "kernel void g(global int *a, global float *b, local int *l, int s) "
         "{\n" +
         body + "}\n";
}

struct Objects {
  cl_context context = nullptr;
  std::vector<cl_command_queue> queues;
  std::vector<cl_mem> buffers;       // live or released
  std::vector<cl_mem> big_buffers;   // at least kKernelBufferInts ints
  std::vector<cl_program> programs;  // live or released
  std::vector<cl_program> generated; // from generatedSource
  std::vector<cl_kernel> kernels;
  std::vector<cl_kernel> safe_kernels; // of generated programs
  std::vector<cl_event> events;        // owned references
  std::vector<cl_event> user_events;
  std::vector<cl_event> user_events_set;
  // A blocking call behind a user event nobody will set would wait forever
  // (the application's deadlock, not the driver's): none while any is
  // pending.
  bool mayBlock() const { return user_events_set.size() == user_events.size(); }
  // Released handles still in these lists are stale: calls on them must
  // answer CL_INVALID_*; the harness never releases them again at the end.
  std::vector<void *> released;

  bool isReleased(void *handle) const {
    return std::find(released.begin(), released.end(), handle) !=
           released.end();
  }
};

cl_device_id theDevice() {
  static cl_device_id device = [] {
    // Endless kernels end at the watchdog and fail their launch; the cache
    // stays off so the run leaves nothing on disk.
    setenv("WEFT_KERNEL_TIMEOUT", "1", 0);
    setenv("WEFT_CACHE_DIR", "off", 0);
    cl_uint count = 0;
    clGetPlatformIDs(0, nullptr, &count);
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    for (cl_platform_id p : platforms) {
      char name[64] = {};
      clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
      cl_device_id d = nullptr;
      if (std::strcmp(name, "Weft") == 0 &&
          clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, nullptr) == CL_SUCCESS)
        return d;
    }
    std::fprintf(stderr, "api_fuzzer: no Weft device (OCL_ICD_VENDORS?)\n");
    std::abort();
    return static_cast<cl_device_id>(nullptr);
  }();
  return device;
}

cl_mem anyBuffer(Input &in, Objects &o) {
  if (in.byte() % 16 == 0)
    return nullptr;
  return in.pick(o.buffers);
}

// A wait list of 0..3 events (some may be user events still pending).
std::vector<cl_event> waitList(Input &in, Objects &o) {
  std::vector<cl_event> list;
  int n = in.byte() % 4;
  for (int i = 0; i < n && !o.events.empty(); ++i)
    list.push_back(in.pick(o.events));
  return list;
}

void keepEvent(Objects &o, cl_event e) {
  if (e)
    o.events.push_back(e);
}

void release(Objects &o, void *handle, cl_int (*fn)(void *)) {
  fn(handle);
  o.released.push_back(handle);
}

// A live kernel of a generated program with live buffers of at least 1024
// elements bound (case 11 may have bound anything since), or null.
cl_kernel safeKernel(Input &in, Objects &o) {
  if (o.safe_kernels.empty() || o.big_buffers.empty())
    return nullptr;
  cl_kernel k = in.pick(o.safe_kernels);
  cl_mem a = in.pick(o.big_buffers), b = in.pick(o.big_buffers);
  if (o.isReleased(a) || o.isReleased(b) || o.isReleased(k))
    return nullptr;
  int s = int(in.u32() % 64);
  if (clSetKernelArg(k, 0, sizeof a, &a) != CL_SUCCESS ||
      clSetKernelArg(k, 1, sizeof b, &b) != CL_SUCCESS ||
      clSetKernelArg(k, 2, 64 * sizeof(int), nullptr) != CL_SUCCESS ||
      clSetKernelArg(k, 3, sizeof s, &s) != CL_SUCCESS)
    return nullptr;
  return k;
}

// Each operation is one API call (or a few), with arguments from the input.
void step(Input &in, Objects &o, cl_device_id device) {
  cl_command_queue q = in.pick(o.queues);
  cl_event event = nullptr;
  bool want_event = in.byte() & 1;
  std::vector<cl_event> wait = waitList(in, o);
  const cl_event *wait_ptr = wait.empty() ? nullptr : wait.data();
  cl_uint wait_count = cl_uint(wait.size());
  if (in.byte() % 32 == 0) // a count without a list, or the reverse
    wait_count = wait_count ? 0 : 1;
  cl_int err = CL_SUCCESS;
  cl_bool blocking = (in.byte() & 1) && o.mayBlock();
  switch (in.byte() % 26) {
  case 0: { // buffer
    cl_mem_flags flags = in.u32() & 0x3ff;
    size_t size = in.size(kHostBytes);
    void *host = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) &&
                         size <= kHostBytes && in.byte() % 8
                     ? host_memory
                     : nullptr;
    cl_mem m = clCreateBuffer(o.context, flags, size, host, &err);
    if (m) {
      o.buffers.push_back(m);
      if (size >= kKernelBufferInts * 4)
        o.big_buffers.push_back(m);
    }
    break;
  }
  case 1: { // sub-buffer
    cl_buffer_region region = {in.size(4096), in.size(4096)};
    cl_mem parent = anyBuffer(in, o);
    cl_mem_flags flags = in.u32() & 0x3f;
    cl_mem m = clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION,
                                 &region, &err);
    if (m)
      o.buffers.push_back(m);
    break;
  }
  case 2: { // write
    size_t offset = in.size(kHostBytes), size = in.size(kHostBytes);
    cl_mem m = anyBuffer(in, o);
    void *host = in.byte() % 16 ? host_memory : nullptr;
    clEnqueueWriteBuffer(q, m, blocking, offset, size <= kHostBytes ? size : 0,
                         host, wait_count, wait_ptr,
                         want_event ? &event : nullptr);
    break;
  }
  case 3: { // read
    size_t offset = in.size(kHostBytes), size = in.size(kHostBytes);
    cl_mem m = anyBuffer(in, o);
    void *host = in.byte() % 16 ? host_memory : nullptr;
    clEnqueueReadBuffer(q, m, blocking, offset, size <= kHostBytes ? size : 0,
                        host, wait_count, wait_ptr,
                        want_event ? &event : nullptr);
    break;
  }
  case 4: { // copy
    cl_mem from = anyBuffer(in, o), to = anyBuffer(in, o);
    size_t from_offset = in.size(8192), to_offset = in.size(8192),
           size = in.size(8192);
    clEnqueueCopyBuffer(q, from, to, from_offset, to_offset, size, wait_count,
                        wait_ptr, want_event ? &event : nullptr);
    break;
  }
  case 5: { // fill
    size_t pattern = size_t(1) << (in.byte() % 9);
    if (in.byte() % 8 == 0)
      pattern = in.byte();
    cl_mem m = anyBuffer(in, o);
    size_t offset = in.size(8192), size = in.size(8192);
    clEnqueueFillBuffer(q, m, host_memory, std::min(pattern, kHostBytes),
                        offset, size, wait_count, wait_ptr,
                        want_event ? &event : nullptr);
    break;
  }
  case 6: { // rectangles: host side within host_memory, buffer side random
    size_t buffer_origin[3] = {in.size(64), in.size(64), in.size(64)};
    size_t host_origin[3] = {in.byte(), size_t(in.byte() % 4),
                             size_t(in.byte() % 4)};
    size_t region[3] = {in.size(64), in.size(16), in.size(4)};
    size_t row = in.size(256), slice = in.size(256 * 16);
    size_t host_row = 256, host_slice = 256 * 32;
    // host_memory must hold the host side; otherwise pass no pointer.
    bool fits = region[0] <= 256 && region[1] <= 16 && region[2] <= 4;
    void *host = fits ? host_memory : nullptr;
    int kind = in.byte() % 3;
    cl_mem m = anyBuffer(in, o), other = anyBuffer(in, o);
    size_t other_row = in.size(256), other_slice = in.size(4096);
    if (kind == 0)
      clEnqueueWriteBufferRect(q, m, blocking, buffer_origin, host_origin,
                               region, row, slice, host_row, host_slice, host,
                               wait_count, wait_ptr,
                               want_event ? &event : nullptr);
    else if (kind == 1)
      clEnqueueReadBufferRect(q, m, blocking, buffer_origin, host_origin,
                              region, row, slice, host_row, host_slice, host,
                              wait_count, wait_ptr,
                              want_event ? &event : nullptr);
    else
      clEnqueueCopyBufferRect(q, m, other, buffer_origin, host_origin, region,
                              row, slice, other_row, other_slice, wait_count,
                              wait_ptr, want_event ? &event : nullptr);
    break;
  }
  case 7: { // map, write through the mapping within what was asked, unmap
    size_t offset = in.size(8192), size = in.size(8192);
    cl_mem m = anyBuffer(in, o);
    cl_map_flags flags = in.u32() & 7;
    void *p = clEnqueueMapBuffer(q, m, blocking, flags, offset, size,
                                 wait_count, wait_ptr, nullptr, &err);
    if (p) {
      int fill = in.byte();
      if (size && blocking)
        std::memset(p, fill, std::min<size_t>(size, 64));
      void *unmap = in.byte() % 16 ? p : host_memory;
      clEnqueueUnmapMemObject(q, m, unmap, 0, nullptr,
                              want_event ? &event : nullptr);
    }
    break;
  }
  case 8: { // program from generated or raw source
    bool generated = in.byte() % 4;
    std::string source = generated ? generatedSource(in) : in.text(200);
    const char *text = source.c_str();
    size_t length = in.byte() % 8 ? 0 : source.size();
    cl_program p = clCreateProgramWithSource(o.context, 1, &text,
                                             length ? &length : nullptr, &err);
    if (p) {
      o.programs.push_back(p);
      if (generated)
        o.generated.push_back(p);
    }
    break;
  }
  case 9: { // build with random options
    std::string options;
    int n = in.byte() % 4;
    for (int i = 0; i < n; ++i)
      options += std::string(kOptionTokens[in.byte() % (sizeof kOptionTokens /
                                                        sizeof(char *))]) +
                 " ";
    if (in.byte() % 8 == 0)
      options += in.text(16);
    cl_program p = in.pick(o.programs);
    cl_uint devices = in.byte() % 8 ? 1 : 0;
    clBuildProgram(p, devices, &device, options.c_str(), nullptr, nullptr);
    size_t log_size = 0;
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                          &log_size);
    break;
  }
  case 10: { // kernels
    cl_program p = in.pick(o.programs);
    const char *names[] = {"g", "", "k", "main"};
    cl_kernel k = clCreateKernel(p, names[in.byte() % 4], &err);
    if (k) {
      // Only kernels of the generator's programs index safely.
      o.kernels.push_back(k);
      if (std::find(o.generated.begin(), o.generated.end(), p) !=
          o.generated.end())
        o.safe_kernels.push_back(k);
    }
    break;
  }
  case 11: { // kernel arguments
    cl_kernel k = in.pick(o.kernels);
    cl_uint index = in.byte() % 6;
    int kind = in.byte() % 5;
    if (kind == 0) {
      cl_mem m = o.big_buffers.empty() ? nullptr : in.pick(o.big_buffers);
      clSetKernelArg(k, index, sizeof m, &m);
    } else if (kind == 1) {
      clSetKernelArg(k, index, in.size(1 << 20), nullptr);
    } else if (kind == 2) {
      int value = int(in.u32());
      size_t size = in.byte() % 2 ? sizeof value : in.byte() % 16;
      clSetKernelArg(k, index, size, &value);
    } else if (kind == 3) {
      cl_mem m = anyBuffer(in, o); // any handle: live, stale or null
      clSetKernelArg(k, index, sizeof m, &m);
    } else {
      clSetKernelArg(k, index, in.size(64), host_memory);
    }
    break;
  }
  case 12: { // launch a generated kernel with its buffers bound
    cl_kernel k = safeKernel(in, o);
    if (!k)
      break;
    cl_uint dims = in.byte() % 4;
    if (in.byte() % 16 == 0)
      ++dims; // 4: bad
    size_t global[4], local[4], offset[4];
    for (int d = 0; d < 4; ++d) {
      global[d] = in.byte() % 16 == 0 ? in.size(1 << 12) : in.byte() % 40 + 1;
      local[d] = in.byte() % 8 + 1;
      offset[d] = in.byte() % 4 ? 0 : in.size(64);
    }
    const size_t *with_offset = in.byte() % 2 ? offset : nullptr;
    const size_t *with_global = in.byte() % 16 ? global : nullptr;
    const size_t *with_local = in.byte() % 2 ? local : nullptr;
    clEnqueueNDRangeKernel(q, k, dims, with_offset, with_global, with_local,
                           wait_count, wait_ptr, want_event ? &event : nullptr);
    break;
  }
  case 13: // task, marker, barrier
    if (in.byte() % 2) {
      if (cl_kernel k = safeKernel(in, o))
        clEnqueueTask(q, k, wait_count, wait_ptr,
                      want_event ? &event : nullptr);
    } else if (in.byte() % 2) {
      clEnqueueMarkerWithWaitList(q, wait_count, wait_ptr,
                                  want_event ? &event : nullptr);
    } else {
      clEnqueueBarrierWithWaitList(q, wait_count, wait_ptr,
                                   want_event ? &event : nullptr);
    }
    break;
  case 14: { // user events
    cl_event e = clCreateUserEvent(o.context, &err);
    if (e) {
      o.user_events.push_back(e);
      clRetainEvent(e);
      o.events.push_back(e);
    }
    break;
  }
  case 15: { // complete (or fail) a user event, maybe twice or wrongly
    cl_event e = in.pick(o.user_events);
    cl_int status = in.byte() % 4 ? CL_COMPLETE : -int(in.byte() % 70);
    if (clSetUserEventStatus(e, status) == CL_SUCCESS)
      o.user_events_set.push_back(e);
    break;
  }
  case 16: // flush, or wait once no user event can block
    if (in.byte() % 2)
      clFlush(q);
    break;
  case 17: { // release something, sometimes twice
    int kind = in.byte() % 4;
    if (kind == 0 && !o.buffers.empty()) {
      cl_mem m = in.pick(o.buffers);
      if (o.isReleased(m))
        clReleaseMemObject(m); // stale
      else
        release(o, m, [](void *h) {
          return clReleaseMemObject(static_cast<cl_mem>(h));
        });
    } else if (kind == 1 && !o.kernels.empty()) {
      cl_kernel k = in.pick(o.kernels);
      if (o.isReleased(k))
        clReleaseKernel(k); // stale
      else
        release(o, k, [](void *h) {
          return clReleaseKernel(static_cast<cl_kernel>(h));
        });
    } else if (kind == 2 && !o.programs.empty()) {
      cl_program p = in.pick(o.programs);
      if (o.isReleased(p))
        clReleaseProgram(p); // stale
      else
        release(o, p, [](void *h) {
          return clReleaseProgram(static_cast<cl_program>(h));
        });
    } else {
      clReleaseEvent(nullptr);
    }
    break;
  }
  case 18: { // queries with random names and sizes
    static const cl_uint kBases[] = {0x1000, 0x1040, 0x1080, 0x1100, 0x1160,
                                     0x1180, 0x11A0, 0x11C0, 0x11D0, 0x1190,
                                     0x4000, 0x4030, 0x4100, 0x1200};
    cl_uint name = kBases[in.byte() % (sizeof kBases / sizeof kBases[0])];
    name += in.byte() % 64;
    size_t size = in.byte() % 2 ? in.byte() : 0;
    size_t returned = 0;
    void *value = in.byte() % 4 ? host_memory : nullptr;
    switch (in.byte() % 7) {
    case 0:
      clGetDeviceInfo(device, name, size, value, &returned);
      break;
    case 1:
      clGetMemObjectInfo(anyBuffer(in, o), name, size, value, &returned);
      break;
    case 2:
      clGetProgramInfo(in.pick(o.programs), name, size, value, &returned);
      break;
    case 3:
      clGetKernelInfo(in.pick(o.kernels), name, size, value, &returned);
      break;
    case 4:
      clGetKernelWorkGroupInfo(in.pick(o.kernels), device, name, size, value,
                               &returned);
      break;
    case 5: {
      cl_kernel k = in.pick(o.kernels);
      clGetKernelArgInfo(k, in.byte() % 6, name, size, value, &returned);
      break;
    }
    default:
      clGetEventInfo(in.pick(o.events), name, size, value, &returned);
      break;
    }
    break;
  }
  case 19: { // every kernel of a program
    cl_program p = in.pick(o.programs);
    cl_uint count = 0;
    if (clCreateKernelsInProgram(p, 0, nullptr, &count) == CL_SUCCESS &&
        count < 64) {
      std::vector<cl_kernel> all(count);
      if (clCreateKernelsInProgram(p, count, all.data(), nullptr) == CL_SUCCESS)
        for (cl_kernel k : all)
          o.kernels.push_back(k);
    }
    break;
  }
  case 20: { // separate compilation and linking
    cl_program p = in.pick(o.programs);
    const char *compile_options = in.byte() % 2 ? "" : "-cl-std=CL3.0";
    clCompileProgram(p, 1, &device, compile_options, 0, nullptr, nullptr,
                     nullptr, nullptr);
    const char *link_options = in.byte() % 2 ? "" : "-create-library";
    cl_program linked = clLinkProgram(o.context, 1, &device, link_options, 1,
                                      &p, nullptr, nullptr, &err);
    if (linked)
      o.programs.push_back(linked);
    break;
  }
  case 21: { // pipes
    cl_mem_flags flags = in.u32() & 0xff;
    cl_uint packet_size = in.u32();
    cl_uint max_packets = cl_uint(in.size(1 << 16));
    cl_mem pipe =
        clCreatePipe(o.context, flags, packet_size, max_packets, nullptr, &err);
    if (pipe)
      o.buffers.push_back(pipe);
    break;
  }
  case 22: { // a program's binary, damaged, built again
    cl_program p = in.pick(o.programs);
    size_t size = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size,
                         nullptr) != CL_SUCCESS ||
        size == 0 || size > (64u << 20))
      break;
    std::vector<unsigned char> binary(size);
    unsigned char *pointer = binary.data();
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof pointer, &pointer,
                         nullptr) != CL_SUCCESS)
      break;
    int damage = in.byte() % 8;
    for (int i = 0; i < damage; ++i) {
      size_t at = in.u32() % size;
      binary[at] ^= in.byte() | 1;
    }
    if (in.byte() % 8 == 0)
      size = in.size(size + 1);
    const unsigned char *bytes = binary.data();
    cl_int status = CL_SUCCESS;
    cl_program again = clCreateProgramWithBinary(o.context, 1, &device, &size,
                                                 &bytes, &status, &err);
    if (again) {
      clBuildProgram(again, 1, &device, "", nullptr, nullptr);
      o.programs.push_back(again);
    }
    break;
  }
  case 23: { // a second queue, with random properties
    cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES, cl_queue_properties(in.u32() & 0x1f),
        cl_queue_properties(in.byte() % 2 ? CL_QUEUE_SIZE : 0),
        cl_queue_properties(in.u32()), 0};
    cl_command_queue extra =
        clCreateCommandQueueWithProperties(o.context, device, props, &err);
    if (extra)
      o.queues.push_back(extra);
    break;
  }
  case 24: // retain and release in pairs
    if (!o.buffers.empty()) {
      cl_mem m = in.pick(o.buffers);
      if (clRetainMemObject(m) == CL_SUCCESS)
        clReleaseMemObject(m);
    }
    break;
  default: { // migrate
    cl_mem_migration_flags flags = in.u32() & 3;
    clEnqueueMigrateMemObjects(q, o.buffers.empty() ? 0 : 1,
                               o.buffers.empty() ? nullptr : &o.buffers[0],
                               flags, wait_count, wait_ptr,
                               want_event ? &event : nullptr);
    break;
  }
  }
  keepEvent(o, event);
}

void finish(Objects &o) {
  // Pending user events would hold their commands (and clFinish) forever.
  for (cl_event e : o.user_events)
    if (std::find(o.user_events_set.begin(), o.user_events_set.end(), e) ==
        o.user_events_set.end())
      clSetUserEventStatus(e, CL_COMPLETE);
  for (cl_command_queue q : o.queues)
    clFinish(q);
  for (cl_event e : o.events)
    clReleaseEvent(e);
  for (cl_event e : o.user_events)
    clReleaseEvent(e);
  for (cl_kernel k : o.kernels)
    if (!o.isReleased(k))
      clReleaseKernel(k);
  for (cl_program p : o.programs)
    if (!o.isReleased(p))
      clReleaseProgram(p);
  for (cl_mem m : o.buffers)
    if (!o.isReleased(m))
      clReleaseMemObject(m);
  for (cl_command_queue q : o.queues)
    clReleaseCommandQueue(q);
  clReleaseContext(o.context);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cl_device_id device = theDevice();
  Input in(data, size);
  Objects o;
  cl_int err;
  o.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  if (!o.context)
    return 0;
  o.queues.push_back(
      clCreateCommandQueueWithProperties(o.context, device, nullptr, &err));
  for (int steps = 0; !in.done() && steps < 64; ++steps)
    step(in, o, device);
  finish(o);
  return 0;
}

#ifndef WEFT_LIBFUZZER
// The corpus replayer: runs each file, or each file in each directory,
// named on the command line once, in name order.
#include <filesystem>
#include <fstream>
#include <iterator>

int main(int argc, char **argv) {
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path path(argv[i]);
    if (std::filesystem::is_directory(path)) {
      for (const auto &entry : std::filesystem::directory_iterator(path))
        if (entry.is_regular_file())
          inputs.push_back(entry.path());
    } else {
      inputs.push_back(path);
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const std::filesystem::path &path : inputs) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "cannot read %s\n", path.c_str());
      return 1;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                               std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  std::printf("replayed %zu inputs\n", inputs.size());
  return inputs.empty() ? 1 : 0;
}
#endif
