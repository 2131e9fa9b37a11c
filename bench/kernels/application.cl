// A typical application's OpenCL 1.2 program, for cold builds
// (bench/build_bench): the everyday kernels of issue 19's table and a few
// more an image-processing or simulation code carries in one program.
// `first result` runs saxpy; the rest are only built.

#define TS 16

kernel void saxpy(global const float *x, global float *y, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}

kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm_tiled(global const float *a, global const float *b,
                 global float *c, int n) {
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

kernel void sgemm_naive(global const float *a, global const float *b,
                        global float *c, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}

kernel void reduce_sum(global const float *in, global float *out,
                       local float *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = scratch[0];
}

kernel void mandelbrot(global int *out, int width, float x0, float y0,
                       float step, int max_iter) {
  int px = get_global_id(0), py = get_global_id(1);
  float cr = x0 + px * step, ci = y0 + py * step;
  float zr = 0.0f, zi = 0.0f;
  int i = 0;
  while (i < max_iter && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++i;
  }
  out[py * width + px] = i;
}

kernel void nbody(global const float4 *pos, global float4 *acc, int n,
                  float soften) {
  int i = get_global_id(0);
  float4 p = pos[i];
  float3 a = (float3)(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 q = pos[j];
    float3 d = q.xyz - p.xyz;
    float inv = rsqrt(dot(d, d) + soften);
    a += d * (q.w * inv * inv * inv);
  }
  acc[i] = (float4)(a, 0.0f);
}

kernel void transpose(global const float *in, global float *out, int width,
                      int height) {
  local float tile[TS][TS + 1];
  int x = get_group_id(0) * TS + get_local_id(0);
  int y = get_group_id(1) * TS + get_local_id(1);
  if (x < width && y < height)
    tile[get_local_id(1)][get_local_id(0)] = in[y * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * TS + get_local_id(0);
  y = get_group_id(0) * TS + get_local_id(1);
  if (x < height && y < width)
    out[y * height + x] = tile[get_local_id(0)][get_local_id(1)];
}

kernel void stencil5(global const float *in, global float *out, int width,
                     int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x == 0 || y == 0 || x >= width - 1 || y >= height - 1) {
    if (x < width && y < height)
      out[y * width + x] = in[y * width + x];
    return;
  }
  int i = y * width + x;
  out[i] = 0.5f * in[i] +
           0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}

kernel void gather(global const float *in, global const int *index,
                   global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[index[i]];
}

kernel void histogram256(global const uchar *data, int n,
                         global uint *bins) {
  local uint counts[256];
  for (int b = get_local_id(0); b < 256; b += get_local_size(0))
    counts[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&counts[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = get_local_id(0); b < 256; b += get_local_size(0))
    atomic_add(&bins[b], counts[b]);
}

kernel void scan_block(global const int *in, global int *out,
                       local int *temp) {
  int lid = get_local_id(0), n = get_local_size(0);
  temp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = 1; offset < n; offset *= 2) {
    int add = lid >= offset ? temp[lid - offset] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    temp[lid] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = temp[lid];
}

kernel void bitonic_step(global uint *keys, uint stage, uint pass) {
  uint i = get_global_id(0);
  uint distance = 1u << (stage - pass);
  uint left = (i >> (stage - pass)) * (distance << 1) + (i & (distance - 1));
  uint right = left + distance;
  bool up = ((i >> stage) & 1u) == 0;
  uint a = keys[left], b = keys[right];
  if ((a > b) == up) {
    keys[left] = b;
    keys[right] = a;
  }
}

kernel void blur3x3(global const uchar4 *in, global uchar4 *out, int width,
                    int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  float4 sum = (float4)(0.0f);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = clamp(x + dx, 0, width - 1), sy = clamp(y + dy, 0, height - 1);
      sum += convert_float4(in[sy * width + sx]);
    }
  out[y * width + x] = convert_uchar4_sat_rte(sum / 9.0f);
}

kernel void rgb_to_gray(global const uchar4 *in, global float *out) {
  size_t i = get_global_id(0);
  float4 p = convert_float4(in[i]) / 255.0f;
  out[i] = dot(p.xyz, (float3)(0.299f, 0.587f, 0.114f));
}

kernel void black_scholes(global const float *spot, global const float *strike,
                          global const float *years, global float *call,
                          global float *put, float rate, float volatility) {
  size_t i = get_global_id(0);
  float s = spot[i], k = strike[i], t = years[i];
  float sqrt_t = sqrt(t);
  float d1 = (log(s / k) + (rate + 0.5f * volatility * volatility) * t) /
             (volatility * sqrt_t);
  float d2 = d1 - volatility * sqrt_t;
  float nd1 = 0.5f * erfc(-d1 * M_SQRT1_2_F);
  float nd2 = 0.5f * erfc(-d2 * M_SQRT1_2_F);
  float discount = exp(-rate * t);
  call[i] = s * nd1 - k * discount * nd2;
  put[i] = k * discount * (1.0f - nd2) - s * (1.0f - nd1);
}

kernel void normalize_vectors(global float4 *v) {
  size_t i = get_global_id(0);
  v[i] = normalize(v[i]);
}

kernel void polar(global const float2 *xy, global float2 *out) {
  size_t i = get_global_id(0);
  float2 p = xy[i];
  out[i] = (float2)(hypot(p.x, p.y), atan2(p.y, p.x));
}

kernel void fir16(global const float *in, constant float *taps,
                  global float *out) {
  size_t i = get_global_id(0);
  float acc = 0.0f;
  for (int t = 0; t < 16; ++t)
    acc = fma(in[i + t], taps[t], acc);
  out[i] = acc;
}

kernel void int_mix(global const uint *in, global uint *out) {
  size_t i = get_global_id(0);
  uint x = in[i];
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  out[i] = popcount(x) + clz(x) + rotate(x, 7u) + mul_hi(x, 0x9e3779b9u);
}

kernel void convert_pixels(global const float *in, global short *out16,
                           global uchar *out8) {
  size_t i = get_global_id(0);
  float v = in[i];
  out16[i] = convert_short_sat_rtz(v * 32767.0f);
  out8[i] = convert_uchar_sat(v * 255.0f);
}

kernel void vector_math(global const float8 *a, global const float8 *b,
                        global float8 *out) {
  size_t i = get_global_id(0);
  float8 x = a[i], y = b[i];
  out[i] = mad(x, y, fmax(x, y)) + native_sqrt(fabs(x - y)) +
           select(x, y, isgreater(x, y));
}

kernel void matvec(global const float *m, global const float *v,
                   global float *out, int columns, local float *partial) {
  int row = get_group_id(0), lid = get_local_id(0), n = get_local_size(0);
  float sum = 0.0f;
  for (int c = lid; c < columns; c += n)
    sum += m[row * columns + c] * v[c];
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (lid < s)
      partial[lid] += partial[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[row] = partial[0];
}

kernel void copy_async(global const float4 *in, global float4 *out,
                       local float4 *tile) {
  size_t n = get_local_size(0), base = get_group_id(0) * n;
  event_t e = async_work_group_copy(tile, in + base, n, 0);
  wait_group_events(1, &e);
  size_t lid = get_local_id(0);
  tile[lid] = tile[lid] * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(out + base, tile, n, 0);
  wait_group_events(1, &e);
}

kernel void softmax_row(global const float *in, global float *out,
                        int columns) {
  int row = get_global_id(0);
  global const float *x = in + row * columns;
  float m = x[0];
  for (int c = 1; c < columns; ++c)
    m = fmax(m, x[c]);
  float total = 0.0f;
  for (int c = 0; c < columns; ++c)
    total += exp(x[c] - m);
  for (int c = 0; c < columns; ++c)
    out[row * columns + c] = exp(x[c] - m) / total;
}
