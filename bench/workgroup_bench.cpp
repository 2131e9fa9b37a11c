// Work-group execution (issue 3) on Weft and PoCL side by side: kernels with
// barriers over __local memory (tiled SGEMM, tree reduction) and barrier-free
// ones (naive SGEMM, SAXPY, Mandelbrot, n-body), each checked against a host
// reference.
#include "host_streams.h"
#include "kernel_bench.h"

#include <cmath>
#include <memory>

static const char *kSgemm = R"CLC(
#define TS 16
// C = A * B for n x n row-major matrices, n a multiple of TS; 16x16 groups.
kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm(global const float *a, global const float *b, global float *c,
           int n) {
  local float as[TS][TS], bs[TS][TS];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TS) {
    as[ly][lx] = a[row * n + t + lx];
    bs[ly][lx] = b[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k)
      acc += as[ly][k] * bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}
)CLC";

// C = A * B, n x n, in 16x16 groups, by `kernel` of `source` (arguments a,
// b, c, n), checked against the host's product.
static Benchmark matrixProduct(const char *name, const char *source,
                               const char *kernel, unsigned seed) {
  const int n = 768;
  auto a = std::make_shared<std::vector<float>>(
      smallIntegers(size_t(n) * n, seed, 4));
  auto b = std::make_shared<std::vector<float>>(
      smallIntegers(size_t(n) * n, seed + 1, 4));
  // i-k-j order so the host reference vectorizes; exact, see smallIntegers.
  auto expected = std::make_shared<std::vector<float>>(size_t(n) * n, 0.0f);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      float aik = (*a)[size_t(i) * n + k];
      for (int j = 0; j < n; ++j)
        (*expected)[size_t(i) * n + j] += aik * (*b)[size_t(k) * n + j];
    }
  Benchmark bm;
  bm.name = name;
  bm.unit = "GFLOP/s";
  bm.work = 2.0 * n * n * n;
  bm.setup = [=](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, source, kernel, error))
      return false;
    cl_mem ba = bufferWith(d, *a), bb = bufferWith(d, *b),
           bc = bufferOf(d, a->size() * 4);
    in.buffers = {ba, bb, bc};
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &ba);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &bb);
    clSetKernelArg(in.kernel, 2, sizeof(cl_mem), &bc);
    clSetKernelArg(in.kernel, 3, sizeof(int), &n);
    in.dims = 2;
    in.global[0] = in.global[1] = n;
    in.local[0] = in.local[1] = 16;
    in.verify = [&d, bc, expected](int) {
      return compareExact(readBack<float>(d, bc, expected->size()), *expected,
                          "elements of C");
    };
    return true;
  };
  return bm;
}

static Benchmark sgemm() {
  return matrixProduct("sgemm 768, 16x16 tiles", kSgemm, "sgemm", 1);
}

static const char *kSgemmNaive = R"CLC(
// C = A * B for n x n row-major matrices, one element per work-item, no
// local memory: the textbook kernel.
kernel void sgemm_naive(global const float *a, global const float *b,
                        global float *c, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}
)CLC";

static Benchmark sgemmNaive() {
  return matrixProduct("sgemm 768, naive", kSgemmNaive, "sgemm_naive", 6);
}

static const char *kNbody = R"CLC(
// Each body's acceleration from all others (softened), float4 positions
// with the mass in w: the all-pairs loop of an n-body step.
kernel void nbody(global const float4 *pos, global float4 *acc, int n,
                  float soften) {
  float4 p = pos[get_global_id(0)];
  float3 a = (float3)(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 q = pos[j];
    float3 d = q.xyz - p.xyz;
    float inv = rsqrt(dot(d, d) + soften);
    a += d * (q.w * inv * inv * inv);
  }
  acc[get_global_id(0)] = (float4)(a, 0.0f);
}
)CLC";

static Benchmark nbody() {
  const int n = 8192;
  const float soften = 0.01f;
  static std::vector<float> pos, expected;
  pos.resize(size_t(n) * 4);
  unsigned x = 12345;
  for (float &v : pos) {
    x = x * 1664525u + 1013904223u;
    v = float((x >> 8) % 20000) / 1000.0f - 10.0f;
  }
  for (int i = 0; i < n; ++i)
    pos[size_t(i) * 4 + 3] = 1.0f + float(i % 7); // masses
  expected.assign(size_t(n) * 4, 0.0f);
  for (int i = 0; i < n; ++i) {
    double a[3] = {0, 0, 0};
    for (int j = 0; j < n; ++j) {
      double d[3], r2 = soften;
      for (int c = 0; c < 3; ++c) {
        d[c] = double(pos[size_t(j) * 4 + c]) - pos[size_t(i) * 4 + c];
        r2 += d[c] * d[c];
      }
      double s = pos[size_t(j) * 4 + 3] / (r2 * std::sqrt(r2));
      for (int c = 0; c < 3; ++c)
        a[c] += d[c] * s;
    }
    for (int c = 0; c < 3; ++c)
      expected[size_t(i) * 4 + c] = float(a[c]);
  }
  Benchmark bm;
  bm.name = "nbody 8192, float4 rsqrt";
  bm.unit = "GFLOP/s"; // 20 flops per interaction, the usual count
  bm.work = 20.0 * n * n;
  bm.setup = [=](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kNbody, "nbody", error))
      return false;
    cl_mem bp = bufferWith(d, pos), ba = bufferOf(d, pos.size() * 4);
    in.buffers = {bp, ba};
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &bp);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &ba);
    clSetKernelArg(in.kernel, 2, sizeof(int), &n);
    clSetKernelArg(in.kernel, 3, sizeof(float), &soften);
    in.global[0] = n;
    in.local[0] = 64;
    in.verify = [&d, ba](int) {
      // rsqrt and the summation order differ from the host's double
      // reference: each component within 1e-3 of the vector's size.
      std::vector<float> got = readBack<float>(d, ba, expected.size());
      for (size_t i = 0; i < expected.size(); i += 4) {
        double size =
            1e-3 + std::sqrt(double(expected[i]) * expected[i] +
                             double(expected[i + 1]) * expected[i + 1] +
                             double(expected[i + 2]) * expected[i + 2]);
        for (int c = 0; c < 3; ++c)
          if (!(std::fabs(got[i + c] - expected[i + c]) <= 1e-3 * size))
            return "body " + std::to_string(i / 4) + " component " +
                   std::to_string(c) + ": got " + std::to_string(got[i + c]) +
                   ", expected " + std::to_string(expected[i + c]);
      }
      return std::string();
    };
    return true;
  };
  return bm;
}

static const char *kReduce = R"CLC(
// Each work-item adds 4 elements, then the group halves its partial sums in
// local memory, one barrier per step, down to one sum per group.
kernel void reduce(global const float *in, global float *partial,
                   local float *scratch) {
  size_t lid = get_local_id(0), size = get_local_size(0);
  size_t base = get_group_id(0) * size * 4 + lid;
  scratch[lid] = in[base] + in[base + size] + in[base + 2 * size] +
                 in[base + 3 * size];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t step = size / 2; step > 0; step /= 2) {
    if (lid < step)
      scratch[lid] += scratch[lid + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
)CLC";

static Benchmark reduction() {
  const size_t n = size_t(1) << 24, group = 256, groups = n / (4 * group);
  static std::vector<float> data, expected;
  data = smallIntegers(n, 3, 16);
  expected.assign(groups, 0.0f);
  for (size_t i = 0; i < n; ++i)
    expected[i / (4 * group)] += data[i];
  Benchmark bm;
  bm.name = "reduction 16Mi floats";
  bm.unit = "GB/s";
  bm.work = n * 4.0;
  bm.setup = [=](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kReduce, "reduce", error))
      return false;
    cl_mem bd = bufferWith(d, data), bp = bufferOf(d, groups * 4);
    in.buffers = {bd, bp};
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &bd);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &bp);
    clSetKernelArg(in.kernel, 2, group * 4, nullptr);
    in.global[0] = n / 4;
    in.local[0] = group;
    in.verify = [&d, bp, groups](int) {
      return compareExact(readBack<float>(d, bp, groups), expected,
                          "partial sums");
    };
    return true;
  };
  return bm;
}

static const char *kSaxpy = R"CLC(
kernel void saxpy(float a, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
)CLC";

static Benchmark saxpy() {
  const size_t n = size_t(1) << 24;
  const float a = 2.0f;
  static std::vector<float> x, y;
  x = smallIntegers(n, 4, 64);
  y = smallIntegers(n, 5, 64);
  Benchmark bm;
  bm.name = "saxpy 16Mi floats";
  bm.unit = "GB/s";
  bm.work = n * 12.0; // x and y read, y written
  bm.setup = [=](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kSaxpy, "saxpy", error))
      return false;
    cl_mem bx = bufferWith(d, x), by = bufferWith(d, y);
    in.buffers = {bx, by};
    clSetKernelArg(in.kernel, 0, sizeof(float), &a);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &bx);
    clSetKernelArg(in.kernel, 2, sizeof(cl_mem), &by);
    in.global[0] = n;
    in.local[0] = 256;
    // y is updated in place: after k launches y = y0 + k a x, exact while
    // the values stay below 2^24.
    in.verify = [&d, by, a, n](int launches) {
      std::vector<float> expected(n);
      for (size_t i = 0; i < n; ++i)
        expected[i] = y[i] + float(launches) * a * x[i];
      return compareExact(readBack<float>(d, by, n), expected, "elements of y");
    };
    return true;
  };
  // The host's triad bandwidth (issue 19 asks saxpy to reach it) and the
  // host's own in-place SAXPY, on arrays of the same size. Values grow
  // with the runs; only the time matters here.
  static std::vector<float> ta, tb, tc, hx, hy;
  ta.assign(n, 0.0f);
  tb = x;
  tc = y;
  hx = x;
  hy = y;
  unsigned threads = hostStreamThreads();
  bm.host_references.push_back(
      {"STREAM triad, " + std::to_string(threads) + "T", n * 12.0,
       [=] { hostTriad(ta.data(), tb.data(), tc.data(), a, n); }});
  bm.host_references.push_back(
      {"saxpy loop, " + std::to_string(threads) + "T", n * 12.0,
       [=] { hostSaxpy(a, hx.data(), hy.data(), n); }});
  return bm;
}

// Contraction off in the kernel and on the host (CMakeLists.txt passes
// -ffp-contract=off) so both round every operation alike and the escape
// counts match exactly.
static const char *kMandelbrot = R"CLC(
#pragma OPENCL FP_CONTRACT OFF
kernel void mandelbrot(global uint *out, float x0, float y0, float step,
                       uint max_iterations) {
  size_t px = get_global_id(0), py = get_global_id(1);
  float cr = x0 + (float)px * step, ci = y0 + (float)py * step;
  float zr = 0.0f, zi = 0.0f;
  uint i = 0;
  while (i < max_iterations && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++i;
  }
  out[py * get_global_size(0) + px] = i;
}
)CLC";

static Benchmark mandelbrot() {
  const unsigned side = 2048, max_iterations = 256;
  const float x0 = -2.0f, y0 = -1.25f, step = 2.5f / side;
  static std::vector<unsigned> expected;
  expected.resize(size_t(side) * side);
  double iterations = 0;
  for (unsigned py = 0; py < side; ++py)
    for (unsigned px = 0; px < side; ++px) {
      float cr = x0 + float(px) * step, ci = y0 + float(py) * step;
      float zr = 0.0f, zi = 0.0f;
      unsigned i = 0;
      while (i < max_iterations && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++i;
      }
      expected[size_t(py) * side + px] = i;
      iterations += i;
    }
  Benchmark bm;
  bm.name = "mandelbrot 2048^2, <=256 it";
  bm.unit = "Giter/s"; // escape-loop iterations, all pixels
  bm.work = iterations;
  bm.setup = [=](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kMandelbrot, "mandelbrot", error))
      return false;
    cl_mem out = bufferOf(d, expected.size() * 4);
    in.buffers = {out};
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &out);
    clSetKernelArg(in.kernel, 1, sizeof(float), &x0);
    clSetKernelArg(in.kernel, 2, sizeof(float), &y0);
    clSetKernelArg(in.kernel, 3, sizeof(float), &step);
    clSetKernelArg(in.kernel, 4, sizeof(unsigned), &max_iterations);
    in.dims = 2;
    in.global[0] = in.global[1] = side;
    in.local[0] = 64;
    in.local[1] = 1;
    in.verify = [&d, out](int) {
      return compareExact(readBack<unsigned>(d, out, expected.size()), expected,
                          "pixels");
    };
    return true;
  };
  return bm;
}

int main(int argc, char **argv) {
  Runner runner(driversFromArguments(argc, argv), 6.0);
  if (runner.drivers().empty())
    return 1;
  std::printf("Work-groups: median wall time of enqueue + clFinish per "
              "launch; throughput per second; ratio = first driver's "
              "throughput / second's\n");
  runner.header();
  for (Benchmark (*make)() :
       {sgemm, sgemmNaive, reduction, saxpy, mandelbrot, nbody})
    runner.run(make());
  return runner.exitStatus("workgroup_bench");
}
