// Platform entry points: there is one platform, Weft's.
#include "device/clock.h"
#include "icd/info_query.h"
#include "runtime/device.h"
#include "runtime/device_features.h"
#include "runtime/platform.h"

#include <CL/cl_ext.h>

using weft::Platform;
using weft::icd::InfoWriter;

namespace {

cl_int platformInfo(const Platform &platform, cl_platform_info param,
                    InfoWriter &out) {
  switch (param) {
  case CL_PLATFORM_PROFILE:
    return out.string(Platform::kProfile);
  case CL_PLATFORM_VERSION:
    return out.string(Platform::kVersion);
  case CL_PLATFORM_NUMERIC_VERSION:
    return out.value<cl_version>(Platform::kNumericVersion);
  case CL_PLATFORM_NAME:
    return out.string(Platform::kName);
  case CL_PLATFORM_VENDOR:
    return out.string(Platform::kVendor);
  case CL_PLATFORM_EXTENSIONS:
    return out.string(platform.extensions());
  // The platform's one device's extensions (Platform::extensions()).
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
    return out.array(weft::Device::instance().extensionsWithVersion());
  case CL_PLATFORM_HOST_TIMER_RESOLUTION:
    return out.value<cl_ulong>(weft::monotonicResolutionNanoseconds());
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    return out.string(Platform::kIcdSuffix);
  default:
    return CL_INVALID_VALUE;
  }
}

} // namespace

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries,
                                                 cl_platform_id *platforms,
                                                 cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
    return CL_INVALID_VALUE;
  if (platforms)
    platforms[0] = &Platform::instance();
  if (num_platforms)
    *num_platforms = 1;
  return CL_SUCCESS;
}

// Exported as well: ocl-icd looks it up by name when it loads the driver.
CL_API_ENTRY __attribute__((visibility("default"))) cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                  size_t param_value_size, void *param_value,
                  size_t *param_value_size_ret) {
  // The spec leaves a NULL platform to the implementation; Weft has one.
  Platform *target =
      platform ? Platform::fromHandle(platform) : &Platform::instance();
  if (!target)
    return CL_INVALID_PLATFORM;
  InfoWriter out(param_value_size, param_value, param_value_size_ret);
  return platformInfo(*target, param_name, out);
}
