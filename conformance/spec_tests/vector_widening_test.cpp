// Work-items that compute in vector types (OpenCL C 6.3: float4 ... int16,
// swizzles, shuffles, vloadn/vstoren, vector comparisons and selects) must
// each compute what they would alone, however Weft groups them. Weft widens
// such kernels across work-items, keeping each work-item's vectors whole or
// splitting them into elements (compiler/passes/kernels/widening_checks.h),
// in as many work-items at once as their registers allow
// (widening_width.h). Each kernel here runs twice: as written, and with a
// barrier at its end, which sends it down the barrier-region path, an
// independent way to run the same code one work-item at a time. Both must
// write the same bytes, in group sizes that are and are not multiples of
// the widths Weft chooses, with loops all work-items go round as often and
// loops they leave at different times, and without loops. CTest runs them
// with the barrier kernels on fibers, one work-item at a time.
#include "api_fixture.h"

#include <cstdint>
#include <random>
#include <vector>

namespace {

const char *kVectorKernels = R"CLC(
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define ARGS global const float *inf, global const int *ini, global uchar *out, int n
#define PASS inf, ini, out, n
#define KERNEL(name) \
  kernel void name(ARGS) { name##_body(PASS); } \
  kernel void name##_reference(ARGS) { \
    name##_body(PASS); \
    barrier(CLK_GLOBAL_MEM_FENCE); \
  }
#define GID ((int)(get_global_id(1) * get_global_size(0) + get_global_id(0)))
#define MINE(T) ((global T *)(out + GID * 64))

// clpeak's bandwidth shape: a float4 sum of loads that step by the group's
// size, neighbouring work-items on neighbouring float4s.
void sum4_body(ARGS) {
  global const float4 *a = (global const float4 *)inf;
  int id = get_group_id(0) * get_local_size(0) * 4 + get_local_id(0) +
           get_group_id(1) * 4096;
  float4 sum = 0;
  for (int i = 0; i < 4; ++i) {
    sum += a[id];
    id += get_local_size(0);
  }
  vstore4(sum, 0, MINE(float));
  MINE(float)[4] = sum.s0 + sum.s1 + sum.s2 + sum.s3;
}
KERNEL(sum4)

// The same in float16, which a loop that streams memory widens over few
// work-items, perhaps one (widening_width.cpp).
void sum16_body(ARGS) {
  global const float16 *a = (global const float16 *)inf;
  int id = get_group_id(0) * get_local_size(0) * 4 + get_local_id(0) +
           get_group_id(1) * 1024;
  float16 sum = 0;
  for (int i = 0; i < 4; ++i) {
    sum += a[id % (n / 16)];
    id += get_local_size(0);
  }
  vstore16(sum, 0, MINE(float));
}
KERNEL(sum16)

// clpeak's compute shape: float16 FMA chains round a loop every work-item
// goes round as often.
void chain16_body(ARGS) {
  float16 x = (float16)(inf[GID % n]) +
              (float16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) *
                  0.01f;
  float16 y = (float16)(get_local_id(0)) * 0.001f;
  for (int i = 0; i < 24; ++i) {
    x = fmin(mad(y, x, y), 64.0f);
    y = fmax(mad(x, y, x) * 0.25f, -64.0f);
  }
  vstore16(x + y, 0, MINE(float));
}
KERNEL(chain16)

// float8 round a loop work-items leave at different times: swizzles, a
// shuffle, a vector comparison and select, an element written and read,
// unaligned vector loads of scattered addresses.
void diverge8_body(ARGS) {
  int gid = GID;
  float8 v = vload8(0, inf + (gid * 3) % (n - 8));
  int8 k = vload8(0, ini + gid % 64);
  float8 acc = (float8)(0.0f);
  for (int i = 0; i < gid % 9; ++i) {
    float8 w = v.s12345670 * 0.5f + acc.s76543210;
    w = fmin(w * w * 0.0625f + v, 1000.0f) - acc * 0.125f;
    int8 m = isgreater(w, (float8)((float)i));
    acc = select(acc - w * 0.25f, acc + w, m);
    acc.s3 = acc.s0 + (float)i;
    v = shuffle(v, (uint8)(7, 6, 5, 4, 3, 2, 1, 0)) + convert_float8(k & 7);
    if (acc.s5 > 50.0f)
      break;
  }
  vstore8(acc, 0, MINE(float));
  vstore8(v + convert_float8(k), 1, MINE(float));
}
KERNEL(diverge8)

// int4 and uchar16: division by vectors under a condition, rotates, shifts,
// clamps, saturating adds, reinterpretation between vector types.
void int4ops_body(ARGS) {
  int gid = GID;
  int4 a = vload4(gid % 100, ini);
  int4 d = (a & 15) + 1;
  int4 q = (int4)(gid) / d + (int4)(gid) % d;
  for (int i = 0; i < (gid & 7); ++i) {
    if (gid % 3)
      q = q / d - i;
    q = rotate(q, (int4)(i)) ^ (q >> 3);
    q = clamp(q, -10000, 10000) + as_int4(abs(d - 8));
    q = max(q, a) + mad24(d, q, (int4)(1));
  }
  float4 f = as_float4(q & 0x3f7fffff);
  uchar16 b = add_sat(as_uchar16(q), (uchar16)(200));
  vstore4(q, 0, MINE(int));
  vstore4(f, 1, MINE(float));
  vstore16(b, 2, MINE(uchar));
}
KERNEL(int4ops)

// double2 with vectors loaded from a constant table by the loop's counter
// (one load for all work-items), and a store to one address per group
// under a condition: the last work-item meeting it wins, in work-item order.
constant float4 table[8] = {(float4)(1, 2, 3, 4),   (float4)(-1, 0.5f, 2, 8),
                            (float4)(0, 0, 1, 1),   (float4)(3, -3, 3, -3),
                            (float4)(0.25f, 4, 1, 9), (float4)(7, 6, 5, 4),
                            (float4)(-2, -4, 8, 16), (float4)(1, 1, 1, 1)};
void pairs_body(ARGS) {
  int gid = GID;
  double2 s = (double2)((double)gid, 1.0);
  for (int i = 0; i < 12; ++i) {
    float4 t = table[i & 7];
    s = s * 0.75 + convert_double2(t.xy) * (double)i;
  }
  if ((gid * 7) % 5 == 2) {
    size_t group = get_group_id(1) * get_num_groups(0) + get_group_id(0);
    ((global double2 *)(out + get_global_size(0) * get_global_size(1) * 64))
        [group] = s;
  }
  vstore2(s, 0, MINE(double));
}
KERNEL(pairs)

// float3 (whose arrays step by 16 bytes, not 12), cross and dot products,
// a rotation of elements; short8 beside it.
void geometry3_body(ARGS) {
  int gid = GID;
  float3 p = vload3(gid % 500, inf);
  float3 q = vload3(gid % 300, inf + 7);
  global const float3 *r = (global const float3 *)inf;
  float3 s = r[(gid * 5) % 200];
  short8 h = convert_short8(vload8(gid % 50, ini) & 0x7fff);
  for (int i = 0; i <= (gid & 3); ++i) {
    p = cross(p, q) * 0.125f + q;
    q = q.zxy + s;
    h = h + (short8)(i) * h.s76543210;
  }
  vstore3(p, 0, MINE(float));
  MINE(float)[3] = dot(p, q);
  vstore8(h, 1, MINE(short));
  vstore3(q, 2, MINE(float));
}
KERNEL(geometry3)

// Private arrays: a register tile indexed by loop counters (unrolled into
// registers, then widened), and a table indexed by data (stays memory).
void tiles_body(ARGS) {
  int gid = GID;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = (float)(i - j);
  for (int k = 0; k < 8 + gid % 5; ++k) {
    float4 b = vload4(k, inf + (gid % 64) * 4);
    for (int i = 0; i < 4; ++i) {
      float a = inf[(gid + i * 7 + k) % n];
      acc[i][0] = acc[i][0] * 0.5f + a * b.x;
      acc[i][1] = acc[i][1] * 0.5f + a * b.y;
      acc[i][2] = acc[i][2] * 0.5f + a * b.z;
      acc[i][3] = acc[i][3] * 0.5f + a * b.w;
    }
  }
  for (int i = 0; i < 4; ++i)
    vstore4((float4)(acc[i][0], acc[i][1], acc[i][2], acc[i][3]), i,
            MINE(float));
}
KERNEL(tiles)

void lookup_body(ARGS) {
  int gid = GID;
  int lookup[8];
  for (int i = 0; i < 8; ++i)
    lookup[i] = ini[(gid + i) % 64];
  int picked = 0;
  for (int k = 0; k < 6; ++k)
    picked += lookup[(picked + k) & 7] & 255;
  MINE(int)[0] = picked;
}
KERNEL(lookup)

// Without loops: pixels as uchar4 and float4 taken apart (dot) and computed
// on whole (mix, swizzles, saturating conversions), int4, float3 through
// vload3 and cross, short8. Widened since session 27 (LLVM's loop
// vectorizer left them one work-item at a time). Their 16 results are
// stored element k of every work-item together (SLOT), so the stores are
// to neighbouring words, not a scatter that would keep them unwidened on
// AVX2.
#define ITEMS (get_global_size(0) * get_global_size(1))
#define ID (get_global_id(1) * get_global_size(0) + get_global_id(0))
#define SLOT(T, k) (((global T *)out)[(k) * ITEMS + ID])
void pixels_body(ARGS) {
  size_t gid = ID;
  uchar4 p = as_uchar4(ini[gid]); // neighbours' neighbouring words
  float4 f = convert_float4(p);
  SLOT(float, 0) = dot(f, (float4)(0.299f, 0.587f, 0.114f, 0.0f));
  float4 mixed = mix(f, (float4)(inf[gid]), 0.25f);
  SLOT(uint, 1) = as_uint(convert_uchar4_sat_rte(mixed.zyxw * 1.5f));
  int4 q = convert_int4(f) * (int4)(3, -5, 7, -11);
  SLOT(int, 2) = q.x;
  SLOT(int, 3) = q.y ^ q.z;
  SLOT(int, 4) = q.w;
  float3 c = cross(vload3(gid, inf), (float3)(1.0f, 2.0f, 3.0f));
  SLOT(float, 5) = c.x;
  SLOT(float, 6) = c.y;
  SLOT(float, 7) = c.z;
  short8 s = convert_short8_sat((float8)(f, f.wzyx) * 1000.0f);
  SLOT(int, 8) = s.s0 * 65536 + s.s7;
  SLOT(int, 9) = s.s1 * 65536 + s.s6;
  SLOT(int, 10) = s.s2 * 65536 + s.s5;
  SLOT(int, 11) = s.s3 * 65536 + s.s4;
}
KERNEL(pixels)

// Every 8-bit dot product form on words the work-items load and on one
// word the same for all (the VNNI pass reads both as words).
void dots_body(ARGS) {
  size_t gid = ID;
  // At most 1,024 work-items: neighbouring words.
  uint x = ini[gid], y = ini[gid + 1024], u = ini[7];
  int c = ini[gid + 2048];
  SLOT(int, 0) = (int)dot_4x8packed_uu_uint(x, y);
  SLOT(int, 1) = dot_4x8packed_ss_int(x, y);
  SLOT(int, 2) = dot_4x8packed_us_int(x, y);
  SLOT(int, 3) = dot_4x8packed_su_int(x, y);
  SLOT(int, 4) = (int)dot_acc_sat_4x8packed_uu_uint(x, y, (uint)c);
  SLOT(int, 5) = dot_acc_sat_4x8packed_ss_int(x, y, c);
  SLOT(int, 6) = dot_acc_sat_4x8packed_us_int(x, y, c);
  SLOT(int, 7) = dot_acc_sat_4x8packed_su_int(x, y, c << 20);
  SLOT(int, 8) = (int)dot(as_uchar4(x), as_uchar4(u));
  SLOT(int, 9) = dot(as_char4(x), as_char4(u));
  SLOT(int, 10) = dot(as_uchar4(u), as_char4(y));
  SLOT(int, 11) = dot(as_char4(u), as_uchar4(y));
  SLOT(int, 12) = dot_acc_sat(as_char4(x), as_uchar4(u), c);
  SLOT(int, 13) = dot_acc_sat(as_char4(x), as_char4(y), c << 24);
  SLOT(int, 14) = dot_4x8packed_su_int(u, x) + dot_4x8packed_su_int(y, x);
  SLOT(int, 15) = (int)dot_4x8packed_uu_uint(u, u);
}
KERNEL(dots)

// Vectors computed on whole round a loop, then taken apart whole after it:
// every element of a float8, a float16 and a double4 per work-item, which
// the widener deals out by transposing the work-items' vectors
// (widener_transposes.cpp) where they span several AVX2 registers.
void dealt_body(ARGS) {
  int gid = GID;
  float8 v = vload8(0, inf + gid % (n - 8)) * 0.25f;
  float16 w = vload16(0, inf + (gid * 5) % (n - 16)) * 0.125f;
  double4 d = convert_double4(vload4(0, inf + (gid * 3) % (n - 4)));
  for (int i = 0; i < 5; ++i) {
    v = mad(v, v * 0.0625f, (float8)(0.5f));
    w = fmin(w * w + w * 0.5f, 8.0f);
    d = d * d * 0.03125 + 0.25;
  }
  MINE(float)[0] = v.s0 * v.s1 - v.s2 * v.s3 + v.s4 * v.s5 - v.s6 * v.s7;
  MINE(float)[1] = v.s7 + v.s3 * 2.0f;
  MINE(float)[2] = w.s0 + w.s1 * w.s2 - w.s3 + w.s4 * w.s5 - w.s6 + w.s7;
  MINE(float)[3] = w.s8 - w.s9 * w.sa + w.sb - w.sc * w.sd + w.se - w.sf;
  MINE(double)[2] = d.s0 * d.s1 - d.s2 * d.s3;
  MINE(double)[3] = d.s3 + d.s1;
}
KERNEL(dealt)
)CLC";

struct VectorFixture : WeftFixture {
  std::vector<float> floats;
  std::vector<cl_int> ints;

  VectorFixture() {
    std::mt19937 random(34);
    std::uniform_real_distribution<float> value(-4.0f, 4.0f);
    floats.resize(1 << 16);
    for (float &f : floats)
      f = value(random);
    ints.resize(1 << 12);
    for (cl_int &i : ints)
      i = cl_int(random() % 200001) - 100000;
  }

  // The bytes `name` writes over `global` x `rows` work-items in groups of
  // `local` x 1.
  // The program, built once for the test case's runs.
  cl_program program = nullptr;
  ~VectorFixture() {
    if (program)
      clReleaseProgram(program);
  }

  std::vector<unsigned char> run(const std::string &name, size_t global,
                                 size_t local, size_t rows) {
    if (!program) {
      std::string log;
      cl_int status = build(kVectorKernels, program, log, "-cl-std=CL3.0");
      INFO(log);
      REQUIRE(status == CL_SUCCESS);
    }
    cl_int err;
    cl_kernel k = clCreateKernel(program, name.c_str(), &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem in_f = buffer(floats.size() * sizeof(float), floats.data());
    cl_mem in_i = buffer(ints.size() * sizeof(cl_int), ints.data());
    size_t items = global * rows, groups = items; // groups: at most one each
    std::vector<unsigned char> bytes(items * 64 + groups * 16, 0xab);
    cl_mem out = buffer(bytes.size(), bytes.data());
    cl_int n = cl_int(floats.size());
    REQUIRE(clSetKernelArg(k, 0, sizeof in_f, &in_f) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof in_i, &in_i) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof out, &out) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof n, &n) == CL_SUCCESS);
    size_t sizes[2] = {global, rows}, locals[2] = {local, 1};
    REQUIRE(runAndWait(k, 2, sizes, locals) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, bytes.size(),
                                bytes.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    clReleaseMemObject(out);
    clReleaseMemObject(in_i);
    clReleaseMemObject(in_f);
    clReleaseKernel(k);
    return bytes;
  }

  void check(const std::string &name) {
    const size_t shapes[][3] = {{1024, 64, 1}, {1000, 100, 1}, {999, 7, 1},
                                {64, 1, 1},    {256, 256, 1}, {33, 17, 3},
                                {128, 32, 2}};
    for (auto [global, local, rows] : shapes) {
      INFO(name << " global " << global << "x" << rows << " local " << local);
      std::vector<unsigned char> widened = run(name, global, local, rows);
      std::vector<unsigned char> reference =
          run(name + "_reference", global, local, rows);
      checkSameBytes(widened, reference, 64);
    }
  }
};

} // namespace

TEST_CASE_METHOD(VectorFixture, "float4 sums of neighbouring vector loads",
                 "[vector-widening]") {
  check("sum4");
}

TEST_CASE_METHOD(VectorFixture, "float16 sums of neighbouring vector loads",
                 "[vector-widening]") {
  check("sum16");
}

TEST_CASE_METHOD(VectorFixture, "float16 FMA chains round a shared loop",
                 "[vector-widening]") {
  check("chain16");
}

TEST_CASE_METHOD(VectorFixture,
                 "float8 swizzles, shuffles and selects in divergent loops",
                 "[vector-widening]") {
  check("diverge8");
}

TEST_CASE_METHOD(VectorFixture,
                 "int4 division, rotates and reinterpretation as uchar16",
                 "[vector-widening]") {
  check("int4ops");
}

TEST_CASE_METHOD(VectorFixture,
                 "double2 with uniform vector loads and a store to one address",
                 "[vector-widening]") {
  check("pairs");
}

TEST_CASE_METHOD(VectorFixture, "float3 geometry and short8 in loops",
                 "[vector-widening]") {
  check("geometry3");
}

TEST_CASE_METHOD(VectorFixture,
                 "without loops: pixels in uchar4 and float4, float3, short8",
                 "[vector-widening]") {
  check("pixels");
}

TEST_CASE_METHOD(VectorFixture,
                 "without loops: every 8-bit dot product form",
                 "[vector-widening]") {
  check("dots");
}

TEST_CASE_METHOD(VectorFixture,
                 "private arrays: a register tile and a table read by data",
                 "[vector-widening]") {
  check("tiles");
  check("lookup");
}

TEST_CASE_METHOD(VectorFixture,
                 "vectors of 8 and 16 floats and 4 doubles taken apart after a loop",
                 "[vector-widening]") {
  check("dealt");
}
