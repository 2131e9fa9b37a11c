// A context: the devices it spans (the CPU device, or sub-devices of it, all
// running the same native code), its properties, destructor callbacks, and
// its SVM allocations.
#pragma once
#include "runtime/object.h"
#include "runtime/svm.h"

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

namespace weft {

class Device;
class Queue;

class Context : public Object<_cl_context, ObjectKind::Context> {
public:
  using ErrorCallback = void(CL_CALLBACK *)(const char *, const void *, size_t,
                                            void *);
  using DestructorCallback = void(CL_CALLBACK *)(cl_context, void *);
  // cl_arm_printf's CL_PRINTF_CALLBACK_ARM: receives a launch's printf
  // output instead of stdout; `complete` is 0 when some did not fit.
  using PrintfCallback = void(CL_CALLBACK *)(const char *buffer, size_t length,
                                             size_t complete, void *user_data);

  // `devices`: at least one, without repeats.
  Context(const std::vector<Device *> &devices,
          std::vector<cl_context_properties> properties, ErrorCallback notify,
          void *user_data);
  static Context *fromHandle(cl_context handle) {
    return checkedCast<Context>(handle);
  }

  // The first device: what the context's devices share (the CPU, its
  // limits, the code it runs) is read from it.
  Device &device() const { return *devices_.front(); }
  const std::vector<Ref<Device>> &devices() const { return devices_; }
  std::vector<cl_device_id> deviceHandles() const;
  bool hasDevice(cl_device_id device) const;
  const std::vector<cl_context_properties> &properties() const {
    return properties_;
  }
  void addDestructorCallback(DestructorCallback callback, void *user_data);

  // A kernel of this context faulted or ran out of time
  // (device/kernel_faults.h). Like a GPU driver's lost device, the context
  // takes no more commands (they fail with CL_OUT_OF_RESOURCES) and its
  // error callback, if any, is told why.
  void markLost(const std::string &why);
  bool lost() const { return lost_.load(std::memory_order_acquire); }

  // Bytes of printf output one launch may produce (CL_PRINTF_BUFFERSIZE_ARM,
  // or CL_DEVICE_PRINTF_BUFFER_SIZE).
  size_t printfBufferSize() const { return printf_buffer_size_; }
  // Hands the printf output of a launch of `kernel` to the application:
  // its callback, or stdout in one piece. Calls that did not fit are said
  // on stderr.
  void deliverPrintfOutput(const std::string &text, uint64_t dropped,
                           const char *kernel) const;

  // The allocations clSVMAlloc and the USM allocators made in this context
  // (runtime/svm.h, runtime/usm.h).
  SvmRegistry &svm() { return svm_; }

  // The queues on this context that are still alive, for what must wait
  // for all of its work (clMemBlockingFreeINTEL). A queue adds itself when
  // made and takes itself out as it goes.
  void addQueue(Queue *queue);
  void removeQueue(Queue *queue);
  std::vector<Ref<Queue>> liveQueues();

protected:
  void destroy() override;

private:
  std::vector<Ref<Device>> devices_;
  std::vector<cl_context_properties> properties_; // as given, 0-terminated
  ErrorCallback notify_;
  void *notify_user_data_;
  PrintfCallback printf_callback_ = nullptr;
  size_t printf_buffer_size_;
  std::atomic<bool> lost_{false};
  SvmRegistry svm_; // has its own lock
  std::mutex mutex_;
  // Run in reverse order of registration when the context goes.
  std::vector<std::pair<DestructorCallback, void *>>
      destructors_;             // guarded by mutex_
  std::vector<Queue *> queues_; // guarded by mutex_
};

} // namespace weft
