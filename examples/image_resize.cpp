// Scales a picture to twice its size the way image code does on a GPU: the
// source is an image read through a bilinear sampler, the result an image
// written texel by texel. Checks every output byte against the host's own
// bilinear filter (within one 8-bit step).
#include "example_common.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

static const char *kSource = R"CLC(
constant sampler_t kLinear = CLK_NORMALIZED_COORDS_TRUE |
                             CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
kernel void resize(read_only image2d_t src, write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  float u = (x + 0.5f) / get_image_width(dst);
  float v = (y + 0.5f) / get_image_height(dst);
  write_imagef(dst, (int2)(x, y), read_imagef(src, kLinear, (float2)(u, v)));
}
)CLC";

int main() {
  const size_t side = 256, big = 2 * side;
  cl_platform_id platform = findPlatform();
  cl_device_id device;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
  cl_bool images = CL_FALSE;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof(images),
                        &images, nullptr));
  if (!images) {
    std::printf("image_resize: the device has no image support: FAILED\n");
    return 1;
  }
  cl_int err;
  cl_context context =
      clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  CHECK(err);
  cl_command_queue queue =
      clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  CHECK(err);

  // A picture with smooth gradients and a hard edge.
  std::vector<unsigned char> picture(side * side * 4);
  for (size_t y = 0; y < side; ++y)
    for (size_t x = 0; x < side; ++x) {
      unsigned char *texel = &picture[(y * side + x) * 4];
      texel[0] = static_cast<unsigned char>(x);
      texel[1] = static_cast<unsigned char>(y);
      texel[2] = x < side / 2 ? 0 : 255;
      texel[3] = 255;
    }
  const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = side;
  cl_mem src = clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             &format, &desc, picture.data(), &err);
  CHECK(err);
  desc.image_width = desc.image_height = big;
  cl_mem dst =
      clCreateImage(context, CL_MEM_WRITE_ONLY, &format, &desc, nullptr, &err);
  CHECK(err);

  cl_program program = buildProgram(context, device, kSource);
  cl_kernel kernel = clCreateKernel(program, "resize", &err);
  CHECK(err);
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &src));
  CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &dst));
  const size_t global[2] = {big, big};
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, nullptr, 0,
                               nullptr, nullptr));
  std::vector<unsigned char> result(big * big * 4);
  const size_t origin[3] = {0, 0, 0}, region[3] = {big, big, 1};
  CHECK(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 0, 0,
                           result.data(), 0, nullptr, nullptr));

  auto at = [&](long x, long y, int c) {
    x = std::min<long>(std::max<long>(x, 0), long(side) - 1);
    y = std::min<long>(std::max<long>(y, 0), long(side) - 1);
    return float(picture[(size_t(y) * side + size_t(x)) * 4 + c]);
  };
  size_t wrong = 0;
  for (size_t y = 0; y < big; ++y)
    for (size_t x = 0; x < big; ++x) {
      float u = (x + 0.5f) * 0.5f - 0.5f, v = (y + 0.5f) * 0.5f - 0.5f;
      long x0 = long(std::floor(u)), y0 = long(std::floor(v));
      float a = u - x0, b = v - y0;
      for (int c = 0; c < 4; ++c) {
        float want = (1 - a) * (1 - b) * at(x0, y0, c) +
                     a * (1 - b) * at(x0 + 1, y0, c) +
                     (1 - a) * b * at(x0, y0 + 1, c) +
                     a * b * at(x0 + 1, y0 + 1, c);
        int got = result[(y * big + x) * 4 + c];
        if (std::abs(got - int(std::lrint(want))) > 1)
          ++wrong;
      }
    }
  std::printf("image_resize: %zux%zu RGBA8 to %zux%zu, %zu bytes wrong: %s\n",
              side, side, big, big, wrong, wrong ? "FAILED" : "verified");

  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return wrong ? 1 : 0;
}
