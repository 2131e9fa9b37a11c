#include "runtime/sampler.h"

#include "device/image_abi.h"
#include "runtime/context.h"

#include <new>

namespace weft {

Sampler::Sampler(Context &context, bool normalized_coords,
                 cl_addressing_mode addressing, cl_filter_mode filter,
                 std::vector<cl_sampler_properties> properties)
    : context_(&context), normalized_coords_(normalized_coords),
      addressing_(addressing), filter_(filter),
      properties_(std::move(properties)) {}

Sampler *Sampler::create(Context &context, bool normalized_coords,
                         cl_addressing_mode addressing, cl_filter_mode filter,
                         std::vector<cl_sampler_properties> properties) {
  return new (std::nothrow) Sampler(context, normalized_coords, addressing,
                                    filter, std::move(properties));
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
  return bits;
}

} // namespace weft
