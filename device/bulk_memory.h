// Copies and fills of host memory for the commands that move bytes
// (clEnqueueReadBuffer, WriteBuffer, CopyBuffer, FillBuffer, their rect and
// SVM variants): at the memory's rate whatever the two addresses are, and on
// the pool's workers too when the bytes are many.
//
// glibc's memcpy slows to a third on some address pairs that every OpenCL
// program meets: a buffer's storage starts on a page, a `malloc`ed or `new`ed
// array 16 bytes into one, and reading 256 MiB from the first into the
// second ran at 4.3-4.8 GB/s on Zen 3 against 15 for other pairs (clpeak's
// enqueueReadBuffer row: Weft 5.0 GB/s, PoCL, whose buffers start 128 bytes
// into a page, 12-14). Its loops for large copies let each load fall on a
// page offset a store just written (4 KiB aliasing). Stores of whole aligned
// vectors past the caches, loads unaligned, run at 15-17 GB/s at every
// offset there.
#pragma once
#include <cstddef>

namespace weft {

class ThreadPool;

// Copies `size` bytes from `src` to `dst`; the two may overlap (then as
// memmove does). With `helpers`, a large copy is shared with its workers.
void copyBytes(void *dst, const void *src, size_t size,
               ThreadPool *helpers = nullptr);

// Repeats the `pattern_size` bytes of `pattern` over the `size` bytes at
// `dst`, `size` a multiple of `pattern_size` (any size: image texels of 3
// or 6 bytes too). With `helpers`, a large fill is shared with its workers.
void fillBytes(void *dst, size_t size, const void *pattern, size_t pattern_size,
               ThreadPool *helpers = nullptr);

// Copies `rows` rows of `row_bytes` each, row r from src + r's offset in
// `src_offsets` to dst + its offset in `dst_offsets` (the rows of a rect
// command, already checked to lie within both sides), each row as
// copyBytes does; the rows are shared with `helpers` when they are many
// bytes in all.
struct RowOffsets {
  size_t first = 0;       // of row 0
  size_t row_pitch = 0;   // between rows of a slice
  size_t slice_pitch = 0; // between slices
  size_t rows_per_slice = 1;
  size_t at(size_t row) const {
    return first + (row / rows_per_slice) * slice_pitch +
           (row % rows_per_slice) * row_pitch;
  }
};
void copyRows(char *dst, const RowOffsets &dst_offsets, const char *src,
              const RowOffsets &src_offsets, size_t rows, size_t row_bytes,
              ThreadPool *helpers = nullptr);

} // namespace weft
