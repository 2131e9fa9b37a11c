// Pipes, from the OpenCL 3.0 API spec's pipe sections and the OpenCL C pipe
// builtins page: clCreatePipe's errors, clGetPipeInfo, pipes as kernel
// arguments, the 2- and 4-argument read/write forms, reservations committed
// out of order, struct packets, full and empty pipes, and many work-groups
// on every core writing one pipe with every packet counted.
#include "api_fixture.h"

#include <algorithm>
#include <set>

namespace {

struct PipeFixture : WeftFixture {
  cl_mem pipe(cl_uint packet_size, cl_uint max_packets) {
    cl_int err;
    cl_mem p =
        clCreatePipe(context, 0, packet_size, max_packets, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    return p;
  }
  cl_program program(const char *source) {
    cl_program p;
    std::string log;
    cl_int status = build(source, p, log, "-cl-std=CL3.0");
    INFO(log);
    REQUIRE(status == CL_SUCCESS);
    return p;
  }
  cl_kernel kernelOf(cl_program p, const char *name) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    REQUIRE(err == CL_SUCCESS);
    return k;
  }
  void run(cl_kernel k, size_t global, size_t local) {
    REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0,
                                   nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(queue) == CL_SUCCESS);
  }
  template <typename T> std::vector<T> read(cl_mem m, size_t count) {
    std::vector<T> out(count);
    REQUIRE(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * sizeof(T),
                                out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    return out;
  }
  template <typename... Args> void setArgs(cl_kernel k, Args... args) {
    cl_uint index = 0;
    cl_int results[] = {clSetKernelArg(k, index++, sizeof(args), &args)...};
    for (cl_int result : results)
      REQUIRE(result == CL_SUCCESS);
  }
};

const char *kIntPipes = R"CLC(
__kernel void put(__global const int *in, __write_only pipe int p,
                  __global int *status) {
  size_t i = get_global_id(0);
  status[i] = write_pipe(p, &in[i]);
}
__kernel void take(__read_only pipe int p, __global int *out,
                   __global int *status) {
  size_t i = get_global_id(0);
  int value = -1;
  status[i] = read_pipe(p, &value);
  out[i] = value;
}
// One work-item, two write reservations committed in the reverse order.
__kernel void reserve_twice(__write_only pipe int p, __global int *status) {
  reserve_id_t a = reserve_write_pipe(p, 3);
  reserve_id_t b = reserve_write_pipe(p, 2);
  status[0] = is_valid_reserve_id(a) && is_valid_reserve_id(b);
  for (uint i = 0; i < 2; ++i) {
    int v = 100 + i;
    write_pipe(p, b, i, &v);
  }
  commit_write_pipe(p, b);
  status[1] = get_pipe_num_packets(p); // b waits for a: nothing readable
  for (uint i = 0; i < 3; ++i) {
    int v = 10 + i;
    write_pipe(p, a, i, &v);
  }
  commit_write_pipe(p, a);
  status[2] = get_pipe_num_packets(p);
  status[3] = get_pipe_max_packets(p);
}
__kernel void drain(__read_only pipe int p, __global int *out, int count) {
  reserve_id_t r = reserve_read_pipe(p, count);
  if (!is_valid_reserve_id(r))
    return;
  for (int i = 0; i < count; ++i)
    read_pipe(p, r, i, &out[i]);
  commit_read_pipe(p, r);
}
// Every work-item reserves one packet for its id.
__kernel void hammer(__write_only pipe int p, __global int *status) {
  int id = get_global_id(0);
  reserve_id_t r = reserve_write_pipe(p, 1);
  status[id] = is_valid_reserve_id(r) ? write_pipe(p, r, 0, &id) : -2;
  if (is_valid_reserve_id(r))
    commit_write_pipe(p, r);
}
)CLC";

} // namespace

TEST_CASE_METHOD(PipeFixture, "clCreatePipe and clGetPipeInfo", "[pipe]") {
  cl_uint max_packet = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_PIPE_MAX_PACKET_SIZE,
                          sizeof max_packet, &max_packet,
                          nullptr) == CL_SUCCESS);
  CHECK(max_packet >= 1024);
  cl_bool support = CL_FALSE;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_PIPE_SUPPORT, sizeof support,
                          &support, nullptr) == CL_SUCCESS);
  CHECK(support == CL_TRUE);
  cl_int err;
  CHECK(clCreatePipe(nullptr, 0, 4, 4, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreatePipe(context, CL_MEM_READ_ONLY, 4, 4, nullptr, &err) ==
        nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreatePipe(context, 0, 0, 4, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_PIPE_SIZE);
  CHECK(clCreatePipe(context, 0, max_packet + 1, 4, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_PIPE_SIZE);
  CHECK(clCreatePipe(context, 0, 4, 0, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_PIPE_SIZE);
  const cl_pipe_properties bogus[] = {0x1234, 1, 0};
  CHECK(clCreatePipe(context, 0, 4, 4, bogus, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);

  cl_mem p = pipe(12, 100);
  cl_uint value = 0;
  REQUIRE(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof value, &value,
                        nullptr) == CL_SUCCESS);
  CHECK(value == 12);
  REQUIRE(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, sizeof value, &value,
                        nullptr) == CL_SUCCESS);
  CHECK(value == 100);
  size_t size = 99;
  REQUIRE(clGetPipeInfo(p, CL_PIPE_PROPERTIES, 0, nullptr, &size) ==
          CL_SUCCESS);
  CHECK(size == 0);
  cl_mem_object_type type = 0;
  REQUIRE(clGetMemObjectInfo(p, CL_MEM_TYPE, sizeof type, &type, nullptr) ==
          CL_SUCCESS);
  CHECK(type == CL_MEM_OBJECT_PIPE);
  cl_mem_flags flags = 0;
  REQUIRE(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof flags, &flags, nullptr) ==
          CL_SUCCESS);
  CHECK(flags == (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS));

  // A pipe is no buffer, and a buffer no pipe.
  cl_mem b = buffer(64);
  CHECK(clGetPipeInfo(b, CL_PIPE_PACKET_SIZE, sizeof value, &value, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  char bytes[16];
  CHECK(clEnqueueReadBuffer(queue, p, CL_TRUE, 0, 16, bytes, 0, nullptr,
                            nullptr) == CL_INVALID_MEM_OBJECT);
  cl_buffer_region region{0, 16};
  CHECK(clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err) ==
        nullptr);
  CHECK(err == CL_INVALID_MEM_OBJECT);

  cl_program prog = program(kIntPipes);
  cl_kernel put = kernelOf(prog, "put");
  CHECK(clSetKernelArg(put, 1, sizeof b, &b) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(put, 0, sizeof p, &p) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(put, 1, sizeof p, &p) == CL_SUCCESS);
  cl_kernel_arg_type_qualifier qualifier = 0;
  REQUIRE(clGetKernelArgInfo(put, 1, CL_KERNEL_ARG_TYPE_QUALIFIER,
                             sizeof qualifier, &qualifier,
                             nullptr) == CL_SUCCESS);
  CHECK(qualifier == CL_KERNEL_ARG_TYPE_PIPE);
  clReleaseKernel(put);
  clReleaseProgram(prog);
  clReleaseMemObject(b);
  clReleaseMemObject(p);
}

TEST_CASE_METHOD(PipeFixture,
                 "a full pipe refuses writes and an empty one reads",
                 "[pipe]") {
  cl_program prog = program(kIntPipes);
  cl_kernel put = kernelOf(prog, "put"), take = kernelOf(prog, "take");
  const size_t items = 256, capacity = 100;
  std::vector<cl_int> in(items);
  for (size_t i = 0; i < items; ++i)
    in[i] = static_cast<cl_int>(i * 7 + 1);
  cl_mem input = buffer(items * sizeof(cl_int), in.data());
  cl_mem out = buffer(items * sizeof(cl_int));
  cl_mem status = buffer(items * sizeof(cl_int));
  cl_mem p = pipe(sizeof(cl_int), capacity);
  setArgs(put, input, p, status);
  run(put, items, 64);
  std::vector<cl_int> written = read<cl_int>(status, items);
  size_t accepted = std::count(written.begin(), written.end(), 0);
  CHECK(accepted == capacity);
  CHECK(std::count_if(written.begin(), written.end(), [](cl_int s) {
          return s < 0;
        }) == long(items - capacity));

  setArgs(take, p, out, status);
  run(take, items, 64);
  std::vector<cl_int> got = read<cl_int>(out, items);
  std::vector<cl_int> read_status = read<cl_int>(status, items);
  CHECK(std::count(read_status.begin(), read_status.end(), 0) ==
        long(capacity));
  // Every accepted packet comes out exactly once.
  std::multiset<cl_int> expected, seen;
  for (size_t i = 0; i < items; ++i) {
    if (written[i] == 0)
      expected.insert(in[i]);
    if (read_status[i] == 0)
      seen.insert(got[i]);
  }
  CHECK(seen == expected);
  clReleaseMemObject(p);
  clReleaseMemObject(input);
  clReleaseMemObject(out);
  clReleaseMemObject(status);
  clReleaseKernel(put);
  clReleaseKernel(take);
  clReleaseProgram(prog);
}

TEST_CASE_METHOD(PipeFixture, "write reservations publish in reservation order",
                 "[pipe]") {
  cl_program prog = program(kIntPipes);
  cl_kernel twice = kernelOf(prog, "reserve_twice"),
            drain = kernelOf(prog, "drain");
  cl_mem p = pipe(sizeof(cl_int), 8);
  cl_mem status = buffer(4 * sizeof(cl_int)), out = buffer(5 * sizeof(cl_int));
  setArgs(twice, p, status);
  run(twice, 1, 1);
  std::vector<cl_int> s = read<cl_int>(status, 4);
  CHECK(s[0] == 1);
  CHECK(s[1] == 0);
  CHECK(s[2] == 5);
  CHECK(s[3] == 8);
  cl_int count = 5;
  setArgs(drain, p, out, count);
  run(drain, 1, 1);
  CHECK(read<cl_int>(out, 5) == std::vector<cl_int>{10, 11, 12, 100, 101});
  clReleaseMemObject(p);
  clReleaseMemObject(status);
  clReleaseMemObject(out);
  clReleaseKernel(twice);
  clReleaseKernel(drain);
  clReleaseProgram(prog);
}

TEST_CASE_METHOD(PipeFixture, "struct packets keep their bytes and alignment",
                 "[pipe]") {
  const char *source = R"CLC(
typedef struct { char c[3]; } Small;
typedef struct { double d; int4 v; char tail; } Big;
__kernel void put(__write_only pipe Small small, __write_only pipe Big big) {
  int i = get_global_id(0);
  Small s = {{(char)i, (char)(i + 1), (char)(i + 2)}};
  Big b;
  b.d = i * 0.5; b.v = (int4)(i, -i, 2 * i, 7); b.tail = (char)(i ^ 0x5a);
  reserve_id_t rs = reserve_write_pipe(small, 1);
  write_pipe(small, rs, 0, &s);
  commit_write_pipe(small, rs);
  write_pipe(big, &b);
}
__kernel void take(__read_only pipe Small small, __read_only pipe Big big,
                   __global int *out) {
  int i = get_global_id(0);
  Small s; Big b;
  int ok = read_pipe(small, &s) == 0 && read_pipe(big, &b) == 0;
  int k = (uchar)s.c[0];
  // Packets may come in any order: check each is self-consistent.
  ok = ok && (uchar)s.c[1] == (uchar)(k + 1) && (uchar)s.c[2] == (uchar)(k + 2);
  int j = (int)(b.d * 2.0);
  ok = ok && all(b.v == (int4)(j, -j, 2 * j, 7)) && b.tail == (char)(j ^ 0x5a);
  out[i] = ok ? j : -1;
}
)CLC";
  cl_program prog = program(source);
  cl_kernel put = kernelOf(prog, "put"), take = kernelOf(prog, "take");
  const size_t items = 200;
  cl_mem small = pipe(3, items), big = pipe(48, items);
  cl_mem out = buffer(items * sizeof(cl_int));
  setArgs(put, small, big);
  run(put, items, 8);
  setArgs(take, small, big, out);
  run(take, items, 8);
  std::vector<cl_int> got = read<cl_int>(out, items);
  std::sort(got.begin(), got.end());
  std::vector<cl_int> expected(items);
  for (size_t i = 0; i < items; ++i)
    expected[i] = static_cast<cl_int>(i);
  CHECK(got == expected);
  clReleaseMemObject(small);
  clReleaseMemObject(big);
  clReleaseMemObject(out);
  clReleaseKernel(put);
  clReleaseKernel(take);
  clReleaseProgram(prog);
}

TEST_CASE_METHOD(PipeFixture,
                 "many work-groups on every core fill one pipe, every packet "
                 "counted",
                 "[pipe]") {
  cl_program prog = program(kIntPipes);
  cl_kernel hammer = kernelOf(prog, "hammer"), take = kernelOf(prog, "take");
  const size_t items = 64 * 1024;
  cl_mem p = pipe(sizeof(cl_int), items);
  cl_mem status = buffer(items * sizeof(cl_int)),
         out = buffer(items * sizeof(cl_int));
  setArgs(hammer, p, status);
  run(hammer, items, 16);
  std::vector<cl_int> s = read<cl_int>(status, items);
  CHECK(std::count(s.begin(), s.end(), 0) == long(items));
  setArgs(take, p, out, status);
  run(take, items, 64);
  std::vector<cl_int> got = read<cl_int>(out, items);
  std::vector<int> seen(items, 0);
  size_t bad = 0;
  for (cl_int v : got) {
    if (v < 0 || size_t(v) >= items)
      ++bad;
    else
      ++seen[v];
  }
  CHECK(bad == 0);
  CHECK(std::count(seen.begin(), seen.end(), 1) == long(items));
  clReleaseMemObject(p);
  clReleaseMemObject(status);
  clReleaseMemObject(out);
  clReleaseKernel(hammer);
  clReleaseKernel(take);
  clReleaseProgram(prog);
}

TEST_CASE_METHOD(PipeFixture,
                 "work-group reservations: one contiguous block per group",
                 "[pipe]") {
  const char *source = R"CLC(
__kernel void put(__write_only pipe int p, __global int *status) {
  int lid = get_local_id(0), g = get_group_id(0);
  reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));
  int value = g * 1000 + lid;
  status[get_global_id(0)] =
      is_valid_reserve_id(r) ? write_pipe(p, r, lid, &value) : -2;
  work_group_commit_write_pipe(p, r);
}
// One work-item reads everything in pipe order.
__kernel void in_order(__read_only pipe int p, __global int *out, int count) {
  for (int i = 0; i < count; ++i)
    if (read_pipe(p, &out[i]) != 0)
      out[i] = -1;
}
__kernel void take(__read_only pipe int p, __global int *out) {
  int lid = get_local_id(0);
  reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(r))
    read_pipe(p, r, lid, &out[get_global_id(0)]);
  work_group_commit_read_pipe(p, r);
}
)CLC";
  cl_program prog = program(source);
  cl_kernel put = kernelOf(prog, "put"), in_order = kernelOf(prog, "in_order"),
            take = kernelOf(prog, "take");
  const size_t local = 32, groups = 40, items = local * groups;
  cl_mem p = pipe(sizeof(cl_int), items);
  cl_mem status = buffer(items * sizeof(cl_int)),
         out = buffer(items * sizeof(cl_int));
  setArgs(put, p, status);
  run(put, items, local);
  std::vector<cl_int> s = read<cl_int>(status, items);
  CHECK(std::count(s.begin(), s.end(), 0) == long(items));
  cl_int count = static_cast<cl_int>(items);
  setArgs(in_order, p, out, count);
  run(in_order, 1, 1);
  std::vector<cl_int> got = read<cl_int>(out, items);
  // Groups in any order, each one's packets together and in index order.
  std::set<int> groups_seen;
  size_t broken = 0;
  for (size_t block = 0; block < groups; ++block) {
    int g = got[block * local] / 1000;
    groups_seen.insert(g);
    for (size_t i = 0; i < local; ++i)
      broken += got[block * local + i] != static_cast<cl_int>(g * 1000 + i);
  }
  CHECK(broken == 0);
  CHECK(groups_seen.size() == groups);

  // And back out through work-group read reservations.
  run(put, items, local);
  setArgs(take, p, out);
  run(take, items, local);
  got = read<cl_int>(out, items);
  std::sort(got.begin(), got.end());
  std::vector<cl_int> expected;
  for (size_t g = 0; g < groups; ++g)
    for (size_t i = 0; i < local; ++i)
      expected.push_back(static_cast<cl_int>(g * 1000 + i));
  CHECK(got == expected);
  clReleaseMemObject(p);
  clReleaseMemObject(status);
  clReleaseMemObject(out);
  clReleaseKernel(put);
  clReleaseKernel(in_order);
  clReleaseKernel(take);
  clReleaseProgram(prog);
}

TEST_CASE_METHOD(PipeFixture,
                 "work-group reservations from helpers, twice per kernel and "
                 "in loops, in uneven groups",
                 "[pipe]") {
  // `twice` runs as a leader and followers
  // (compiler/passes/kernels/work_group_pipes.h); `looped` reserves in a loop,
  // so its groups take the general scheme. Value g * 10000 + b * 100 + i: group
  // g's block b, work-item i.
  const char *source = R"CLC(
void put_block(__write_only pipe int p, int block) {
  int lid = get_local_id(0);
  reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));
  int value = get_group_id(0) * 10000 + block * 100 + lid;
  if (is_valid_reserve_id(r))
    write_pipe(p, r, lid, &value);
  work_group_commit_write_pipe(p, r);
}
__kernel void twice(__write_only pipe int p) {
  put_block(p, 0);
  put_block(p, 1);
}
__kernel void looped(__write_only pipe int p, int blocks) {
  for (int b = 0; b < blocks; ++b)
    put_block(p, b);
}
__kernel void in_order(__read_only pipe int p, __global int *out, int count) {
  for (int i = 0; i < count; ++i)
    if (read_pipe(p, &out[i]) != 0)
      out[i] = -1;
}
)CLC";
  cl_program prog = program(source);
  cl_kernel in_order = kernelOf(prog, "in_order");
  struct Shape {
    const char *kernel;
    cl_int blocks;
    size_t global, local;
  };
  const Shape shapes[] = {{"twice", 2, 7 * 5 + 3, 7},
                          {"twice", 2, 9, 1},
                          {"twice", 2, 64 * 20, 64},
                          {"looped", 3, 7 * 5 + 3, 7},
                          {"looped", 5, 9, 1}};
  for (const Shape &shape : shapes) {
    INFO(shape.kernel << " global " << shape.global << " local "
                      << shape.local);
    cl_kernel put = kernelOf(prog, shape.kernel);
    const size_t packets = shape.global * shape.blocks;
    cl_mem p = pipe(sizeof(cl_int), packets);
    cl_mem out = buffer(packets * sizeof(cl_int));
    if (std::string(shape.kernel) == "looped")
      setArgs(put, p, shape.blocks);
    else
      setArgs(put, p);
    run(put, shape.global, shape.local);
    cl_int count = static_cast<cl_int>(packets);
    setArgs(in_order, p, out, count);
    run(in_order, 1, 1);
    std::vector<cl_int> got = read<cl_int>(out, packets);
    // Every block is one run of its group's work-items in order, and a
    // group's blocks come in the order it reserved them.
    std::vector<cl_int> expected;
    size_t groups = (shape.global + shape.local - 1) / shape.local;
    for (size_t g = 0; g < groups; ++g) {
      size_t size = std::min(shape.local, shape.global - g * shape.local);
      for (cl_int b = 0; b < shape.blocks; ++b)
        for (size_t i = 0; i < size; ++i)
          expected.push_back(static_cast<cl_int>(g * 10000 + b * 100 + i));
    }
    std::vector<cl_int> sorted = got;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == expected);
    std::vector<int> next_block(groups, 0);
    size_t broken = 0;
    for (size_t at = 0; at < packets;) {
      cl_int g = got[at] / 10000, b = got[at] / 100 % 100;
      if (got[at] < 0 || size_t(g) >= groups || b != next_block[g]++) {
        ++broken;
        break;
      }
      size_t size = std::min(shape.local, shape.global - g * shape.local);
      for (size_t i = 0; i < size && at < packets; ++i, ++at)
        broken += got[at] != static_cast<cl_int>(g * 10000 + b * 100 + i);
    }
    CHECK(broken == 0);
    clReleaseMemObject(p);
    clReleaseMemObject(out);
    clReleaseKernel(put);
  }
  clReleaseKernel(in_order);
  clReleaseProgram(prog);
}

TEST_CASE_METHOD(PipeFixture,
                 "a producer and a consumer on two queues stream more than "
                 "the pipe holds",
                 "[pipe]") {
  // Each work-item retries until its packets get through, so neither kernel
  // can finish unless both run at once (ThreadPool::runOnOwnThread).
  const char *source = R"CLC(
__kernel void produce(__write_only pipe int p, int per_item) {
  int base = get_global_id(0) * per_item;
  for (int i = 0; i < per_item; ++i) {
    int v = base + i;
    while (write_pipe(p, &v) != 0)
      ;
  }
}
__kernel void consume(__read_only pipe int p, int per_item,
                      __global ulong *sums) {
  ulong total = 0;
  for (int i = 0; i < per_item; ++i) {
    int v;
    while (read_pipe(p, &v) != 0)
      ;
    total += (ulong)v;
  }
  sums[get_global_id(0)] = total;
}
)CLC";
  cl_program prog = program(source);
  cl_kernel produce = kernelOf(prog, "produce"),
            consume = kernelOf(prog, "consume");
  cl_int err;
  cl_command_queue second =
      clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  const size_t items = 256;
  const cl_int per_item = 64; // 16384 packets through 100 slots
  cl_mem p = pipe(sizeof(cl_int), 100);
  cl_mem sums = buffer(items * sizeof(cl_ulong));
  setArgs(produce, p, per_item);
  setArgs(consume, p, per_item, sums);
  size_t local = 16;
  REQUIRE(clEnqueueNDRangeKernel(queue, produce, 1, nullptr, &items, &local, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(second, consume, 1, nullptr, &items, &local, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFlush(queue) == CL_SUCCESS);
  REQUIRE(clFlush(second) == CL_SUCCESS);
  REQUIRE(clFinish(queue) == CL_SUCCESS);
  REQUIRE(clFinish(second) == CL_SUCCESS);
  const cl_ulong n = items * per_item;
  cl_ulong total = 0;
  for (cl_ulong s : read<cl_ulong>(sums, items))
    total += s;
  CHECK(total == n * (n - 1) / 2);
  clReleaseCommandQueue(second);
  clReleaseMemObject(p);
  clReleaseMemObject(sums);
  clReleaseKernel(produce);
  clReleaseKernel(consume);
  clReleaseProgram(prog);
}

TEST_CASE_METHOD(PipeFixture,
                 "sub-group reservations: one per sub-group, its work-items "
                 "at their sub-group local ids, only the sub-groups that take "
                 "the branch",
                 "[pipe]") {
  const char *source = R"CLC(
__kernel void put(__global const int *in, __write_only pipe int p) {
  int v = in[get_global_id(0)];
  if (get_sub_group_id() % 2 == 0) {
    reserve_id_t r = sub_group_reserve_write_pipe(p, get_sub_group_size());
    if (is_valid_reserve_id(r)) {
      write_pipe(p, r, get_sub_group_local_id(), &v);
      sub_group_commit_write_pipe(p, r);
    }
  }
}
__kernel void take(__read_only pipe int p, __global int *out) {
  reserve_id_t r = sub_group_reserve_read_pipe(p, get_sub_group_size());
  int v = -1;
  if (is_valid_reserve_id(r)) {
    read_pipe(p, r, get_sub_group_local_id(), &v);
    sub_group_commit_read_pipe(p, r);
  }
  out[get_global_id(0)] = v;
}
)CLC";
  cl_program prog = program(source);
  cl_kernel put = kernelOf(prog, "put"), take = kernelOf(prog, "take");
  const size_t items = 256, local = 64;
  size_t width = 0;
  REQUIRE(clGetKernelSubGroupInfo(put, device,
                                  CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                  sizeof local, &local, sizeof width, &width,
                                  nullptr) == CL_SUCCESS);
  REQUIRE(width > 1);
  std::vector<cl_int> input(items);
  for (size_t i = 0; i < items; ++i)
    input[i] = cl_int(i * 3 + 1);
  cl_mem in = buffer(items * 4, input.data()), out = buffer(items * 4);
  cl_mem p = pipe(sizeof(cl_int), cl_uint(items));
  setArgs(put, in, p);
  run(put, items, local);
  setArgs(take, p, out);
  run(take, items, local);
  // The even sub-groups' values, each writer's run whole and in order in
  // one reader sub-group (groups run on any thread, so any of them), and
  // nothing for the others.
  std::vector<cl_int> got = read<cl_int>(out, items);
  std::multiset<cl_int> expected, seen;
  for (size_t i = 0; i < items; ++i)
    if ((i % local) / width % 2 == 0)
      expected.insert(input[i]);
  size_t filled = 0;
  for (size_t run = 0; run < items / width; ++run) {
    INFO("sub-group " << run << " of the reader");
    const cl_int *values = &got[run * width];
    if (values[0] == -1) {
      for (size_t k = 0; k < width; ++k)
        CHECK(values[k] == -1);
      continue;
    }
    ++filled;
    for (size_t k = 1; k < width; ++k)
      CHECK(values[k] == values[0] + cl_int(3 * k));
    for (size_t k = 0; k < width; ++k)
      seen.insert(values[k]);
  }
  CHECK(filled == items / width / 2);
  CHECK(seen == expected);
  for (cl_mem m : {in, out, p})
    clReleaseMemObject(m);
  clReleaseKernel(put);
  clReleaseKernel(take);
  clReleaseProgram(prog);
}
