#include "runtime/sampler.h"

#include "device/image_abi.h"
#include "runtime/context.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <utility>

namespace weft {
namespace {

// The one record of each level-of-detail range any sampler has had. Kept
// for the life of the process: a launch reads the range through the
// argument's bits after its sampler may be gone, and there are as many
// records as distinct ranges, not samplers. Null when out of memory.
const WeftLodRange *internLodRange(float min, float max) {
  // Never destroyed, so the records stay reachable to the end (no exit-time
  // destructor pulls them from under a late launch, and leak checkers see
  // them held).
  static std::mutex &mutex = *new std::mutex;
  static auto &ranges =
      *new std::map<std::pair<uint32_t, uint32_t>, const WeftLodRange *>;
  std::pair<uint32_t, uint32_t> key;
  std::memcpy(&key.first, &min, sizeof min);
  std::memcpy(&key.second, &max, sizeof max);
  std::lock_guard<std::mutex> lock(mutex);
  auto found = ranges.find(key);
  if (found != ranges.end())
    return found->second;
  auto *range = static_cast<WeftLodRange *>(
      std::aligned_alloc(WEFT_LOD_RANGE_ALIGNMENT, WEFT_LOD_RANGE_ALIGNMENT));
  if (!range)
    return nullptr;
  *range = {min, max};
  ranges.emplace(key, range);
  return range;
}

bool isDefaultRange(const MipSampling &mip) {
  MipSampling defaults;
  return mip.lod_min == defaults.lod_min && mip.lod_max == defaults.lod_max;
}

} // namespace

Sampler::Sampler(Context &context, bool normalized_coords,
                 cl_addressing_mode addressing, cl_filter_mode filter,
                 const MipSampling &mip,
                 std::vector<cl_sampler_properties> properties)
    : context_(&context), normalized_coords_(normalized_coords),
      addressing_(addressing), filter_(filter), mip_(mip),
      properties_(std::move(properties)) {}

Sampler *Sampler::create(Context &context, bool normalized_coords,
                         cl_addressing_mode addressing, cl_filter_mode filter,
                         const MipSampling &mip,
                         std::vector<cl_sampler_properties> properties) {
  // The range is interned here, so a failure is the creation's.
  if (!isDefaultRange(mip) && !internLodRange(mip.lod_min, mip.lod_max))
    return nullptr;
  return new (std::nothrow) Sampler(context, normalized_coords, addressing,
                                    filter, mip, std::move(properties));
}

uint64_t Sampler::kernelBits() const {
  uint64_t bits =
      normalized_coords_ ? WEFT_SAMPLER_NORMALIZED_COORDS : uint64_t(0);
  switch (addressing_) {
  case CL_ADDRESS_CLAMP_TO_EDGE:
    bits |= WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE;
    break;
  case CL_ADDRESS_CLAMP:
    bits |= WEFT_SAMPLER_ADDRESS_CLAMP;
    break;
  case CL_ADDRESS_REPEAT:
    bits |= WEFT_SAMPLER_ADDRESS_REPEAT;
    break;
  case CL_ADDRESS_MIRRORED_REPEAT:
    bits |= WEFT_SAMPLER_ADDRESS_MIRRORED_REPEAT;
    break;
  default:
    bits |= WEFT_SAMPLER_ADDRESS_NONE;
  }
  bits |= filter_ == CL_FILTER_LINEAR ? WEFT_SAMPLER_FILTER_LINEAR
                                      : WEFT_SAMPLER_FILTER_NEAREST;
  if (mip_.filter == CL_FILTER_LINEAR)
    bits |= WEFT_SAMPLER_MIP_FILTER_LINEAR;
  if (!isDefaultRange(mip_))
    bits |=
        reinterpret_cast<uint64_t>(internLodRange(mip_.lod_min, mip_.lod_max));
  return bits;
}

} // namespace weft
