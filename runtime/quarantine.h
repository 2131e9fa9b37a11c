// Released OpenCL objects are not handed back to the allocator at once. An
// application that uses a handle after releasing it (clReleaseMemObject
// twice, say) goes through the ICD loader, which reads the handle's first
// word as its dispatch table before Weft sees the call: were the memory
// freed, that read would crash or jump anywhere. Kept in quarantine, the
// memory still holds Weft's dispatch table and a dead magic value, so the
// call reaches Weft and gets CL_INVALID_<OBJECT>. The quarantine holds the
// last kQuarantinedObjects released objects (a few hundred bytes each, at
// most about 2 MiB in all; the buffers' data are freed when the object is
// destroyed) and frees the
// oldest as new ones arrive, so nothing grows without bound.
#pragma once
#include <cstddef>

namespace weft {

inline constexpr size_t kQuarantinedObjects = 4096;

// Takes `block` (its object already destroyed) into quarantine, after
// writing `dispatch` into the word at `handle` and `dead_magic` into the 32
// bits at `magic`; `deallocate` frees it when it leaves.
void quarantine(void *block, void *handle, const void *dispatch, void *magic,
                unsigned dead_magic, void (*deallocate)(void *));

} // namespace weft
