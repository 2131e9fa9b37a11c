// The plans of representative kernels, pinned end to end: if one of them
// falls back to a slower path (a widened kernel to the scalar loop, a
// kernel with barriers to fibers, copies that stop reading through, a
// vectorized loop that LLVM leaves scalar), this test fails.
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 -passes='weft-kernel-pipeline,print<weft-kernels>,weft-separate-local-memory,weft-internalize-entries' --optimize -o %t.ll > %t.plan
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=ENTRIES < %t.ll

// PLAN-LABEL: kernel saxpy: work-item loop (no loop in the work-item
// PLAN-LABEL: kernel mandelbrot: widened
// PLAN-LABEL: kernel reduce: regions, work-item entry
// The k loop walks a column of b: widened across work-items on AVX-512
// CPUs, since LLVM's loop vectorizer would leave it scalar (issue 19:
// 0.83x of PoCL before); on others the gathers would cost more
// (widen_work_items.cl pins both).
// PLAN-LABEL: kernel sgemm_naive: {{widened|work-item loop \(every loop runs as many times for all work-items and, widened, would gather \(without AVX-512}}
// PLAN-LABEL: kernel stencil: work-item loop (async copies or work-group pipe reservations), work-item 0 makes the group's async copies first, read-through entry, work-item entry
// PLAN-LABEL: kernel pipe_writer: work-item loop (async copies or work-group pipe reservations), work-item 0 leads the group, work-group pipe reservations made by work-item 0

// After O3 for this CPU the loops over work-items work on vectors.
// ENTRIES-DAG: define void @__weft_group_saxpy(
// ENTRIES-DAG: define void @__weft_group_mandelbrot(
// ENTRIES-DAG: define void @__weft_group_reduce(
// ENTRIES-DAG: define void @__weft_item_reduce(
// ENTRIES-DAG: define void @__weft_read_through_stencil(
// ENTRIES-DAG: define void @__weft_group_stencil(
// ENTRIES-DAG: define void @__weft_group_pipe_writer(
// IR-LABEL: define void @__weft_group_saxpy(
// IR: fmuladd.v{{(4|8|16)}}f32
// IR: ret void
// IR-LABEL: define void @__weft_group_mandelbrot(
// IR: <16 x float>
// IR: ret void

kernel void saxpy(global float *y, global const float *x, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}

kernel void mandelbrot(global int *out, int width, int max_iter) {
  int px = get_global_id(0), py = get_global_id(1);
  float cr = -2.0f + 3.0f * px / width, ci = -1.5f + 3.0f * py / width;
  float zr = 0, zi = 0;
  int n = 0;
  while (n < max_iter && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2 * zr * zi + ci;
    zr = t;
    ++n;
  }
  out[py * width + px] = n;
}

kernel void reduce(global const float *in, global float *out,
                   local float *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (l < s)
      tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = tmp[0];
}

kernel void sgemm_naive(global const float *a, global const float *b,
                        global float *c, int n) {
  int row = get_global_id(1), col = get_global_id(0);
  float sum = 0;
  for (int k = 0; k < n; ++k)
    sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void stencil(global const float *in, global float *out, local float *tile) {
  size_t base = get_group_id(0) * 64;
  event_t e = async_work_group_copy(tile, in + base, 66, 0);
  wait_group_events(1, &e);
  size_t l = get_local_id(0);
  out[base + l] = tile[l] + tile[l + 1] + tile[l + 2];
}

kernel void pipe_writer(__write_only pipe float p, global const float *in) {
  reserve_id_t id = work_group_reserve_write_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(id))
    write_pipe(p, id, get_local_id(0), &in[get_global_id(0)]);
  work_group_commit_write_pipe(p, id);
}
