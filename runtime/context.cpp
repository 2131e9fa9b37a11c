#include "runtime/context.h"

#include "runtime/device.h"
#include "runtime/device_features.h"
#include "runtime/queue.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <cstdio>

namespace weft {

Context::Context(const std::vector<Device *> &devices,
                 std::vector<cl_context_properties> properties,
                 ErrorCallback notify, void *user_data)
    : properties_(std::move(properties)), notify_(notify),
      notify_user_data_(user_data), printf_buffer_size_(kPrintfBufferSize) {
  for (Device *device : devices)
    devices_.emplace_back(device);
  for (size_t i = 0; i + 1 < properties_.size(); i += 2) {
    if (properties_[i] == CL_PRINTF_CALLBACK_ARM)
      printf_callback_ = reinterpret_cast<PrintfCallback>(properties_[i + 1]);
    if (properties_[i] == CL_PRINTF_BUFFERSIZE_ARM)
      printf_buffer_size_ = static_cast<size_t>(properties_[i + 1]);
  }
}

void Context::deliverPrintfOutput(const std::string &text, uint64_t dropped,
                                  const char *kernel) const {
  if (printf_callback_) {
    printf_callback_(text.data(), text.size(), dropped == 0, notify_user_data_);
  } else if (!text.empty()) {
    // One write for the launch: output of launches finishing on other
    // queues does not land inside it.
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  if (dropped)
    std::fprintf(stderr,
                 "weft: kernel '%s': %llu printf call%s dropped, its printf "
                 "buffer of %zu bytes was full (CL_PRINTF_BUFFERSIZE_ARM "
                 "sets its size)\n",
                 kernel, static_cast<unsigned long long>(dropped),
                 dropped == 1 ? "" : "s", printf_buffer_size_);
}

std::vector<cl_device_id> Context::deviceHandles() const {
  std::vector<cl_device_id> handles;
  for (const Ref<Device> &device : devices_)
    handles.push_back(device.get());
  return handles;
}

bool Context::hasDevice(cl_device_id device) const {
  for (const Ref<Device> &member : devices_)
    if (member.get() == static_cast<Device *>(device))
      return true;
  return false;
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

void Context::addQueue(Queue *queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  queues_.push_back(queue);
}

void Context::removeQueue(Queue *queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  queues_.erase(std::remove(queues_.begin(), queues_.end(), queue),
                queues_.end());
}

std::vector<Ref<Queue>> Context::liveQueues() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Ref<Queue>> live;
  // A queue whose last reference went is on its way out (its destroy()
  // waits for this lock to take itself out): skipped.
  for (Queue *queue : queues_)
    if (queue->tryRetain())
      live.emplace_back(queue, /*adopt=*/true);
  return live;
}

void Context::markLost(const std::string &why) {
  if (lost_.exchange(true, std::memory_order_acq_rel))
    return;
  if (notify_)
    notify_(why.c_str(), nullptr, 0, notify_user_data_);
}

} // namespace weft
