// weft-barrier-regions: a kernel with barriers gets a group entry that runs
// it region by region, each region a loop over the work-items, and chooses
// the next region from where the work-items stopped (region_emitter.cpp,
// region_scheduling.cpp). The regions themselves: region_analysis.cl; values
// across barriers: barrier_crossings.cl; the storage: region_state_layout.cl.
// RUN: %weft-cl %s -passes='weft-kernel-bodies,weft-drop-redundant-barriers,weft-choose-plan,weft-barrier-regions,print<weft-kernels>' -o %t.ll > %t.plan
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan

// The launch switches on the region to run over the bounds in first/last;
// every run comes back to it, and the finished id (3) returns. No
// reqd_work_group_size: the group's size stays unbounded.
// IR-LABEL: define void @__weft_group_reduce(ptr %0, ptr %1)
// IR: setup:
// IR-NOT: local_size_bound
// IR: %[[BASE:[0-9]+]] = call noalias align 64 ptr
// IR: storage:
// IR: store i1 false, ptr %diverged
// IR: launch:
// IR-NEXT: %region = phi i32 [ 0, %storage ], [ 1, %agreed_exit0 ], [ %[[LOW:[0-9]+]], %whole_group ], [ %[[WANTED:[0-9]+]], %scan_found ]
// IR-NEXT: switch i32 %region, label %done [
// IR-NEXT: i32 0, label %run_region0
// IR-NEXT: i32 1, label %run_region1
// IR-NEXT: i32 2, label %run_region2
// IR-NEXT: ]
// IR: done:
// IR-NEXT: ret void
// A region with one way out, run for one work-item after a divergent
// barrier: it records where that work-item waits (region 1).
// IR: agreed_exit0:
// IR: br label %launch
// IR: item_exit0:
// IR-NEXT: %[[NEXT_ITEM:[0-9]+]] = load i64, ptr %pass_next
// IR-NEXT: %[[RUN_ITEM:[0-9]+]] = sub i64 %[[NEXT_ITEM]], 1
// IR-NEXT: %[[RUN_STATE:[0-9]+]] = getelementptr inbounds i32, ptr %[[BASE]], i64 %[[RUN_ITEM]]
// IR-NEXT: store i32 1, ptr %[[RUN_STATE]]
// IR-NEXT: br label %after_region
// A region with several ways out: z, y, x loops over the bounds, and one
// store of where each work-item resumes, region 2 after the loop's barrier
// or 3 (finished) when it returns.
// IR: run_region1:
// IR: %[[LINEAR:linear[0-9]*]] = add i64 %{{[0-9]+}}, %lid0{{[0-9]*}}
// IR: !llvm.loop
// IR: resume:
// IR-NEXT: %resume_state = phi i32 [ 2, %to_region2 ], [ 3, %finished{{[0-9]*}} ]
// IR-NEXT: %[[STATE:[0-9]+]] = getelementptr inbounds i32, ptr %[[BASE]], i64 %[[LINEAR]]
// IR-NEXT: store i32 %resume_state, ptr %[[STATE]], align 4, !llvm.access.group
// IR-NEXT: br label %next0
// IR: to_region2:
// IR-NEXT: br label %resume
// IR: finished{{[0-9]*}}:
// IR-NEXT: br label %resume
// After such a run, did every work-item stop at the same barrier? A min and
// a max over the resume states; equal, the whole group runs that region.
// IR: agree:
// IR-NEXT: %i = phi i64 [ 0, %uniform_to_current ], [ %[[NEXT:[0-9]+]], %agree ]
// IR-NEXT: %low = phi i32 [ -1, %uniform_to_current ], [ %[[LOW]], %agree ]
// IR-NEXT: %high = phi i32 [ 0, %uniform_to_current ], [ %[[HIGH:[0-9]+]], %agree ]
// IR-NEXT: %[[AT:[0-9]+]] = getelementptr inbounds i32, ptr %[[BASE]], i64 %i
// IR-NEXT: %[[STOPPED:[0-9]+]] = load i32, ptr %[[AT]]
// IR-NEXT: %[[LOW]] = call i32 @llvm.umin.i32(i32 %low, i32 %[[STOPPED]])
// IR-NEXT: %[[HIGH]] = call i32 @llvm.umax.i32(i32 %high, i32 %[[STOPPED]])
// IR-NEXT: %[[NEXT]] = add nuw nsw i64 %i, 1
// IR-NEXT: %[[MORE:[0-9]+]] = icmp ult i64 %[[NEXT]], %items
// IR-NEXT: br i1 %[[MORE]], label %agree, label %agreed
// IR: agreed:
// IR-NEXT: %[[SAME:[0-9]+]] = icmp eq i32 %[[LOW]], %[[HIGH]]
// IR-NEXT: br i1 %[[SAME]], label %whole_group, label %disagree
// Otherwise, from now on one work-item at a time: each pass runs the region
// of the first unfinished work-item for every work-item waiting there.
// IR: disagree:
// IR-NEXT: store i1 true, ptr %diverged
// IR: pass_look:
// IR: %[[FIRST_STOP:[0-9]+]] = load i32, ptr
// IR-NEXT: %{{[0-9]+}} = icmp ne i32 %[[FIRST_STOP]], 3
// IR: pass_found:
// IR-NEXT: store i32 %[[FIRST_STOP]], ptr %pass_region
// IR: scan_look:
// IR: %[[WAITS:[0-9]+]] = load i32, ptr
// IR-NEXT: %{{[0-9]+}} = icmp eq i32 %[[WAITS]], %[[WANTED]]
// IR: scan_found:
// IR: store i64 %{{[0-9]+}}, ptr %pass_next
// IR: urem i64
// IR: br label %launch
// IR-NEXT: }
// PLAN: kernel reduce: regions, work-item entry

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

// Only the region that makes an async copy runs it work-item (0,0,0) alone
// first, then the rest of the group in three boxes with the follower code,
// which has no copy left.
// IR-LABEL: define void @__weft_group_copy_after_barrier(
// IR-NOT: leader_alone0
// IR: run_region1:
// IR-NEXT: %[[DIVERGED:[0-9]+]] = load i1, ptr %diverged
// IR-NEXT: br i1 %[[DIVERGED]], label %leader1, label %leader_alone1
// IR: leader_alone1:
// IR-NEXT: store i64 0, ptr %first,
// IR-NEXT: store i64 1, ptr %last,
// IR: leader_done1:
// IR-NEXT: store i32 0, ptr %follower_box
// IR: follower_box1:
// IR-NEXT: %[[BOX:[0-9]+]] = load i32, ptr %follower_box
// IR-NEXT: %[[BOXES_DONE:[0-9]+]] = icmp eq i32 %[[BOX]], 3
// IR-NEXT: br i1 %[[BOXES_DONE]], label %after_region1, label %follower_bounds1
// IR: followers1:
// IR: call ptr @__weft_async_copy_for(
// IR: phi i64 [ %{{[0-9]+}}, %followers1 ]
// IR-NOT: @__weft_async_copy_for
// IR: agree:
// PLAN: kernel copy_after_barrier: regions, work-item entry
kernel void copy_after_barrier(global const float *in, global float *out,
                               local float *tile, local float *sums) {
  size_t l = get_local_id(0);
  sums[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[l] * sums[(l + 1) % 16];
}

// With a reqd_work_group_size, the group's size is bounded by it (a umin
// that changes nothing at run time), and the region loops use the bound.
// Its rows are known 16 wide: the regions, loops or not, are widened.
// IR-LABEL: define void @__weft_group_bounded(
// IR: %local_size_bound = call i64 @llvm.umin.i64(i64 %{{[0-9]+}}, i64 16)
// IR-NEXT: %local_size_bound1 = call i64 @llvm.umin.i64(i64 %{{[0-9]+}}, i64 4)
// IR-NEXT: %local_size_bound2 = call i64 @llvm.umin.i64(i64 %{{[0-9]+}}, i64 1)
// IR-NEXT: %[[XY:[0-9]+]] = mul i64 %local_size_bound, %local_size_bound1
// IR-NEXT: %items = mul i64 %[[XY]], %local_size_bound2
// IR: store i64 %local_size_bound, ptr %last,
// PLAN: kernel bounded: regions, region 0 widened, 16 work-items at once (12 bytes held at once per work-item); region 1 widened, 16 work-items at once (16 bytes held at once per work-item), work-item entry
kernel __attribute__((reqd_work_group_size(16, 4, 1)))
void bounded(global float *out, local float *tmp) {
  size_t l = get_local_id(1) * 16 + get_local_id(0);
  tmp[l] = out[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[63 - l];
}
