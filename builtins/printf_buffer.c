// Room for printf's records in the launch's buffer (device/printf_abi.h).
// compiler/passes/prepare/printf_lowering.cpp turns each printf call into a
// call of
// __weft_printf_reserve and the stores of one record; the host formats the
// records after the launch. Written in C because it works on the launch ABI's
// structures.
#include "device/printf_abi.h"

#include <stdint.h>

// Returns `bytes` of the buffer for one record, or null (and counts the
// call as dropped) when they do not fit. Work-items of every thread reserve
// with one atomic add, so each record lands whole and a work-item's records
// keep the order of its calls.
void *__weft_printf_reserve(struct PrintfBuffer *buffer, uint64_t bytes) {
  uint64_t at = __atomic_fetch_add(&buffer->used, bytes, __ATOMIC_RELAXED);
  if (at > buffer->capacity || bytes > buffer->capacity - at) {
    __atomic_fetch_add(&buffer->dropped, 1, __ATOMIC_RELAXED);
    return 0;
  }
  return buffer->records + at;
}
