// A tile kernel whose work-items each move rows y, y + 8, y + 16, y + 24 of
// a 32x32 tile (groups of 32x8, reqd_work_group_size) vectorizes across the
// work-items in every region: the group's rows are bounded by the required
// size (weft-barrier-regions), so the row loop runs 4 times whatever y is
// (weft-constant-trip-counts), unrolls fully, and the work-item loop around
// it is innermost. Before, the row loop's count depended on y, and every
// region stayed one work-item at a time (transpose direct at 3.9 GB/s on
// Zen 3 against 8.8 with this; bench/RESULTS.md, session 17).
// RUN: %weft-cl %s --target-cpu=znver3 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,weft-separate-local-memory,weft-internalize-entries' --optimize -o - | FileCheck %s

// Region 0 moves rows of `in` into `a`, region 1 reads `a` in rows, region
// 2 moves rows of `b` into `out`: all with vectors of 8 floats or more.
// CHECK-LABEL: define void @__weft_group_transpose(
// CHECK: load <{{8|16}} x float>, ptr addrspace(1)
// CHECK: store <{{8|16}} x float> %{{.*}}, ptr addrspace(3)
// CHECK: load <{{8|16}} x float>, ptr addrspace(3)
// CHECK: store <{{8|16}} x float> %{{.*}}, ptr addrspace(1)
// CHECK-LABEL: define void @__weft_item_transpose(

#define TILE 32
#define ROWS 8
kernel __attribute__((reqd_work_group_size(TILE, ROWS, 1)))
void transpose(global const float *in, global float *out, uint n) {
  local float a[TILE * TILE], b[TILE * TILE];
  size_t tx = get_group_id(0), ty = get_group_id(1);
  size_t x = get_local_id(0), y = get_local_id(1);
  for (size_t r = y; r < TILE; r += ROWS)
    a[r * TILE + x] = in[(ty * TILE + r) * n + tx * TILE + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t r = y; r < TILE; r += ROWS)
    b[x * TILE + r] = a[r * TILE + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t r = y; r < TILE; r += ROWS)
    out[(tx * TILE + r) * n + ty * TILE + x] = b[r * TILE + x];
}
