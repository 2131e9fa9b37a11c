// Memory objects. A buffer is host memory the kernels address directly (the
// device is this CPU), so maps return pointers into it and copies are
// memcpy; a sub-buffer is a window onto its parent's storage.
#pragma once
#include "device/image_abi.h"
#include "runtime/object.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace weft {

class Context;

// The host memory an image is created from, in the application's layout.
struct ImageHostMemory {
  void *pointer = nullptr;
  size_t row_pitch = 0;
  size_t slice_pitch = 0; // between slices or layers
};

// cl_ext_buffer_device_address's buffer property and memory query (newer
// than Debian's headers).
constexpr cl_mem_properties kDevicePrivateAddressProperty = 0x5000;
constexpr cl_mem_info kDeviceAddressQuery = 0x5001;
constexpr cl_kernel_exec_info kExecDevicePointers = 0x5002;

class Memory : public Object<_cl_mem, ObjectKind::Memory> {
public:
  using DestructorCallback = void(CL_CALLBACK *)(cl_mem, void *);

  // Allocates (or adopts with CL_MEM_USE_HOST_PTR) the storage of a buffer.
  // Returns null when memory is exhausted.
  static Memory *createBuffer(Context &context, cl_mem_flags flags, size_t size,
                              void *host_ptr,
                              std::vector<cl_mem_properties> properties);
  static Memory *createSubBuffer(Memory &parent, cl_mem_flags flags,
                                 size_t origin, size_t size);
  // A pipe (runtime/pipe.cpp): its storage is a device/pipe_abi.h ring.
  // `listed_properties`: the application passed a (necessarily empty)
  // property list, which CL_PIPE_PROPERTIES then returns as {0}.
  static Memory *createPipe(Context &context, cl_mem_flags flags,
                            cl_uint packet_size, cl_uint max_packets,
                            bool listed_properties);
  // An image (runtime/image.cpp). `desc` has been validated and its pitches
  // resolved; `storage` is the buffer (cl_khr_image2d_from_buffer, a 1-D
  // image buffer) or image (another view of it) whose bytes the image uses,
  // or null for storage of its own, which `host` fills or is
  // (CL_MEM_COPY_HOST_PTR, CL_MEM_USE_HOST_PTR). Null when memory is
  // exhausted.
  static Memory *createImage(Context &context, cl_mem_flags flags,
                             const cl_image_format &format,
                             const cl_image_desc &desc,
                             const ImageHostMemory &host, Memory *storage,
                             std::vector<cl_mem_properties> properties);
  static Memory *fromHandle(cl_mem handle) {
    return checkedCast<Memory>(handle);
  }

  cl_mem_object_type type() const { return type_; }
  bool isPipe() const { return type_ == CL_MEM_OBJECT_PIPE; }
  bool isImage() const {
    return type_ != CL_MEM_OBJECT_BUFFER && type_ != CL_MEM_OBJECT_PIPE;
  }
  // For images: the format, the description with pitches resolved (and
  // mem_object the storage's handle, if any), and what kernels receive.
  const cl_image_format &imageFormat() const { return image_format_; }
  const cl_image_desc &imageDesc() const { return image_desc_; }
  size_t imageElementSize() const { return image_.element_size; }
  const WeftImage &kernelImage() const { return image_; }
  // cl_khr_mipmap_image: the levels (1 without mipmaps), and each level's
  // description (level 0 is the image's own).
  cl_uint imageLevelCount() const {
    return static_cast<cl_uint>(image_.num_mip_levels);
  }
  const WeftImage &imageLevel(cl_uint level) const {
    return mip_levels_.empty() ? image_ : mip_levels_[level];
  }
  cl_uint pipePacketSize() const { return pipe_packet_size_; }
  cl_uint pipeMaxPackets() const { return pipe_max_packets_; }
  Context &context() const { return *context_; }
  cl_mem_flags flags() const { return flags_; }
  size_t size() const { return size_; }
  char *data() const { return data_; }
  void *hostPointer() const { return host_ptr_; }
  // CL_MEM_USES_SVM_POINTER: made with CL_MEM_USE_HOST_PTR over memory from
  // clSVMAlloc (or a sub-buffer of such a buffer).
  bool usesSvmPointer() const { return uses_svm_pointer_; }
  Memory *parent() const { return parent_.get(); }
  size_t offset() const { return offset_; }
  const std::vector<cl_mem_properties> &properties() const {
    return properties_;
  }
  // cl_ext_buffer_device_address: made with
  // CL_MEM_DEVICE_PRIVATE_ADDRESS_EXT (or a sub-buffer of such a buffer).
  // Its storage never moves, so its address is data().
  bool hasDeviceAddress() const {
    return parent_ ? parent_->hasDeviceAddress() : device_address_;
  }
  cl_uint mapCount() const { return map_count_.load(); }
  void addMapping() { ++map_count_; }
  bool removeMapping(); // false if nothing was mapped
  void addDestructorCallback(DestructorCallback callback, void *user_data);

protected:
  void destroy() override;

private:
  Memory(Context &context, cl_mem_flags flags, size_t size);
  // Storage of `bytes` for a buffer or image of its own: sets data_ and
  // allocation_; large ones on huge pages. False when memory is exhausted.
  bool allocateStorage(size_t bytes);
  void releaseStorage(); // what owns_data_ says is this object's
  void listDeviceAddress(); // in the context's registry, if it has one
  ~Memory() override;

  Ref<Context> context_;
  cl_mem_object_type type_ = CL_MEM_OBJECT_BUFFER;
  cl_uint pipe_packet_size_ = 0;
  cl_uint pipe_max_packets_ = 0;
  cl_mem_flags flags_;
  size_t size_;
  char *data_ = nullptr;
  void *host_ptr_ = nullptr; // as given at creation (USE/COPY_HOST_PTR)
  bool owns_data_ = false;
  void *allocation_ = nullptr; // what owns_data_ frees when data_ lies inside
  size_t allocation_bytes_ = 0; // a large block's size (large_storage.h)
  bool uses_svm_pointer_ = false;
  bool device_address_ = false;
  bool listed_in_registry_ = false; // its storage, for the memory checks
  Ref<Memory> parent_;
  size_t offset_ = 0;
  std::vector<cl_mem_properties> properties_;
  cl_image_format image_format_ = {};
  cl_image_desc image_desc_ = {};
  WeftImage image_ = {};
  // Set once at creation (image_.mip_levels points at it); empty without
  // mipmaps.
  std::vector<WeftImage> mip_levels_;
  std::atomic<cl_uint> map_count_{0};
  std::mutex mutex_;
  std::vector<std::pair<DestructorCallback, void *>> destructors_; // by mutex_
};

} // namespace weft
