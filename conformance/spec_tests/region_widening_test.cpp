// Work-items between two barriers (OpenCL C 6.15.8: barrier) must each
// compute what they would alone, however Weft groups them. Weft splits a
// kernel with barriers into regions and runs a region that has a loop of
// its own widened across work-items (compiler/passes/kernels/
// region_widening.h), with each work-item's variables that live across
// barriers loaded into its lanes and stored back. Each kernel here is built
// twice: as written, and with -DREFERENCE, which puts an atomic that never
// runs into each loop; atomics keep a region one work-item at a time, an
// independent way to run the same code. Both must write the same bytes, in
// group sizes that are and are not multiples of the widths Weft chooses, in
// groups of one and two dimensions, including the last, smaller groups of a
// range that is not a multiple of the group size.
#include "api_fixture.h"

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

const char *kRegionKernels = R"CLC(
#pragma OPENCL FP_CONTRACT OFF

#define ARGS global const float *inf, global const int *ini, \
             global uchar *out, int n, local float *scratch
#ifdef REFERENCE
// Never runs (n > 0), but keeps the loop's region on one work-item at a
// time.
#define SCALAR_ONLY if (n < 0) atomic_inc((volatile global int *)out)
#else
#define SCALAR_ONLY
#endif
#define LID ((int)(get_local_id(1) * get_local_size(0) + get_local_id(0)))
#define ITEMS ((int)(get_local_size(0) * get_local_size(1)))
#define GID ((int)(get_global_id(1) * get_global_size(0) + get_global_id(0)))
#define MINE(T) ((global T *)(out + GID * 64))

// CLBlast's XgemmDirect shape: tiles of A and B staged through local
// memory, a 2x2 register tile per work-item that lives across the barriers,
// and the k steps between them. Values are small integers, so every order
// of summation gives the same floats. As CLBlast declares it too, with a
// required group size of 8 x 8.
// Tile t of A and B into local memory, rows of 16 padded to 17.
void stage_tiles(int t, global const float *inf, int n, local float *as,
                 local float *bs) {
  for (int i = LID; i < 16 * 16; i += ITEMS) {
    as[(i / 16) * 17 + i % 16] = inf[(t * 256 + i) % n];
    bs[(i / 16) * 17 + i % 16] = inf[(t * 512 + i * 3) % n];
  }
}
void tile_gemm_body(ARGS) {
  local float *as = scratch, *bs = scratch + 16 * 17;
  int lx = get_local_id(0), ly = get_local_id(1);
  int sx = get_local_size(0), sy = get_local_size(1);
  float acc[2][2] = {{0, 0}, {0, 0}};
  for (int t = 0; t < 4; ++t) {
    stage_tiles(t, inf, n, as, bs);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; ++k) {
      SCALAR_ONLY;
      float a[2], b[2];
      for (int m = 0; m < 2; ++m)
        a[m] = as[k * 17 + (lx * 2 + m) % 16];
      for (int j = 0; j < 2; ++j)
        b[j] = bs[k * 17 + (ly * 2 + j) % 16];
      for (int m = 0; m < 2; ++m)
        for (int j = 0; j < 2; ++j)
          acc[m][j] += a[m] * b[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int m = 0; m < 2; ++m)
    for (int j = 0; j < 2; ++j)
      MINE(float)[m * 2 + j] = acc[m][j];
  MINE(int)[4] = sx * 100 + sy;
}
kernel void tile_gemm(ARGS) { tile_gemm_body(inf, ini, out, n, scratch); }

// The same with both tiles transposed (CLBlast's TT kernel on row-major
// matrices): each work-item reads k and k + 1 along its own row of 17, the
// rows two apart; AVX2 code loads each work-item's pair at once
// (widener_rows.cpp).
kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void tile_gemm_tt_8x8(ARGS) {
  local float *as = scratch, *bs = scratch + 16 * 17;
  int lx = get_local_id(0), ly = get_local_id(1);
  float acc[2][2] = {{0, 0}, {0, 0}};
  for (int t = 0; t < 4; ++t) {
    stage_tiles(t, inf, n, as, bs);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; k += 2) {
      SCALAR_ONLY;
      float a[2][2], b[2][2];
      for (int m = 0; m < 2; ++m) {
        a[m][0] = as[(lx * 2 + m) * 17 + k];
        a[m][1] = as[(lx * 2 + m) * 17 + k + 1];
      }
      for (int j = 0; j < 2; ++j) {
        b[j][0] = bs[(ly * 2 + j) * 17 + k];
        b[j][1] = bs[(ly * 2 + j) * 17 + k + 1];
      }
      for (int p = 0; p < 2; ++p)
        for (int m = 0; m < 2; ++m)
          for (int j = 0; j < 2; ++j)
            acc[m][j] += a[m][p] * b[j][p];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int m = 0; m < 2; ++m)
    for (int j = 0; j < 2; ++j)
      MINE(float)[m * 2 + j] = acc[m][j];
}
kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void tile_gemm_8x8(ARGS) { tile_gemm_body(inf, ini, out, n, scratch); }

// CLBlast's Xgemm shape (its default tuning): a volatile tid numbering the
// group's work-items, tiles loaded by tid % 8 and tid / 8 in regions
// without a loop of their own (widened since the group's rows are a
// required 8 wide), float4 accumulators updated one component at a time
// (kept whole when widened).
kernel __attribute__((reqd_work_group_size(8, 16, 1)))
void xgemm_8x16(ARGS) {
  local float4 as[32 * 8];
  local float2 bs[32 * 16];
  volatile int tid = get_local_id(0) + 8 * get_local_id(1);
  float4 acc0 = (float4)(0.0f), acc1 = (float4)(0.0f);
  for (int t = 0; t < 3; ++t) {
    SCALAR_ONLY;
    for (int r = 0; r < 2; ++r) {
      int row = (tid / 8) * 2 + r;
      as[row * 8 + tid % 8] =
          vload4((t * 256 + row * 8 + tid % 8) % (n / 4), inf);
    }
    for (int r = 0; r < 4; ++r) {
      int row = (tid / 16) * 4 + r;
      bs[row * 16 + tid % 16] =
          vload2((t * 512 + row * 16 + tid % 16) % (n / 2), inf);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 32; ++k) {
      SCALAR_ONLY;
      float4 a = as[k * 8 + get_local_id(0)];
      float2 b = bs[k * 16 + get_local_id(1)];
      acc0.x = mad(a.x, b.x, acc0.x);
      acc0.y = mad(a.y, b.x, acc0.y);
      acc0.z = mad(a.z, b.x, acc0.z);
      acc0.w = mad(a.w, b.x, acc0.w);
      acc1.x = mad(a.x, b.y, acc1.x);
      acc1.y = mad(a.y, b.y, acc1.y);
      acc1.z = mad(a.z, b.y, acc1.z);
      acc1.w = mad(a.w, b.y, acc1.w);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  vstore4(acc0, 0, MINE(float));
  vstore4(acc1, 1, MINE(float));
  MINE(int)[8] = tid;
}

// Loops that work-items leave at different times between barriers, a
// float4 accumulator and an int carried across them, neighbours read from
// local memory, and a second pass over the first pass's results.
kernel void divergent_passes(ARGS) {
  int lid = LID, items = ITEMS, gid = GID;
  scratch[lid] = inf[gid % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 acc = (float4)(0.0f);
  int steps = 0;
  for (int i = 0; i < (ini[gid % 64] & 7) + (lid & 3); ++i) {
    SCALAR_ONLY;
    float left = scratch[(lid + items - 1 - i % 3) % items];
    float right = scratch[(lid + 1 + i) % items];
    acc += (float4)(left, right, left * right, left - right);
    if (acc.z > 40.0f)
      break;
    steps += i + 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  scratch[lid] = acc.x + acc.y;
  barrier(CLK_LOCAL_MEM_FENCE);
  float total = 0.0f;
  for (int i = 0; i < steps % 5 + 1; ++i) {
    SCALAR_ONLY;
    total = total * 0.5f + scratch[(lid + i) % items];
  }
  vstore4(acc, 0, MINE(float));
  MINE(float)[4] = total;
  MINE(int)[5] = steps;
}

// A barrier inside a loop: each round, a region with a loop of its own
// updates variables every work-item keeps across the barriers, one of them
// the same for the whole group.
kernel void rounds(ARGS) {
  int lid = LID, items = ITEMS, gid = GID;
  float value = inf[gid % n];
  int mixed = ini[gid % 64];
  float round_sum = 0.0f;
  for (int r = 0; r < 3; ++r) {
    scratch[lid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 5 + r; ++k) {
      SCALAR_ONLY;
      value = value * 0.75f + scratch[(lid + k * (r + 1)) % items] * 0.25f;
      mixed = (mixed ^ (mixed << 3)) + k;
    }
    round_sum += (float)r;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  MINE(float)[0] = value;
  MINE(int)[1] = mixed;
  MINE(float)[2] = round_sum;
}

// CLBlast's guard: a branch on an index computed from the local id that
// every work-item of a group takes alike (here, the group's parity), with
// barriers on both sides. The loop counters it keeps across the barriers
// are then per work-item, but equal in every one of them.
kernel void guarded(ARGS) {
  int lid = LID, items = ITEMS, gid = GID;
  int group = (int)((get_group_id(0) * get_local_size(0) + get_local_id(0)) /
                    get_local_size(0));
  float acc = 0.0f;
  if (group % 2 == 0) {
    for (int t = 0; t < 4; ++t) {
      scratch[lid] = inf[t * 512 + lid];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int k = 0; k < 8; ++k) {
        SCALAR_ONLY;
        acc += scratch[(lid + k) % items] * inf[t * 256 + lid * 2 + k];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  } else {
    for (int t = 1; t < 3; ++t) {
      scratch[lid] = inf[t * 128 + lid];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int k = 0; k < 5; ++k) {
        SCALAR_ONLY;
        acc -= scratch[(lid + 2 * k) % items] * inf[t * 512 + lid * 3 + k];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  MINE(float)[0] = acc;
  MINE(int)[1] = group;
}

// CLBlast's XgemmDirect choices: a flag the same for every work-item
// (its a_transpose, c_transpose) picks, inside per-work-item checks,
// between addresses that walk a row (neighbouring work-items, neighbouring
// elements) and addresses that walk a column; the widener branches on the
// flag and makes each side's loads and stores as that side allows. The
// flag alternates between the barriers' rounds.
kernel void chosen_walks(ARGS) {
  int lid = LID, items = ITEMS;
  float acc = 0.0f;
  for (int t = 0; t < 6; ++t) {
    int transpose = (t + (ini[0] > 0)) & 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 4; ++k) {
      SCALAR_ONLY;
      if (lid % 3 != 1) {
        int row = transpose ? k + (int)get_group_id(0) : k + t;
        int slot = transpose ? lid * 4 + k : k * items + lid;
        scratch[slot] = inf[row * 37 + lid] + (float)k;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 4; ++k) {
      SCALAR_ONLY;
      if (lid % 3 != 1) {
        int slot = transpose ? lid * 4 + (3 - k) : (3 - k) * items + lid;
        acc += scratch[slot] * (float)(k + 1);
      }
    }
  }
  MINE(float)[0] = acc;
  MINE(int)[1] = ini[0] > 0;
}

// CLBlast's XgemvFastRot: four work-items to a row, each staging its own
// float8 of the row (no stride between work-items: a load per work-item,
// widener_rows.cpp), in rounds the source asks to unroll; then each sums a
// row's columns `lid & 28` .. `lid | 3` of the tile (bit fields of one
// value: Widener::bitFieldDistance). Rows `ld8` float8s apart; `wraps`:
// four a row, wrapping round the input.
float rotated_rows(ARGS, int ld8, bool wraps) {
  local float *tile = scratch; // 32 x 32
  int lid = get_local_id(0);
  int lid_mod = lid % 4, lid_div = lid / 4;
  global const float8 *a = (global const float8 *)inf;
  int rows = n / 32; // float8s of a 32-float row: 4 a row
  int first = wraps ? (int)get_group_id(0) * 8
                    : (int)(get_group_id(1) * get_num_groups(0) +
                            get_group_id(0)) * 32;
  float acc = 0.0f;
  for (int t = 0; t < 3; ++t) {
#pragma unroll
    for (int kl = 0; kl < 4; ++kl) {
      SCALAR_ONLY;
      int row = first + lid_div * 4 + kl + t;
      float8 v = a[(wraps ? row % rows : row) * ld8 + lid_mod];
      tile[(kl * 8 + 0) * 32 + lid] = v.s0;
      tile[(kl * 8 + 1) * 32 + lid] = v.s1;
      tile[(kl * 8 + 2) * 32 + lid] = v.s2;
      tile[(kl * 8 + 3) * 32 + lid] = v.s3;
      tile[(kl * 8 + 4) * 32 + lid] = v.s4;
      tile[(kl * 8 + 5) * 32 + lid] = v.s5;
      tile[(kl * 8 + 6) * 32 + lid] = v.s6;
      tile[(kl * 8 + 7) * 32 + lid] = v.s7;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int kl = 0; kl < 4; ++kl)
#pragma unroll
      for (int v = 0; v < 8; ++v) {
        SCALAR_ONLY;
        acc += tile[(lid_mod * 8 + v) * 32 + lid_div * 4 + kl] * (float)(v + 1);
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return acc;
}

kernel __attribute__((reqd_work_group_size(32, 1, 1)))
void rotated_rows_32(ARGS) {
  MINE(float)[0] = rotated_rows(inf, ini, out, n, scratch, 4, true);
}

// Rows a length apart that only the run knows (CLBlast's `a_ld / 8`):
// each work-item's later rows start from its first row's pointer, a
// uniform distance on (Widener::uniformDistance).
kernel __attribute__((reqd_work_group_size(32, 1, 1)))
void rotated_rows_ld(ARGS) {
  MINE(float)[0] =
      rotated_rows(inf, ini, out, n, scratch, 5 + (ini[0] & 1), false);
}

// A private array indexed by data, across a barrier: the region stays one
// work-item at a time, but must give the same answer.
kernel void table(ARGS) {
  int lid = LID, items = ITEMS, gid = GID;
  int t[8];
  for (int i = 0; i < 8; ++i)
    t[i] = ini[(gid + i) % 64];
  scratch[lid] = (float)(t[gid & 7] & 15);
  barrier(CLK_LOCAL_MEM_FENCE);
  int picked = 0;
  for (int k = 0; k < 6; ++k) {
    SCALAR_ONLY;
    picked += t[(picked + k) & 7] & 255;
    picked += (int)scratch[(lid + k) % items];
  }
  MINE(int)[0] = picked;
}

// CLBlast's XgemmDirect staging: a float2 per work-item taken apart into
// .x and .y and stored next to its neighbours' (one load and one store for
// the row: widener_interleaved.cpp), inside a side that some work-items
// skip, with an element-wise else that two branches enter (a && b), taken
// in some rounds (jumped over when no work-item takes it:
// widener_loops.cpp).
// CLBlast's Xgemm without local tiles: no barrier, k tiles of 8 steps,
// each step a float4 of A's row (the same for a column of the group) and of
// B's (the same for a row of it), rows far apart. Weft adds a barrier at
// the top of the tile loop (weft-lockstep-rounds) and runs it in regions;
// the reference's tile count depends on a local id (never in fact), which
// keeps it as written.
kernel void stream_tiles(ARGS) {
  global const float4 *rows = (global const float4 *)inf;
  int m = get_global_id(0), j = get_global_id(1);
  int n4 = (int)get_global_size(0), quads = n / 4;
  int tiles = 4;
#ifdef REFERENCE
  tiles += n < 0 ? get_local_id(0) : 0;
#endif
  float4 acc0 = 0.0f, acc1 = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    for (int k = 0; k < 8; ++k) {
      int row = t * 8 + k;
      float4 av = rows[(row * n4 + m) % quads];
      float4 bv = rows[(row * 3 * n4 + j * 2 + 7) % quads];
      acc0 += av * bv.x;
      acc1 += av * bv.y;
    }
  }
  MINE(float4)[0] = acc0;
  MINE(float4)[1] = acc1;
}

kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void staged_pairs_8x8(ARGS) {
  local float *as = scratch;
  int lx = get_local_id(0), ly = get_local_id(1);
  float acc = 0.0f;
  for (int t = 0; t < 4; ++t) {
    SCALAR_ONLY;
    if (lx + t < 9) {
      if (n % 2 == 0 && ini[t] > 0) {
        global const float2 *pairs = (global const float2 *)inf;
        float2 v = pairs[(t * 64 + ly * 8 + lx + get_group_id(0)) % (n / 2)];
        as[ly * 17 + lx * 2 + 1] = v.x;
        as[ly * 17 + lx * 2] = v.y;
      } else {
        as[ly * 17 + lx * 2] = inf[(t + lx) % n];
        as[ly * 17 + lx * 2 + 1] = inf[(t + ly * 3) % n];
      }
    } else {
      as[ly * 17 + lx * 2] = 0.5f;
      as[ly * 17 + lx * 2 + 1] = -1.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; ++k) {
      SCALAR_ONLY;
      acc += as[((ly + k) % 8) * 17 + (lx * 2 + k) % 16] * (float)(k + 1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  MINE(float)[0] = acc;
  MINE(int)[1] = ini[0] > 0;
}
)CLC";

struct RegionFixture : WeftFixture {
  std::vector<float> floats;
  std::vector<cl_int> ints;

  RegionFixture() {
    std::mt19937 random(35);
    std::uniform_int_distribution<int> small(-8, 8);
    floats.resize(1 << 14);
    for (float &f : floats)
      f = float(small(random)) * 0.5f;
    ints.resize(64);
    for (cl_int &i : ints)
      i = cl_int(random() % 200001) - 100000;
  }

  // The bytes `name` writes over global[0] x global[1] work-items in groups
  // of local[0] x local[1].
  std::vector<unsigned char> run(const std::string &name, bool reference,
                                 const size_t global[2],
                                 const size_t local[2]) {
    cl_kernel k = kernel(kRegionKernels, name.c_str(),
                         reference ? "-cl-std=CL3.0 -DREFERENCE"
                                   : "-cl-std=CL3.0");
    cl_mem in_f = buffer(floats.size() * sizeof(float), floats.data());
    cl_mem in_i = buffer(ints.size() * sizeof(cl_int), ints.data());
    size_t items = global[0] * global[1];
    std::vector<unsigned char> bytes(items * 64, 0xab);
    cl_mem out = buffer(bytes.size(), bytes.data());
    cl_int n = cl_int(floats.size());
    size_t local_bytes =
        std::max<size_t>({2 * 16 * 17, 32 * 32, local[0] * local[1]}) *
        sizeof(float);
    REQUIRE(clSetKernelArg(k, 0, sizeof in_f, &in_f) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof in_i, &in_i) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof out, &out) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof n, &n) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 4, local_bytes, nullptr) == CL_SUCCESS);
    REQUIRE(runAndWait(k, 2, global, local) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, bytes.size(),
                                bytes.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    clReleaseMemObject(out);
    clReleaseMemObject(in_i);
    clReleaseMemObject(in_f);
    clReleaseKernel(k);
    return bytes;
  }

  // {global x, global y, local x, local y}: rows of 8 (CLBlast's), 16,
  // 64 and odd sizes; ranges with a smaller last group.
  using Shapes = std::vector<std::array<size_t, 4>>;
  void check(const std::string &name,
             const Shapes &shapes = {{64, 16, 8, 8},
                                     {128, 4, 64, 1},
                                     {96, 6, 16, 2},
                                     {100, 3, 100, 1},
                                     {77, 5, 7, 5},
                                     {130, 2, 64, 2},
                                     {40, 9, 16, 4},
                                     {3, 3, 3, 3}}) {
    for (auto [gx, gy, lx, ly] : shapes) {
      INFO(name << " global " << gx << "x" << gy << " local " << lx << "x"
                << ly);
      const size_t global[2] = {gx, gy}, local[2] = {lx, ly};
      std::vector<unsigned char> widened = run(name, false, global, local);
      std::vector<unsigned char> reference = run(name, true, global, local);
      checkSameBytes(widened, reference, 64);
    }
  }
};

} // namespace

TEST_CASE_METHOD(RegionFixture,
                 "a register tile across barriers with k steps between them",
                 "[region-widening]") {
  check("tile_gemm");
  check("tile_gemm_8x8", {{64, 16, 8, 8}, {40, 24, 8, 8}});
  check("tile_gemm_tt_8x8", {{64, 16, 8, 8}, {40, 24, 8, 8}});
}

TEST_CASE_METHOD(RegionFixture,
                 "CLBlast's Xgemm: a volatile id taken apart, per-component "
                 "FMAs on float4 accumulators",
                 "[region-widening]") {
  check("xgemm_8x16", {{64, 32, 8, 16}, {40, 48, 8, 16}, {8, 16, 8, 16}});
}

TEST_CASE_METHOD(RegionFixture,
                 "CLBlast's Xgemm without local tiles: k tiles of strided "
                 "rows the group shares, gone round in lockstep",
                 "[region-widening]") {
  check("stream_tiles");
  check("stream_tiles", {{64, 32, 16, 8}, {48, 16, 16, 4}});
}

TEST_CASE_METHOD(RegionFixture,
                 "CLBlast's XgemmDirect staging: float2 pairs stored as .x "
                 "and .y, element-wise sides nested in skipped sides",
                 "[region-widening]") {
  check("staged_pairs_8x8", {{64, 16, 8, 8}, {40, 24, 8, 8}, {8, 8, 8, 8}});
}

TEST_CASE_METHOD(RegionFixture,
                 "loops work-items leave at different times between barriers",
                 "[region-widening]") {
  check("divergent_passes");
}

TEST_CASE_METHOD(RegionFixture,
                 "a barrier in a loop around a region with a loop",
                 "[region-widening]") {
  check("rounds");
}

TEST_CASE_METHOD(RegionFixture,
                 "loop counters under a branch every work-item takes alike",
                 "[region-widening]") {
  check("guarded");
}

TEST_CASE_METHOD(RegionFixture,
                 "a flag the same for every work-item choosing between a "
                 "row walk and a column walk inside per-work-item checks",
                 "[region-widening]") {
  check("chosen_walks");
}

TEST_CASE_METHOD(RegionFixture,
                 "CLBlast's XgemvFastRot: a float8 per work-item without a "
                 "stride, rows read as bit fields of the local id",
                 "[region-widening]") {
  check("rotated_rows_32", {{32, 1, 32, 1}, {128, 1, 32, 1}, {96, 2, 32, 1}});
  check("rotated_rows_ld", {{32, 1, 32, 1}, {128, 1, 32, 1}, {96, 2, 32, 1}});
}

TEST_CASE_METHOD(RegionFixture,
                 "a private array indexed by data across a barrier",
                 "[region-widening]") {
  check("table");
}
