// Kernel shapes taken from public GPU code, written for this benchmark (no
// code copied): the ways libraries and applications write their kernels,
// which Weft's own benchmarks do not. Each runs on Weft and PoCL
// alternating, is checked exactly against the host, and `WEFT_DEBUG=1`
// shows the path Weft chose for it (bench/RESULTS.md records both).
//   - a 3x3 box filter on float4 RGBA pixels (image-processing libraries);
//   - a radix-16 FFT per work-item on float2, its 16 points in a private
//     array (VkFFT's and clFFT's register kernels);
//   - a 9-tap convolution in half arithmetic (inference kernels);
//   - a GEMM whose work-items each keep a 4x4 tile of C in a private array
//     (register tiling, as CLBlast's and MIOpen's kernels do);
//   - a histogram of bytes in local memory with local atomics, merged with
//     global atomics (the CUDA/OpenCL samples' histogram);
//   - an 8-bit quantized matrix-vector product with packed dot products
//     (cl_khr_integer_dot_product; int8 inference kernels), the matrix laid
//     out so neighbouring work-items read neighbouring words, and an int8
//     GEMM whose work-items each compute four rows of a column (four dot
//     products per word loaded);
//   - two per-pixel kernels without loops on uchar4 RGBA pixels, as colour
//     conversion and compositing code writes them: luminance as dot() of
//     the pixel as float4 with weights (a vector taken apart), and an alpha
//     blend of two pictures (a vector computed on whole).
// Inputs are small integers (or exactly representable fractions), so the
// host's sums equal the kernels' whatever their order; the kernels that
// multiply and add turn contraction off, and the host is built without it.
#include "kernel_bench.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace {

const char *kShapes = R"CLC(
#pragma OPENCL FP_CONTRACT OFF

kernel void box_filter(global const float4 *in, global float4 *out,
                       int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  float4 sum = (float4)(0.0f);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = clamp(x + dx, 0, width - 1), sy = clamp(y + dy, 0, height - 1);
      sum += in[sy * width + sx];
    }
  out[y * width + x] = sum * 0.125f;
}

// 16 complex points per work-item, strided by the number of work-items,
// transformed in registers: 4 radix-2 stages on the private array.
constant float2 twiddles16[8] = {
    (float2)(1.0f, 0.0f),        (float2)(0.9238795f, -0.38268343f),
    (float2)(0.70710677f, -0.70710677f), (float2)(0.38268343f, -0.9238795f),
    (float2)(0.0f, -1.0f),       (float2)(-0.38268343f, -0.9238795f),
    (float2)(-0.70710677f, -0.70710677f), (float2)(-0.9238795f, -0.38268343f)};
kernel void fft16(global const float2 *in, global float2 *out) {
  size_t id = get_global_id(0), n = get_global_size(0);
  float2 v[16];
  for (int i = 0; i < 16; ++i)
    v[i] = in[id + i * n];
  for (int span = 8, step = 1; span >= 1; span /= 2, step *= 2)
    for (int i = 0; i < 16; i += 2 * span)
      for (int j = 0; j < span; ++j) {
        float2 a = v[i + j], b = v[i + j + span];
        float2 w = twiddles16[j * step];
        float2 d = a - b;
        v[i + j] = a + b;
        v[i + j + span] = (float2)(d.x * w.x - d.y * w.y, d.x * w.y + d.y * w.x);
      }
  for (int i = 0; i < 16; ++i)
    out[id * 16 + i] = v[i];
}

// C = A B, n x n, row-major; each work-item a 4x4 tile of C.
kernel void gemm_tile4(global const float *a, global const float *b,
                       global float *c, int n) {
  int col = get_global_id(0) * 4, row = get_global_id(1) * 4;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k = 0; k < n; ++k) {
    float4 bk = vload4(0, b + k * n + col);
    for (int i = 0; i < 4; ++i) {
      float aik = a[(row + i) * n + k];
      acc[i][0] += aik * bk.x;
      acc[i][1] += aik * bk.y;
      acc[i][2] += aik * bk.z;
      acc[i][3] += aik * bk.w;
    }
  }
  for (int i = 0; i < 4; ++i)
    vstore4((float4)(acc[i][0], acc[i][1], acc[i][2], acc[i][3]), 0,
            c + (row + i) * n + col);
}

kernel void histogram256(global const uchar *data, global uint *bins,
                         int per_item) {
  local uint counts[256];
  int lid = get_local_id(0), size = get_local_size(0);
  for (int i = lid; i < 256; i += size)
    counts[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t base = get_group_id(0) * size * per_item;
  for (int i = 0; i < per_item; ++i)
    atomic_inc(&counts[data[base + i * size + lid]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < 256; i += size)
    atomic_add(&bins[i], counts[i]);
}
)CLC";

const char *kPixelShapes = R"CLC(
#pragma OPENCL FP_CONTRACT OFF
kernel void luminance(global const uchar4 *rgba, global float *luma) {
  int i = get_global_id(0);
  luma[i] = dot(convert_float4(rgba[i]), (float4)(0.25f, 0.5f, 0.125f, 0.0f));
}

kernel void alpha_blend(global const uchar4 *a, global const uchar4 *b,
                        global uchar4 *out, float alpha) {
  int i = get_global_id(0);
  float4 mixed = convert_float4(a[i]) * alpha +
                 convert_float4(b[i]) * (1.0f - alpha);
  out[i] = convert_uchar4_sat_rte(mixed);
}
)CLC";

const char *kDotShapes = R"CLC(
kernel void int8_gemm4(global const uint *a, global const uint *b,
                       global int *c, int k_words) {
  int col = get_global_id(0), cols = get_global_size(0);
  int row = get_global_id(1) * 4;
  global const uint *a0 = a + row * k_words;
  int acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
  for (int k = 0; k < k_words; ++k) {
    uint w = b[k * cols + col];
    acc0 += dot_4x8packed_su_int(a0[k], w);
    acc1 += dot_4x8packed_su_int(a0[k_words + k], w);
    acc2 += dot_4x8packed_su_int(a0[2 * k_words + k], w);
    acc3 += dot_4x8packed_su_int(a0[3 * k_words + k], w);
  }
  c[row * cols + col] = acc0;
  c[(row + 1) * cols + col] = acc1;
  c[(row + 2) * cols + col] = acc2;
  c[(row + 3) * cols + col] = acc3;
}

kernel void int8_gemv(global const uint *a, global const uint *x,
                      global int *y, int k_words) {
  int row = get_global_id(0), rows = get_global_size(0);
  int acc = 0;
  for (int k = 0; k < k_words; ++k)
    acc += dot_4x8packed_su_int(a[k * rows + row], x[k]);
  y[row] = acc;
}
)CLC";

const char *kHalfShapes = R"CLC(
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void conv9_half(global const half *in, constant half *taps,
                       global half *out, int n) {
  int i = get_global_id(0);
  half acc = 0.0h;
  for (int k = 0; k < 9; ++k) {
    int j = clamp(i + k - 4, 0, n - 1);
    acc = acc + in[j] * taps[k];
  }
  out[i] = acc;
}

)CLC";

// One half operation: computed in float, rounded once to half (exact for
// +, -, *: float has more than twice half's precision).
float roundHalf(float f) { return fromHalf(toHalf(f)); }

constexpr int kWidth = 2048, kHeight = 1024;

Benchmark boxFilter() {
  static std::vector<float> pixels = smallIntegers(kWidth * kHeight * 4, 7, 256);
  static std::vector<float> expected(pixels.size());
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x)
      for (int c = 0; c < 4; ++c) {
        float sum = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            int sx = std::clamp(x + dx, 0, kWidth - 1),
                sy = std::clamp(y + dy, 0, kHeight - 1);
            sum += pixels[(sy * kWidth + sx) * 4 + c];
          }
        expected[(y * kWidth + x) * 4 + c] = sum * 0.125f;
      }
  Benchmark bm;
  bm.name = "box filter 3x3, float4 pixels";
  bm.unit = "Mpix/s";
  bm.work = double(kWidth) * kHeight * 1e3; // pixels, shown in millions
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kShapes, "box_filter", error))
      return false;
    cl_mem src = bufferWith(d, pixels);
    cl_mem dst = bufferOf(d, pixels.size() * 4);
    in.buffers = {src, dst};
    int w = kWidth, h = kHeight;
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &src);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &dst);
    clSetKernelArg(in.kernel, 2, sizeof w, &w);
    clSetKernelArg(in.kernel, 3, sizeof h, &h);
    in.dims = 2;
    in.global[0] = kWidth;
    in.global[1] = kHeight;
    in.local[0] = 64;
    in.local[1] = 1;
    in.verify = [&d, dst](int) {
      return compareExact(readBack<float>(d, dst, expected.size()), expected,
                          "channels");
    };
    return true;
  };
  return bm;
}

constexpr size_t kFftItems = 1 << 16; // 16 points each: 1Mi points

Benchmark fft16() {
  // Points are multiples of 1/4 in [-8, 8]: the butterflies' sums stay
  // exact, and the host does the same operations in the same order.
  static std::vector<float> points(kFftItems * 32);
  for (size_t i = 0; i < points.size(); ++i)
    points[i] = float(int((i * 2654435761u) % 65) - 32) * 0.25f;
  static const float tw[8][2] = {
      {1.0f, 0.0f},
      {0.9238795f, -0.38268343f},
      {0.70710677f, -0.70710677f},
      {0.38268343f, -0.9238795f},
      {0.0f, -1.0f},
      {-0.38268343f, -0.9238795f},
      {-0.70710677f, -0.70710677f},
      {-0.9238795f, -0.38268343f}};
  static std::vector<float> expected(points.size());
  for (size_t id = 0; id < kFftItems; ++id) {
    float v[16][2];
    for (int i = 0; i < 16; ++i) {
      v[i][0] = points[(id + i * kFftItems) * 2];
      v[i][1] = points[(id + i * kFftItems) * 2 + 1];
    }
    for (int span = 8, step = 1; span >= 1; span /= 2, step *= 2)
      for (int i = 0; i < 16; i += 2 * span)
        for (int j = 0; j < span; ++j) {
          float ax = v[i + j][0], ay = v[i + j][1];
          float bx = v[i + j + span][0], by = v[i + j + span][1];
          const float *w = tw[j * step];
          float dx = ax - bx, dy = ay - by;
          v[i + j][0] = ax + bx;
          v[i + j][1] = ay + by;
          v[i + j + span][0] = dx * w[0] - dy * w[1];
          v[i + j + span][1] = dx * w[1] + dy * w[0];
        }
    for (int i = 0; i < 16; ++i) {
      expected[(id * 16 + i) * 2] = v[i][0];
      expected[(id * 16 + i) * 2 + 1] = v[i][1];
    }
  }
  Benchmark bm;
  bm.name = "FFT radix 16, float2, private array";
  bm.unit = "GFLOP/s";
  // 4 stages of 8 butterflies: 6 adds and subtracts, 6 multiplies and adds.
  bm.work = kFftItems * 4.0 * 8 * 10;
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kShapes, "fft16", error))
      return false;
    cl_mem src = bufferWith(d, points);
    cl_mem dst = bufferOf(d, points.size() * 4);
    in.buffers = {src, dst};
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &src);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &dst);
    in.global[0] = kFftItems;
    in.local[0] = 64;
    in.verify = [&d, dst](int) {
      return compareExact(readBack<float>(d, dst, expected.size()), expected,
                          "components");
    };
    return true;
  };
  return bm;
}

constexpr int kConvItems = 1 << 22;

Benchmark conv9Half() {
  static std::vector<cl_half> input(kConvItems);
  static std::vector<float> values = smallIntegers(kConvItems, 11, 64);
  for (int i = 0; i < kConvItems; ++i)
    input[i] = toHalf(values[i] * 0.0625f);
  static const float taps_f[9] = {0.0625f, 0.125f, 0.25f,  0.5f,  1.0f,
                                  0.5f,    0.25f,  0.125f, 0.0625f};
  static std::vector<cl_half> taps(9), expected(kConvItems);
  for (int k = 0; k < 9; ++k)
    taps[k] = toHalf(taps_f[k]);
  for (int i = 0; i < kConvItems; ++i) {
    float acc = 0;
    for (int k = 0; k < 9; ++k) {
      int j = std::clamp(i + k - 4, 0, kConvItems - 1);
      acc = roundHalf(acc + roundHalf(fromHalf(input[j]) * taps_f[k]));
    }
    expected[i] = toHalf(acc);
  }
  Benchmark bm;
  bm.name = "convolution 9 taps, half";
  bm.unit = "GFLOP/s";
  bm.work = kConvItems * 18.0;
  bm.needs = "cl_khr_fp16";
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kHalfShapes, "conv9_half", error))
      return false;
    cl_mem src = bufferWith(d, input);
    cl_mem tap = bufferWith(d, taps);
    cl_mem dst = bufferOf(d, input.size() * 2);
    in.buffers = {src, tap, dst};
    int n = kConvItems;
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &src);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &tap);
    clSetKernelArg(in.kernel, 2, sizeof(cl_mem), &dst);
    clSetKernelArg(in.kernel, 3, sizeof n, &n);
    in.global[0] = kConvItems;
    in.local[0] = 256;
    in.verify = [&d, dst](int) {
      return compareExact(readBack<cl_half>(d, dst, expected.size()),
                          expected, "halves");
    };
    return true;
  };
  return bm;
}

constexpr int kGemmN = 512;

Benchmark gemmTile4() {
  static std::vector<float> a = smallIntegers(kGemmN * kGemmN, 3, 8),
                            b = smallIntegers(kGemmN * kGemmN, 5, 8);
  static std::vector<float> expected(kGemmN * kGemmN);
  for (int i = 0; i < kGemmN; ++i)
    for (int j = 0; j < kGemmN; ++j) {
      float sum = 0;
      for (int k = 0; k < kGemmN; ++k)
        sum += a[i * kGemmN + k] * b[k * kGemmN + j];
      expected[i * kGemmN + j] = sum;
    }
  Benchmark bm;
  bm.name = "GEMM 512, 4x4 register tile";
  bm.unit = "GFLOP/s";
  bm.work = 2.0 * kGemmN * kGemmN * kGemmN;
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kShapes, "gemm_tile4", error))
      return false;
    cl_mem ab = bufferWith(d, a);
    cl_mem bb = bufferWith(d, b);
    cl_mem cb = bufferOf(d, expected.size() * 4);
    in.buffers = {ab, bb, cb};
    int n = kGemmN;
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &ab);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &bb);
    clSetKernelArg(in.kernel, 2, sizeof(cl_mem), &cb);
    clSetKernelArg(in.kernel, 3, sizeof n, &n);
    in.dims = 2;
    in.global[0] = kGemmN / 4;
    in.global[1] = kGemmN / 4;
    in.local[0] = 16;
    in.local[1] = 4;
    in.verify = [&d, cb](int) {
      return compareExact(readBack<float>(d, cb, expected.size()), expected,
                          "elements");
    };
    return true;
  };
  return bm;
}

constexpr int kHistItems = 1 << 16, kPerItem = 256;

Benchmark histogram() {
  static std::vector<unsigned char> data(size_t(kHistItems) * kPerItem);
  unsigned x = 17;
  for (unsigned char &c : data) {
    x = x * 1664525u + 1013904223u;
    c = (unsigned char)((x >> 24) & ((x >> 8) | 0x3f)); // uneven bins
  }
  static std::vector<cl_uint> expected(256, 0);
  for (unsigned char c : data)
    ++expected[c];
  Benchmark bm;
  bm.name = "histogram 256 bins, local atomics";
  bm.unit = "GB/s";
  bm.work = double(data.size());
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kShapes, "histogram256", error))
      return false;
    cl_mem src = bufferWith(d, data);
    cl_mem bins = bufferOf(d, 256 * 4);
    in.buffers = {src, bins};
    int per = kPerItem;
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &src);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &bins);
    clSetKernelArg(in.kernel, 2, sizeof per, &per);
    in.global[0] = kHistItems;
    in.local[0] = 256;
    cl_uint zero = 0;
    clEnqueueFillBuffer(d.queue, bins, &zero, 4, 0, 256 * 4, 0, nullptr,
                        nullptr);
    in.verify = [&d, bins](int launches) {
      std::vector<cl_uint> scaled(256);
      for (int i = 0; i < 256; ++i)
        scaled[i] = expected[i] * cl_uint(launches);
      return compareExact(readBack<cl_uint>(d, bins, 256), scaled, "bins");
    };
    return true;
  };
  return bm;
}

constexpr int kGemvRows = 1 << 15, kGemvWords = 256; // 1024 int8 per row

Benchmark int8Gemv() {
  static std::vector<cl_uint> matrix(size_t(kGemvRows) * kGemvWords),
      vector(kGemvWords);
  static std::vector<cl_int> expected(kGemvRows);
  uint32_t state = 12345;
  auto next = [&state] { return state = state * 1664525u + 1013904223u; };
  for (cl_uint &w : matrix)
    w = next();
  for (cl_uint &w : vector)
    w = next();
  for (int r = 0; r < kGemvRows; ++r) {
    int64_t acc = 0;
    for (int k = 0; k < kGemvWords; ++k)
      for (int byte = 0; byte < 4; ++byte) {
        uint32_t a = matrix[size_t(k) * kGemvRows + r], x = vector[k];
        acc += int64_t(int8_t(a >> 8 * byte)) * int64_t(uint8_t(x >> 8 * byte));
      }
    expected[r] = cl_int(acc);
  }
  Benchmark bm;
  bm.name = "int8 GEMV, packed dot products";
  bm.unit = "Gdot4/s";
  bm.work = double(kGemvRows) * kGemvWords;
  bm.needs = "cl_khr_integer_dot_product";
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kDotShapes, "int8_gemv", error))
      return false;
    cl_mem a = bufferWith(d, matrix);
    cl_mem x = bufferWith(d, vector);
    cl_mem y = bufferOf(d, expected.size() * 4);
    in.buffers = {a, x, y};
    int words = kGemvWords;
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &a);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &x);
    clSetKernelArg(in.kernel, 2, sizeof(cl_mem), &y);
    clSetKernelArg(in.kernel, 3, sizeof words, &words);
    in.global[0] = kGemvRows;
    in.local[0] = 128;
    in.verify = [&d, y](int) {
      return compareExact(readBack<cl_int>(d, y, expected.size()), expected,
                          "sums");
    };
    return true;
  };
  return bm;
}

constexpr size_t kPixels = size_t(kWidth) * kHeight;

std::vector<cl_uchar4> randomPixels(uint32_t seed) {
  std::vector<cl_uchar4> pixels(kPixels);
  for (cl_uchar4 &p : pixels)
    for (int c = 0; c < 4; ++c)
      p.s[c] = cl_uchar((seed = seed * 1664525u + 1013904223u) >> 24);
  return pixels;
}

Benchmark luminance() {
  static std::vector<cl_uchar4> pixels = randomPixels(7);
  static std::vector<float> expected(kPixels);
  for (size_t i = 0; i < kPixels; ++i) // exact: small integers, 2^-k weights
    expected[i] = pixels[i].s[0] * 0.25f + pixels[i].s[1] * 0.5f +
                  pixels[i].s[2] * 0.125f;
  Benchmark bm;
  bm.name = "luminance, uchar4 pixels (dot)";
  bm.unit = "Mpix/s";
  bm.work = double(kPixels) * 1e3;
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kPixelShapes, "luminance", error))
      return false;
    cl_mem src = bufferWith(d, pixels);
    cl_mem dst = bufferOf(d, kPixels * sizeof(float));
    in.buffers = {src, dst};
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &src);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &dst);
    in.global[0] = kPixels;
    in.local[0] = 256;
    in.verify = [&d, dst](int) {
      return compareExact(readBack<float>(d, dst, kPixels), expected, "luma");
    };
    return true;
  };
  return bm;
}

Benchmark alphaBlend() {
  static std::vector<cl_uchar4> a = randomPixels(11), b = randomPixels(13);
  // alpha = 0.25: every product and sum exact in float; the result is
  // rounded to nearest even once, as convert_uchar4_sat_rte does.
  static std::vector<cl_uchar> expected(kPixels * 4);
  for (size_t i = 0; i < kPixels; ++i)
    for (int c = 0; c < 4; ++c)
      expected[i * 4 + c] = cl_uchar(std::clamp(
          std::nearbyint(a[i].s[c] * 0.25f + b[i].s[c] * 0.75f), 0.0f, 255.0f));
  Benchmark bm;
  bm.name = "alpha blend, uchar4 pixels";
  bm.unit = "Mpix/s";
  bm.work = double(kPixels) * 1e3;
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kPixelShapes, "alpha_blend", error))
      return false;
    cl_mem src_a = bufferWith(d, a), src_b = bufferWith(d, b);
    cl_mem dst = bufferOf(d, kPixels * 4);
    in.buffers = {src_a, src_b, dst};
    float alpha = 0.25f;
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &src_a);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &src_b);
    clSetKernelArg(in.kernel, 2, sizeof(cl_mem), &dst);
    clSetKernelArg(in.kernel, 3, sizeof alpha, &alpha);
    in.global[0] = kPixels;
    in.local[0] = 256;
    in.verify = [&d, dst](int) {
      return compareExact(readBack<cl_uchar>(d, dst, kPixels * 4), expected,
                          "channels");
    };
    return true;
  };
  return bm;
}

// C (64 x 4096) = A (64 x 1024 int8) B (1024 x 4096 uint8): each
// work-item a column, four rows of A the same for the work-items of a
// row, so four dot products for each word of B loaded.
constexpr int kGemmRows = 64, kGemmCols = 4096, kGemmWords = 256;

Benchmark int8Gemm4() {
  static std::vector<cl_uint> a(size_t(kGemmRows) * kGemmWords),
      b(size_t(kGemmWords) * kGemmCols);
  static std::vector<cl_int> expected(size_t(kGemmRows) * kGemmCols);
  uint32_t state = 777;
  auto next = [&state] { return state = state * 1664525u + 1013904223u; };
  for (cl_uint &w : a)
    w = next();
  for (cl_uint &w : b)
    w = next();
  for (int r = 0; r < kGemmRows; ++r)
    for (int c = 0; c < kGemmCols; ++c) {
      int64_t acc = 0;
      for (int k = 0; k < kGemmWords; ++k) {
        uint32_t x = a[size_t(r) * kGemmWords + k], y = b[size_t(k) * kGemmCols + c];
        for (int byte = 0; byte < 4; ++byte)
          acc += int64_t(int8_t(x >> 8 * byte)) * int64_t(uint8_t(y >> 8 * byte));
      }
      expected[size_t(r) * kGemmCols + c] = cl_int(acc);
    }
  Benchmark bm;
  bm.name = "int8 GEMM, 4 rows per work-item";
  bm.unit = "Gdot4/s";
  bm.work = double(kGemmRows) * kGemmCols * kGemmWords;
  bm.needs = "cl_khr_integer_dot_product";
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kDotShapes, "int8_gemm4", error))
      return false;
    cl_mem am = bufferWith(d, a), bm_ = bufferWith(d, b);
    cl_mem cm = bufferOf(d, expected.size() * 4);
    in.buffers = {am, bm_, cm};
    int words = kGemmWords;
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &am);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &bm_);
    clSetKernelArg(in.kernel, 2, sizeof(cl_mem), &cm);
    clSetKernelArg(in.kernel, 3, sizeof words, &words);
    in.dims = 2;
    in.global[0] = kGemmCols;
    in.global[1] = kGemmRows / 4;
    in.local[0] = 128;
    in.local[1] = 1;
    in.verify = [&d, cm](int) {
      return compareExact(readBack<cl_int>(d, cm, expected.size()), expected,
                          "sums");
    };
    return true;
  };
  return bm;
}

} // namespace

int main(int argc, char **argv) {
  Runner runner(driversFromArguments(argc, argv), 6.0);
  if (runner.drivers().empty())
    return 1;
  std::printf("Kernel shapes from public code: median wall time of enqueue + "
              "clFinish per launch; ratio = first driver's throughput / "
              "second's\n");
  runner.header();
  runner.run(boxFilter());
  runner.run(fft16());
  runner.run(conv9Half());
  runner.run(gemmTile4());
  runner.run(histogram());
  runner.run(int8Gemv());
  runner.run(int8Gemm4());
  runner.run(luminance());
  runner.run(alphaBlend());
  return runner.exitStatus("kernel_shapes_bench");
}
