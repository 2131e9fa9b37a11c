// A kernel launch in a command buffer that may change after the buffer is
// finalized (cl_khr_command_buffer_mutable_dispatch): what it was recorded
// with, so an update can build the launch again with some of it changed.
// Its kernel is a clone of the application's, holding the arguments the
// command runs with. The command buffer owns it (and its handle dies with
// the buffer).
#pragma once
#include "runtime/kernel.h"
#include "runtime/object.h"

#include <cstddef>
#include <vector>

namespace weft {

class CommandBuffer;

struct DispatchShape {
  cl_uint work_dim = 1;
  size_t offset[3] = {0, 0, 0};
  size_t global[3] = {1, 1, 1};
  size_t local[3] = {0, 0, 0};
  bool has_offset = false, has_local = false;
};

class MutableCommand
    : public Object<_cl_mutable_command_khr, ObjectKind::MutableCommand> {
public:
  MutableCommand(CommandBuffer &buffer, size_t index, Kernel &recorded,
                 Ref<Kernel> kernel, DispatchShape shape, cl_bitfield updatable,
                 std::vector<cl_properties> properties)
      : buffer_(buffer), index_(index), recorded_(&recorded),
        kernel_(std::move(kernel)), shape_(shape), updatable_(updatable),
        properties_(std::move(properties)) {}
  static MutableCommand *fromHandle(cl_mutable_command_khr handle) {
    return checkedCast<MutableCommand>(handle);
  }

  CommandBuffer &buffer() const { return buffer_; }
  size_t index() const { return index_; }
  // The kernel the application recorded (CL_MUTABLE_DISPATCH_KERNEL_KHR).
  Kernel &recordedKernel() const { return *recorded_; }
  // Updates are made by one thread at a time (the spec leaves concurrent
  // updates of one command buffer to the application).
  const Ref<Kernel> &kernel() const { return kernel_; }
  const DispatchShape &shape() const { return shape_; }
  cl_bitfield updatable() const { return updatable_; }
  const std::vector<cl_properties> &properties() const { return properties_; }
  void update(Ref<Kernel> kernel, const DispatchShape &shape) {
    kernel_ = std::move(kernel);
    shape_ = shape;
  }

private:
  CommandBuffer &buffer_;
  const size_t index_;
  const Ref<Kernel> recorded_;
  Ref<Kernel> kernel_;
  DispatchShape shape_;
  const cl_bitfield updatable_;
  const std::vector<cl_properties> properties_; // as given, 0-terminated
};

} // namespace weft
