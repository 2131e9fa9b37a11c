// Checks shared by many entry points: handles, wait lists, error out-params.
#pragma once
#include "runtime/context.h"
#include "runtime/event.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft::icd {

inline bool isPowerOfTwo(size_t value) {
  return value && !(value & (value - 1));
}

// Whether [pointer, pointer + size) wraps around the address space: no
// memory can be there.
inline bool wrapsAround(const void *pointer, size_t size) {
  return size > UINTPTR_MAX - reinterpret_cast<uintptr_t>(pointer);
}

inline void setError(cl_int *errcode_ret, cl_int code) {
  if (errcode_ret)
    *errcode_ret = code;
}

// Validates an event wait list against `context` and turns it into references.
inline cl_int collectWaitList(Context &context, cl_uint count,
                              const cl_event *events,
                              std::vector<Ref<Event>> &out) {
  if ((count == 0) != (events == nullptr))
    return CL_INVALID_EVENT_WAIT_LIST;
  out.reserve(count);
  for (cl_uint i = 0; i < count; ++i) {
    Event *event = Event::fromHandle(events[i]);
    if (!event)
      return CL_INVALID_EVENT_WAIT_LIST;
    if (&event->context() != &context)
      return CL_INVALID_CONTEXT;
    out.emplace_back(event);
  }
  return CL_SUCCESS;
}

// Hands a command's event to the application if it asked for one. A new
// event starts with one API reference, which becomes the application's.
// A command refused before it was queued (a lost context) has no event.
inline void returnEvent(Ref<Event> &event, cl_event *out) {
  if (out && event) {
    event->retain();
    *out = event.get();
  }
}

} // namespace weft::icd
