// Compiled to kernels.spv by make_fixtures.sh (clang-15 and llvm-spirv-15).
// OpenCL.std instructions, built-in variables, local memory with a barrier,
// atomics on global memory, and a call of a function defined elsewhere
// (linked from another program).
kernel void blend(global float *y, global const float *x, float a) {
  size_t i = get_global_id(0);
  y[i] = fma(a, x[i], y[i]) + sqrt(x[i]);
}

kernel void reverse_in_group(global int *data, local int *scratch,
                             global int *count) {
  size_t l = get_local_id(0), n = get_local_size(0);
  scratch[l] = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = scratch[n - 1 - l];
  atomic_inc(count);
}

int helper(int x); // defined by the source program this is linked with

kernel void call_helper(global int *data) {
  size_t i = get_global_id(0);
  data[i] = helper(data[i]);
}
