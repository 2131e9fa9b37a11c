// Adds two vectors on the OpenCL device and checks every element.
#include "example_common.h"

static const char *kSource = R"CLC(
kernel void vector_add(global const float *a, global const float *b,
                       global float *sum) {
  size_t i = get_global_id(0);
  sum[i] = a[i] + b[i];
}
)CLC";

int main() {
  const size_t n = 1 << 20;
  cl_platform_id platform = findPlatform();
  cl_device_id device;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
  cl_int err;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  CHECK(err);
  cl_command_queue queue =
      clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  CHECK(err);

  std::vector<float> a(n), b(n), sum(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = float(2 * i) + 0.5f;
  }
  cl_mem da = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             n * sizeof(float), a.data(), &err);
  CHECK(err);
  cl_mem db = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             n * sizeof(float), b.data(), &err);
  CHECK(err);
  cl_mem dsum = clCreateBuffer(context, CL_MEM_WRITE_ONLY, n * sizeof(float),
                               nullptr, &err);
  CHECK(err);

  cl_program program = buildProgram(context, device, kSource);
  cl_kernel kernel = clCreateKernel(program, "vector_add", &err);
  CHECK(err);
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &da));
  CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &db));
  CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dsum));
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, 0,
                               nullptr, nullptr));
  CHECK(clEnqueueReadBuffer(queue, dsum, CL_TRUE, 0, n * sizeof(float),
                            sum.data(), 0, nullptr, nullptr));

  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    if (sum[i] != a[i] + b[i])
      ++wrong;
  std::printf("vector_add: %zu elements, %zu wrong: %s\n", n, wrong,
              wrong ? "FAILED" : "verified");

  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dsum);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return wrong ? 1 : 0;
}
