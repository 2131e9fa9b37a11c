// Storage of large buffers (2 MiB and more, on huge pages) kept for reuse
// once released, as glibc does for small ones.
//
// Libraries make temporary buffers per call: CLBlast's GEMM allocates the
// transposed or padded copies of its matrices on every call and releases
// them after. Freed, a large block goes back to the kernel (munmap), and
// the next call's first writes fault every page in again and wait while
// the kernel clears it: on the 16-core Xeon, TransposeMatrixFast into a
// fresh 16 MiB buffer took 2.1-3.7 ms in SGEMM 2048 against 0.65 into a
// buffer already written (SOMATCOPY). Blocks released are kept, up to a
// bound, and handed out again to a buffer of the same size. A buffer's
// contents are undefined until written (the OpenCL API's clCreateBuffer),
// so a reused block is not cleared.
#pragma once
#include <cstddef>

namespace weft {

// Blocks kept at most, and bytes: past either, the oldest goes back.
inline constexpr size_t kKeptLargeBlocks = 8;
inline constexpr size_t kKeptLargeBytes = size_t(512) << 20;
// Under AddressSanitizer nothing is kept, so that a buffer used after its
// release is still caught.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kKeepsLargeBlocks = false;
#else
inline constexpr bool kKeepsLargeBlocks = true;
#endif

// A block of `bytes` (a multiple of `alignment`), aligned to `alignment`:
// a kept one of exactly that size, else a fresh one (asked for huge
// pages). Null when memory is exhausted.
void *takeLargeStorage(size_t bytes, size_t alignment);

// Gives back a block takeLargeStorage returned, with its size: kept for
// reuse or freed.
void giveBackLargeStorage(void *block, size_t bytes);

// Blocks kept now, and their bytes (for tests).
size_t keptLargeBlocks();
size_t keptLargeBytes();

} // namespace weft
