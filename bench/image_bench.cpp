// Images against plain buffers, on Weft and PoCL side by side: the same
// filter written twice, once reading an image2d_t through a sampler and
// writing an image, once over uchar4 buffers with the edge handling by
// hand. A 3x3 convolution (clamp to edge, nearest) over 2048x2048 RGBA8,
// and a 2x bilinear resize (CLK_FILTER_LINEAR, normalized coordinates) from
// 1024x1024 to 2048x2048 RGBA8. Every output is checked against the host's
// within one step of 8 bits (the two forms round differently).
#include "kernel_bench.h"

#include <cmath>
#include <cstdlib>

namespace {

constexpr int kSide = 2048;      // convolution size, resize output size
constexpr int kSmallSide = 1024; // resize input size

const char *kConvolveBuffer = R"CLC(
kernel void convolve_buffers(global const uchar4 *src, global uchar4 *dst, int w,
                     int h) {
  int x = get_global_id(0), y = get_global_id(1);
  const float weight[3] = {1.0f, 2.0f, 1.0f};
  float4 sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = clamp(x + dx, 0, w - 1), sy = clamp(y + dy, 0, h - 1);
      sum += convert_float4(src[sy * w + sx]) *
             (weight[dx + 1] * weight[dy + 1] / 255.0f);
    }
  dst[y * w + x] = convert_uchar4_sat_rte(sum * (255.0f / 16.0f));
}
)CLC";

const char *kConvolveImage = R"CLC(
constant sampler_t kNearest = CLK_NORMALIZED_COORDS_FALSE |
                              CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
kernel void convolve(read_only image2d_t src, write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  const float weight[3] = {1.0f, 2.0f, 1.0f};
  float4 sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      sum += read_imagef(src, kNearest, (int2)(x + dx, y + dy)) *
             (weight[dx + 1] * weight[dy + 1]);
  write_imagef(dst, (int2)(x, y), sum / 16.0f);
}
)CLC";

const char *kResizeBuffer = R"CLC(
kernel void resize_buffers(global const uchar4 *src, int sw, int sh,
                   global uchar4 *dst, int dw, int dh) {
  int x = get_global_id(0), y = get_global_id(1);
  float u = (x + 0.5f) * ((float)sw / dw) - 0.5f;
  float v = (y + 0.5f) * ((float)sh / dh) - 0.5f;
  float fu = floor(u), fv = floor(v);
  float a = u - fu, b = v - fv;
  int x0 = clamp((int)fu, 0, sw - 1), x1 = clamp((int)fu + 1, 0, sw - 1);
  int y0 = clamp((int)fv, 0, sh - 1), y1 = clamp((int)fv + 1, 0, sh - 1);
  float4 t00 = convert_float4(src[y0 * sw + x0]);
  float4 t10 = convert_float4(src[y0 * sw + x1]);
  float4 t01 = convert_float4(src[y1 * sw + x0]);
  float4 t11 = convert_float4(src[y1 * sw + x1]);
  float4 t = (1.0f - a) * (1.0f - b) * t00 + a * (1.0f - b) * t10 +
             (1.0f - a) * b * t01 + a * b * t11;
  dst[y * dw + x] = convert_uchar4_sat_rte(t);
}
)CLC";

const char *kResizeImage = R"CLC(
constant sampler_t kLinear = CLK_NORMALIZED_COORDS_TRUE |
                             CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
kernel void resize(read_only image2d_t src, write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  float u = (x + 0.5f) * (1.0f / get_image_width(dst));
  float v = (y + 0.5f) * (1.0f / get_image_height(dst));
  write_imagef(dst, (int2)(x, y), read_imagef(src, kLinear, (float2)(u, v)));
}
)CLC";

std::vector<unsigned char> picture(int side, unsigned seed) {
  std::vector<unsigned char> texels(size_t(side) * side * 4);
  unsigned x = seed;
  for (unsigned char &c : texels) {
    x = x * 1664525u + 1013904223u;
    c = static_cast<unsigned char>(x >> 24);
  }
  return texels;
}

const std::vector<unsigned char> &bigPicture() {
  static std::vector<unsigned char> p = picture(kSide, 7);
  return p;
}
const std::vector<unsigned char> &smallPicture() {
  static std::vector<unsigned char> p = picture(kSmallSide, 11);
  return p;
}

unsigned char toByte(float v) {
  return static_cast<unsigned char>(
      std::lrint(std::fmin(255.0f, std::fmax(0.0f, v))));
}

const std::vector<unsigned char> &convolved() {
  static std::vector<unsigned char> out = [] {
    const std::vector<unsigned char> &in = bigPicture();
    std::vector<unsigned char> result(in.size());
    const float weight[3] = {1, 2, 1};
    for (int y = 0; y < kSide; ++y)
      for (int x = 0; x < kSide; ++x)
        for (int c = 0; c < 4; ++c) {
          float sum = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              int sx = std::min(std::max(x + dx, 0), kSide - 1);
              int sy = std::min(std::max(y + dy, 0), kSide - 1);
              sum += in[(size_t(sy) * kSide + sx) * 4 + c] * weight[dx + 1] *
                     weight[dy + 1];
            }
          result[(size_t(y) * kSide + x) * 4 + c] = toByte(sum / 16.0f);
        }
    return result;
  }();
  return out;
}

const std::vector<unsigned char> &resized() {
  static std::vector<unsigned char> out = [] {
    const std::vector<unsigned char> &in = smallPicture();
    std::vector<unsigned char> result(size_t(kSide) * kSide * 4);
    auto at = [&](int x, int y, int c) {
      x = std::min(std::max(x, 0), kSmallSide - 1);
      y = std::min(std::max(y, 0), kSmallSide - 1);
      return float(in[(size_t(y) * kSmallSide + x) * 4 + c]);
    };
    for (int y = 0; y < kSide; ++y)
      for (int x = 0; x < kSide; ++x) {
        float u = (x + 0.5f) * 0.5f - 0.5f, v = (y + 0.5f) * 0.5f - 0.5f;
        int x0 = int(std::floor(u)), y0 = int(std::floor(v));
        float a = u - x0, b = v - y0;
        for (int c = 0; c < 4; ++c)
          result[(size_t(y) * kSide + x) * 4 + c] = toByte(
              (1 - a) * (1 - b) * at(x0, y0, c) +
              a * (1 - b) * at(x0 + 1, y0, c) +
              (1 - a) * b * at(x0, y0 + 1, c) + a * b * at(x0 + 1, y0 + 1, c));
      }
    return result;
  }();
  return out;
}

// Empty when every byte is within 1 of the expected one.
std::string compareWithinOne(const std::vector<unsigned char> &got,
                             const std::vector<unsigned char> &expected) {
  size_t wrong = 0, first = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    if (std::abs(int(got[i]) - int(expected[i])) > 1 && wrong++ == 0)
      first = i;
  if (wrong == 0)
    return "";
  return std::to_string(wrong) + " of " + std::to_string(expected.size()) +
         " bytes off by more than 1; first at " + std::to_string(first) +
         ": got " + std::to_string(got[first]) + ", expected " +
         std::to_string(expected[first]);
}

cl_mem imageOf(const Driver &d, int side, const unsigned char *texels) {
  const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = size_t(side);
  cl_mem_flags flags =
      texels ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR : CL_MEM_WRITE_ONLY;
  return clCreateImage(d.context, flags, &format, &desc,
                       const_cast<unsigned char *>(texels), nullptr);
}

std::vector<unsigned char> readImage(const Driver &d, cl_mem image, int side) {
  std::vector<unsigned char> host(size_t(side) * side * 4);
  const size_t origin[3] = {0, 0, 0};
  const size_t region[3] = {size_t(side), size_t(side), 1};
  clEnqueueReadImage(d.queue, image, CL_TRUE, origin, region, 0, 0, host.data(),
                     0, nullptr, nullptr);
  return host;
}

void setGrid(Instance &in) {
  in.dims = 2;
  in.global[0] = in.global[1] = kSide;
  in.local[0] = 64;
  in.local[1] = 1;
}

Benchmark convolveBuffer(const char *name) {
  Benchmark bm;
  bm.name = name;
  bm.unit = "Mpix/s";
  bm.work = double(kSide) * kSide * 1e3; // pixels, as Mpix at 1e9
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kConvolveBuffer, "convolve_buffers", error))
      return false;
    cl_mem src = bufferWith(d, bigPicture());
    cl_mem dst = bufferOf(d, bigPicture().size());
    in.buffers = {src, dst};
    int side = kSide;
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &src);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &dst);
    clSetKernelArg(in.kernel, 2, sizeof(int), &side);
    clSetKernelArg(in.kernel, 3, sizeof(int), &side);
    setGrid(in);
    in.verify = [&d, dst](int) {
      return compareWithinOne(
          readBack<unsigned char>(d, dst, convolved().size()), convolved());
    };
    return true;
  };
  return bm;
}

Benchmark convolveImage(const char *name) {
  Benchmark bm;
  bm.name = name;
  bm.unit = "Mpix/s";
  bm.work = double(kSide) * kSide * 1e3; // pixels, as Mpix at 1e9
  bm.available = [](const Driver &d) {
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(d.device, CL_DEVICE_IMAGE_SUPPORT, sizeof(images), &images,
                    nullptr);
    return images == CL_TRUE;
  };
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kConvolveImage, "convolve", error))
      return false;
    cl_mem src = imageOf(d, kSide, bigPicture().data());
    cl_mem dst = imageOf(d, kSide, nullptr);
    in.buffers = {src, dst};
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &src);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &dst);
    setGrid(in);
    in.verify = [&d, dst](int) {
      return compareWithinOne(readImage(d, dst, kSide), convolved());
    };
    return true;
  };
  return bm;
}

Benchmark resizeBuffer(const char *name) {
  Benchmark bm;
  bm.name = name;
  bm.unit = "Mpix/s";
  bm.work = double(kSide) * kSide * 1e3; // pixels, as Mpix at 1e9
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kResizeBuffer, "resize_buffers", error))
      return false;
    cl_mem src = bufferWith(d, smallPicture());
    cl_mem dst = bufferOf(d, size_t(kSide) * kSide * 4);
    in.buffers = {src, dst};
    int small = kSmallSide, big = kSide;
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &src);
    clSetKernelArg(in.kernel, 1, sizeof(int), &small);
    clSetKernelArg(in.kernel, 2, sizeof(int), &small);
    clSetKernelArg(in.kernel, 3, sizeof(cl_mem), &dst);
    clSetKernelArg(in.kernel, 4, sizeof(int), &big);
    clSetKernelArg(in.kernel, 5, sizeof(int), &big);
    setGrid(in);
    in.verify = [&d, dst](int) {
      return compareWithinOne(readBack<unsigned char>(d, dst, resized().size()),
                              resized());
    };
    return true;
  };
  return bm;
}

Benchmark resizeImage(const char *name) {
  Benchmark bm = convolveImage(name); // for `available`
  bm.setup = [](const Driver &d, Instance &in, std::string &error) {
    if (!prepare(d, in, kResizeImage, "resize", error))
      return false;
    cl_mem src = imageOf(d, kSmallSide, smallPicture().data());
    cl_mem dst = imageOf(d, kSide, nullptr);
    in.buffers = {src, dst};
    clSetKernelArg(in.kernel, 0, sizeof(cl_mem), &src);
    clSetKernelArg(in.kernel, 1, sizeof(cl_mem), &dst);
    setGrid(in);
    in.verify = [&d, dst](int) {
      return compareWithinOne(readImage(d, dst, kSide), resized());
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
  std::printf("Images against buffers, RGBA8 2048x2048 outputs: median wall "
              "time of enqueue + clFinish per launch; ratio = first driver's "
              "throughput / second's\n");
  runner.header();
  const char *conv_buffer = "3x3 convolution, buffers";
  const char *conv_image = "3x3 convolution, image";
  const char *resize_buffer = "bilinear 2x resize, buffers";
  const char *resize_image = "bilinear 2x resize, image";
  runner.run(convolveBuffer(conv_buffer));
  runner.run(convolveImage(conv_image));
  runner.run(resizeBuffer(resize_buffer));
  runner.run(resizeImage(resize_image));
  std::printf("\nImages against buffers on each driver (time of the buffer "
              "kernel / time of the image kernel; 1.00 = as fast):\n");
  for (const Driver &d : runner.drivers()) {
    runner.compare("3x3 convolution, " + d.label, conv_image, d.label,
                   conv_buffer, d.label);
    runner.compare("bilinear resize, " + d.label, resize_image, d.label,
                   resize_buffer, d.label);
  }
  return runner.exitStatus("image_bench");
}
