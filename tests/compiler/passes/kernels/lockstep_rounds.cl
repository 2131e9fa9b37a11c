// weft-lockstep-rounds: a barrier-free kernel whose outer loop's inner loop
// reads far-apart rows that the group's rows of work-items share (CLBlast's
// Xgemm without local tiles) gets a barrier at the top of the outer loop, so
// the group goes round it together and runs in regions. Kernels that share
// nothing across rows, that go round a different number of times per
// work-item, or whose loop has no inner loop are left as written.
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-bodies,weft-drop-redundant-barriers,weft-lockstep-rounds' -S -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %weft-cl %s --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o /dev/null | FileCheck %s --check-prefix=PLAN

// PLAN: kernel shared_rows: regions, region 0 widened{{.*}}; region 1 widened, 32 work-items at once (32 bytes carried per work-item, 16 loaded and reused each round), vectors kept whole
// PLAN: kernel one_loop: widened
// The tile loop's accumulator carried on into the step loop is one value
// held (widening_width's carriedOn): 16 bytes, not 32.
// PLAN: kernel no_rows: widened, 4 work-items at once (16 bytes carried per work-item, 64 bytes of each streamed load at once), vectors kept whole
// PLAN: kernel rounds_per_item: widened
// PLAN: kernel own_rows: work-item loop
// PLAN: kernel one_row_groups: widened

// The barrier opens the tile loop's header (after its counter's phi),
// before its exit test.
// CHECK-LABEL: define internal void @__weft_body_shared_rows(
// CHECK: %t.0 = phi i32
// CHECK: call void @__weft_barrier(ptr %context)
// CHECK-NEXT: %cmp = icmp slt i32 %t.0, %tiles
// CHECK-NOT: @__weft_barrier
// CHECK: {{^}}}
kernel void shared_rows(global const float4 *a, global const float4 *b,
                        global float4 *c, int n, int tiles) {
  int m = get_global_id(0), j = get_global_id(1);
  float4 acc0 = 0.0f, acc1 = 0.0f;
  for (int t = 0; t < tiles; ++t)
    for (int k = 0; k < 8; ++k) {
      float4 av = a[(t * 8 + k) * n + m];
      float4 bv = b[(t * 8 + k) * n + j];
      acc0 += av * bv.x;
      acc1 += av * bv.y;
    }
  c[j * n + m] = acc0 + acc1;
}

// CHECK-LABEL: define internal void @__weft_body_one_loop(
// CHECK-NOT: @__weft_barrier
// CHECK: {{^}}}
kernel void one_loop(global const float *a, global const float *b,
                     global float *c, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

// One row to a group: nothing to share across rows.
// CHECK-LABEL: define internal void @__weft_body_no_rows(
// CHECK-NOT: @__weft_barrier
// CHECK: {{^}}}
kernel void no_rows(global const float4 *a, global float4 *c, int n,
                    int tiles) {
  int m = get_global_id(0);
  float4 acc = 0.0f;
  for (int t = 0; t < tiles; ++t)
    for (int k = 0; k < 8; ++k)
      acc += a[(t * 8 + k) * n + m];
  c[m] = acc;
}

// Work-items go round as often as their x id says: a barrier there would
// be reached a different number of times.
// CHECK-LABEL: define internal void @__weft_body_rounds_per_item(
// CHECK-NOT: @__weft_barrier
// CHECK: {{^}}}
kernel void rounds_per_item(global const float4 *a, global float4 *c, int n) {
  int m = get_global_id(0), j = get_global_id(1);
  float4 acc = 0.0f;
  for (int t = 0; t < (int)get_local_id(0); ++t)
    for (int k = 0; k < 8; ++k)
      acc += a[(t * 8 + k) * n + m];
  c[j * n + m] = acc;
}

// Each row of work-items reads rows of its own.
// CHECK-LABEL: define internal void @__weft_body_own_rows(
// CHECK-NOT: @__weft_barrier
// CHECK: {{^}}}
kernel void own_rows(global const float4 *a, global float4 *c, int n,
                     int tiles) {
  int m = get_global_id(0), j = get_global_id(1);
  float4 acc = 0.0f;
  for (int t = 0; t < tiles; ++t)
    for (int k = 0; k < 8; ++k)
      acc += a[((t * 8 + k) * n + m) * 4 + j];
  c[j * n + m] = acc;
}

// Groups required to be one row: nothing to share across rows.
// CHECK-LABEL: define internal void @__weft_body_one_row_groups(
// CHECK-NOT: @__weft_barrier
// CHECK: {{^}}}
kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void one_row_groups(global const float4 *a, global const float4 *b,
                    global float4 *c, int n, int tiles) {
  int m = get_global_id(0), j = get_global_id(1);
  float4 acc = 0.0f;
  for (int t = 0; t < tiles; ++t)
    for (int k = 0; k < 8; ++k)
      acc += a[(t * 8 + k) * n + m] * b[(t * 8 + k) * n + j].x;
  c[j * n + m] = acc;
}
