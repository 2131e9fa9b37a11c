#include "runtime/context.h"

#include "runtime/device.h"

namespace weft {

Context::Context(Device &device, std::vector<cl_context_properties> properties,
                 ErrorCallback notify, void *user_data)
    : device_(device), properties_(std::move(properties)), notify_(notify),
      notify_user_data_(user_data) {}

bool Context::hasDevice(cl_device_id device) const {
  return static_cast<Device *>(device) == &device_;
}

void Context::addDestructorCallback(DestructorCallback callback,
                                    void *user_data) {
  std::lock_guard<std::mutex> lock(mutex_);
  destructors_.emplace_back(callback, user_data);
}

void Context::destroy() {
  for (auto it = destructors_.rbegin(); it != destructors_.rend(); ++it)
    it->first(this, it->second);
  Object::destroy();
}

void Context::markLost(const std::string &why) {
  if (lost_.exchange(true, std::memory_order_acq_rel))
    return;
  if (notify_)
    notify_(why.c_str(), nullptr, 0, notify_user_data_);
}

} // namespace weft
