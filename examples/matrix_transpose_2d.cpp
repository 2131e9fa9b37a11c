// A 2-D kernel: transposes a matrix that is not a multiple of the work-group
// size, with a global offset, and checks every element.
#include "example_common.h"

static const char *kSource = R"CLC(
typedef struct { int rows; int columns; } Shape;
kernel void transpose(global const int *in, global int *out, Shape shape) {
  int column = get_global_id(0) - get_global_offset(0);
  int row = get_global_id(1) - get_global_offset(1);
  if (row < shape.rows && column < shape.columns)
    out[column * shape.rows + row] = in[row * shape.columns + column];
}
)CLC";

struct Shape {
  cl_int rows, columns;
};

int main() {
  const Shape shape = {300, 517};
  const size_t count = size_t(shape.rows) * shape.columns;
  cl_platform_id platform = findPlatform();
  cl_device_id device;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
  cl_int err;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  CHECK(err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  CHECK(err);

  std::vector<cl_int> input(count), output(count, -1);
  for (size_t i = 0; i < count; ++i)
    input[i] = cl_int(i * 7 + 3);
  cl_mem in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                             count * sizeof(cl_int), input.data(), &err);
  CHECK(err);
  cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, count * sizeof(cl_int),
                              nullptr, &err);
  CHECK(err);

  cl_program program = buildProgram(context, device, kSource);
  cl_kernel kernel = clCreateKernel(program, "transpose", &err);
  CHECK(err);
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &in));
  CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &out));
  CHECK(clSetKernelArg(kernel, 2, sizeof(Shape), &shape));
  // Round up to 16x16 groups; the kernel skips the padding.
  const size_t offset[2] = {5, 9};
  const size_t local[2] = {16, 16};
  const size_t global[2] = {(size_t(shape.columns) + 15) / 16 * 16,
                            (size_t(shape.rows) + 15) / 16 * 16};
  cl_event done;
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, offset, global, local, 0,
                               nullptr, &done));
  CHECK(clWaitForEvents(1, &done));
  CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, count * sizeof(cl_int),
                            output.data(), 0, nullptr, nullptr));

  size_t wrong = 0;
  for (int r = 0; r < shape.rows; ++r)
    for (int c = 0; c < shape.columns; ++c)
      if (output[size_t(c) * shape.rows + r] != input[size_t(r) * shape.columns + c])
        ++wrong;
  std::printf("matrix_transpose_2d: %dx%d, %zu wrong: %s\n", shape.rows,
              shape.columns, wrong, wrong ? "FAILED" : "verified");

  clReleaseEvent(done);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return wrong ? 1 : 0;
}
