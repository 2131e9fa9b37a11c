// Compiled to float_atomics.spv by make_fixtures.sh (clang-15 and
// llvm-spirv-15 with SPV_EXT_shader_atomic_float_add and _min_max):
// cl_ext_float_atomics' add, min and max on global float and double, and
// add on local float.
kernel void float_atomics(global float *f, global double *d,
                          local float *scratch) {
  size_t i = get_global_id(0);
  volatile global atomic_float *gf = (volatile global atomic_float *)f;
  volatile global atomic_double *gd = (volatile global atomic_double *)d;
  atomic_fetch_add_explicit(gf, 1.5f, memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_max_explicit(gf + 1, (float)i, memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_min_explicit(gf + 2, -(float)i, memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_add_explicit(gd, 2.5, memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_max_explicit(gd + 1, (double)i, memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_min_explicit(gd + 2, -(double)i, memory_order_relaxed,
                            memory_scope_device);
  volatile local atomic_float *lf = (volatile local atomic_float *)scratch;
  if (get_local_id(0) == 0)
    atomic_init(lf, 0.f);
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit(lf, 0.25f, memory_order_relaxed,
                            memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atomic_fetch_add_explicit(gf + 3, atomic_load(lf), memory_order_relaxed,
                              memory_scope_device);
}
