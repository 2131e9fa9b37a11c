// Pipe memory objects: one allocation holding the ring the kernels' pipe
// builtins work on (device/pipe_abi.h). The host never reads or writes
// packets; kernels reach the pipe through its address in the argument block.
#include "device/pipe_abi.h"
#include "runtime/memory.h"

#include <cstdlib>
#include <new>

namespace weft {

Memory *Memory::createPipe(Context &context, cl_mem_flags flags,
                           cl_uint packet_size, cl_uint max_packets,
                           bool listed_properties) {
  uint64_t bytes = weft_pipe_allocation_size(packet_size, max_packets);
  auto *memory = new (std::nothrow) Memory(context, flags, bytes);
  if (!memory)
    return nullptr;
  memory->type_ = CL_MEM_OBJECT_PIPE;
  memory->pipe_packet_size_ = packet_size;
  memory->pipe_max_packets_ = max_packets;
  if (listed_properties)
    memory->properties_ = {0};
  uint64_t rounded =
      (bytes + WEFT_PIPE_ALIGNMENT - 1) & ~uint64_t(WEFT_PIPE_ALIGNMENT - 1);
  memory->data_ =
      static_cast<char *>(std::aligned_alloc(WEFT_PIPE_ALIGNMENT, rounded));
  if (!memory->data_) {
    delete memory;
    return nullptr;
  }
  memory->owns_data_ = true;
  weft_pipe_init(memory->data_, packet_size, max_packets);
  return memory;
}

} // namespace weft
