// The one Weft platform, which owns nothing but the root device's handle.
#include "runtime/platform.h"

#include "runtime/device.h"

namespace weft {

Platform &Platform::instance() {
  // Never destroyed: the loader keeps the handle until the process exits.
  static Platform *platform = new Platform();
  return *platform;
}

// Every extension of the one device is, by definition, on all its devices.
Platform::Platform() : extensions_(Device::instance().extensionString()) {}

Device &Platform::device() { return Device::instance(); }

} // namespace weft
