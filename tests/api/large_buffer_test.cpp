// Buffers and images of 2 MiB and more live on huge pages, each starting at
// its own offset in them (runtime/memory.cpp): every one still starts on
// CL_DEVICE_MEM_BASE_ADDR_ALIGN, keeps its contents whole to the last byte,
// and is released in any order (the sanitizer builds check the frees).
#include "api_fixture.h"

#include <cstdint>
#include <vector>

TEST_CASE_METHOD(WeftFixture,
                 "large buffers keep their alignment and every byte", "[api]") {
  cl_uint align_bits = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                          sizeof align_bits, &align_bits,
                          nullptr) == CL_SUCCESS);
  const cl_ulong align = align_bits / 8;
  cl_kernel k = kernel(R"(
    kernel void touch(global uchar *data, ulong size, global ulong *base) {
      size_t i = get_global_id(0);
      if (i == 0)
        *base = (ulong)data;
      for (size_t at = i; at < size; at += get_global_size(0))
        data[at] = (uchar)(data[at] + 1);
    })",
                       "touch");
  // Below, at and above the huge-page size, odd sizes included, several
  // alive at once so their offsets differ.
  const size_t sizes[] = {(size_t(2) << 20) - 1,    size_t(2) << 20,
                          (size_t(3) << 20) + 13,   size_t(5) << 20,
                          (size_t(2) << 20) + 4096, size_t(9) << 20};
  std::vector<cl_mem> buffers;
  cl_mem base = buffer(sizeof(cl_ulong));
  for (size_t size : sizes) {
    INFO("size " << size);
    std::vector<unsigned char> host(size);
    for (size_t i = 0; i < size; ++i)
      host[i] = static_cast<unsigned char>(i * 7 + size);
    cl_mem data = buffer(size, host.data());
    buffers.push_back(data);
    cl_ulong bytes = size;
    REQUIRE(clSetKernelArg(k, 0, sizeof data, &data) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof bytes, &bytes) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof base, &base) == CL_SUCCESS);
    const size_t global = 4096;
    REQUIRE(runAndWait(k, 1, &global, nullptr) == CL_SUCCESS);
    cl_ulong address = 0;
    REQUIRE(clEnqueueReadBuffer(queue, base, CL_TRUE, 0, sizeof address,
                                &address, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(address % align == 0);
    std::vector<unsigned char> back(size);
    REQUIRE(clEnqueueReadBuffer(queue, data, CL_TRUE, 0, size, back.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    size_t wrong = 0;
    for (size_t i = 0; i < size; ++i)
      wrong += back[i] != static_cast<unsigned char>(host[i] + 1);
    CHECK(wrong == 0);
  }
  // Released out of the order they were made in.
  for (size_t i = 0; i < buffers.size(); i += 2)
    clReleaseMemObject(buffers[i]);
  for (size_t i = 1; i < buffers.size(); i += 2)
    clReleaseMemObject(buffers[i]);
  clReleaseMemObject(base);
  clReleaseKernel(k);
}

TEST_CASE_METHOD(WeftFixture, "a large image keeps every pixel", "[api]") {
  const size_t width = 1024, height = 1031; // 4 MiB and a few rows
  std::vector<cl_uchar> host(width * height * 4);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<cl_uchar>(i * 13 + i / 4096);
  const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = width;
  desc.image_height = height;
  cl_int err;
  cl_mem image =
      clCreateImage(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &format,
                    &desc, host.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<cl_uchar> back(host.size());
  const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  REQUIRE(clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0, 0,
                             back.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(back == host);
  clReleaseMemObject(image);
}
