// cl_intel_subgroups through SPIR-V (SPV_INTEL_subgroups: shuffles and
// block reads and writes of global memory and images), for any sub-group
// size: the block operations start at the sub-group's first work-item, so
// member k reads and writes the element of work-item first + k. Made into
// intel_subgroups.spv by make_fixtures.sh.
kernel void isg(global uint *p, read_only image2d_t img, global uint *out) {
  size_t i = get_global_id(0);
  size_t first = i - get_sub_group_local_id();
  uint b = intel_sub_group_block_read(p + first);
  uint s = intel_sub_group_shuffle(b, 0);
  uint d = intel_sub_group_shuffle_down(b, b + 100, 1);
  uint u = intel_sub_group_shuffle_up(b + 200, b, 1);
  uint x = intel_sub_group_shuffle_xor(b, 1);
  uint r = intel_sub_group_block_read(img, (int2)(4 * (int)first, 0));
  intel_sub_group_block_write(out + first, s + d + u + x);
  out[get_global_size(0) + i] = r;
}
