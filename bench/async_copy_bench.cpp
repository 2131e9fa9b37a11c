// Async work-group copies (issue 4) on Weft and PoCL side by side: a stencil
// staged through async_work_group_copy against the same stencil on global
// memory, a strided gather and a 32x32-tile transpose, checked on the host.
#include "kernel_bench.h"

// 9-point 1-D stencil, 256-item groups. The input holds RADIUS elements of
// padding at each end, so out[i] reads in[i .. i + 2 RADIUS] with no edge
// cases. The async version has no barrier after wait_group_events: the copy
// is a group operation, complete for every work-item once the wait returns.
static const char *kStencil = R"CLC(
#define RADIUS 4
#define GROUP 256
constant float weights[2 * RADIUS + 1] = {1, 2, 3, 4, 5, 4, 3, 2, 1};

kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void stencil_async(global const float *in, global float *out) {
  local float tile[GROUP + 2 * RADIUS];
  event_t copied = async_work_group_copy(tile, in + get_group_id(0) * GROUP,
                                         GROUP + 2 * RADIUS, 0);
  wait_group_events(1, &copied);
  size_t lid = get_local_id(0);
  float sum = 0.0f;
  for (int k = 0; k <= 2 * RADIUS; ++k)
    sum += weights[k] * tile[lid + k];
  out[get_global_id(0)] = sum;
}

kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void stencil_direct(global const float *in, global float *out) {
  size_t gid = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k <= 2 * RADIUS; ++k)
    sum += weights[k] * in[gid + k];
  out[gid] = sum;
}
)CLC";

// A 1-D kernel (in, out) over `expected.size()` work-items in groups of 256
// whose output must equal `expected`; throughput counts one float read and
// one written per work-item. `in` and `expected` outlive the benchmark.
static Benchmark inputToOutput(const char *name, const char *source,
                               const char *kernel, const std::vector<float> &in,
                               const std::vector<float> &expected) {
  const size_t n = expected.size();
  Benchmark bm;
  bm.name = name;
  bm.unit = "GB/s";
  bm.work = n * 8.0;
  bm.setup = [=, &in, &expected](const Driver &d, Instance &inst,
                                 std::string &error) {
    if (!prepare(d, inst, source, kernel, error))
      return false;
    cl_mem bin = bufferWith(d, in), bout = bufferOf(d, n * 4);
    inst.buffers = {bin, bout};
    clSetKernelArg(inst.kernel, 0, sizeof(cl_mem), &bin);
    clSetKernelArg(inst.kernel, 1, sizeof(cl_mem), &bout);
    inst.global[0] = n;
    inst.local[0] = 256;
    inst.verify = [&d, &expected, bout, n](int) {
      return compareExact(readBack<float>(d, bout, n), expected, "outputs");
    };
    return true;
  };
  return bm;
}

static Benchmark stencil(const char *kernel, const char *name) {
  const size_t n = size_t(1) << 24, radius = 4;
  static std::vector<float> in, expected;
  if (in.empty()) {
    in = smallIntegers(n + 2 * radius, 6, 16);
    const float weights[] = {1, 2, 3, 4, 5, 4, 3, 2, 1};
    expected.assign(n, 0.0f);
    for (size_t i = 0; i < n; ++i)
      for (size_t k = 0; k <= 2 * radius; ++k)
        expected[i] += weights[k] * in[i + k];
  }
  // One element read and one written per work-item.
  return inputToOutput(name, kStencil, kernel, in, expected);
}

// Gathers field 0 of 4-float records (stride 4) and scales it: through
// async_work_group_strided_copy into local memory, or loaded directly.
static const char *kGather = R"CLC(
#define GROUP 256
#define STRIDE 4
kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void gather_async(global const float *in, global float *out) {
  local float tile[GROUP];
  event_t copied = async_work_group_strided_copy(
      tile, in + get_group_id(0) * GROUP * STRIDE, GROUP, STRIDE, 0);
  wait_group_events(1, &copied);
  out[get_global_id(0)] = 3.0f * tile[get_local_id(0)];
}

kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void gather_direct(global const float *in, global float *out) {
  size_t gid = get_global_id(0);
  out[gid] = 3.0f * in[gid * STRIDE];
}
)CLC";

static Benchmark gather(const char *kernel, const char *name) {
  const size_t n = size_t(1) << 22, stride = 4;
  static std::vector<float> in, expected;
  if (in.empty()) {
    in = smallIntegers(n * stride, 7, 1000);
    expected.resize(n);
    for (size_t i = 0; i < n; ++i)
      expected[i] = 3.0f * in[i * stride];
  }
  // Elements gathered and written, not the bytes skipped.
  return inputToOutput(name, kGather, kernel, in, expected);
}

// Transpose of an n x n matrix by 32x32 tiles, groups of 32x8 work-items
// (each moves 4 elements of a tile). The three versions differ only in how a
// tile moves between global and local memory:
// - transpose_2d2d: one async_work_group_copy_2D2D per tile each way
//   (cl_khr_extended_async_copies);
// - transpose_lines: one async_work_group_copy per tile line (32 each way),
//   what a driver without the extension offers;
// - transpose_direct: work-items load and store the elements themselves.
// The barrier before copying out is needed: the copy reads what every
// work-item wrote into `b`.
static const char *kTransposeCommon = R"CLC(
#define TILE 32
#define ROWS 8
// b = transpose of a, for 32x32 tiles in local memory.
static void transposeTile(local const float *a, local float *b) {
  size_t x = get_local_id(0), y = get_local_id(1);
  for (size_t r = y; r < TILE; r += ROWS)
    b[x * TILE + r] = a[r * TILE + x];
}
)CLC";

static const char *kTranspose2D2D = R"CLC(
kernel __attribute__((reqd_work_group_size(TILE, ROWS, 1)))
void transpose_2d2d(global const float *in, global float *out, uint n) {
  local float a[TILE * TILE], b[TILE * TILE];
  size_t tx = get_group_id(0), ty = get_group_id(1);
  event_t e = async_work_group_copy_2D2D(a, 0, in, ty * TILE * n + tx * TILE,
                                         sizeof(float), TILE, TILE, n, TILE, 0);
  wait_group_events(1, &e);
  transposeTile(a, b);
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy_2D2D(out, tx * TILE * n + ty * TILE, b, 0,
                                 sizeof(float), TILE, TILE, TILE, n, 0);
  wait_group_events(1, &e);
}
)CLC";

static const char *kTransposeLines = R"CLC(
kernel __attribute__((reqd_work_group_size(TILE, ROWS, 1)))
void transpose_lines(global const float *in, global float *out, uint n) {
  local float a[TILE * TILE], b[TILE * TILE];
  size_t tx = get_group_id(0), ty = get_group_id(1);
  // Each copy after the first joins the event of the first.
  event_t in_copies = 0, out_copies = 0;
  for (size_t r = 0; r < TILE; ++r)
    in_copies = async_work_group_copy(
        a + r * TILE, in + (ty * TILE + r) * n + tx * TILE, TILE, in_copies);
  wait_group_events(1, &in_copies);
  transposeTile(a, b);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t r = 0; r < TILE; ++r)
    out_copies = async_work_group_copy(out + (tx * TILE + r) * n + ty * TILE,
                                       b + r * TILE, TILE, out_copies);
  wait_group_events(1, &out_copies);
}
)CLC";

static const char *kTransposeDirect = R"CLC(
kernel __attribute__((reqd_work_group_size(TILE, ROWS, 1)))
void transpose_direct(global const float *in, global float *out, uint n) {
  local float a[TILE * TILE], b[TILE * TILE];
  size_t tx = get_group_id(0), ty = get_group_id(1);
  size_t x = get_local_id(0), y = get_local_id(1);
  for (size_t r = y; r < TILE; r += ROWS)
    a[r * TILE + x] = in[(ty * TILE + r) * n + tx * TILE + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  transposeTile(a, b);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t r = y; r < TILE; r += ROWS)
    out[(tx * TILE + r) * n + ty * TILE + x] = b[r * TILE + x];
}
)CLC";

static Benchmark transpose(const char *body, const char *kernel,
                           const char *name, const char *needs) {
  const unsigned n = 4096;
  static std::vector<float> in, expected;
  if (in.empty()) {
    in = smallIntegers(size_t(n) * n, 8, 1 << 20);
    expected.resize(in.size());
    for (size_t r = 0; r < n; ++r)
      for (size_t c = 0; c < n; ++c)
        expected[c * n + r] = in[r * n + c];
  }
  Benchmark bm;
  bm.name = name;
  bm.unit = "GB/s";
  bm.work = 8.0 * n * n; // every element read and written once
  bm.needs = needs;
  std::string source = std::string(kTransposeCommon) + body;
  bm.setup = [=](const Driver &d, Instance &inst, std::string &error) {
    if (!prepare(d, inst, source.c_str(), kernel, error))
      return false;
    cl_mem bin = bufferWith(d, in), bout = bufferOf(d, in.size() * 4);
    inst.buffers = {bin, bout};
    clSetKernelArg(inst.kernel, 0, sizeof(cl_mem), &bin);
    clSetKernelArg(inst.kernel, 1, sizeof(cl_mem), &bout);
    clSetKernelArg(inst.kernel, 2, sizeof(unsigned), &n);
    inst.dims = 2;
    inst.global[0] = n;
    inst.global[1] = n / 4;
    inst.local[0] = 32;
    inst.local[1] = 8;
    inst.verify = [&d, bout](int) {
      return compareExact(readBack<float>(d, bout, expected.size()), expected,
                          "elements");
    };
    return true;
  };
  return bm;
}

int main(int argc, char **argv) {
  Runner runner(driversFromArguments(argc, argv), 4.0);
  if (runner.drivers().empty())
    return 1;
  std::printf("Async copies: median wall time of enqueue + clFinish per "
              "launch; throughput per second; ratio = first driver's "
              "throughput / second's\n");
  runner.header();
  runner.run(stencil("stencil_async", "stencil 16Mi, async copy"));
  runner.run(stencil("stencil_direct", "stencil 16Mi, direct"));
  runner.run(gather("gather_async", "gather 4Mi, strided copy"));
  runner.run(gather("gather_direct", "gather 4Mi, direct"));
  runner.run(transpose(kTranspose2D2D, "transpose_2d2d",
                       "transpose 4096, 2D2D copies",
                       "cl_khr_extended_async_copies"));
  runner.run(transpose(kTransposeLines, "transpose_lines",
                       "transpose 4096, line copies", ""));
  runner.run(transpose(kTransposeDirect, "transpose_direct",
                       "transpose 4096, direct", ""));

  // Speed of the async version relative to the direct one, per driver
  // (above 1: async faster), and the copy benchmarks across drivers.
  std::printf("\nasync / direct (throughput ratio, above 1: async faster):\n");
  for (const Driver &d : runner.drivers()) {
    runner.compare("stencil, " + d.label, "stencil 16Mi, async copy", d.label,
                   "stencil 16Mi, direct", d.label);
    runner.compare("gather, " + d.label, "gather 4Mi, strided copy", d.label,
                   "gather 4Mi, direct", d.label);
    runner.compare("transpose 2D2D, " + d.label, "transpose 4096, 2D2D copies",
                   d.label, "transpose 4096, direct", d.label);
    runner.compare("transpose line copies, " + d.label,
                   "transpose 4096, line copies", d.label,
                   "transpose 4096, direct", d.label);
  }
  if (runner.drivers().size() == 2) {
    const std::string a = runner.drivers()[0].label,
                      b = runner.drivers()[1].label;
    std::printf("\n%s vs %s, the best copy each offers (throughput ratio):\n",
                a.c_str(), b.c_str());
    runner.compare("transpose: " + a + " 2D2D vs " + b + " line copies",
                   "transpose 4096, 2D2D copies", a,
                   "transpose 4096, line copies", b);
  }
  return runner.exitStatus("async_copy_bench");
}
