// The one Weft platform. It lives for the whole process: the loader keeps
// the handle, so it is never destroyed.
#pragma once
#include "runtime/object.h"

#include <string>

namespace weft {

class Device;

class Platform : public Object<_cl_platform_id, ObjectKind::Platform> {
public:
  static Platform &instance();
  static Platform *fromHandle(cl_platform_id handle) {
    return checkedCast<Platform>(handle);
  }

  Device &device();
  const std::string &extensions() const { return extensions_; }
  // cl_khr_icd is required by the loader; the rest mirrors the device.
  static constexpr const char *kName = "Weft";
  static constexpr const char *kVendor = "Weft";
  static constexpr const char *kIcdSuffix = "WEFT";
  static constexpr const char *kProfile = "FULL_PROFILE";
  static constexpr const char *kVersion = "OpenCL 3.0 Weft";
  static constexpr cl_version kNumericVersion = CL_MAKE_VERSION(3, 0, 0);

private:
  Platform();
  std::string extensions_;
};

} // namespace weft
