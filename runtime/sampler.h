// Sampler objects: how kernels read images with read_image{f,i,ui,h}. A
// kernel receives a sampler as its CLK_* bits (device/image_abi.h), the same
// value a `constant sampler_t` initializer has, so both kinds of sampler
// reach the same sampling code.
#pragma once
#include "runtime/object.h"

#include <vector>

namespace weft {

class Context;

// cl_khr_mipmap_image: how a sampler object picks and blends mip levels:
// the filter between levels and the range the level of detail is clamped
// to (the spec's defaults: nearest, 0 to MAXFLOAT).
struct MipSampling {
  cl_filter_mode filter = CL_FILTER_NEAREST;
  float lod_min = 0.0f;
  float lod_max = CL_FLT_MAX;
};

class Sampler : public Object<_cl_sampler, ObjectKind::Sampler> {
public:
  // Returns null when memory is exhausted; icd/ has validated the modes.
  static Sampler *create(Context &context, bool normalized_coords,
                         cl_addressing_mode addressing, cl_filter_mode filter,
                         const MipSampling &mip,
                         std::vector<cl_sampler_properties> properties);
  static Sampler *fromHandle(cl_sampler handle) {
    return checkedCast<Sampler>(handle);
  }

  Context &context() const { return *context_; }
  bool normalizedCoords() const { return normalized_coords_; }
  cl_addressing_mode addressing() const { return addressing_; }
  cl_filter_mode filter() const { return filter_; }
  const MipSampling &mipSampling() const { return mip_; }
  const std::vector<cl_sampler_properties> &properties() const {
    return properties_;
  }
  // The value a sampler_t kernel argument carries: CLK_* bits, and the
  // address of its level-of-detail range when that is not the default.
  uint64_t kernelBits() const;

private:
  Sampler(Context &context, bool normalized_coords,
          cl_addressing_mode addressing, cl_filter_mode filter,
          const MipSampling &mip,
          std::vector<cl_sampler_properties> properties);

  Ref<Context> context_;
  const bool normalized_coords_;
  const cl_addressing_mode addressing_;
  const cl_filter_mode filter_;
  const MipSampling mip_;
  const std::vector<cl_sampler_properties> properties_;
};

} // namespace weft
