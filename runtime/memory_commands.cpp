#include "runtime/memory_commands.h"

#include "device/bulk_memory.h"
#include "runtime/checked_math.h"
#include "runtime/memory.h"

#include <cstring>

namespace weft {

cl_int makeRect(const size_t *origin, const size_t *region, size_t row_pitch,
                size_t slice_pitch, size_t limit, Rect &out) {
  if (!origin || !region || region[0] == 0 || region[1] == 0 || region[2] == 0)
    return CL_INVALID_VALUE;
  if (row_pitch == 0)
    row_pitch = region[0];
  CheckedSize rows = CheckedSize(region[1]) * row_pitch;
  if (!rows.valid())
    return CL_INVALID_VALUE;
  if (slice_pitch == 0)
    slice_pitch = rows.value();
  if (row_pitch < region[0] || slice_pitch < rows.value() ||
      slice_pitch % row_pitch != 0)
    return CL_INVALID_VALUE;
  CheckedSize offset = CheckedSize(origin[0]) +
                       CheckedSize(origin[1]) * row_pitch +
                       CheckedSize(origin[2]) * slice_pitch;
  CheckedSize extent = offset + CheckedSize(region[2] - 1) * slice_pitch +
                       CheckedSize(region[1] - 1) * row_pitch + region[0];
  if (!extent.fitsIn(limit))
    return CL_INVALID_VALUE;
  out = {offset.value(), row_pitch, slice_pitch, extent.value()};
  return CL_SUCCESS;
}

namespace {

// floor(a / b) for b > 0.
int64_t floorDivide(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

} // namespace

bool rectsOverlap(const Rect &a, const Rect &b, const Region &region) {
  // A byte of the region is x + y*R + z*S (x < w, y < h, z < d): the two
  // share one when b - a = dx + dy*R + dz*S with |dx| < w, |dy| < h,
  // |dz| < d. Since w <= R and h*R <= S (makeRect), |dx + dy*R| < S and
  // |dx| < R, so dz can only be floor((b-a)/S) or one more, and dy likewise
  // for what remains over R. Buffers are far smaller than 2^63 bytes.
  const int64_t w = static_cast<int64_t>(region[0]);
  const int64_t h = static_cast<int64_t>(region[1]);
  const int64_t d = static_cast<int64_t>(region[2]);
  const int64_t R = static_cast<int64_t>(a.row_pitch);
  const int64_t S = static_cast<int64_t>(a.slice_pitch);
  const int64_t apart =
      static_cast<int64_t>(b.offset) - static_cast<int64_t>(a.offset);
  for (int64_t dz = floorDivide(apart, S), z_end = dz + 2; dz < z_end; ++dz) {
    if (dz <= -d || dz >= d)
      continue;
    int64_t rest = apart - dz * S;
    for (int64_t dy = floorDivide(rest, R), y_end = dy + 2; dy < y_end; ++dy) {
      if (dy <= -h || dy >= h)
        continue;
      int64_t dx = rest - dy * R;
      if (dx > -w && dx < w)
        return true;
    }
  }
  return false;
}

void copyRect(char *dst, const Rect &dst_rect, const char *src,
              const Rect &src_rect, const Region &region, ThreadPool *helpers) {
  // Every row lies below its rect's extent, which makeRect checked.
  auto rowsOf = [&](const Rect &rect) {
    return RowOffsets{rect.offset, rect.row_pitch, rect.slice_pitch, region[1]};
  };
  copyRows(dst, rowsOf(dst_rect), src, rowsOf(src_rect), region[1] * region[2],
           region[0], helpers);
}

Command readBufferCommand(Memory &memory, size_t offset, size_t size, void *ptr,
                          ThreadPool *helpers) {
  Ref<Memory> source(&memory);
  Command command(CL_COMMAND_READ_BUFFER, [source, offset, size, ptr, helpers] {
    // The host memory may overlap the buffer's own (a CL_MEM_USE_HOST_PTR
    // buffer read into its host_ptr region, which the spec allows):
    // copyBytes then moves them as memmove does.
    copyBytes(ptr, source->data() + offset, size, helpers);
    return CL_SUCCESS;
  });
  command.reads(memory, offset, size);
  return command;
}

Command writeBufferCommand(Memory &memory, size_t offset, size_t size,
                           const void *ptr, ThreadPool *helpers) {
  Ref<Memory> target(&memory);
  Command command(
      CL_COMMAND_WRITE_BUFFER, [target, offset, size, ptr, helpers] {
        copyBytes(target->data() + offset, ptr, size, helpers); // see the read
        return CL_SUCCESS;
      });
  command.writes(memory, offset, size);
  return command;
}

Command copyBufferCommand(Memory &src, size_t src_offset, Memory &dst,
                          size_t dst_offset, size_t size, ThreadPool *helpers) {
  Ref<Memory> source(&src), target(&dst);
  Command command(CL_COMMAND_COPY_BUFFER,
                  [source, target, src_offset, dst_offset, size, helpers] {
                    // Two buffers over overlapping host memory
                    // (CL_MEM_USE_HOST_PTR) may overlap without being the same
                    // buffer or sub-buffers of one (copyBytes then moves).
                    copyBytes(target->data() + dst_offset,
                              source->data() + src_offset, size, helpers);
                    return CL_SUCCESS;
                  });
  command.reads(src, src_offset, size);
  command.writes(dst, dst_offset, size);
  return command;
}

Command fillBufferCommand(Memory &memory, const void *pattern,
                          size_t pattern_size, size_t offset, size_t size,
                          ThreadPool *helpers) {
  Ref<Memory> target(&memory);
  const auto *first = static_cast<const unsigned char *>(pattern);
  std::vector<unsigned char> bytes(first, first + pattern_size);
  Command command(CL_COMMAND_FILL_BUFFER,
                  [target, bytes, offset, size, helpers] {
                    fillBytes(target->data() + offset, size, bytes.data(),
                              bytes.size(), helpers);
                    return CL_SUCCESS;
                  });
  command.writes(memory, offset, size);
  return command;
}

Command readBufferRectCommand(Memory &memory, const Rect &buffer_rect,
                              const Rect &host_rect, const Region &region,
                              void *ptr, ThreadPool *helpers,
                              cl_command_type type) {
  Ref<Memory> source(&memory);
  Command command(type, [source, buffer_rect, host_rect, region, ptr, helpers] {
    copyRect(static_cast<char *>(ptr), host_rect, source->data(), buffer_rect,
             region, helpers);
    return CL_SUCCESS;
  });
  // The rows' bounding range: the bytes between rows are not read, but a
  // scheduler that treats them as read is only more cautious.
  command.reads(memory, buffer_rect.offset,
                buffer_rect.extent - buffer_rect.offset);
  return command;
}

Command writeBufferRectCommand(Memory &memory, const Rect &buffer_rect,
                               const Rect &host_rect, const Region &region,
                               const void *ptr, ThreadPool *helpers,
                               cl_command_type type) {
  Ref<Memory> target(&memory);
  Command command(type, [target, buffer_rect, host_rect, region, ptr, helpers] {
    copyRect(target->data(), buffer_rect, static_cast<const char *>(ptr),
             host_rect, region, helpers);
    return CL_SUCCESS;
  });
  command.writes(memory, buffer_rect.offset,
                 buffer_rect.extent - buffer_rect.offset);
  return command;
}

Command copyBufferRectCommand(Memory &src, const Rect &src_rect, Memory &dst,
                              const Rect &dst_rect, const Region &region,
                              ThreadPool *helpers, cl_command_type type) {
  Ref<Memory> source(&src), target(&dst);
  Command command(type, [source, target, src_rect, dst_rect, region, helpers] {
    copyRect(target->data(), dst_rect, source->data(), src_rect, region,
             helpers);
    return CL_SUCCESS;
  });
  command.reads(src, src_rect.offset, src_rect.extent - src_rect.offset);
  command.writes(dst, dst_rect.offset, dst_rect.extent - dst_rect.offset);
  return command;
}

Command mapBufferCommand(Memory &memory, cl_map_flags flags, size_t offset,
                         size_t size, void *&mapped) {
  memory.addMapping();
  mapped = memory.data() + offset;
  Command command(CL_COMMAND_MAP_BUFFER);
  // The host reads the mapped bytes once the map completes, and writes them
  // until the unmap: a map for writing orders like a write.
  if (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    command.writes(memory, offset, size);
  else
    command.reads(memory, offset, size);
  return command;
}

Command unmapCommand(Memory &memory) {
  Ref<Memory> target(&memory);
  Command command(CL_COMMAND_UNMAP_MEM_OBJECT, [target] {
    target->removeMapping();
    return CL_SUCCESS;
  });
  // The host's writes through the mapping become the object's content here;
  // which bytes the mapping covered is not kept, so the whole object.
  command.writes(memory);
  return command;
}

Command migrateCommand(const std::vector<Memory *> &objects,
                       cl_mem_migration_flags flags) {
  // Host and device share memory: nothing moves. A migration that may drop
  // the content orders like a write, one that keeps it like a read.
  Command command(CL_COMMAND_MIGRATE_MEM_OBJECTS);
  for (Memory *memory : objects) {
    if (flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)
      command.writes(*memory);
    else
      command.reads(*memory);
  }
  return command;
}

} // namespace weft
