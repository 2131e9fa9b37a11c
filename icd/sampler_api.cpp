// Sampler entry points: creation from arguments or a property list
// (cl_khr_mipmap_image's mip filter and level-of-detail range included),
// reference counting and queries.
#include "icd/info_query.h"
#include "icd/validation.h"
#include "runtime/context.h"
#include "runtime/sampler.h"

#include <CL/cl_ext.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace weft;
using weft::icd::setError;

namespace {

bool isAddressingMode(cl_ulong mode) {
  switch (mode) {
  case CL_ADDRESS_NONE:
  case CL_ADDRESS_CLAMP_TO_EDGE:
  case CL_ADDRESS_CLAMP:
  case CL_ADDRESS_REPEAT:
  case CL_ADDRESS_MIRRORED_REPEAT:
    return true;
  default:
    return false;
  }
}
bool isFilterMode(cl_ulong mode) {
  return mode == CL_FILTER_NEAREST || mode == CL_FILTER_LINEAR;
}

// A cl_float property: its bits in the value's low 32 bits.
float floatProperty(cl_sampler_properties value) {
  auto bits = static_cast<uint32_t>(static_cast<uint64_t>(value));
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

cl_sampler createSampler(cl_context context_handle, cl_ulong normalized,
                         cl_ulong addressing, cl_ulong filter,
                         cl_ulong mip_filter, const MipSampling &mip,
                         std::vector<cl_sampler_properties> properties,
                         cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    setError(errcode_ret, CL_INVALID_CONTEXT);
    return nullptr;
  }
  // A level-of-detail range is two numbers, the smaller first.
  if ((normalized != CL_TRUE && normalized != CL_FALSE) ||
      !isAddressingMode(addressing) || !isFilterMode(filter) ||
      !isFilterMode(mip_filter) || std::isnan(mip.lod_min) ||
      std::isnan(mip.lod_max) || mip.lod_min > mip.lod_max) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  MipSampling modes = mip;
  modes.filter = static_cast<cl_filter_mode>(mip_filter);
  Sampler *sampler = Sampler::create(
      *context, normalized == CL_TRUE,
      static_cast<cl_addressing_mode>(addressing),
      static_cast<cl_filter_mode>(filter), modes, std::move(properties));
  setError(errcode_ret, sampler ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return sampler;
}

} // namespace

CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSampler(cl_context context, cl_bool normalized_coords,
                cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                cl_int *errcode_ret) {
  return createSampler(context, normalized_coords, addressing_mode, filter_mode,
                       CL_FILTER_NEAREST, MipSampling(), {}, errcode_ret);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *properties,
    cl_int *errcode_ret) {
  // The defaults the spec names for properties left out.
  cl_ulong normalized = CL_TRUE;
  cl_ulong addressing = CL_ADDRESS_CLAMP;
  cl_ulong filter = CL_FILTER_NEAREST;
  // cl_khr_mipmap_image's three.
  cl_ulong mip_filter = CL_FILTER_NEAREST;
  MipSampling mip;
  std::vector<cl_sampler_properties> list;
  if (properties) {
    bool seen[6] = {};
    size_t i = 0;
    for (; properties[i] != 0; i += 2) {
      int which;
      switch (properties[i]) {
      case CL_SAMPLER_NORMALIZED_COORDS:
        which = 0;
        normalized = properties[i + 1];
        break;
      case CL_SAMPLER_ADDRESSING_MODE:
        which = 1;
        addressing = properties[i + 1];
        break;
      case CL_SAMPLER_FILTER_MODE:
        which = 2;
        filter = properties[i + 1];
        break;
      case CL_SAMPLER_MIP_FILTER_MODE_KHR:
        which = 3;
        mip_filter = properties[i + 1];
        break;
      case CL_SAMPLER_LOD_MIN_KHR:
        which = 4;
        mip.lod_min = floatProperty(properties[i + 1]);
        break;
      case CL_SAMPLER_LOD_MAX_KHR:
        which = 5;
        mip.lod_max = floatProperty(properties[i + 1]);
        break;
      default:
        setError(errcode_ret, CL_INVALID_VALUE);
        return nullptr;
      }
      if (seen[which]) {
        setError(errcode_ret, CL_INVALID_VALUE);
        return nullptr;
      }
      seen[which] = true;
    }
    list.assign(properties, properties + i + 1);
  }
  return createSampler(context, normalized, addressing, filter, mip_filter, mip,
                       std::move(list), errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler handle) {
  Sampler *sampler = Sampler::fromHandle(handle);
  if (!sampler)
    return CL_INVALID_SAMPLER;
  sampler->retainApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler handle) {
  Sampler *sampler = Sampler::fromHandle(handle);
  if (!sampler)
    return CL_INVALID_SAMPLER;
  sampler->releaseApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler handle,
                                                 cl_sampler_info param_name,
                                                 size_t param_value_size,
                                                 void *param_value,
                                                 size_t *param_value_size_ret) {
  Sampler *sampler = Sampler::fromHandle(handle);
  if (!sampler)
    return CL_INVALID_SAMPLER;
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  switch (param_name) {
  case CL_SAMPLER_REFERENCE_COUNT:
    return out.value<cl_uint>(sampler->apiReferenceCount());
  case CL_SAMPLER_CONTEXT:
    return out.value(static_cast<cl_context>(&sampler->context()));
  case CL_SAMPLER_NORMALIZED_COORDS:
    return out.value<cl_bool>(sampler->normalizedCoords() ? CL_TRUE : CL_FALSE);
  case CL_SAMPLER_ADDRESSING_MODE:
    return out.value(sampler->addressing());
  case CL_SAMPLER_FILTER_MODE:
    return out.value(sampler->filter());
  case CL_SAMPLER_PROPERTIES:
    return out.array(sampler->properties());
  case CL_SAMPLER_MIP_FILTER_MODE_KHR:
    return out.value(sampler->mipSampling().filter);
  case CL_SAMPLER_LOD_MIN_KHR:
    return out.value<cl_float>(sampler->mipSampling().lod_min);
  case CL_SAMPLER_LOD_MAX_KHR:
    return out.value<cl_float>(sampler->mipSampling().lod_max);
  default:
    return CL_INVALID_VALUE;
  }
}
