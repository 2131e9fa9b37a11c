// Register tiles of neighbouring elements (a work-item's `acc[4]` for four
// neighbouring results, its neighbours' next to them) are carried across
// the k loop as whole rows once widened
// (compiler/passes/optimizer/whole_runs_in_loops.h), and indices of int
// arithmetic that do not depend on the x id are computed in 64 bits
// (compiler/passes/prepare/wide_indices.h). Every element of the result
// is compared with the host's, exactly (small integers in float and double
// add up without rounding): a direct GEMM with local tiles and barriers
// (CLBlast's XgemmDirectNN shape) in float and double, over several k
// tiles and groups; a register-tiled GEMM on float4 rows without barriers;
// the same tile updated with a value of each work-item's own (which keeps
// the parts apart); and a tile index that passes below zero on the way.
#include "api_fixture.h"

#include <vector>

namespace {

const char *kTiles = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define WGD 32
#define LDS (WGD + 1)
#define DIRECT(NAME, REAL, REAL4)                                             \
kernel __attribute__((reqd_work_group_size(8, 8, 1)))                          \
void NAME(int n, global const REAL4 *restrict a, global const REAL4 *restrict b, \
          global REAL *c) {                                                    \
  local REAL alm[WGD * LDS];                                                   \
  local REAL blm[WGD * LDS];                                                   \
  REAL cpd[16];                                                                \
  for (int i = 0; i < 16; ++i)                                                 \
    cpd[i] = 0;                                                                \
  const int lid0 = get_local_id(0), lid1 = get_local_id(1);                    \
  const int idm = lid0 * 4 + get_group_id(0) * WGD;                            \
  const int idn = lid1 * 4 + get_group_id(1) * WGD;                            \
  for (int kwg = 0; kwg < n; kwg += WGD) {                                     \
    for (int k = 0; k < 4; ++k) {                                              \
      const int kg = k + lid1 * 4;                                             \
      const REAL4 av = a[(kwg + kg) * (n / 4) + lid0 + get_group_id(0) * 8];   \
      const REAL4 bv = b[(kwg + kg) * (n / 4) + lid0 + get_group_id(1) * 8];   \
      alm[kg * LDS + lid0 * 4 + 0] = av.x;                                     \
      alm[kg * LDS + lid0 * 4 + 1] = av.y;                                     \
      alm[kg * LDS + lid0 * 4 + 2] = av.z;                                     \
      alm[kg * LDS + lid0 * 4 + 3] = av.w;                                     \
      blm[kg * LDS + lid0 * 4 + 0] = bv.x;                                     \
      blm[kg * LDS + lid0 * 4 + 1] = bv.y;                                     \
      blm[kg * LDS + lid0 * 4 + 2] = bv.z;                                     \
      blm[kg * LDS + lid0 * 4 + 3] = bv.w;                                     \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    for (int pwi = 0; pwi < WGD; pwi += 2) {                                   \
      _Pragma("unroll") for (int pit = 0; pit < 2; ++pit) {                    \
        const int kg = pwi + pit;                                              \
        REAL apd[4], bpd[4];                                                   \
        _Pragma("unroll") for (int mi = 0; mi < 4; ++mi)                       \
          apd[mi] = alm[kg * LDS + mi + lid0 * 4];                             \
        _Pragma("unroll") for (int ni = 0; ni < 4; ++ni)                       \
          /* passes below zero when kg < 4: (kg - 4) * LDS + 4 * LDS */        \
          bpd[ni] = blm[(kg - 4) * LDS + ni + lid1 * 4 + 4 * LDS];             \
        _Pragma("unroll") for (int ni = 0; ni < 4; ++ni)                       \
          _Pragma("unroll") for (int mi = 0; mi < 4; ++mi)                     \
            cpd[ni * 4 + mi] += apd[mi] * bpd[ni];                             \
      }                                                                        \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
  }                                                                            \
  for (int ni = 0; ni < 4; ++ni)                                               \
    for (int mi = 0; mi < 4; ++mi)                                             \
      c[(idn + ni) * n + idm + mi] = cpd[ni * 4 + mi];                         \
}
DIRECT(direct_float, float, float4)
DIRECT(direct_double, double, double4)

// A 4 x 4 tile a work-item over float4 rows of B, no local memory.
kernel void tile4(global const float *a, global const float *b,
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
    vstore4((float4)(acc[i][0], acc[i][1], acc[i][2], acc[i][3]),
            ((row + i) * n + col) / 4, c);
}

// The same run of B, scaled by each work-item's own value of A (its
// column's): the parts meet a value that differs between lanes.
kernel void tile4_own(global const float *a, global const float *b,
                      global float *c, int n) {
  int col = get_global_id(0) * 4, row = get_global_id(1);
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k = 0; k < n; ++k) {
    float4 bk = vload4(0, b + k * n + col);
    float own = a[k * n + get_global_id(0)];
    acc[0] += own * bk.x;
    acc[1] += own * bk.y;
    acc[2] += own * bk.z;
    acc[3] += own * bk.w + (float)row;
  }
  vstore4((float4)(acc[0], acc[1], acc[2], acc[3]), (row * n + col) / 4, c);
}
)CLC";

template <typename T> std::vector<T> smallValues(size_t count, int salt) {
  std::vector<T> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = T(int((i * 7 + size_t(salt)) % 9) - 4);
  return values;
}

struct TileFixture : WeftFixture {
  // c[j * n + i] = sum over k of a[k * n + i] * b[k * n + j], n a multiple
  // of 32 (the direct kernel's tiles).
  template <typename T> void direct(const char *name, int n) {
    cl_kernel k = kernel(kTiles, name);
    size_t count = size_t(n) * size_t(n);
    std::vector<T> a = smallValues<T>(count, 1), b = smallValues<T>(count, 5);
    cl_mem ab = buffer(count * sizeof(T), a.data());
    cl_mem bb = buffer(count * sizeof(T), b.data());
    cl_mem cb = buffer(count * sizeof(T));
    REQUIRE(clSetKernelArg(k, 0, sizeof n, &n) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof ab, &ab) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof bb, &bb) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof cb, &cb) == CL_SUCCESS);
    size_t global[2] = {size_t(n) / 4, size_t(n) / 4}, local[2] = {8, 8};
    REQUIRE(runAndWait(k, 2, global, local) == CL_SUCCESS);
    std::vector<T> expected(count, T(0));
    for (size_t j = 0; j < size_t(n); ++j)
      for (size_t i = 0; i < size_t(n); ++i) {
        T sum = 0;
        for (size_t kk = 0; kk < size_t(n); ++kk)
          sum += a[kk * size_t(n) + i] * b[kk * size_t(n) + j];
        expected[j * size_t(n) + i] = sum;
      }
    checkSameValues(readValues<T>(cb, count), expected);
    clReleaseMemObject(ab);
    clReleaseMemObject(bb);
    clReleaseMemObject(cb);
    clReleaseKernel(k);
  }
};

} // namespace

TEST_CASE_METHOD(TileFixture,
                 "a direct GEMM's register tile gives every element exactly",
                 "[register-tiles]") {
  for (int n : {32, 64, 96}) {
    INFO("n " << n);
    direct<float>("direct_float", n);
    REQUIRE(hasExtension("cl_khr_fp64"));
    direct<double>("direct_double", n);
  }
}

TEST_CASE_METHOD(TileFixture,
                 "a register tile over float4 rows gives every element "
                 "exactly, with values the same for a row or each lane's own",
                 "[register-tiles]") {
  const int n = 64;
  size_t count = size_t(n) * size_t(n);
  std::vector<float> a = smallValues<float>(count, 2),
                     b = smallValues<float>(count, 3);
  cl_mem ab = buffer(count * sizeof(float), a.data());
  cl_mem bb = buffer(count * sizeof(float), b.data());
  cl_mem cb = buffer(count * sizeof(float));
  SECTION("a row's value") {
    cl_kernel k = kernel(kTiles, "tile4");
    REQUIRE(clSetKernelArg(k, 0, sizeof ab, &ab) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof bb, &bb) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof cb, &cb) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof n, &n) == CL_SUCCESS);
    size_t global[2] = {size_t(n) / 4, size_t(n) / 4};
    REQUIRE(runAndWait(k, 2, global, nullptr) == CL_SUCCESS);
    std::vector<float> expected(count);
    for (size_t r = 0; r < size_t(n); ++r)
      for (size_t col = 0; col < size_t(n); ++col) {
        float sum = 0;
        for (size_t kk = 0; kk < size_t(n); ++kk)
          sum += a[r * size_t(n) + kk] * b[kk * size_t(n) + col];
        expected[r * size_t(n) + col] = sum;
      }
    checkSameValues(readValues<float>(cb, count), expected);
    clReleaseKernel(k);
  }
  SECTION("each lane's own value") {
    cl_kernel k = kernel(kTiles, "tile4_own");
    REQUIRE(clSetKernelArg(k, 0, sizeof ab, &ab) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof bb, &bb) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof cb, &cb) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof n, &n) == CL_SUCCESS);
    size_t global[2] = {size_t(n) / 4, size_t(n)};
    REQUIRE(runAndWait(k, 2, global, nullptr) == CL_SUCCESS);
    std::vector<float> expected(count);
    for (size_t r = 0; r < size_t(n); ++r)
      for (size_t g = 0; g < size_t(n) / 4; ++g)
        for (size_t e = 0; e < 4; ++e) {
          float sum = 0;
          for (size_t kk = 0; kk < size_t(n); ++kk) {
            sum += a[kk * size_t(n) + g] * b[kk * size_t(n) + g * 4 + e];
            if (e == 3)
              sum += float(r);
          }
          expected[r * size_t(n) + g * 4 + e] = sum;
        }
    checkSameValues(readValues<float>(cb, count), expected);
    clReleaseKernel(k);
  }
  clReleaseMemObject(ab);
  clReleaseMemObject(bb);
  clReleaseMemObject(cb);
}
