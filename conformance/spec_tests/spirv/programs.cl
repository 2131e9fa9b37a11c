// OpenCL C 2.0 kernels that conformance/spec_tests/spirv_test.cpp builds
// twice: from this source, and from the SPIR-V that Clang and the SPIR-V
// translator made of it (make_modules.sh, at -O0 and at -O2). Both builds
// must agree with the host's reference. They cover the parts of a module
// that come out differently from OpenCL C: conversions with saturation and
// rounding modes, integer and vector builtins, OpenCL.std math, generic
// pointers, program-scope variables, structs passed by value, local memory
// with barriers in two dimensions, C11 atomics, work-group collectives,
// 64-bit atomics, images with literal and argument samplers (2-D, 1-D,
// 1-D over a buffer), and pipes.

kernel void conversions(global const float *in, global int *rounded,
                        global uchar *saturated, global float *from_long) {
  size_t i = get_global_id(0);
  rounded[i] = convert_int_sat_rte(in[i]);
  saturated[i] = convert_uchar_sat(convert_int_sat_rtz(in[i]));
  from_long[i] = convert_float((long)in[i] * 3000000007L);
}

kernel void integers(global const uint *a, global const uint *b,
                     global uint *out) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i];
  out[8 * i + 0] = rotate(x, y);
  out[8 * i + 1] = popcount(x);
  out[8 * i + 2] = clz(x);
  out[8 * i + 3] = mul_hi(x, y);
  out[8 * i + 4] = add_sat(x, y);
  out[8 * i + 5] = abs_diff((int)x, (int)y);
  out[8 * i + 6] = mad24(x & 0xffff, y & 0xffff, 7u);
  out[8 * i + 7] = (uint)(upsample((ushort)x, (ushort)y) >> 5);
}

kernel void vectors(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  float4 a = vload4(i, in), b = vload4(i, in + 4);
  float4 mixed = shuffle2(a, b, (uint4)(0, 5, 2, 7));
  int4 larger = a > b;
  float4 picked = select(a, b, larger);
  vstore4(mixed + picked, i, out);
  out[4 * get_global_size(0) + i] = dot(a, b) + length(a.xyz) +
                                    cross(a, b).z + (any(larger) ? 1.f : 0.f);
}

kernel void math(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  float x = in[i];
  out[6 * i + 0] = exp(x * 0.25f);
  out[6 * i + 1] = log(fabs(x) + 1.f);
  out[6 * i + 2] = pow(fabs(x), 1.5f);
  out[6 * i + 3] = sin(x) + cos(x);
  out[6 * i + 4] = fma(x, x, -2.f);
  out[6 * i + 5] = clamp(x, -1.f, 1.f) + fmin(x, 0.5f) + step(0.f, x);
}

// A function on generic pointers, called with global and local ones.
void accumulate(int *into, const int *from, int n) {
  for (int k = 0; k < n; ++k)
    *into += from[k];
}

global atomic_int total = ATOMIC_VAR_INIT(0); // program-scope variable

kernel void generic_pointers(global const int *in, global int *out,
                             local int *scratch) {
  size_t l = get_local_id(0), g = get_global_id(0);
  scratch[l] = in[g];
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  accumulate(&sum, scratch, (int)get_local_size(0)); // local
  int own = 0;
  accumulate(&own, in + g, 1); // global
  out[g] = sum * 1000 + own;
  atomic_fetch_add_explicit(&total, own, memory_order_relaxed,
                            memory_scope_device);
}

kernel void read_total(global int *out) {
  out[0] = atomic_load(&total);
}

typedef struct {
  float scale;
  int offset;
  short2 pair;
} Params;

kernel void by_value(global int *data, Params p) {
  size_t i = get_global_id(0);
  data[i] = (int)(data[i] * p.scale) + p.offset + p.pair.x * p.pair.y;
}

// Sums each 2-D group through local memory, one row, then one column.
kernel void tile_sums(global const int *in, global int *sums,
                      local int *tile) {
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t w = get_local_size(0), h = get_local_size(1);
  tile[ly * w + lx] = in[get_global_id(1) * get_global_size(0) +
                         get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lx == 0) {
    int row = 0;
    for (size_t x = 0; x < w; ++x)
      row += tile[ly * w + x];
    tile[ly * w] = row;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lx == 0 && ly == 0) {
    int all = 0;
    for (size_t y = 0; y < h; ++y)
      all += tile[y * w];
    sums[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = all;
  }
}

kernel void collectives(global const int *in, global int *out) {
  size_t g = get_global_id(0);
  int x = in[g];
  out[4 * g + 0] = work_group_reduce_add(x);
  out[4 * g + 1] = work_group_scan_inclusive_max(x);
  out[4 * g + 2] = work_group_scan_exclusive_add(x);
  out[4 * g + 3] = work_group_broadcast(x, 3) + work_group_any(x > 90);
}

// Images: a sampler declared in the program (a literal sampler in SPIR-V)
// and one passed as an argument, a read-write image, and a 1-D image over
// a buffer.
constant sampler_t kNearestClamped = CLK_NORMALIZED_COORDS_FALSE |
                                     CLK_ADDRESS_CLAMP_TO_EDGE |
                                     CLK_FILTER_NEAREST;

kernel void shift_image(read_only image2d_t src, write_only image2d_t dst,
                        sampler_t linear) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  float4 left = read_imagef(src, kNearestClamped, at - (int2)(1, 0));
  float4 here = read_imagef(src, linear, (float2)(at.x + 0.5f, at.y + 0.5f));
  write_imagef(dst, at, left + here);
}

kernel void invert_in_place(read_write image2d_t image) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  uint4 texel = read_imageui(image, at);
  write_imageui(image, at, (uint4)(255) - texel);
}

kernel void from_buffer_image(read_only image1d_buffer_t texels,
                              global int *out) {
  int i = get_global_id(0);
  out[i] = read_imagei(texels, i).x + get_image_width(texels);
}

// Pipes: one kernel writes every work-item's value, the other reads them
// back.
kernel void produce(global const int *in, write_only pipe int out) {
  write_pipe(out, &in[get_global_id(0)]);
}

kernel void consume(read_only pipe int in, global int *out) {
  int value = -1;
  read_pipe(in, &value);
  out[get_global_id(0)] = value;
}

// 64-bit atomics, the 1.x forms and C11's.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void atomics64(volatile global long *counters,
                      volatile global atomic_long *c11) {
  long i = get_global_id(0);
  atom_add(&counters[0], i << 33);
  atom_max(&counters[1], i - 100);
  atomic_fetch_add_explicit(c11, 1L << 40, memory_order_relaxed,
                            memory_scope_device);
}

// 1-D images, sampled and written.
kernel void image_1d(read_only image1d_t src, write_only image1d_t dst,
                     sampler_t nearest) {
  int i = get_global_id(0);
  write_imagef(dst, i, read_imagef(src, nearest, (float)i + 0.5f) * 2.0f);
}
