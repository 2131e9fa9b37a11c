// CLBlast (Debian's libclblast, its default tuning) through its C API on Weft
// and PoCL in one process, alternating: SGEMM, DGEMM and HGEMM at square
// sizes in both layouts and all transposes, SGEMV and SAXPY, and SSYMV,
// an out-of-place transpose (SOMATCOPY), SGER, SDOT, the generic level-1
// kernels (SAXPY of an odd length, SHAD with an offset) and SIM2COL. These are
// the kernels a tuned library writes (register tiles in private arrays,
// vector types, local memory), not Weft's own. Each row checks a few elements of
// the result against the host before timing, prints GFLOP/s (GB/s for the
// memory-bound SGEMV and SAXPY) as medians and the Weft/PoCL ratio.
//
//   clblast_bench [max_n] [repeats] [filter]
// (OCL_ICD_VENDORS: both drivers; `filter`: only rows whose name has it;
// CLBLAST_BENCH_AB=1 compares the first two Weft platforms instead, two
// builds of Weft each in its own directory: see bench/README.md)
#include "kernel_bench.h"

#include <clblast_c.h>
#include <dlfcn.h>

#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <random>

namespace {

// One measured operation: `run` enqueues it on a driver's buffers and
// returns CLBlast's status; `check` reads the result back and compares it
// with the host.
struct Row {
  std::string name;
  double work;      // flops, or bytes for memory-bound rows
  const char *unit; // "GFLOP/s" or "GB/s"
  std::function<std::function<CLBlastStatusCode(Driver &)>(Driver &)> setup;
};

} // namespace

int main(int argc, char **argv) {
  size_t max_n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 2048;
  int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
  const char *filter = argc > 3 ? argv[3] : "";
  // CLBLAST_BENCH_AB=1: two Weft platforms instead of Weft and PoCL.
  std::vector<Driver> drivers = openDrivers(
      std::getenv("CLBLAST_BENCH_AB")
          ? std::vector<std::string>{"Weft", "Weft#2"}
          : std::vector<std::string>{"Weft", "Portable Computing Language"});
  if (std::getenv("CLBLAST_BENCH_AB")) {
    // Which copy each is (an ICD object starts with its dispatch table,
    // whose functions are the driver library's own): labelled by the
    // copy's directory, in its order, so the ratio is always the first's
    // over the second's.
    std::vector<std::pair<std::string, Driver>> by_path;
    for (Driver &d : drivers) {
      void *const *dispatch = *reinterpret_cast<void *const *const *>(d.device);
      Dl_info info{};
      std::string path = dladdr(dispatch[1], &info) && info.dli_fname
                             ? info.dli_fname
                             : d.label;
      std::string directory = path.substr(0, path.rfind('/'));
      d.label = directory.substr(directory.rfind('/') + 1);
      std::printf("%s: %s\n", d.label.c_str(), path.c_str());
      by_path.emplace_back(path, d);
    }
    std::sort(by_path.begin(), by_path.end(),
              [](auto &x, auto &y) { return x.first < y.first; });
    drivers.clear();
    for (auto &[path, d] : by_path)
      drivers.push_back(d);
  }
  if (drivers.empty()) {
    std::puts("clblast_bench: no driver found (set OCL_ICD_VENDORS)");
    return 1;
  }
  std::mt19937 random(34);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<Row> rows;

  // GEMM rows: C = A * B (alpha 1, beta 0), A m x k, B k x n, square n.
  auto addGemm = [&](const char *precision, size_t n, CLBlastLayout layout,
                     CLBlastTranspose ta, CLBlastTranspose tb) {
    std::string name = std::string(precision) + "GEMM " + std::to_string(n) +
                       (layout == CLBlastLayoutRowMajor ? " row" : " col") +
                       (ta == CLBlastTransposeNo ? " N" : " T") +
                       (tb == CLBlastTransposeNo ? "N" : "T");
    rows.push_back({name, 2.0 * n * n * n, "GFLOP/s", [=, &random,
                                                       &value](Driver &d) {
      auto a = std::make_shared<std::vector<float>>(n * n);
      auto b = std::make_shared<std::vector<float>>(n * n);
      for (float &x : *a)
        x = value(random);
      for (float &x : *b)
        x = value(random);
      size_t element = precision[0] == 'D' ? 8 : precision[0] == 'H' ? 2 : 4;
      auto pack = [&](const std::vector<float> &v) {
        std::vector<unsigned char> bytes(v.size() * element);
        for (size_t i = 0; i < v.size(); ++i) {
          if (element == 8) {
            double x = v[i];
            std::memcpy(&bytes[i * 8], &x, 8);
          } else if (element == 2) {
            uint16_t x = toHalf(v[i]);
            std::memcpy(&bytes[i * 2], &x, 2);
          } else {
            std::memcpy(&bytes[i * 4], &v[i], 4);
          }
        }
        return bytes;
      };
      std::vector<unsigned char> zero(n * n * element, 0);
      cl_mem ab = bufferWith(d, pack(*a));
      cl_mem bb = bufferWith(d, pack(*b));
      cl_mem cb = bufferWith(d, zero);
      auto run = [=](Driver &dd) -> CLBlastStatusCode {
        if (element == 8)
          return CLBlastDgemm(layout, ta, tb, n, n, n, 1.0, ab, 0, n, bb, 0,
                              n, 0.0, cb, 0, n, &dd.queue, nullptr);
        if (element == 2)
          return CLBlastHgemm(layout, ta, tb, n, n, n, toHalf(1.0f), ab, 0, n,
                              bb, 0, n, toHalf(0.0f), cb, 0, n, &dd.queue,
                              nullptr);
        return CLBlastSgemm(layout, ta, tb, n, n, n, 1.0f, ab, 0, n, bb, 0, n,
                            0.0f, cb, 0, n, &dd.queue, nullptr);
      };
      // Check a few elements: element (i, j) of op(A) op(B) in `layout`.
      if (run(d) != CLBlastSuccess)
        return std::function<CLBlastStatusCode(Driver &)>();
      clFinish(d.queue);
      std::vector<unsigned char> c(n * n * element);
      clEnqueueReadBuffer(d.queue, cb, CL_TRUE, 0, c.size(), c.data(), 0,
                          nullptr, nullptr);
      bool row_major = layout == CLBlastLayoutRowMajor;
      auto at = [&](const std::vector<float> &m, bool transposed, size_t r,
                    size_t col) {
        // Stored in `layout`; op() transposes.
        if (transposed)
          std::swap(r, col);
        return row_major ? m[r * n + col] : m[col * n + r];
      };
      for (size_t probe = 0; probe < 16; ++probe) {
        size_t i = (probe * 7919) % n, j = (probe * 104729) % n;
        double expected = 0;
        for (size_t k = 0; k < n; ++k)
          expected += double(at(*a, ta != CLBlastTransposeNo, i, k)) *
                      double(at(*b, tb != CLBlastTransposeNo, k, j));
        size_t index = row_major ? i * n + j : j * n + i;
        double got;
        if (element == 8) {
          std::memcpy(&got, &c[index * 8], 8);
        } else if (element == 2) {
          uint16_t h;
          std::memcpy(&h, &c[index * 2], 2);
          got = fromHalf(h);
        } else {
          float f;
          std::memcpy(&f, &c[index * 4], 4);
          got = f;
        }
        double tolerance = (element == 2 ? 2e-2 : element == 4 ? 1e-4 : 1e-10) *
                           std::sqrt(double(n)) * 4;
        if (!(std::fabs(got - expected) <= tolerance)) {
          std::printf("%s on %s: C(%zu,%zu) = %g, expected %g\n", name.c_str(),
                      d.label.c_str(), i, j, got, expected);
          return std::function<CLBlastStatusCode(Driver &)>();
        }
      }
      return std::function<CLBlastStatusCode(Driver &)>(run);
    }});
  };
  for (size_t n = 128; n <= max_n; n *= 2)
    for (CLBlastLayout layout : {CLBlastLayoutRowMajor, CLBlastLayoutColMajor})
      for (CLBlastTranspose ta : {CLBlastTransposeNo, CLBlastTransposeYes})
        for (CLBlastTranspose tb : {CLBlastTransposeNo, CLBlastTransposeYes})
          if (layout == CLBlastLayoutRowMajor || (ta == CLBlastTransposeNo &&
                                                  tb == CLBlastTransposeNo))
            addGemm("S", n, layout, ta, tb);
  for (size_t n = 128; n <= max_n; n *= 2) {
    addGemm("D", n, CLBlastLayoutRowMajor, CLBlastTransposeNo,
            CLBlastTransposeNo);
    addGemm("H", n, CLBlastLayoutRowMajor, CLBlastTransposeNo,
            CLBlastTransposeNo);
  }
  // SGEMV (y = A x) and SAXPY, memory-bound: bytes moved per call. CLBlast
  // reads a row-major A with XgemvFastRot (a tile staged through local
  // memory), a column-major one with XgemvFast (a column per work-item).
  for (size_t n : {size_t(1024), size_t(4096)})
    for (CLBlastLayout layout :
         {CLBlastLayoutRowMajor, CLBlastLayoutColMajor}) {
      bool row_major = layout == CLBlastLayoutRowMajor;
      rows.push_back(
          {"SGEMV " + std::to_string(n) + (row_major ? " row" : " col"),
           4.0 * (n * n + 2 * n), "GB/s", [=, &random, &value](Driver &d) {
             std::vector<float> a(n * n), x(n), y(n, 0.0f);
             for (float &v : a)
               v = value(random);
             for (float &v : x)
               v = value(random);
             cl_mem ab = bufferWith(d, a);
             cl_mem xb = bufferWith(d, x);
             cl_mem yb = bufferWith(d, y);
             auto run = [=](Driver &dd) {
               return CLBlastSgemv(layout, CLBlastTransposeNo, n, n, 1.0f, ab,
                                   0, n, xb, 0, 1, 0.0f, yb, 0, 1, &dd.queue,
                                   nullptr);
             };
             if (run(d) != CLBlastSuccess)
               return std::function<CLBlastStatusCode(Driver &)>();
             clEnqueueReadBuffer(d.queue, yb, CL_TRUE, 0, n * 4, y.data(), 0,
                                 nullptr, nullptr);
             for (size_t i = 0; i < n; i += n / 8) {
               double expected = 0;
               for (size_t k = 0; k < n; ++k)
                 expected +=
                     double(a[row_major ? i * n + k : k * n + i]) * x[k];
               if (std::fabs(y[i] - expected) > 1e-3) {
                 std::printf("SGEMV on %s: y[%zu] = %g, expected %g\n",
                             d.label.c_str(), i, y[i], expected);
                 return std::function<CLBlastStatusCode(Driver &)>();
               }
             }
             return std::function<CLBlastStatusCode(Driver &)>(run);
           }});
    }
  size_t saxpy_n = size_t(16) << 20;
  rows.push_back({"SAXPY 16Mi", 12.0 * saxpy_n, "GB/s", [=, &random,
                                                         &value](Driver &d) {
                    std::vector<float> x(saxpy_n), y(saxpy_n);
                    for (size_t i = 0; i < saxpy_n; ++i)
                      x[i] = value(random), y[i] = float(i % 100);
                    cl_mem xb = bufferWith(d, x);
                    cl_mem yb = bufferWith(d, y);
                    auto run = [=](Driver &dd) {
                      return CLBlastSaxpy(saxpy_n, 2.0f, xb, 0, 1, yb, 0, 1,
                                          &dd.queue, nullptr);
                    };
                    if (run(d) != CLBlastSuccess)
                      return std::function<CLBlastStatusCode(Driver &)>();
                    std::vector<float> got(saxpy_n);
                    clEnqueueReadBuffer(d.queue, yb, CL_TRUE, 0, saxpy_n * 4,
                                        got.data(), 0, nullptr, nullptr);
                    for (size_t i = 0; i < saxpy_n; i += 4099)
                      if (got[i] != 2.0f * x[i] + float(i % 100)) {
                        std::printf("SAXPY on %s: y[%zu] = %g\n",
                                    d.label.c_str(), i, got[i]);
                        return std::function<CLBlastStatusCode(Driver &)>();
                      }
                    return std::function<CLBlastStatusCode(Driver &)>(run);
                  }});

  // Routines beyond GEMM, GEMV and AXPY whose kernels fell off Weft's fast
  // paths (session 35): SYMV (CLBlast's generic Xgemv, the triangle chosen
  // per element), an out-of-place transpose (TransposeMatrixFast: float4
  // tiles in local memory, groups shuffled by a remainder), GER and DOT.
  const size_t mid_n = 2048;
  auto matrix = [=, &random, &value]() {
    std::vector<float> a(mid_n * mid_n);
    for (float &v : a)
      v = value(random);
    return a;
  };
  auto fails = [](const Driver &d, const char *what, size_t at, double got,
                  double expected) {
    if (std::fabs(got - expected) <= 1e-3 * (1 + std::fabs(expected)))
      return false;
    std::printf("%s on %s: [%zu] = %g, expected %g\n", what, d.label.c_str(),
                at, got, expected);
    return true;
  };
  rows.push_back(
      {"SSYMV 2048 upper", 4.0 * (mid_n * mid_n + 2 * mid_n), "GB/s",
       [=, &random, &value](Driver &d) {
         size_t n = mid_n;
         std::vector<float> a = matrix(), x(n), y(n, 0.0f);
         for (float &v : x)
           v = value(random);
         cl_mem ab = bufferWith(d, a), xb = bufferWith(d, x),
                yb = bufferWith(d, y);
         auto run = [=](Driver &dd) {
           return CLBlastSsymv(CLBlastLayoutRowMajor, CLBlastTriangleUpper, n,
                               1.0f, ab, 0, n, xb, 0, 1, 0.0f, yb, 0, 1,
                               &dd.queue, nullptr);
         };
         if (run(d) != CLBlastSuccess)
           return std::function<CLBlastStatusCode(Driver &)>();
         clEnqueueReadBuffer(d.queue, yb, CL_TRUE, 0, n * 4, y.data(), 0,
                             nullptr, nullptr);
         for (size_t i = 0; i < n; i += n / 8 + 1) {
           double expected = 0;
           for (size_t k = 0; k < n; ++k)
             expected += double(k >= i ? a[i * n + k] : a[k * n + i]) * x[k];
           if (fails(d, "SSYMV", i, y[i], expected))
             return std::function<CLBlastStatusCode(Driver &)>();
         }
         return std::function<CLBlastStatusCode(Driver &)>(run);
       }});
  rows.push_back(
      {"SOMATCOPY 2048 T", 8.0 * mid_n * mid_n, "GB/s",
       [=](Driver &d) {
         size_t n = mid_n;
         std::vector<float> a = matrix(), b(n * n, 0.0f);
         cl_mem ab = bufferWith(d, a), bb = bufferWith(d, b);
         auto run = [=](Driver &dd) {
           return CLBlastSomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes,
                                   n, n, 1.0f, ab, 0, n, bb, 0, n, &dd.queue,
                                   nullptr);
         };
         if (run(d) != CLBlastSuccess)
           return std::function<CLBlastStatusCode(Driver &)>();
         clEnqueueReadBuffer(d.queue, bb, CL_TRUE, 0, n * n * 4, b.data(), 0,
                             nullptr, nullptr);
         for (size_t i = 0; i < n; ++i)
           for (size_t j = 0; j < n; ++j)
             if (b[j * n + i] != a[i * n + j]) {
               fails(d, "SOMATCOPY", j * n + i, b[j * n + i], a[i * n + j]);
               return std::function<CLBlastStatusCode(Driver &)>();
             }
         return std::function<CLBlastStatusCode(Driver &)>(run);
       }});
  rows.push_back(
      {"SGER 2048", 8.0 * mid_n * mid_n, "GB/s",
       [=, &random, &value](Driver &d) {
         size_t n = mid_n;
         std::vector<float> a = matrix(), x(n), y(n);
         for (size_t i = 0; i < n; ++i)
           x[i] = value(random), y[i] = value(random);
         cl_mem ab = bufferWith(d, a), xb = bufferWith(d, x),
                yb = bufferWith(d, y);
         auto call = [=](Driver &dd, float alpha) {
           return CLBlastSger(CLBlastLayoutRowMajor, n, n, alpha, xb, 0, 1, yb,
                              0, 1, ab, 0, n, &dd.queue, nullptr);
         };
         if (call(d, 1.0f) != CLBlastSuccess)
           return std::function<CLBlastStatusCode(Driver &)>();
         std::vector<float> got(n * n);
         clEnqueueReadBuffer(d.queue, ab, CL_TRUE, 0, n * n * 4, got.data(),
                             0, nullptr, nullptr);
         for (size_t i = 0; i < n * n; i += 4099)
           if (fails(d, "SGER", i, got[i], a[i] + x[i / n] * y[i % n]))
             return std::function<CLBlastStatusCode(Driver &)>();
         return std::function<CLBlastStatusCode(Driver &)>(
             [=](Driver &dd) { return call(dd, 1.0f); });
       }});
  rows.push_back(
      {"SDOT 16Mi", 8.0 * saxpy_n, "GB/s", [=, &random, &value](Driver &d) {
         std::vector<float> x(saxpy_n), y(saxpy_n);
         double expected = 0;
         for (size_t i = 0; i < saxpy_n; ++i) {
           x[i] = float(i % 7) - 3.0f, y[i] = float(i % 5) - 2.0f;
           expected += double(x[i]) * y[i];
         }
         (void)random, (void)value;
         cl_mem xb = bufferWith(d, x), yb = bufferWith(d, y);
         std::vector<float> dot(1, 0.0f);
         cl_mem db = bufferWith(d, dot);
         auto run = [=](Driver &dd) {
           return CLBlastSdot(saxpy_n, db, 0, xb, 0, 1, yb, 0, 1, &dd.queue,
                              nullptr);
         };
         if (run(d) != CLBlastSuccess)
           return std::function<CLBlastStatusCode(Driver &)>();
         clEnqueueReadBuffer(d.queue, db, CL_TRUE, 0, 4, dot.data(), 0,
                             nullptr, nullptr);
         if (fails(d, "SDOT", 0, dot[0], expected))
           return std::function<CLBlastStatusCode(Driver &)>();
         return std::function<CLBlastStatusCode(Driver &)>(run);
       }});

  // Level-1 routines as applications call them: a length that is no
  // multiple of the vector width, or an offset, sends CLBlast to its
  // generic kernels (`Xaxpy`, `Xhad`): a grid-stride loop over
  // `x[id*x_inc + x_offset]`, strides given as arguments.
  const size_t odd_n = saxpy_n - 1;
  rows.push_back(
      {"SAXPY 16Mi-1 (generic)", 12.0 * odd_n, "GB/s",
       [=, &random, &value](Driver &d) {
         std::vector<float> x(odd_n), y(odd_n);
         for (size_t i = 0; i < odd_n; ++i)
           x[i] = value(random), y[i] = float(i % 100);
         cl_mem xb = bufferWith(d, x), yb = bufferWith(d, y);
         auto run = [=](Driver &dd) {
           return CLBlastSaxpy(odd_n, 2.0f, xb, 0, 1, yb, 0, 1, &dd.queue,
                               nullptr);
         };
         if (run(d) != CLBlastSuccess)
           return std::function<CLBlastStatusCode(Driver &)>();
         std::vector<float> got(odd_n);
         clEnqueueReadBuffer(d.queue, yb, CL_TRUE, 0, odd_n * 4, got.data(), 0,
                             nullptr, nullptr);
         for (size_t i = 0; i < odd_n; i += 4099)
           if (fails(d, "SAXPY", i, got[i], 2.0f * x[i] + float(i % 100)))
             return std::function<CLBlastStatusCode(Driver &)>();
         return std::function<CLBlastStatusCode(Driver &)>(run);
       }});
  rows.push_back(
      {"SHAD 16Mi, output offset", 16.0 * saxpy_n, "GB/s",
       [=, &random, &value](Driver &d) {
         const size_t offset = 16;
         std::vector<float> x(saxpy_n), y(saxpy_n), z(saxpy_n + offset);
         for (size_t i = 0; i < saxpy_n; ++i)
           x[i] = value(random), y[i] = value(random);
         for (size_t i = 0; i < z.size(); ++i)
           z[i] = float(i % 100);
         cl_mem xb = bufferWith(d, x), yb = bufferWith(d, y),
                zb = bufferWith(d, z);
         // z = 1 * x .* y + 0 * z: the same result however often it runs.
         auto run = [=](Driver &dd) {
           return CLBlastShad(saxpy_n, 1.0f, xb, 0, 1, yb, 0, 1, 0.0f, zb,
                              offset, 1, &dd.queue, nullptr);
         };
         if (run(d) != CLBlastSuccess)
           return std::function<CLBlastStatusCode(Driver &)>();
         std::vector<float> got(z.size());
         clEnqueueReadBuffer(d.queue, zb, CL_TRUE, 0, z.size() * 4, got.data(),
                             0, nullptr, nullptr);
         for (size_t i = 0; i < saxpy_n; i += 4099)
           if (fails(d, "SHAD", i, got[i + offset], x[i] * y[i]))
             return std::function<CLBlastStatusCode(Driver &)>();
         return std::function<CLBlastStatusCode(Driver &)>(run);
       }});

  // im2col of a 64-channel 256x256 image for a 3x3 convolution (padding 1):
  // the columns a convolution as GEMM reads, 9 times the image.
  rows.push_back(
      {"SIM2COL 64x256x256 3x3", 4.0 * 64 * 256 * 256 * 10, "GB/s",
       [=, &random, &value](Driver &d) {
         const size_t c = 64, h = 256, w = 256, k = 3;
         std::vector<float> im(c * h * w), col(c * k * k * h * w, -1.0f);
         for (float &v : im)
           v = value(random);
         cl_mem ib = bufferWith(d, im), cb = bufferWith(d, col);
         auto run = [=](Driver &dd) {
           return CLBlastSim2col(CLBlastKernelModeCrossCorrelation, c, h, w, k,
                                 k, 1, 1, 1, 1, 1, 1, ib, 0, cb, 0, &dd.queue,
                                 nullptr);
         };
         if (run(d) != CLBlastSuccess)
           return std::function<CLBlastStatusCode(Driver &)>();
         clEnqueueReadBuffer(d.queue, cb, CL_TRUE, 0, col.size() * 4,
                             col.data(), 0, nullptr, nullptr);
         // Row (channel, ky, kx) of the columns holds, for each output
         // pixel (y, x), the input at (y + ky - 1, x + kx - 1), 0 outside.
         for (size_t i = 0; i < col.size(); i += 9973) {
           size_t pixel = i % (h * w), row = i / (h * w);
           size_t ch = row / (k * k), ky = row / k % k, kx = row % k;
           long y = long(pixel / w) + long(ky) - 1;
           long x = long(pixel % w) + long(kx) - 1;
           float expected = y < 0 || x < 0 || y >= long(h) || x >= long(w)
                                ? 0.0f
                                : im[(ch * h + size_t(y)) * w + size_t(x)];
           if (fails(d, "SIM2COL", i, col[i], expected))
             return std::function<CLBlastStatusCode(Driver &)>();
         }
         return std::function<CLBlastStatusCode(Driver &)>(run);
       }});

  std::printf("%-24s", "row");
  for (Driver &d : drivers)
    std::printf(" %14s", d.label.c_str());
  std::printf("  %s\n", drivers.size() == 2 && drivers[1].label != "PoCL"
                            ? (drivers[0].label + "/" + drivers[1].label).c_str()
                            : "Weft/other");
  for (Row &row : rows) {
    if (row.name.find(filter) == std::string::npos)
      continue;
    std::vector<std::function<CLBlastStatusCode(Driver &)>> runs;
    for (Driver &d : drivers)
      runs.push_back(row.setup(d)); // builds, warms up and checks
    std::vector<std::vector<double>> rates(drivers.size());
    for (int r = 0; r < repeats; ++r)
      for (size_t i = 0; i < drivers.size(); ++i) {
        if (!runs[i])
          continue;
        clFinish(drivers[i].queue);
        double start = nowSeconds();
        runs[i](drivers[i]);
        clFinish(drivers[i].queue);
        rates[i].push_back(row.work / (nowSeconds() - start) / 1e9);
      }
    std::printf("%-24s", row.name.c_str());
    std::vector<double> medians;
    for (size_t i = 0; i < drivers.size(); ++i) {
      medians.push_back(runs[i] ? median(rates[i]) : 0);
      if (runs[i])
        std::printf(" %8.2f %-5s", medians.back(),
                    row.unit[1] == 'F' ? "GF/s" : "GB/s");
      else
        std::printf(" %14s", "failed");
    }
    if (medians.size() == 2 && medians[0] > 0 && medians[1] > 0)
      std::printf("  %.2fx", medians[0] / medians[1]);
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
