// The cl_khr_subgroup_* functions through SPIR-V (GroupNonUniform
// instructions and the SubgroupLtMask built-in): each work-item's result
// mixes ballot, vote, arithmetic, shuffle and clustered results at
// separate decimal places. Made into sub_group_extensions.spv by
// make_fixtures.sh.
kernel void sg(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  uint4 b = sub_group_ballot(v > 0);
  int r = (int)sub_group_ballot_bit_count(b) + sub_group_inverse_ballot(b) * 10;
  r += sub_group_non_uniform_reduce_add(v) * 100;
  r += sub_group_shuffle(v, 0) * 1000;
  r += sub_group_shuffle_down(v, 0) * 10000;
  r += sub_group_clustered_reduce_max(v, 1) * 100000;
  r += sub_group_elect() * 1000000;
  r += sub_group_non_uniform_all_equal(v) * 10000000;
  out[i] = r + (int)get_sub_group_lt_mask().x + sub_group_non_uniform_scan_exclusive_add(v);
}
