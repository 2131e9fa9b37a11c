// Choices every work-item makes alike inside per-work-item checks
// (varying_values.cpp's uniformJoin and choiceOf, widener_choices.cpp):
// CLBlast's direct GEMM picks its tiles' and its result's addresses by
// kernel arguments (`a_transpose ? ... : ...`) inside bounds checks.
// - Where the two sides of a branch on such a condition join, a value both
//   sides compute alike is one scalar (a select on the condition), and one
//   that steps alike across the lanes on both sides is chosen whole, so its
//   access is still a run of neighbouring elements (no scatter).
// - Where the sides step differently (a row walked one way, a column the
//   other), a scalar branch on the condition and, on each side, the access
//   that side allows: a whole-vector access on one, a gather on the other.
// RUN: %weft-cl %s --cl-options=-cl-std=CL3.0 --target-cpu=skylake-avx512 -passes='weft-kernel-pipeline,print<weft-kernels>' -o %t.ll | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --check-prefix=JOIN < %t.ll
// RUN: FileCheck %s --check-prefix=SPLIT < %t.ll

// PLAN: kernel uniform_choice: widened, 16 work-items at once
// PLAN: kernel chosen_access: widened, 16 work-items at once

// JOIN-LABEL: define internal void @__weft_body_uniform_choice.simd(
// JOIN-NOT: masked.scatter
// JOIN: [[ROW:%[0-9]+]] = select i1 %tobool.not, i32 %add{{[0-9]+}}, i32 %add
// JOIN: [[COL:%[0-9]+]] = select i1 %tobool.not, <16 x i32> %{{[0-9]+}}, <16 x i32> %{{[0-9]+}}
// JOIN: %mul{{[0-9]+}} = mul nsw i32 [[ROW]], %4
// JOIN: add nsw <16 x i32> %{{.*}}, [[COL]]
// JOIN: call void @llvm.masked.store.v16f32.p1(
// JOIN-NOT: masked.scatter
// JOIN: {{^}}}
kernel void uniform_choice(global float *out, global const float *in,
                           int flag, int n, int ld) {
  for (int k = 0; k < n; ++k) {
    int i = get_global_id(0);
    if (i < n) {
      // Sides that read the context (the group's id) stay a branch and a
      // phi in the body the widener gets, as CLBlast's GetGroupID0() does.
      int row = flag ? k + (int)get_group_id(0) : k * 2 + (int)get_num_groups(0);
      int col = flag ? i + (int)get_group_id(1) : i + 3 * (int)get_num_groups(1);
      out[row * ld + col] = in[i];
    }
  }
}

// SPLIT-LABEL: define internal void @__weft_body_chosen_access.simd(
// SPLIT: br i1 %tobool.not, label %wi.chosen, label %wi.other
// SPLIT: wi.chosen:
// SPLIT-NEXT: sext <16 x i32>
// SPLIT: call <16 x float> @llvm.masked.load.v16f32.p1(
// SPLIT: wi.other:
// SPLIT: call <16 x float> @llvm.masked.gather.v16f32.v16p1(
// SPLIT: wi.choice:
// SPLIT-NEXT: phi <16 x float>
// SPLIT: br i1 %tobool.not, label %wi.chosen{{[0-9]+}}, label %wi.other{{[0-9]+}}
// SPLIT: call void @llvm.masked.store.v16f32.p1(
// SPLIT: call void @llvm.masked.scatter.v16f32.v16p1(
// SPLIT: {{^}}}
kernel void chosen_access(global float *c, int ld, int trans, int m,
                          float beta) {
  for (int k = 0; k < m; ++k) {
    int i = get_global_id(0);
    if (i < m) {
      int index = trans ? i * ld + k : k * ld + i;
      c[index] = c[index] * beta;
    }
  }
}
