// The atomics model (OpenCL C 3.0 §6.15.12, OpenCL 3.0 API §4.2 atomic
// capabilities): every order and scope the device reports, 64-bit atomics
// (cl_khr_int64_base_atomics / _extended_atomics), floating-point atomics
// (cl_ext_float_atomics), and litmus tests across work-groups that run on
// different threads: message passing with release/acquire and store
// buffering with seq_cst, whose forbidden outcomes must never appear.
#include "api_fixture.h"

#include <cstdint>
#include <string>

namespace {

struct AtomicsFixture : WeftFixture {
  template <typename T> std::vector<T> read(cl_mem m, size_t count) {
    std::vector<T> out(count);
    REQUIRE(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * sizeof(T),
                                out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    return out;
  }
  void run(cl_kernel k, size_t global, size_t local) {
    REQUIRE(runAndWait(k, 1, &global, local ? &local : nullptr) == CL_SUCCESS);
  }
};

std::string extensionString(cl_device_id device) {
  char extensions[8192] = {};
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions,
                  nullptr);
  return std::string(" ") + extensions + " ";
}

} // namespace

TEST_CASE_METHOD(AtomicsFixture,
                 "the device reports every atomic order and scope",
                 "[atomics]") {
  cl_device_atomic_capabilities memory = 0, fence = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
                          sizeof memory, &memory, nullptr) == CL_SUCCESS);
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
                          sizeof fence, &fence, nullptr) == CL_SUCCESS);
  const cl_device_atomic_capabilities all =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
      CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
      CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
  CHECK(memory == all);
  CHECK(fence == (all | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM));
  std::string extensions = extensionString(device);
  for (const char *name :
       {" cl_khr_int64_base_atomics ", " cl_khr_int64_extended_atomics ",
        " cl_ext_float_atomics "}) {
    INFO(name);
    CHECK(extensions.find(name) != std::string::npos);
  }
  // The feature macros a kernel sees agree with the capabilities.
  const char *source = R"CLC(
#if !defined(__opencl_c_atomic_order_acq_rel) || \
    !defined(__opencl_c_atomic_order_seq_cst) || \
    !defined(__opencl_c_atomic_scope_device) || \
    !defined(__opencl_c_atomic_scope_all_devices) || \
    !defined(cl_khr_int64_base_atomics) || \
    !defined(cl_khr_int64_extended_atomics) || \
    !defined(cl_ext_float_atomics) || \
    !defined(__opencl_c_ext_fp32_global_atomic_add) || \
    !defined(__opencl_c_ext_fp64_local_atomic_min_max)
#error a feature macro is missing
#endif
__kernel void k(__global atomic_int *p) { atomic_fetch_add(p, 1); }
)CLC";
  clReleaseKernel(kernel(source, "k", "-cl-std=CL3.0"));
}

TEST_CASE_METHOD(AtomicsFixture,
                 "C11 atomics in every short and explicit form, every order "
                 "and scope",
                 "[atomics]") {
  const char *source = R"CLC(
__kernel void forms(__global atomic_int *counters, __global atomic_long *wide,
                    __global atomic_uint *bits, __global int *flag_out,
                    __global atomic_flag *flag) {
  atomic_fetch_add(&counters[0], 1);
  atomic_fetch_add_explicit(&counters[1], 2, memory_order_relaxed);
  atomic_fetch_add_explicit(&counters[2], 3, memory_order_acq_rel,
                            memory_scope_work_group);
  atomic_fetch_sub_explicit(&counters[3], 1, memory_order_seq_cst,
                            memory_scope_device);
  atomic_fetch_add_explicit(&counters[4], 1, memory_order_release,
                            memory_scope_all_svm_devices);
  atomic_fetch_max(&counters[5], (int)get_global_id(0));
  atomic_fetch_min_explicit(&counters[6], -(int)get_global_id(0),
                            memory_order_acquire);
  atomic_fetch_add(&wide[0], (long)1 << 40);
  atomic_fetch_or(&bits[get_global_id(0) / 32], 1u << (get_global_id(0) % 32));
  // A critical section through atomic_flag: a plain increment inside it
  // must never lose an update.
  while (atomic_flag_test_and_set_explicit(flag, memory_order_acquire,
                                           memory_scope_device))
    ;
  flag_out[0] += 1;
  atomic_flag_clear_explicit(flag, memory_order_release, memory_scope_device);
  int expected = atomic_load(&counters[7]);
  while (!atomic_compare_exchange_weak(&counters[7], &expected, expected + 5))
    ;
  atomic_store_explicit(&counters[8], 42, memory_order_seq_cst);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst,
                         memory_scope_device);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel,
                         memory_scope_work_item);
}
)CLC";
  cl_kernel k = kernel(source, "forms", "-cl-std=CL3.0");
  const size_t n = 4096;
  std::vector<cl_int> counters(9, 0);
  counters[6] = 0;
  cl_mem c = buffer(counters.size() * sizeof(cl_int), counters.data());
  cl_long zero_long = 0;
  cl_mem w = buffer(sizeof(cl_long), &zero_long);
  std::vector<cl_uint> zero_bits(n / 32, 0);
  cl_mem b = buffer(zero_bits.size() * sizeof(cl_uint), zero_bits.data());
  cl_int zero = 0;
  cl_mem f = buffer(sizeof(cl_int), &zero);
  cl_mem flag = buffer(sizeof(cl_int), &zero);
  cl_mem args[] = {c, w, b, f, flag};
  for (cl_uint i = 0; i < 5; ++i)
    REQUIRE(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]) == CL_SUCCESS);
  run(k, n, 64);
  std::vector<cl_int> got = read<cl_int>(c, counters.size());
  CHECK(got[0] == int(n));
  CHECK(got[1] == int(2 * n));
  CHECK(got[2] == int(3 * n));
  CHECK(got[3] == -int(n));
  CHECK(got[4] == int(n));
  CHECK(got[5] == int(n - 1));
  CHECK(got[6] == -int(n - 1));
  CHECK(got[7] == int(5 * n));
  CHECK(got[8] == 42);
  CHECK(read<cl_long>(w, 1)[0] == cl_long(n) << 40);
  for (cl_uint word : read<cl_uint>(b, n / 32))
    CHECK(word == 0xFFFFFFFFu);
  CHECK(read<cl_int>(f, 1)[0] == int(n));
  for (cl_mem m : args)
    clReleaseMemObject(m);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(AtomicsFixture,
                 "64-bit atomics: the atom_ functions on global and local "
                 "longs",
                 "[atomics]") {
  const char *source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void wide(__global long *g, __global ulong *u, __local long *l) {
  long id = (long)get_global_id(0);
  if (get_local_id(0) == 0)
    l[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_add(&g[0], id << 32);
  atom_sub(&g[1], 3);
  atom_inc(&g[2]);
  atom_dec(&g[3]);
  atom_max(&g[4], id * 1000000000L);
  atom_min(&g[5], -id * 1000000000L);
  atom_or(&u[0], 1ul << (id % 64));
  atom_and(&u[1], ~(1ul << (id % 64)));
  atom_xor(&u[2], (ulong)id);
  atom_add(&l[0], (long)1 << 36);
  long seen = atom_xchg(&g[6], id);
  atom_cmpxchg(&g[7], 0, id + 1); // exactly one work-item wins
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atom_add(&g[8], l[0]);
}
)CLC";
  cl_kernel k = kernel(source, "wide");
  const size_t n = 1024, local = 128;
  std::vector<cl_long> g = {0, 0, 0, 0, 0, 0, -1, 0, 0};
  std::vector<cl_ulong> u = {0, ~0ull, 0};
  cl_mem gm = buffer(g.size() * sizeof(cl_long), g.data());
  cl_mem um = buffer(u.size() * sizeof(cl_ulong), u.data());
  REQUIRE(clSetKernelArg(k, 0, sizeof gm, &gm) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof um, &um) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, sizeof(cl_long), nullptr) == CL_SUCCESS);
  run(k, n, local);
  std::vector<cl_long> got = read<cl_long>(gm, g.size());
  std::vector<cl_ulong> bits = read<cl_ulong>(um, u.size());
  cl_long ids = cl_long(n) * (n - 1) / 2;
  CHECK(got[0] == ids << 32);
  CHECK(got[1] == -3 * cl_long(n));
  CHECK(got[2] == cl_long(n));
  CHECK(got[3] == -cl_long(n));
  CHECK(got[4] == cl_long(n - 1) * 1000000000L);
  CHECK(got[5] == -cl_long(n - 1) * 1000000000L);
  CHECK(got[6] >= 0);
  CHECK(got[6] < cl_long(n));
  CHECK(got[7] >= 1);
  CHECK(got[7] <= cl_long(n));
  CHECK(got[8] == cl_long(n) << 36);
  CHECK(bits[0] == ~0ull);
  CHECK(bits[1] == 0);
  cl_ulong x = 0;
  for (size_t i = 0; i < n; ++i)
    x ^= i;
  CHECK(bits[2] == x);
  clReleaseMemObject(gm);
  clReleaseMemObject(um);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(AtomicsFixture,
                 "floating-point atomics add, sub, min and max in global and "
                 "local memory",
                 "[atomics]") {
  const char *source = R"CLC(
__kernel void floats(__global atomic_float *f, __global atomic_double *d,
                     __local atomic_float *lf, __local atomic_double *ld,
                     __global float *group_sums) {
  float id = (float)get_global_id(0);
  if (get_local_id(0) == 0) {
    atomic_init(lf, 0.0f);
    atomic_init(ld, INFINITY);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add(&f[0], 1.0f);
  atomic_fetch_sub_explicit(&f[1], 0.5f, memory_order_relaxed);
  atomic_fetch_max(&f[2], id);
  atomic_fetch_min_explicit(&f[3], -id, memory_order_seq_cst,
                            memory_scope_device);
  atomic_fetch_add(&d[0], 0.25);
  atomic_fetch_max_explicit(&d[1], (double)id * 1e300, memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_add(lf, 2.0f);
  atomic_fetch_min(ld, (double)get_local_id(0) - 3.0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    group_sums[2 * get_group_id(0)] = atomic_load(lf);
    group_sums[2 * get_group_id(0) + 1] = (float)atomic_load(ld);
  }
}
)CLC";
  cl_kernel k = kernel(source, "floats", "-cl-std=CL3.0");
  const size_t n = 8192, local = 256, groups = n / local;
  std::vector<float> f = {0, 0, -INFINITY, INFINITY};
  std::vector<double> d = {0, -1};
  cl_mem fm = buffer(f.size() * sizeof(float), f.data());
  cl_mem dm = buffer(d.size() * sizeof(double), d.data());
  cl_mem sums = buffer(2 * groups * sizeof(float));
  REQUIRE(clSetKernelArg(k, 0, sizeof fm, &fm) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof dm, &dm) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, sizeof(float), nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 3, sizeof(double), nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 4, sizeof sums, &sums) == CL_SUCCESS);
  run(k, n, local);
  std::vector<float> gf = read<float>(fm, f.size());
  std::vector<double> gd = read<double>(dm, d.size());
  CHECK(gf[0] == float(n));
  CHECK(gf[1] == -0.5f * float(n));
  CHECK(gf[2] == float(n - 1));
  CHECK(gf[3] == -float(n - 1));
  CHECK(gd[0] == 0.25 * double(n));
  CHECK(gd[1] == double(n - 1) * 1e300);
  std::vector<float> got_sums = read<float>(sums, 2 * groups);
  for (size_t group = 0; group < groups; ++group) {
    INFO("group " << group);
    CHECK(got_sums[2 * group] == 2.0f * float(local));
    CHECK(got_sums[2 * group + 1] == -3.0f);
  }
  clReleaseMemObject(fm);
  clReleaseMemObject(dm);
  clReleaseMemObject(sums);
  clReleaseKernel(k);
}

// Message passing: writer i stores data then releases a flag; reader i,
// in a work-group far away (on another thread when the pool has several),
// acquires the flag and then reads the data. Seeing the flag set but the
// old data is forbidden.
TEST_CASE_METHOD(AtomicsFixture,
                 "litmus: message passing with release and acquire across "
                 "work-groups",
                 "[atomics][litmus]") {
  const char *source = R"CLC(
__kernel void message_passing(__global int *data, __global atomic_int *flags,
                              __global int *seen, int pairs, int rounds) {
  int id = (int)get_global_id(0);
  int pair = id % pairs;
  for (int r = 0; r < rounds; ++r) {
    int slot = pair * rounds + r;
    if (id < pairs) {
      data[slot] = r + 1;
      atomic_store_explicit(&flags[slot], 1, memory_order_release,
                            memory_scope_device);
    } else {
      int flag = atomic_load_explicit(&flags[slot], memory_order_acquire,
                                      memory_scope_device);
      int value = data[slot];
      // 2: forbidden (flag seen, data not); 1: flag seen; 0: not yet.
      seen[slot] = flag ? (value == r + 1 ? 1 : 2) : 0;
    }
  }
}
)CLC";
  cl_kernel k = kernel(source, "message_passing", "-cl-std=CL3.0");
  const cl_int pairs = 256, rounds = 64;
  const size_t slots = size_t(pairs) * rounds;
  for (int trial = 0; trial < 8; ++trial) {
    std::vector<cl_int> zeros(slots, 0);
    cl_mem data = buffer(slots * sizeof(cl_int), zeros.data());
    cl_mem flags = buffer(slots * sizeof(cl_int), zeros.data());
    cl_mem seen = buffer(slots * sizeof(cl_int), zeros.data());
    cl_mem args[] = {data, flags, seen};
    for (cl_uint i = 0; i < 3; ++i)
      REQUIRE(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof pairs, &pairs) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 4, sizeof rounds, &rounds) == CL_SUCCESS);
    run(k, 2 * size_t(pairs), 1);
    for (cl_int outcome : read<cl_int>(seen, slots))
      REQUIRE(outcome != 2);
    for (cl_mem m : args)
      clReleaseMemObject(m);
  }
  clReleaseKernel(k);
}

// Store buffering: each side stores 1 to its own variable and then loads
// the other's, both seq_cst. Both loads seeing 0 is forbidden (on x86 it is
// what plain or release/acquire accesses allow: the store buffer).
TEST_CASE_METHOD(AtomicsFixture,
                 "litmus: store buffering with seq_cst across work-groups",
                 "[atomics][litmus]") {
  const char *source = R"CLC(
__kernel void store_buffering(__global atomic_int *x, __global atomic_int *y,
                              __global int *r, int pairs) {
  int id = (int)get_global_id(0);
  int pair = id % pairs;
  if (id < pairs) {
    atomic_store(&x[pair], 1);
    r[2 * pair] = atomic_load(&y[pair]);
  } else {
    atomic_store(&y[pair], 1);
    r[2 * pair + 1] = atomic_load(&x[pair]);
  }
}
)CLC";
  cl_kernel k = kernel(source, "store_buffering", "-cl-std=CL3.0");
  const cl_int pairs = 4096;
  for (int trial = 0; trial < 16; ++trial) {
    std::vector<cl_int> zeros(2 * size_t(pairs), 0);
    cl_mem x = buffer(pairs * sizeof(cl_int), zeros.data());
    cl_mem y = buffer(pairs * sizeof(cl_int), zeros.data());
    cl_mem r = buffer(2 * pairs * sizeof(cl_int), zeros.data());
    cl_mem args[] = {x, y, r};
    for (cl_uint i = 0; i < 3; ++i)
      REQUIRE(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof pairs, &pairs) == CL_SUCCESS);
    run(k, 2 * size_t(pairs), 1);
    std::vector<cl_int> got = read<cl_int>(r, 2 * size_t(pairs));
    for (cl_int p = 0; p < pairs; ++p) {
      INFO("pair " << p);
      REQUIRE((got[2 * p] == 1 || got[2 * p + 1] == 1));
    }
    for (cl_mem m : args)
      clReleaseMemObject(m);
  }
  clReleaseKernel(k);
}
