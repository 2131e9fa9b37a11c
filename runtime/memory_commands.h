// The buffer commands (read, write, copy, fill, their rect variants, map,
// unmap, migrate) as Command records, and the geometry they share. icd/
// validates the handles and flags, then builds the command here and queues
// it (Queue::submit).
#pragma once
#include "runtime/command.h"

#include <array>

namespace weft {

class Memory;
class ThreadPool;

// Width in bytes, height in rows, depth in slices.
using Region = std::array<size_t, 3>;

// One side of a clEnqueue*BufferRect: where its region starts and how rows
// and slices are laid out, once the pitches are defaulted and checked.
struct Rect {
  size_t offset = 0; // of the region's first byte
  size_t row_pitch = 0;
  size_t slice_pitch = 0;
  size_t extent = 0; // one past the region's last byte
};

// Checks an origin, region and pitches of clEnqueue*BufferRect (zero pitches
// take their defaults) and that the region ends within `limit` bytes (the
// buffer's size; SIZE_MAX on the host's side). CL_INVALID_VALUE for null
// pointers, empty regions, pitches too small or uneven, a region past the
// limit, and any offset or extent that does not fit in size_t.
cl_int makeRect(const size_t *origin, const size_t *region, size_t row_pitch,
                size_t slice_pitch, size_t limit, Rect &out);

// Whether two regions of one buffer, both `region` large and laid out with
// the same pitches, share a byte (clEnqueueCopyBufferRect's
// CL_MEM_COPY_OVERLAP). Their byte spans may interleave without touching:
// rows of one can fall in the gaps between rows of the other.
bool rectsOverlap(const Rect &a, const Rect &b, const Region &region);

// Copies `region` from `src` laid out as `src_rect` to `dst` laid out as
// `dst_rect`, row by row (rows that overlap as memmove does), sharing many
// bytes' rows with `helpers` (device/bulk_memory.h).
void copyRect(char *dst, const Rect &dst_rect, const char *src,
              const Rect &src_rect, const Region &region,
              ThreadPool *helpers = nullptr);

// The commands. Each holds references to its memory objects and copies of
// small inputs (the fill pattern), so the application may release them once
// queued; host pointers are the application's to keep valid (the spec's
// rule). `helpers`, the pool of the queue's device, shares large copies and
// fills with its workers (device/bulk_memory.h); without, one thread moves
// the bytes.
Command readBufferCommand(Memory &memory, size_t offset, size_t size, void *ptr,
                          ThreadPool *helpers = nullptr);
Command writeBufferCommand(Memory &memory, size_t offset, size_t size,
                           const void *ptr, ThreadPool *helpers = nullptr);
Command copyBufferCommand(Memory &src, size_t src_offset, Memory &dst,
                          size_t dst_offset, size_t size,
                          ThreadPool *helpers = nullptr);
Command fillBufferCommand(Memory &memory, const void *pattern,
                          size_t pattern_size, size_t offset, size_t size,
                          ThreadPool *helpers = nullptr);
// The rect commands also move image regions (runtime/image_commands.h),
// under the image commands' types.
Command
readBufferRectCommand(Memory &memory, const Rect &buffer_rect,
                      const Rect &host_rect, const Region &region, void *ptr,
                      ThreadPool *helpers = nullptr,
                      cl_command_type type = CL_COMMAND_READ_BUFFER_RECT);
Command
writeBufferRectCommand(Memory &memory, const Rect &buffer_rect,
                       const Rect &host_rect, const Region &region,
                       const void *ptr, ThreadPool *helpers = nullptr,
                       cl_command_type type = CL_COMMAND_WRITE_BUFFER_RECT);
Command
copyBufferRectCommand(Memory &src, const Rect &src_rect, Memory &dst,
                      const Rect &dst_rect, const Region &region,
                      ThreadPool *helpers = nullptr,
                      cl_command_type type = CL_COMMAND_COPY_BUFFER_RECT);
// Counts the mapping now and sets `mapped`: the device works in host memory,
// so the mapping is the storage itself (for CL_MEM_USE_HOST_PTR, the
// application's own pointer) and the command moves nothing.
Command mapBufferCommand(Memory &memory, cl_map_flags flags, size_t offset,
                         size_t size, void *&mapped);
Command unmapCommand(Memory &memory);
Command migrateCommand(const std::vector<Memory *> &objects,
                       cl_mem_migration_flags flags);

} // namespace weft
